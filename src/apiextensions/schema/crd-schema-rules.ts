import type { FieldError } from '../../api/errors.js';
import { schemaFieldError } from './field-errors.js';
import { child, index, key } from './field-path.js';
import { hasDefault, itemsSchema, type JSONSchemaProps } from '../../api/json-schema-props.js';

/**
 * The keyword rules apiextensions applies to every node of a v1 CRD schema when the CRD is created
 * (ValidateCustomResourceDefinitionOpenAPISchema with the v1 create options): unsupported JSON-Schema keywords,
 * defaults in resource metadata, list/map topology extensions and the static parts of x-kubernetes-validations.
 * Errors of a node's children come before the node's own extension errors, as in Kubernetes.
 */
export function validateSchemaRules(schema: JSONSchemaProps, path: string): FieldError[] {
  return walk(schema, path, { allowDefaults: true, disallowDefaultsReason: '', insideResourceMeta: false }, true);
}

interface WalkState {
  readonly allowDefaults: boolean;
  readonly disallowDefaultsReason: string;
  readonly insideResourceMeta: boolean;
}

const OPENAPI_V3_TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const META_FIELDS = new Set(['metadata', 'kind', 'apiVersion']);
const VALIDATION_REASONS = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];

function forbidDefaults(state: WalkState, reason: string): WalkState {
  return { ...state, allowDefaults: false, disallowDefaultsReason: reason };
}

/** Keywords no v1 CRD schema node may use. */
function nodeRules(s: JSONSchemaProps, path: string, state: WalkState): FieldError[] {
  const errs: FieldError[] = [];
  if (s.type !== undefined && s.type !== '' && !OPENAPI_V3_TYPES.includes(s.type)) {
    errs.push(schemaFieldError.notSupported(child(path, 'type'), s.type, OPENAPI_V3_TYPES));
  }
  if (hasDefault(s) && !state.allowDefaults) {
    const detail = state.disallowDefaultsReason === '' ? 'must not be set' : `must not be set ${state.disallowDefaultsReason}`;
    errs.push(schemaFieldError.forbidden(child(path, 'default'), detail));
  }
  if (s.id !== undefined && s.id !== '') errs.push(schemaFieldError.forbidden(child(path, 'id'), 'id is not supported'));
  if (s.additionalItems !== undefined)
    errs.push(schemaFieldError.forbidden(child(path, 'additionalItems'), 'additionalItems is not supported'));
  if (s.patternProperties !== undefined && Object.keys(s.patternProperties).length > 0) {
    errs.push(schemaFieldError.forbidden(child(path, 'patternProperties'), 'patternProperties is not supported'));
  }
  if (s.definitions !== undefined && Object.keys(s.definitions).length > 0) {
    errs.push(schemaFieldError.forbidden(child(path, 'definitions'), 'definitions is not supported'));
  }
  if (s.dependencies !== undefined) errs.push(schemaFieldError.forbidden(child(path, 'dependencies'), 'dependencies is not supported'));
  if (s.$ref !== undefined) errs.push(schemaFieldError.forbidden(child(path, '$ref'), '$ref is not supported'));
  if (s.type === 'null')
    errs.push(schemaFieldError.forbidden(child(path, 'type'), 'type cannot be set to null, use nullable as an alternative'));
  if (Array.isArray(s.items) && s.items.length > 0)
    errs.push(schemaFieldError.forbidden(child(path, 'items'), 'items must be a schema object and not an array'));
  if (state.insideResourceMeta && s['x-kubernetes-embedded-resource'] === true) {
    errs.push(schemaFieldError.forbidden(child(path, 'x-kubernetes-embedded-resource'), 'must not be used inside of resource meta'));
  }
  return errs;
}

function walk(s: JSONSchemaProps, path: string, state: WalkState, isRoot: boolean): FieldError[] {
  const errs = nodeRules(s, path, state);
  if (s.uniqueItems === true) {
    errs.push(
      schemaFieldError.forbidden(
        child(path, 'uniqueItems'),
        'uniqueItems cannot be set to true since the runtime complexity becomes quadratic',
      ),
    );
  }
  const properties = s.properties ?? {};
  if (s.additionalProperties !== undefined) {
    // Properties describe structs and additionalProperties maps; unknown fields could not be pruned with both.
    if (Object.keys(properties).length > 0 && (s.additionalProperties === false || typeof s.additionalProperties === 'object')) {
      errs.push(
        schemaFieldError.forbidden(child(path, 'additionalProperties'), 'additionalProperties and properties are mutual exclusive'),
      );
    }
    if (typeof s.additionalProperties === 'object') {
      // Pruning cannot tell which map entries a default would create, so metadata maps take none.
      const sub = state.insideResourceMeta ? forbidDefaults(state, 'inside additionalProperties applying to object metadata') : state;
      errs.push(...walk(s.additionalProperties, child(path, 'additionalProperties'), sub, false));
    }
  }
  for (const [name, prop] of Object.entries(properties)) {
    let sub = state;
    if ((isRoot || s['x-kubernetes-embedded-resource'] === true) && META_FIELDS.has(name)) {
      sub = { ...sub, insideResourceMeta: true };
      if (isRoot) sub = forbidDefaults(sub, `in top-level ${name}`);
    }
    errs.push(...walk(prop, key(child(path, 'properties'), name), sub, false));
  }
  if (s.not !== undefined) errs.push(...walk(s.not, child(path, 'not'), state, false));
  (s.allOf ?? []).forEach((sub, i) => {
    errs.push(...walk(sub, index(child(path, 'allOf'), i), state, false));
  });
  (s.oneOf ?? []).forEach((sub, i) => {
    errs.push(...walk(sub, index(child(path, 'oneOf'), i), state, false));
  });
  (s.anyOf ?? []).forEach((sub, i) => {
    errs.push(...walk(sub, index(child(path, 'anyOf'), i), state, false));
  });
  for (const [name, sub] of Object.entries(s.definitions ?? {}))
    errs.push(...walk(sub, key(child(path, 'definitions'), name), state, false));
  if (Array.isArray(s.items))
    s.items.forEach((sub, i) => {
      errs.push(...walk(sub, index(child(path, 'items'), i), state, false));
    });
  else if (s.items !== undefined) errs.push(...walk(s.items, child(path, 'items'), state, false));
  for (const [name, dep] of Object.entries(s.dependencies ?? {})) {
    if (!Array.isArray(dep)) errs.push(...walk(dep, key(child(path, 'dependencies'), name), state, false));
  }
  if (s['x-kubernetes-preserve-unknown-fields'] === false) {
    errs.push(schemaFieldError.invalid(child(path, 'x-kubernetes-preserve-unknown-fields'), false, 'must be true or undefined'));
  }
  errs.push(...topologyRules(s, path), ...mapListKeyRules(s, path), ...celRuleShape(s, path));
  return errs;
}

function typeMustBe(s: JSONSchemaProps, path: string, type: string, detail: string): FieldError[] {
  if (s.type === type) return [];
  return [
    s.type === undefined || s.type === ''
      ? schemaFieldError.required(child(path, 'type'), detail)
      : schemaFieldError.invalid(child(path, 'type'), s.type, detail),
  ];
}

/** x-kubernetes-map-type, x-kubernetes-list-type and x-kubernetes-list-map-keys consistency. */
function topologyRules(s: JSONSchemaProps, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const mapType = s['x-kubernetes-map-type'];
  const listType = s['x-kubernetes-list-type'];
  const mapKeys = s['x-kubernetes-list-map-keys'] ?? [];
  if (mapType !== undefined) {
    errs.push(...typeMustBe(s, path, 'object', 'must be object if x-kubernetes-map-type is specified'));
    if (mapType !== 'atomic' && mapType !== 'granular')
      errs.push(schemaFieldError.notSupported(child(path, 'x-kubernetes-map-type'), mapType, ['atomic', 'granular']));
  }
  const items = itemsSchema(s);
  if (listType !== undefined && s.type !== 'array') {
    errs.push(...typeMustBe(s, path, 'array', 'must be array if x-kubernetes-list-type is specified'));
  } else if (listType === 'set' && items !== undefined) {
    // Set items are compared whole, so they must themselves be atomic.
    const detail = 'must be atomic as item of a list with x-kubernetes-list-type=set';
    const itemListType = items['x-kubernetes-list-type'];
    if (items.type === 'array' && itemListType !== undefined && itemListType !== 'atomic') {
      errs.push(schemaFieldError.invalid(child(child(path, 'items'), 'x-kubernetes-list-type'), itemListType, detail));
    }
    if (items.type === 'object' && items['x-kubernetes-map-type'] !== 'atomic') {
      errs.push(schemaFieldError.invalid(child(child(path, 'items'), 'x-kubernetes-map-type'), itemListType ?? null, detail));
    }
  }
  if (listType !== undefined && listType !== 'atomic' && listType !== 'set' && listType !== 'map') {
    errs.push(schemaFieldError.notSupported(child(path, 'x-kubernetes-list-type'), listType, ['atomic', 'set', 'map']));
  }
  if (mapKeys.length > 0) {
    const detail = 'must be map if x-kubernetes-list-map-keys is non-empty';
    if (listType === undefined) errs.push(schemaFieldError.required(child(path, 'x-kubernetes-list-type'), detail));
    else if (listType !== 'map') errs.push(schemaFieldError.invalid(child(path, 'x-kubernetes-list-type'), listType, detail));
  }
  if (listType === 'map') {
    if (mapKeys.length === 0)
      errs.push(schemaFieldError.required(child(path, 'x-kubernetes-list-map-keys'), 'must not be empty if x-kubernetes-list-type is map'));
    if (s.items === undefined)
      errs.push(schemaFieldError.required(child(path, 'items'), 'must have a schema if x-kubernetes-list-type is map'));
    if (Array.isArray(s.items))
      errs.push(schemaFieldError.invalid(child(path, 'items'), s.items, 'must only have a single schema if x-kubernetes-list-type is map'));
    if (items !== undefined && items.type !== 'object') {
      errs.push(
        schemaFieldError.invalid(
          child(child(path, 'items'), 'type'),
          items.type ?? '',
          "must be object if parent array's x-kubernetes-list-type is map",
        ),
      );
    }
    if (items?.type === 'object') {
      const seen = new Set<string>();
      for (const k of mapKeys) {
        const prop = items.properties?.[k];
        if (prop === undefined) {
          errs.push(
            schemaFieldError.invalid(child(path, 'x-kubernetes-list-map-keys'), mapKeys, 'entries must all be names of item properties'),
          );
        } else if (prop.type === 'array' || prop.type === 'object') {
          errs.push(
            schemaFieldError.invalid(
              child(key(child(child(path, 'items'), 'properties'), k), 'type'),
              items.type,
              "must be a scalar type if parent array's x-kubernetes-list-type is map",
            ),
          );
        }
        if (seen.has(k))
          errs.push(schemaFieldError.invalid(child(path, 'x-kubernetes-list-map-keys'), mapKeys, 'must not contain duplicate entries'));
        seen.add(k);
      }
    }
  }
  return errs;
}

/** Set and map list items cannot be null, and map keys must always be present (required or defaulted). */
function mapListKeyRules(s: JSONSchemaProps, path: string): FieldError[] {
  const listType = s['x-kubernetes-list-type'];
  const items = itemsSchema(s);
  if (items === undefined || (listType !== 'set' && listType !== 'map')) return [];
  const errs: FieldError[] = [];
  const itemsPath = child(path, 'items');
  if (items.nullable === true)
    errs.push(schemaFieldError.forbidden(child(itemsPath, 'nullable'), `cannot be nullable when x-kubernetes-list-type is ${listType}`));
  if (listType === 'map') {
    const required = new Set(items.required ?? []);
    for (const k of s['x-kubernetes-list-map-keys'] ?? []) {
      const prop = items.properties?.[k];
      if (prop === undefined) continue;
      const propPath = key(child(itemsPath, 'properties'), k);
      if (!required.has(k) && !hasDefault(prop)) {
        errs.push(
          schemaFieldError.required(
            child(propPath, 'default'),
            'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property',
          ),
        );
      }
      if (prop.nullable === true) {
        errs.push(
          schemaFieldError.forbidden(
            child(propPath, 'nullable'),
            'this property is in x-kubernetes-list-map-keys, so it cannot be nullable',
          ),
        );
      }
    }
  }
  return errs;
}

const NEWLINES = /[\n\r]+/;

/** The static checks of x-kubernetes-validations rules; the CEL itself is neither compiled nor evaluated. */
function celRuleShape(s: JSONSchemaProps, path: string): FieldError[] {
  const errs: FieldError[] = [];
  (s['x-kubernetes-validations'] ?? []).forEach((rule, i) => {
    const rulePath = index(child(path, 'x-kubernetes-validations'), i);
    const trimmedRule = (rule.rule ?? '').trim();
    const message = rule.message ?? '';
    const trimmedMessage = message.trim();
    if (trimmedRule === '') errs.push(schemaFieldError.required(child(rulePath, 'rule'), 'rule is not specified'));
    else if (message !== '' && trimmedMessage === '')
      errs.push(schemaFieldError.invalid(child(rulePath, 'message'), message, 'message must be non-empty if specified'));
    else if (NEWLINES.test(trimmedMessage))
      errs.push(schemaFieldError.invalid(child(rulePath, 'message'), message, 'message must not contain line breaks'));
    else if (NEWLINES.test(trimmedRule) && trimmedMessage === '') {
      errs.push(schemaFieldError.required(child(rulePath, 'message'), 'message must be specified if rule contains line breaks'));
    }
    const messageExpression = rule.messageExpression ?? '';
    if (messageExpression !== '' && messageExpression.trim() === '') {
      errs.push(schemaFieldError.required(child(rulePath, 'messageExpression'), 'messageExpression must be non-empty if specified'));
    }
    if (rule.reason !== undefined && !VALIDATION_REASONS.includes(rule.reason)) {
      errs.push(schemaFieldError.notSupported(child(rulePath, 'reason'), rule.reason, VALIDATION_REASONS));
    }
    const fieldPath = rule.fieldPath ?? '';
    if (fieldPath !== '' && fieldPath.trim() === '')
      errs.push(schemaFieldError.invalid(child(rulePath, 'fieldPath'), fieldPath, 'fieldPath must be non-empty if specified'));
    if (NEWLINES.test(fieldPath))
      errs.push(schemaFieldError.invalid(child(rulePath, 'fieldPath'), fieldPath, 'fieldPath must not contain line breaks'));
  });
  return errs;
}
