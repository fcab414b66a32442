import { type FieldError, fieldError } from '../../api/errors.js';
import { isObject } from '../../api/types.js';

/** validateRuleWithOperations and validateRule of pkg/apis/admissionregistration/validation (R11.13–R11.15). */

const OPERATIONS = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
const SCOPES = ['*', 'Cluster', 'Namespaced'];

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.map((v) => (typeof v === 'string' ? v : String(v))) : []);

/** Resources may name subresources; the wildcard overlaps are checked in list order (quirk Q16). */
function validateResources(path: string, resources: readonly string[]): FieldError[] {
  const errs: FieldError[] = [];
  if (resources.length === 0) errs.push(fieldError.required(path));
  const wildcardSubresourceOf = new Set<string>();
  const wildcardResourceFor = new Set<string>();
  let doubleWildcard = false;
  let singleWildcard = false;
  let plainResource = false;
  resources.forEach((entry, i) => {
    if (entry === '') {
      errs.push(fieldError.required(`${path}[${i}]`));
      return;
    }
    if (entry === '*/*') doubleWildcard = true;
    if (entry === '*') singleWildcard = true;
    const slash = entry.indexOf('/');
    if (slash < 0) {
      plainResource = entry !== '*';
      return;
    }
    const resource = entry.slice(0, slash);
    const subresource = entry.slice(slash + 1);
    if (wildcardSubresourceOf.has(resource))
      errs.push(fieldError.invalid(`${path}[${i}]`, entry, `if '${resource}/*' is present, must not specify ${entry}`));
    if (wildcardResourceFor.has(subresource))
      errs.push(fieldError.invalid(`${path}[${i}]`, entry, `if '*/${subresource}' is present, must not specify ${entry}`));
    if (subresource === '*') wildcardSubresourceOf.add(resource);
    if (resource === '*') wildcardResourceFor.add(subresource);
  });
  if (resources.length > 1 && doubleWildcard)
    errs.push(fieldError.invalid(path, resources, "if '*/*' is present, must not specify other resources"));
  if (singleWildcard && plainResource)
    errs.push(fieldError.invalid(path, resources, "if '*' is present, must not specify other resources without subresources"));
  return errs;
}

export function validateRuleWithOperations(path: string, value: unknown): FieldError[] {
  const rule = isObject(value) ? value : {};
  const errs: FieldError[] = [];
  const operations = strings(rule.operations);
  if (operations.length === 0) errs.push(fieldError.required(`${path}.operations`));
  if (operations.length > 1 && operations.includes('*'))
    errs.push(fieldError.invalid(`${path}.operations`, operations, "if '*' is present, must not specify other operations"));
  operations.forEach((op, i) => {
    if (!OPERATIONS.includes(op)) errs.push(fieldError.notSupported(`${path}.operations[${i}]`, op, OPERATIONS));
  });
  const groups = strings(rule.apiGroups);
  if (groups.length === 0) errs.push(fieldError.required(`${path}.apiGroups`));
  if (groups.length > 1 && groups.includes('*'))
    errs.push(fieldError.invalid(`${path}.apiGroups`, groups, "if '*' is present, must not specify other API groups"));
  const versions = strings(rule.apiVersions);
  if (versions.length === 0) errs.push(fieldError.required(`${path}.apiVersions`));
  if (versions.length > 1 && versions.includes('*'))
    errs.push(fieldError.invalid(`${path}.apiVersions`, versions, "if '*' is present, must not specify other API versions"));
  versions.forEach((v, i) => {
    if (v === '') errs.push(fieldError.required(`${path}.apiVersions[${i}]`));
  });
  errs.push(...validateResources(`${path}.resources`, strings(rule.resources)));
  if (typeof rule.scope === 'string' && !SCOPES.includes(rule.scope))
    errs.push(fieldError.notSupported(`${path}.scope`, rule.scope, SCOPES));
  return errs;
}
