import { type FieldError, fieldError } from '../../../../api/errors.js';
import { isObject } from '../../../../api/types.js';
import { localDescendingPath, type Obj } from './common.js';
import { allContainers } from './os-rules.js';
import { asObject, text } from '../../../../api/json-fields.js';

/** Annotations with meaning for pods (ValidatePodSpecificAnnotations and the seccomp/AppArmor consistency checks). */

export const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';
const DELETION_COST = 'controller.kubernetes.io/pod-deletion-cost';
const DELETION_COST_RE = /^(-[0-9]+|0|[1-9][0-9]*)$/;
const SECCOMP_POD = 'seccomp.security.alpha.kubernetes.io/pod';
const SECCOMP_CONTAINER_PREFIX = 'container.seccomp.security.alpha.kubernetes.io/';
export const APPARMOR_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';

export const annotationsOf = (meta: unknown): Record<string, string> => {
  const annotations = isObject(meta) ? meta.annotations : undefined;
  const out: Record<string, string> = {};
  if (isObject(annotations)) for (const [k, v] of Object.entries(annotations)) if (typeof v === 'string') out[k] = v;
  return out;
};

/** helper.GetDeletionCostFromPodAnnotations: a 32-bit integer without sign or leading zeros. */
export function isValidDeletionCost(value: string): boolean {
  if (!DELETION_COST_RE.test(value)) return false;
  const n = Number(value);
  return Number.isInteger(n) && n >= -2147483648 && n <= 2147483647;
}

/** ValidateSeccompProfile for the deprecated annotations. */
function seccompAnnotation(value: string, path: string): FieldError[] {
  if (value === 'runtime/default' || value === 'docker/default' || value === 'unconfined') return [];
  if (value.startsWith('localhost/')) return localDescendingPath(value.slice('localhost/'.length), path);
  return [fieldError.invalid(path, value, 'must be a valid seccomp profile')];
}

function appArmorFormat(value: string): string | undefined {
  if (value === '' || value === 'runtime/default' || value === 'unconfined' || value.startsWith('localhost/')) return undefined;
  return `invalid AppArmor profile name: ${JSON.stringify(value)}`;
}

/** ValidatePodSpecificAnnotations; `path` is "metadata.annotations" or "<template>.annotations". */
export function validatePodSpecificAnnotations(
  annotations: Record<string, string>,
  spec: Obj,
  path: string,
  allowInvalidDeletionCost: boolean,
): FieldError[] {
  const errs: FieldError[] = [];
  const mirror = annotations[MIRROR_POD_ANNOTATION];
  if (mirror !== undefined && text(spec.nodeName) === '') {
    errs.push(fieldError.invalid(`${path}[${MIRROR_POD_ANNOTATION}]`, mirror, 'must set spec.nodeName if mirror pod annotation is set'));
  }
  const cost = annotations[DELETION_COST];
  if (!allowInvalidDeletionCost && cost !== undefined && !isValidDeletionCost(cost)) {
    errs.push(fieldError.invalid(`${path}[${DELETION_COST}]`, cost, 'must be a 32bit integer'));
  }
  const seccompPod = annotations[SECCOMP_POD];
  if (seccompPod !== undefined) errs.push(...seccompAnnotation(seccompPod, `${path}.${SECCOMP_POD}`));
  for (const [key, value] of Object.entries(annotations)) {
    if (key.startsWith(SECCOMP_CONTAINER_PREFIX)) errs.push(...seccompAnnotation(value, `${path}.${key}`));
  }
  let names: Set<string> | undefined;
  for (const [key, value] of Object.entries(annotations)) {
    if (!key.startsWith(APPARMOR_PREFIX)) continue;
    names ??= new Set(allContainers(spec, 'spec').map(([c]) => text(c.name)));
    const container = key.slice(APPARMOR_PREFIX.length);
    if (!names.has(container)) errs.push(fieldError.invalid(`${path}[${key}]`, container, 'container not found'));
    const formatError = appArmorFormat(value);
    if (formatError !== undefined) errs.push(fieldError.invalid(`${path}[${key}]`, value, formatError));
  }
  return errs;
}

/** The type a seccomp annotation value names, for the annotation/field consistency check. */
function seccompMismatch(annotation: string, profile: Obj, path: string): FieldError | undefined {
  switch (profile.type) {
    case 'Unconfined':
      return annotation === 'unconfined'
        ? undefined
        : fieldError.forbidden(`${path}.type`, 'seccomp type in annotation and field must match');
    case 'RuntimeDefault':
      return annotation === 'runtime/default' || annotation === 'docker/default'
        ? undefined
        : fieldError.forbidden(`${path}.type`, 'seccomp type in annotation and field must match');
    case 'Localhost':
      if (!annotation.startsWith('localhost/'))
        return fieldError.forbidden(`${path}.type`, 'seccomp type in annotation and field must match');
      return annotation.slice('localhost/'.length) === profile.localhostProfile
        ? undefined
        : fieldError.forbidden(`${path}.localhostProfile`, 'seccomp profile in annotation and field must match');
    default:
      return undefined;
  }
}

/** validateSeccompAnnotationsAndFields: where both an annotation and a field are given, they must agree. */
export function validateSeccompAnnotationsAndFields(annotations: Record<string, string>, spec: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!Object.keys(annotations).some((k) => k === SECCOMP_POD || k.startsWith(SECCOMP_CONTAINER_PREFIX))) return errs;
  const podProfile = asObject(asObject(spec.securityContext)?.seccompProfile);
  const podAnnotation = annotations[SECCOMP_POD];
  if (podProfile !== undefined && podAnnotation !== undefined) {
    const e = seccompMismatch(podAnnotation, podProfile, `${path}.securityContext.seccompProfile`);
    if (e !== undefined) errs.push(e);
  }
  for (const [container, at] of allContainers(spec, path)) {
    const profile = asObject(asObject(container.securityContext)?.seccompProfile);
    const annotation = annotations[`${SECCOMP_CONTAINER_PREFIX}${text(container.name)}`];
    if (profile === undefined || annotation === undefined) continue;
    const e = seccompMismatch(annotation, profile, `${at}.securityContext.seccompProfile`);
    if (e !== undefined) errs.push(e);
  }
  return errs;
}

/** validateAppArmorAnnotationsAndFieldsMatchOnCreate: a container's annotation and its effective profile agree. */
export function validateAppArmorAnnotationsAndFields(annotations: Record<string, string>, spec: Obj, path: string): FieldError[] {
  if (text(asObject(spec.os)?.name) === 'windows') return [];
  if (!Object.keys(annotations).some((k) => k.startsWith(APPARMOR_PREFIX))) return [];
  const errs: FieldError[] = [];
  const podProfile = asObject(asObject(spec.securityContext)?.appArmorProfile);
  for (const [container, at] of allContainers(spec, path)) {
    const profile = asObject(asObject(container.securityContext)?.appArmorProfile) ?? podProfile;
    const annotation = annotations[`${APPARMOR_PREFIX}${text(container.name)}`];
    if (profile === undefined || annotation === undefined) continue;
    const profilePath = `${at}.securityContext.appArmorProfile`;
    const typeMismatch = fieldError.forbidden(`${profilePath}.type`, 'apparmor type in annotation and field must match');
    if (profile.type === 'Unconfined' && annotation !== 'unconfined') errs.push(typeMismatch);
    else if (profile.type === 'RuntimeDefault' && annotation !== 'runtime/default') errs.push(typeMismatch);
    else if (profile.type === 'Localhost') {
      if (!annotation.startsWith('localhost/')) errs.push(typeMismatch);
      else if (annotation.slice('localhost/'.length) !== profile.localhostProfile) {
        errs.push(fieldError.forbidden(`${profilePath}.localhostProfile`, 'apparmor profile in annotation and field must match'));
      }
    }
  }
  return errs;
}
