import { isDeepStrictEqual } from 'node:util';
import { type FieldError, fieldError } from '../../api/errors.js';
import { isObject, type KubeObject, objects } from '../../api/types.js';
import { isQualifiedName } from '../../validation/names.js';

/**
 * StorageClass validation of pkg/apis/storage/validation (ValidateStorageClass, …Update): provisioner,
 * parameters, reclaim policy, binding mode and allowed topologies; what an update may not change.
 */

const RECLAIM_POLICIES = ['Delete', 'Retain'];
const BINDING_MODES = ['Immediate', 'WaitForFirstConsumer'];
const MAX_PROVISIONER_LENGTH = 63;
const MAX_PARAMETERS_BYTES = 256 * 1024;
const MAX_PARAMETERS = 512;

function validateProvisioner(provisioner: unknown): FieldError[] {
  const value = typeof provisioner === 'string' ? provisioner : '';
  if (value === '') return [fieldError.required('provisioner')];
  if (value.length > MAX_PROVISIONER_LENGTH) return [fieldError.tooLong('provisioner', MAX_PROVISIONER_LENGTH)];
  return isQualifiedName(value.toLowerCase()).map((msg) => fieldError.invalid('provisioner', value, msg));
}

function validateParameters(parameters: unknown): FieldError[] {
  if (!isObject(parameters)) return [];
  const entries = Object.entries(parameters);
  if (entries.length > MAX_PARAMETERS) {
    return [
      {
        type: 'FieldValueTooMany',
        field: 'parameters',
        value: entries.length,
        detail: `must have at most ${MAX_PARAMETERS} items`,
        hasValue: true,
      },
    ];
  }
  let bytes = 0;
  const errs: FieldError[] = [];
  for (const [key, value] of entries) {
    if (key === '') errs.push(fieldError.invalid('parameters', key, 'field can not be empty.'));
    bytes += Buffer.byteLength(key) + (typeof value === 'string' ? Buffer.byteLength(value) : 0);
  }
  if (bytes > MAX_PARAMETERS_BYTES) errs.push(fieldError.tooLong('parameters', MAX_PARAMETERS_BYTES));
  return errs;
}

/** ValidateStorageClass: the checks on a whole class, after defaulting. */
export function validateStorageClass(sc: KubeObject): FieldError[] {
  const errs = [...validateProvisioner(sc.provisioner), ...validateParameters(sc.parameters)];
  const policy = sc.reclaimPolicy;
  if (typeof policy === 'string' && policy !== '' && !RECLAIM_POLICIES.includes(policy)) {
    errs.push(fieldError.notSupported('reclaimPolicy', policy, RECLAIM_POLICIES));
  }
  const mode = sc.volumeBindingMode;
  if (typeof mode !== 'string') errs.push(fieldError.required('volumeBindingMode'));
  else if (!BINDING_MODES.includes(mode)) errs.push(fieldError.notSupported('volumeBindingMode', mode, BINDING_MODES));
  errs.push(...validateAllowedTopologies(sc.allowedTopologies));
  return errs;
}

/** ValidateStorageClass, then ValidateStorageClassUpdate: only metadata, mount options, expansion and topologies may change. */
export function validateStorageClassUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  const errs = validateStorageClass(next);
  const emptyAsNull = (m: unknown): unknown => (isObject(m) && Object.keys(m).length === 0 ? undefined : m);
  if (!isDeepStrictEqual(emptyAsNull(next.parameters), emptyAsNull(old.parameters))) {
    errs.push(fieldError.forbidden('parameters', 'updates to parameters are forbidden.'));
  }
  if (next.provisioner !== old.provisioner) errs.push(fieldError.forbidden('provisioner', 'updates to provisioner are forbidden.'));
  if (next.reclaimPolicy !== old.reclaimPolicy) errs.push(fieldError.forbidden('reclaimPolicy', 'updates to reclaimPolicy are forbidden.'));
  if (next.volumeBindingMode !== old.volumeBindingMode) errs.push(fieldError.forbidden('volumeBindingMode', 'field is immutable'));
  return errs;
}

/** validateTopologySelectorLabelRequirement: values required and unique, the key a qualified name. */
function validateRequirement(req: Record<string, unknown>, path: string): { values: Set<string>; errs: FieldError[] } {
  const errs: FieldError[] = [];
  const list = Array.isArray(req.values) ? req.values.map((v) => (typeof v === 'string' ? v : '')) : [];
  if (list.length === 0) errs.push(fieldError.required(`${path}.values`));
  const values = new Set<string>();
  list.forEach((value, i) => {
    if (values.has(value)) errs.push(fieldError.duplicate(`${path}.values[${i}]`, value));
    values.add(value);
  });
  const key = typeof req.key === 'string' ? req.key : '';
  errs.push(...isQualifiedName(key).map((msg) => fieldError.invalid(`${path}.key`, key, msg)));
  return { values, errs };
}

type TermMap = Map<string, Set<string>>;

/** apiequality.Semantic: an empty map equals a missing one, sets compare by members. */
function sameTerm(a: TermMap, b: TermMap): boolean {
  if (a.size !== b.size) return false;
  for (const [key, values] of a) {
    const other = b.get(key);
    if (other === undefined || !isDeepStrictEqual([...values].sort(), [...other].sort())) return false;
  }
  return true;
}

/**
 * validateAllowedTopologies. Kubernetes compares each term with the ones before it in a list it pre-fills with one
 * empty term per topology, so an empty term is reported as a duplicate once per topology: kept as it does.
 */
function validateAllowedTopologies(topologies: unknown): FieldError[] {
  const terms = objects(topologies);
  const errs: FieldError[] = [];
  const seen: TermMap[] = terms.map(() => new Map());
  terms.forEach((term, i) => {
    const path = `allowedTopologies[${i}]`;
    const map: TermMap = new Map();
    objects(term.matchLabelExpressions).forEach((req, j) => {
      const at = `${path}.matchLabelExpressions[${j}]`;
      const { values, errs: reqErrs } = validateRequirement(req, at);
      errs.push(...reqErrs);
      const key = typeof req.key === 'string' ? req.key : '';
      if (map.has(key)) errs.push(fieldError.duplicate(`${at}.key`, key));
      map.set(key, values);
    });
    for (const other of seen) {
      if (sameTerm(map, other)) errs.push(fieldError.duplicate(`${path}.matchLabelExpressions`, ''));
    }
    seen.push(map);
  });
  return errs;
}
