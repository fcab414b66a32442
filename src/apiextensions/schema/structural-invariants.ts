import type { FieldError } from '../../api/errors.js';
import { schemaFieldError, sortByRendering } from './field-errors.js';
import { child, index, key } from './field-path.js';
import { compileSchemaPattern } from './pattern.js';
import { additionalPropertiesSchema, hasDefault, itemsSchema, type JSONSchemaProps } from '../../api/json-schema-props.js';

/**
 * The structural-schema rules of apiextensions (schema.ValidateStructural): every specified field has a type,
 * value validations (anyOf/allOf/oneOf/not) only restrict what the structure already specifies, metadata can only
 * restrict name and generateName, and the x-kubernetes extensions are used consistently. Errors come sorted by
 * their text, as Kubernetes sorts them.
 */
export function validateStructural(schema: JSONSchemaProps, path: string): FieldError[] {
  return sortByRendering([...invariants(schema, 'root', path), ...completeness(schema, schema, path, path)]);
}

/**
 * The reason NewStructural refuses a schema, if any: keywords a structural schema cannot carry. Kubernetes reports
 * it only when the schema rules found nothing else, since they name the same keywords.
 */
export function unsupportedKeyword(s: JSONSchemaProps): string | undefined {
  if (s.id !== undefined && s.id !== '') return "OpenAPIV3Schema 'id' is not supported";
  if (s.$schema !== undefined && s.$schema !== '') return "OpenAPIV3Schema 'schema' is not supported";
  if (s.$ref !== undefined && s.$ref !== '') return "OpenAPIV3Schema '$ref' is not supported";
  if (s.patternProperties !== undefined && Object.keys(s.patternProperties).length > 0)
    return "OpenAPIV3Schema 'patternProperties' is not supported";
  if (s.dependencies !== undefined && Object.keys(s.dependencies).length > 0) return "OpenAPIV3Schema 'dependencies' is not supported";
  if (s.additionalItems !== undefined) return "OpenAPIV3Schema 'additionalItems' is not supported";
  if (s.definitions !== undefined && Object.keys(s.definitions).length > 0) return "OpenAPIV3Schema 'definitions' is not supported";
  for (const sub of [s.not, ...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? []), additionalPropertiesSchema(s)]) {
    const reason = sub === undefined ? undefined : unsupportedKeyword(sub);
    if (reason !== undefined) return reason;
  }
  if (s['x-kubernetes-preserve-unknown-fields'] === false)
    return "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined";
  if (Array.isArray(s.items)) return "OpenAPIV3Schema 'items' must be a schema, but is an array";
  for (const sub of [itemsSchema(s), ...Object.values(s.properties ?? {})]) {
    const reason = sub === undefined ? undefined : unsupportedKeyword(sub);
    if (reason !== undefined) return reason;
  }
  return undefined;
}

type Level = 'root' | 'item' | 'field';

const EMPTY_TYPE_DETAIL: Record<Level, string> = {
  root: 'must not be empty at the root',
  item: 'must not be empty for specified array items',
  field: 'must not be empty for specified object fields',
};

function invariants(s: JSONSchemaProps, lvl: Level, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (s.type === 'array' && s.items === undefined) errs.push(schemaFieldError.required(child(path, 'items'), 'must be specified'));
  const items = itemsSchema(s);
  if (items !== undefined) errs.push(...invariants(items, 'item', child(path, 'items')));
  for (const [k, prop] of Object.entries(s.properties ?? {})) errs.push(...invariants(prop, 'field', key(child(path, 'properties'), k)));
  if (s.additionalProperties !== undefined) {
    if (lvl === 'root') errs.push(schemaFieldError.forbidden(child(path, 'additionalProperties'), 'must not be used at the root'));
    const ap = additionalPropertiesSchema(s);
    if (ap !== undefined) errs.push(...invariants(ap, 'field', child(path, 'additionalProperties')));
  }

  const intOrString = s['x-kubernetes-int-or-string'] === true;
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  if (intOrString && preserve) {
    errs.push(
      schemaFieldError.invalid(
        child(path, 'x-kubernetes-preserve-unknown-fields'),
        true,
        'must be false if x-kubernetes-int-or-string is true',
      ),
    );
  }
  if (intOrString && embedded) {
    errs.push(
      schemaFieldError.invalid(child(path, 'x-kubernetes-embedded-resource'), true, 'must be false if x-kubernetes-int-or-string is true'),
    );
  }

  errs.push(...valueValidation(s, isIntOrStringAnyOf(s.anyOf), isIntOrStringAnyOf(s.allOf?.[0]?.anyOf), lvl, path));

  const type = s.type ?? '';
  const checkMetadata = lvl === 'root' || embedded;
  if (embedded && type !== 'object') {
    const detail = 'must be object if x-kubernetes-embedded-resource is true';
    errs.push(
      type === '' ? schemaFieldError.required(child(path, 'type'), detail) : schemaFieldError.invalid(child(path, 'type'), type, detail),
    );
  } else if (type === '' && !intOrString && !preserve) {
    errs.push(schemaFieldError.required(child(path, 'type'), EMPTY_TYPE_DETAIL[lvl]));
  }
  if (embedded && s.additionalProperties !== undefined) {
    errs.push(schemaFieldError.forbidden(child(path, 'additionalProperties'), 'must not be used if x-kubernetes-embedded-resource is set'));
  }
  if (lvl === 'root' && type !== '' && type !== 'object')
    errs.push(schemaFieldError.invalid(child(path, 'type'), type, 'must be object at the root'));

  for (const typeMetaField of ['kind', 'apiVersion']) {
    const prop = s.properties?.[typeMetaField];
    if (prop !== undefined && checkMetadata && prop.type !== 'string') {
      errs.push(schemaFieldError.invalid(child(key(child(path, 'properties'), typeMetaField), 'type'), prop.type ?? '', 'must be string'));
    }
  }
  const metadata = s.properties?.metadata;
  if (metadata !== undefined) errs.push(...metadataInvariants(metadata, checkMetadata, lvl, key(child(path, 'properties'), 'metadata')));

  if (embedded && !preserve && Object.keys(s.properties ?? {}).length === 0) {
    errs.push(
      schemaFieldError.required(
        child(path, 'properties'),
        'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields',
      ),
    );
  }
  return errs;
}

/** `anyOf: [{type: integer}, {type: string}]` exactly: the int-or-string shape structural schemas may spell out. */
function isIntOrStringAnyOf(anyOf: JSONSchemaProps[] | undefined): boolean {
  if (anyOf?.length !== 2) return false;
  return anyOf.every((sub, i) => {
    const keys = Object.keys(sub).filter((k) => !isZeroKeyword(sub, k));
    return keys.length === 1 && keys[0] === 'type' && sub.type === (i === 0 ? 'integer' : 'string');
  });
}

/** Keywords that hold their Go zero value (false, "", or a null default) and so count as unset. */
function isZeroKeyword(s: JSONSchemaProps, k: string): boolean {
  const v = (s as Record<string, unknown>)[k];
  if (k === 'default') return v === null || v === undefined;
  return v === undefined || v === false || v === '';
}

function valueValidation(v: JSONSchemaProps, skipAnyOf: boolean, skipFirstAllOfAnyOf: boolean, lvl: Level, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!skipAnyOf)
    (v.anyOf ?? []).forEach((sub, i) => {
      errs.push(...nested(sub, false, false, lvl, index(child(path, 'anyOf'), i)));
    });
  (v.allOf ?? []).forEach((sub, i) => {
    errs.push(...nested(sub, skipFirstAllOfAnyOf && i === 0, false, lvl, index(child(path, 'allOf'), i)));
  });
  (v.oneOf ?? []).forEach((sub, i) => {
    errs.push(...nested(sub, false, false, lvl, index(child(path, 'oneOf'), i)));
  });
  if (v.not !== undefined) errs.push(...nested(v.not, false, false, lvl, child(path, 'not')));
  if (v.pattern !== undefined && v.pattern !== '') {
    const re = compileSchemaPattern(v.pattern);
    if (re instanceof Error) {
      errs.push(
        schemaFieldError.invalid(child(path, 'pattern'), v.pattern, `must be a valid regular expression, but isn't: ${re.message}`),
      );
    }
  }
  return errs;
}

const NESTED_FORBIDDEN: readonly (readonly [keyof JSONSchemaProps, string])[] = [
  ['title', 'must be empty to be structural'],
  ['description', 'must be empty to be structural'],
  ['nullable', 'must be false to be structural'],
  ['externalDocs', 'must be undefined to be structural'],
  ['x-kubernetes-preserve-unknown-fields', 'must be false to be structural'],
  ['x-kubernetes-embedded-resource', 'must be false to be structural'],
  ['x-kubernetes-int-or-string', 'must be false to be structural'],
];

/** A schema under anyOf/allOf/oneOf/not: it may only restrict values, never add structure or extensions. */
function nested(v: JSONSchemaProps, skipAnyOf: boolean, skipAllOfAnyOf: boolean, lvl: Level, path: string): FieldError[] {
  const errs = valueValidation(v, skipAnyOf, skipAllOfAnyOf, lvl, path);
  const items = itemsSchema(v);
  if (items !== undefined) errs.push(...nested(items, false, false, lvl, child(path, 'items')));
  for (const [k, prop] of Object.entries(v.properties ?? {}))
    errs.push(...nested(prop, false, false, 'field', key(child(path, 'properties'), k)));
  if (v.type !== undefined && v.type !== '') errs.push(schemaFieldError.forbidden(child(path, 'type'), 'must be empty to be structural'));
  if (v.additionalProperties !== undefined)
    errs.push(schemaFieldError.forbidden(child(path, 'additionalProperties'), 'must be undefined to be structural'));
  if (hasDefault(v)) errs.push(schemaFieldError.forbidden(child(path, 'default'), 'must be undefined to be structural'));
  for (const [k, detail] of NESTED_FORBIDDEN) {
    if (!isZeroKeyword(v, k)) errs.push(schemaFieldError.forbidden(child(path, k), detail));
  }
  if ((v['x-kubernetes-list-map-keys'] ?? []).length > 0) {
    errs.push(schemaFieldError.forbidden(child(path, 'x-kubernetes-list-map-keys'), 'must be empty to be structural'));
  }
  if (v['x-kubernetes-list-type'] !== undefined)
    errs.push(schemaFieldError.forbidden(child(path, 'x-kubernetes-list-type'), 'must be undefined to be structural'));
  if (v['x-kubernetes-map-type'] !== undefined)
    errs.push(schemaFieldError.forbidden(child(path, 'x-kubernetes-map-type'), 'must be undefined to be structural'));
  if ((v['x-kubernetes-validations'] ?? []).length > 0) {
    errs.push(schemaFieldError.forbidden(child(path, 'x-kubernetes-validations'), 'must be empty to be structural'));
  }
  if (v.properties?.metadata !== undefined) {
    errs.push(schemaFieldError.forbidden(key(child(path, 'properties'), 'metadata'), 'must not be specified in a nested context'));
  }
  return errs;
}

/** Keywords the root metadata schema may carry: its type, a name/generateName restriction, and docs-only fields. */
const ROOT_METADATA_ALLOWED = new Set(['type', 'default', 'properties', 'example', 'externalDocs']);

function metadataInvariants(s: JSONSchemaProps, checkMetadata: boolean, lvl: Level, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (checkMetadata && s.type !== 'object') errs.push(schemaFieldError.invalid(child(path, 'type'), s.type ?? '', 'must be object'));
  if (lvl !== 'root') return errs;
  const propertyNames = Object.keys(s.properties ?? {});
  const onlyNames = propertyNames.every((n) => n === 'name' || n === 'generateName');
  const restrictsMore = Object.keys(s).some((k) => {
    if (k === 'properties') return !onlyNames;
    if (isZeroKeyword(s, k) || ROOT_METADATA_ALLOWED.has(k)) return false;
    // Empty lists decode to nothing in the structural form.
    const v = (s as Record<string, unknown>)[k];
    return !((k === 'enum' || k === 'allOf' || k === 'anyOf' || k === 'oneOf') && Array.isArray(v) && v.length === 0);
  });
  if (restrictsMore) {
    errs.push(
      schemaFieldError.forbidden(path, 'must not specify anything other than name and generateName, but metadata is implicitly specified'),
    );
  }
  return errs;
}

/** Every field or array a value validation mentions must also be specified by the structure itself. */
function completeness(v: JSONSchemaProps, s: JSONSchemaProps | undefined, sPath: string, vPath: string): FieldError[] {
  if (s === undefined) return [schemaFieldError.required(sPath, `because it is defined in ${vPath}`)];
  const errs: FieldError[] = [];
  if (v.not !== undefined) errs.push(...nestedCompleteness(v.not, s, sPath, child(vPath, 'not')));
  (v.allOf ?? []).forEach((sub, i) => {
    errs.push(...nestedCompleteness(sub, s, sPath, index(child(vPath, 'allOf'), i)));
  });
  (v.anyOf ?? []).forEach((sub, i) => {
    errs.push(...nestedCompleteness(sub, s, sPath, index(child(vPath, 'anyOf'), i)));
  });
  (v.oneOf ?? []).forEach((sub, i) => {
    errs.push(...nestedCompleteness(sub, s, sPath, index(child(vPath, 'oneOf'), i)));
  });
  return errs;
}

function nestedCompleteness(v: JSONSchemaProps, s: JSONSchemaProps | undefined, sPath: string, vPath: string): FieldError[] {
  if (s === undefined) return [schemaFieldError.required(sPath, `because it is defined in ${vPath}`)];
  const errs = completeness(v, s, sPath, vPath);
  const vItems = itemsSchema(v);
  if (vItems !== undefined) errs.push(...nestedCompleteness(vItems, itemsSchema(s), child(sPath, 'items'), child(vPath, 'items')));
  for (const [k, vProp] of Object.entries(v.properties ?? {})) {
    const sProp = s.properties?.[k];
    const sPropPath = key(child(sPath, 'properties'), k);
    const vPropPath = key(child(vPath, 'properties'), k);
    if (sProp === undefined) errs.push(schemaFieldError.required(sPropPath, `because it is defined in ${vPropPath}`));
    else errs.push(...nestedCompleteness(vProp, sProp, sPropPath, vPropPath));
  }
  return errs;
}
