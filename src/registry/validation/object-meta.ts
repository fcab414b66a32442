import { type FieldError, fieldError } from '../../api/errors.js';
import { STANDARD_FINALIZERS } from '../../api/finalizers.js';
import type { NameFormat, ResourceInfo } from '../../api/resource-info.js';
import { isObject, type KubeObject, type ObjectMeta, parseApiVersion } from '../../api/types.js';
import { validateAnnotations, validateLabels } from '../../validation/labels.js';
import { isDns1035Label, isDns1123Label, isDns1123Subdomain, isQualifiedName, isValidPathSegmentName } from '../../validation/names.js';

const NAME_CHECKS: Record<NameFormat, (name: string) => string[]> = {
  'dns1123-subdomain': isDns1123Subdomain,
  'dns1123-label': isDns1123Label,
  'dns1035-label': isDns1035Label,
  'path-segment': () => [],
};

/** Name checks for a resource: its own format plus the path-segment rule every name obeys (R1.30, R1.31). */
export function validateName(info: ResourceInfo, name: string, prefix: boolean): string[] {
  // A generateName prefix may end in "-" because random characters follow it (R1.32).
  const candidate = prefix && name.endsWith('-') ? name.slice(0, -1) : name;
  const errs = NAME_CHECKS[info.nameFormat](candidate);
  const segmentErrs = isValidPathSegmentName(name);
  if (segmentErrs.length > 0) errs.push(...segmentErrs);
  return errs;
}

/** R1.16–R1.19. `builtin` applies the core rule that unqualified names must be standard (R1.17). */
export function validateFinalizers(finalizers: unknown, builtin: boolean): FieldError[] {
  const field = 'metadata.finalizers';
  if (finalizers === undefined || finalizers === null) return [];
  if (!Array.isArray(finalizers)) return [fieldError.invalid(field, finalizers, 'must be a list of strings')];
  const errs: FieldError[] = [];
  finalizers.forEach((f: unknown, i) => {
    if (typeof f !== 'string') {
      errs.push(fieldError.invalid(`${field}[${i}]`, f, 'must be a string'));
      return;
    }
    for (const msg of isQualifiedName(f)) errs.push(fieldError.invalid(field, f, msg));
    if (builtin && !f.includes('/') && !STANDARD_FINALIZERS.includes(f)) {
      errs.push(fieldError.invalid(`${field}[${i}]`, f, 'name is neither a standard finalizer name nor is it fully qualified'));
    }
  });
  if (finalizers.includes('orphan') && finalizers.includes('foregroundDeletion')) {
    errs.push(fieldError.invalid(field, finalizers, 'finalizer orphan and foregroundDeletion cannot be both set'));
  }
  return errs;
}

/** R1.23–R1.27. Paths are deliberately un-indexed, as Kubernetes reports them. */
export function validateOwnerReferences(refs: unknown): FieldError[] {
  const field = 'metadata.ownerReferences';
  if (refs === undefined || refs === null) return [];
  if (!Array.isArray(refs)) return [fieldError.invalid(field, refs, 'must be a list of owner references')];
  const errs: FieldError[] = [];
  const controllers: string[] = [];
  for (const ref of refs) {
    if (!isObject(ref)) {
      errs.push(fieldError.invalid(field, ref, 'must be an owner reference object'));
      continue;
    }
    const apiVersion = typeof ref.apiVersion === 'string' ? ref.apiVersion : '';
    const kind = typeof ref.kind === 'string' ? ref.kind : '';
    const name = typeof ref.name === 'string' ? ref.name : '';
    const uid = typeof ref.uid === 'string' ? ref.uid : '';
    const gv = parseOwnerApiVersion(apiVersion);
    if (gv.version === '') errs.push(fieldError.invalid(`${field}.apiVersion`, apiVersion, 'version must not be empty'));
    if (kind === '') errs.push(fieldError.invalid(`${field}.kind`, kind, 'kind must not be empty'));
    if (name === '') errs.push(fieldError.invalid(`${field}.name`, name, 'name must not be empty'));
    if (uid === '') errs.push(fieldError.invalid(`${field}.uid`, uid, 'uid must not be empty'));
    if (gv.group === '' && gv.version === 'v1' && kind === 'Event') {
      errs.push(fieldError.invalid(field, kind, '/v1, Kind=Event is disallowed from being an owner'));
    }
    if (ref.controller === true) controllers.push(`${kind}/${name}`);
  }
  if (controllers.length > 1) {
    errs.push(
      fieldError.invalid(
        field,
        refs,
        `Only one reference can have Controller set to true. Found "true" in references for ${controllers.join(' and ')}`,
      ),
    );
  }
  return errs;
}

/** schema.ParseGroupVersion as owner validation sees it: "" or more than one slash yields no version (R1.25). */
function parseOwnerApiVersion(apiVersion: string): { group: string; version: string } {
  if (apiVersion === '' || apiVersion.split('/').length > 2) return { group: '', version: '' };
  return parseApiVersion(apiVersion);
}

function validateCommonMeta(meta: ObjectMeta, info: ResourceInfo, errs: FieldError[]): FieldError[] {
  errs.push(...validateLabels(meta.labels, 'metadata.labels'), ...validateAnnotations(meta.annotations, 'metadata.annotations'));
  if (meta.finalizers !== undefined) errs.push(...validateFinalizers(meta.finalizers, info.custom !== true));
  if (meta.ownerReferences !== undefined) errs.push(...validateOwnerReferences(meta.ownerReferences));
  return errs;
}

/** ValidateObjectMeta on create (R1.29–R1.32). The namespace has already been reconciled with the URL. */
export function validateObjectMetaCreate(obj: KubeObject, info: ResourceInfo): FieldError[] {
  const meta = obj.metadata;
  const errs: FieldError[] = [];
  if (meta.generateName !== undefined && meta.generateName !== '') {
    for (const msg of validateName(info, meta.generateName, true))
      errs.push(fieldError.invalid('metadata.generateName', meta.generateName, msg));
  }
  if (meta.name === undefined || meta.name === '') {
    errs.push(fieldError.required('metadata.name', 'name or generateName is required'));
  } else {
    for (const msg of validateName(info, meta.name, false)) errs.push(fieldError.invalid('metadata.name', meta.name, msg));
  }
  if (info.namespaced) {
    if (meta.namespace === undefined || meta.namespace === '') errs.push(fieldError.required('metadata.namespace'));
    else for (const msg of isDns1123Label(meta.namespace)) errs.push(fieldError.invalid('metadata.namespace', meta.namespace, msg));
  }
  return validateCommonMeta(meta, info, errs);
}

/** ValidateObjectMetaUpdate: immutable identity fields (R1.35) and the finalizer rule while deleting (R1.20). */
export function validateObjectMetaUpdate(next: KubeObject, old: KubeObject, info: ResourceInfo): FieldError[] {
  const errs = validateCommonMeta(next.metadata, info, []);
  const n = next.metadata;
  const o = old.metadata;
  if (n.name !== o.name) errs.push(fieldError.invalid('metadata.name', n.name, 'field is immutable'));
  if ((n.namespace ?? '') !== (o.namespace ?? '')) errs.push(fieldError.invalid('metadata.namespace', n.namespace, 'field is immutable'));
  if (o.deletionTimestamp !== undefined) {
    const before = new Set(o.finalizers ?? []);
    const added = (n.finalizers ?? []).filter((f) => !before.has(f));
    if (added.length > 0) {
      errs.push(
        fieldError.forbidden(
          'metadata.finalizers',
          `no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map((f) => JSON.stringify(f)).join(', ')}}`,
        ),
      );
    }
  }
  return errs;
}
