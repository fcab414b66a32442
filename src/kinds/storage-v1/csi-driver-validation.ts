import { isDeepStrictEqual } from 'node:util';
import { type FieldError, fieldError, GoLiteral } from '../../api/errors.js';
import { type KubeObject, objects } from '../../api/types.js';
import { list, text } from '../../tables/object-fields.js';
import { specOf } from '../../api/json-fields.js';

/**
 * CSIDriver validation of pkg/apis/storage/validation (validateCSIDriverSpec, ValidateCSIDriverUpdate): the
 * flags the defaults fill, the policy and lifecycle modes Kubernetes knows, token requests with unique audiences
 * and a lifetime between ten minutes and 2^32 seconds.
 */

/** Sorted, as Kubernetes lists the supported values. */
const FS_GROUP_POLICIES = ['File', 'None', 'ReadWriteOnceWithFSType'];
const LIFECYCLE_MODES = ['Ephemeral', 'Persistent'];
const MIN_TOKEN_SECONDS = 600;
const MAX_TOKEN_SECONDS = 2 ** 32;

/** validateTokenRequests: a repeated audience is reported once and its lifetime not checked. */
function validateTokenRequests(requests: unknown): FieldError[] {
  const errs: FieldError[] = [];
  const audiences = new Set<string>();
  objects(requests).forEach((request, i) => {
    const path = `spec.tokenRequests[${i}]`;
    const audience = typeof request.audience === 'string' ? request.audience : '';
    if (audiences.has(audience)) {
      errs.push(fieldError.duplicate(`${path}.audience`, audience));
      return;
    }
    audiences.add(audience);
    const seconds = request.expirationSeconds;
    if (typeof seconds !== 'number') return;
    if (seconds < MIN_TOKEN_SECONDS)
      errs.push(fieldError.invalid(`${path}.expirationSeconds`, seconds, 'may not specify a duration less than 10 minutes'));
    if (seconds > MAX_TOKEN_SECONDS)
      errs.push(fieldError.invalid(`${path}.expirationSeconds`, seconds, 'may not specify a duration larger than 2^32 seconds'));
  });
  return errs;
}

/** validateCSIDriverSpec. */
export function validateCSIDriver(driver: KubeObject): FieldError[] {
  const spec = specOf(driver);
  const errs: FieldError[] = [];
  for (const key of ['attachRequired', 'podInfoOnMount', 'storageCapacity']) {
    if (typeof spec[key] !== 'boolean') errs.push(fieldError.required(`spec.${key}`));
  }
  const policy = spec.fsGroupPolicy;
  if (typeof policy === 'string' && !FS_GROUP_POLICIES.includes(policy)) {
    errs.push(fieldError.notSupported('spec.fsGroupPolicy', policy, FS_GROUP_POLICIES));
  }
  errs.push(...validateTokenRequests(spec.tokenRequests));
  for (const mode of list(spec.volumeLifecycleModes)) {
    if (typeof mode !== 'string' || !LIFECYCLE_MODES.includes(mode)) {
      errs.push(fieldError.notSupported('spec.volumeLifecycleModes', mode, LIFECYCLE_MODES));
    }
  }
  return errs;
}

/** ValidateCSIDriverUpdate: attachRequired and the lifecycle modes are fixed once created. */
export function validateCSIDriverUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  const errs = validateCSIDriver(next);
  const nextSpec = specOf(next);
  const oldSpec = specOf(old);
  if (nextSpec.attachRequired !== oldSpec.attachRequired) {
    errs.push(fieldError.invalid('spec.attachRequired', nextSpec.attachRequired ?? null, 'field is immutable'));
  }
  if (!isDeepStrictEqual(nextSpec.volumeLifecycleModes, oldSpec.volumeLifecycleModes)) {
    const modes = list(nextSpec.volumeLifecycleModes).map((m) => JSON.stringify(text(m)));
    errs.push(
      fieldError.invalid(
        'spec.volumeLifecycleModes',
        new GoLiteral(`[]storage.VolumeLifecycleMode{${modes.join(', ')}}`),
        'field is immutable',
      ),
    );
  }
  return errs;
}
