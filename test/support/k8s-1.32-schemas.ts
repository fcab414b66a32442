import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as models from '@kubernetes/client-node-1.32/dist/gen/models/all.js';

/**
 * Kubernetes 1.32's own schemas, as an independent reference for the definitions Cascade serves: the models of
 * @kubernetes/client-node 1.1.2 (pinned as the `@kubernetes/client-node-1.32` devDependency alias) are generated
 * from the v1.32.0 OpenAPI document. Each model lists its fields with their JSON names, types and formats, and its
 * declaration file marks which fields are required. Comparing against them keeps hand-written schemas from
 * drifting silently (a field missing from a definition is refused by strict field validation).
 */

interface Attribute {
  readonly baseName: string;
  readonly type: string;
  readonly format: string;
}

interface ModelClass {
  readonly attributeTypeMap?: readonly Attribute[];
}

const MODELS = models as unknown as Readonly<Record<string, ModelClass | undefined>>;
const MODELS_DIR = join(dirname(createRequire(import.meta.url).resolve('@kubernetes/client-node-1.32/package.json')), 'dist/gen/models');

/** Definitions the generator turns into a language type rather than a model. */
const LANGUAGE_TYPES: Readonly<Record<string, string>> = {
  'io.k8s.apimachinery.pkg.api.resource.Quantity': 'string',
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': 'IntOrString',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Time': 'Date',
  'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime': 'V1MicroTime',
  'io.k8s.apimachinery.pkg.runtime.RawExtension': 'any',
};

/**
 * Definitions 1.32 publishes as free-form JSON (a type with custom marshalling and no properties); the generator
 * types every field referring to them as `any` and emits no model.
 */
const FREE_FORM = new Set([
  'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Patch',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceSubresourceStatus',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrArray',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrStringArray',
]);

const pascal = (s: string): string =>
  s
    .split(/[-.]/)
    .map((p) => (p === '' ? '' : (p[0] as string).toUpperCase() + p.slice(1)))
    .join('');

/**
 * The model class of a definition ("io.k8s.api.apps.v1.Deployment" → "V1Deployment"). Kinds whose name several
 * groups share carry their group as a prefix ("CoreV1Event", "EventsV1Event").
 */
export function modelName(definition: string): string | undefined {
  const parts = definition.split('.');
  const kind = parts.at(-1) ?? '';
  const version = pascal(parts.at(-2) ?? '');
  const prefixed = pascal(parts.at(-3) ?? '') + version + kind;
  if (MODELS[prefixed]?.attributeTypeMap !== undefined) return prefixed;
  return MODELS[version + kind]?.attributeTypeMap !== undefined ? version + kind : undefined;
}

type Json = Record<string, unknown>;

const isJson = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The definition a v2 (`#/definitions/`) or v3 (`#/components/schemas/`, possibly wrapped in allOf) schema names. */
function referenced(schema: Json): string | undefined {
  const direct = schema.$ref;
  if (typeof direct === 'string') return direct.slice(direct.lastIndexOf('/') + 1);
  const allOf = schema.allOf;
  if (Array.isArray(allOf) && allOf.length === 1 && isJson(allOf[0])) return referenced(allOf[0]);
  return undefined;
}

/** A property schema written in the generator's type language ("Array<V1Container>", "{ [key: string]: string; }"). */
function typeName(schema: Json): string {
  const ref = referenced(schema);
  if (ref !== undefined) return LANGUAGE_TYPES[ref] ?? modelName(ref) ?? (FREE_FORM.has(ref) ? 'any' : `<no 1.32 model: ${ref}>`);
  switch (schema.type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array':
      return `Array<${typeName(isJson(schema.items) ? schema.items : {})}>`;
    case 'object':
      return isJson(schema.additionalProperties) ? `{ [key: string]: ${typeName(schema.additionalProperties)}; }` : 'object';
    default:
      return 'any';
  }
}

/**
 * The format of the innermost non-reference schema (`int64` for an array of int64); references have none here,
 * except meta/v1 Time inside a map or array, which the generator types as a date-time (PDB's disruptedPods).
 */
function leafFormat(schema: Json): string {
  const target = referenced(schema);
  if (target !== undefined) return target === 'io.k8s.apimachinery.pkg.apis.meta.v1.Time' ? 'date-time' : '';
  if (isJson(schema.items)) return leafFormat(schema.items);
  if (isJson(schema.additionalProperties)) return leafFormat(schema.additionalProperties);
  return typeof schema.format === 'string' ? schema.format : '';
}

const requiredCache = new Map<string, string[]>();

/** Required fields of a model: its declaration file types them without `?`. */
function requiredFields(model: string): string[] {
  let required = requiredCache.get(model);
  if (required === undefined) {
    const declaration = readFileSync(join(MODELS_DIR, `${model}.d.ts`), 'utf8');
    required = [...declaration.matchAll(/^\s+'([^']+)':/gm)].map((m) => m[1] as string).sort();
    requiredCache.set(model, required);
  }
  return required;
}

/**
 * Every difference between the given definitions (v2 `definitions` or v3 `components.schemas`) and 1.32's:
 * a definition 1.32 lacks, and per definition a field one side lacks, a field typed or formatted differently,
 * or different required fields. An empty list means the schemas agree.
 */
export function differencesFrom132(definitions: Readonly<Record<string, unknown>>): string[] {
  const out: string[] = [];
  for (const [name, schema] of Object.entries(definitions)) {
    if (!isJson(schema) || name in LANGUAGE_TYPES) continue;
    const properties = isJson(schema.properties) ? schema.properties : {};
    if (FREE_FORM.has(name)) {
      if (Object.keys(properties).length > 0) out.push(`${name}: 1.32 publishes it without properties`);
      continue;
    }
    const model = modelName(name);
    if (model === undefined) {
      out.push(`${name}: not a 1.32 definition`);
      continue;
    }
    const theirs = new Map((MODELS[model]?.attributeTypeMap ?? []).map((a) => [a.baseName, a]));
    for (const [field, attribute] of theirs) {
      const ours = properties[field];
      if (!isJson(ours)) {
        out.push(`${name}.${field}: missing (1.32 has ${attribute.type})`);
        continue;
      }
      const type = typeName(ours);
      if (type !== attribute.type) out.push(`${name}.${field}: type ${type}, 1.32 has ${attribute.type}`);
      const format = leafFormat(ours);
      if (referenced(ours) === undefined && format !== attribute.format) {
        out.push(`${name}.${field}: format "${format}", 1.32 has "${attribute.format}"`);
      }
    }
    for (const field of Object.keys(properties)) {
      if (!theirs.has(field)) out.push(`${name}.${field}: not in 1.32`);
    }
    const required = Array.isArray(schema.required) ? schema.required.map(String).sort() : [];
    const theirRequired = requiredFields(model);
    if (required.join() !== theirRequired.join()) {
      out.push(`${name}: required [${required.join(', ')}], 1.32 has [${theirRequired.join(', ')}]`);
    }
  }
  return out;
}
