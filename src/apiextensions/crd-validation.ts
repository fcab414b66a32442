import { type FieldError, fieldError } from '../api/errors.js';
import { isObject, type KubeObject } from '../api/types.js';
import { isDns1035Label, isDns1123Subdomain } from '../validation/names.js';
import type { CrdVersion, CustomResourceDefinition } from '../api/crd-types.js';
import { validateDefaults, validateStructuralSchema } from './schema/index.js';
import { validateSchemaRules } from './cel/crd-rules.js';
import { validateConversion } from './conversion/conversion-validation.js';

const SCOPES = ['Cluster', 'Namespaced'];

function validateNames(crd: CustomResourceDefinition, errs: FieldError[]): void {
  const names = crd.spec.names;
  const path = 'spec.names';
  if (!isObject(names)) {
    errs.push(fieldError.required(path));
    return;
  }
  const label = (field: string, value: unknown, required: boolean): void => {
    if (typeof value !== 'string' || value === '') {
      if (required) errs.push(fieldError.required(`${path}.${field}`));
      return;
    }
    for (const msg of isDns1035Label(value)) errs.push(fieldError.invalid(`${path}.${field}`, value, msg));
  };
  label('plural', names.plural, true);
  label('singular', names.singular, false);
  for (const [i, s] of (names.shortNames ?? []).entries()) label(`shortNames[${i}]`, s, true);
  for (const [i, c] of (names.categories ?? []).entries()) label(`categories[${i}]`, c, true);
  if (typeof names.kind !== 'string' || names.kind === '') errs.push(fieldError.required(`${path}.kind`));
  else for (const msg of isDns1035Label(names.kind.toLowerCase())) errs.push(fieldError.invalid(`${path}.kind`, names.kind, msg));
  if (names.listKind !== undefined && names.listKind === names.kind) {
    errs.push(fieldError.invalid(`${path}.listKind`, names.listKind, 'kind and listKind cannot be the same'));
  }
}

function validateVersion(v: CrdVersion, i: number, statusSubresource: boolean, errs: FieldError[]): void {
  const path = `spec.versions[${i}]`;
  for (const msg of isDns1035Label(v.name ?? '')) errs.push(fieldError.invalid(`${path}.name`, v.name, msg));
  const schema = v.schema?.openAPIV3Schema;
  if (schema === undefined) {
    errs.push(fieldError.required(`${path}.schema.openAPIV3Schema`, 'schemas are required'));
    return;
  }
  const structural = validateStructuralSchema(schema, `${path}.schema.openAPIV3Schema`, { statusSubresource });
  errs.push(...structural);
  errs.push(...validateDefaults(schema, `${path}.schema.openAPIV3Schema`));
  // R11.102: rules are compiled only against a schema without other errors.
  if (structural.length === 0) errs.push(...validateSchemaRules(schema, `${path}.schema.openAPIV3Schema`));
  const scale = v.subresources?.scale;
  if (scale !== undefined) {
    if (!scale.specReplicasPath?.startsWith('.spec.')) {
      errs.push(
        fieldError.invalid(`${path}.subresources.scale.specReplicasPath`, scale.specReplicasPath, 'should be a json path under .spec'),
      );
    }
    if (!scale.statusReplicasPath?.startsWith('.status.')) {
      errs.push(
        fieldError.invalid(
          `${path}.subresources.scale.statusReplicasPath`,
          scale.statusReplicasPath,
          'should be a json path under .status',
        ),
      );
    }
  }
}

/** ValidateCustomResourceDefinition (apiextensions validation.go), for create and update. */
export function validateCustomResourceDefinition(obj: KubeObject, old?: KubeObject): FieldError[] {
  const crd = obj as CustomResourceDefinition;
  const errs: FieldError[] = [];
  if (!isObject(crd.spec)) return [fieldError.required('spec')];
  const spec = crd.spec;
  if (typeof spec.group !== 'string' || spec.group === '') {
    errs.push(fieldError.required('spec.group'));
  } else {
    for (const msg of isDns1123Subdomain(spec.group)) errs.push(fieldError.invalid('spec.group', spec.group, msg));
    if (!spec.group.includes('.')) errs.push(fieldError.invalid('spec.group', spec.group, 'should be a domain with at least one dot'));
  }
  validateNames(crd, errs);
  if (isObject(spec.names) && typeof spec.group === 'string') {
    const expected = `${spec.names.plural}.${spec.group}`;
    if (crd.metadata.name !== expected)
      errs.push(fieldError.invalid('metadata.name', crd.metadata.name, 'must be spec.names.plural+"."+spec.group'));
  }
  if (!SCOPES.includes(spec.scope)) {
    errs.push(
      spec.scope === undefined || (spec.scope as string) === ''
        ? fieldError.required('spec.scope')
        : fieldError.notSupported('spec.scope', spec.scope, SCOPES),
    );
  }
  const versions = Array.isArray(spec.versions) ? spec.versions : [];
  if (versions.length === 0)
    errs.push(fieldError.invalid('spec.versions', spec.versions, 'must have exactly one version marked as storage version'));
  else if (versions.filter((v) => v.storage).length !== 1) {
    errs.push(fieldError.invalid('spec.versions', versions, 'must have exactly one version marked as storage version'));
  }
  if (versions.length > 0 && !versions.some((v) => v.served))
    errs.push(fieldError.invalid('spec.versions', versions, 'must have at least one version marked as served'));
  const seen = new Set<string>();
  versions.forEach((v, i) => {
    if (seen.has(v.name)) errs.push(fieldError.duplicate(`spec.versions[${i}].name`, v.name));
    seen.add(v.name);
    validateVersion(v, i, v.subresources?.status !== undefined, errs);
  });
  errs.push(...validateConversion(spec, isObject(old?.spec) ? (old as CustomResourceDefinition).spec : undefined));
  return errs;
}

/** Names are immutable once accepted apart from additions; the group and scope never change. */
export function validateCustomResourceDefinitionUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  const errs = validateCustomResourceDefinition(next, old);
  const n = (next as CustomResourceDefinition).spec;
  const o = (old as CustomResourceDefinition).spec;
  if (isObject(n) && isObject(o)) {
    if (n.group !== o.group) errs.push(fieldError.invalid('spec.group', n.group, 'field is immutable'));
    if (n.scope !== o.scope) errs.push(fieldError.invalid('spec.scope', n.scope, 'field is immutable'));
  }
  return errs;
}
