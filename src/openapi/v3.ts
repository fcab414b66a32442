import { createHash } from 'node:crypto';
import type { ResourceInfo } from '../api/resource-info.js';
import { groupVersionDiscoveryPath, rootDiscoveryPath, servedGroupVersions } from './discovery-paths.js';
import type { OperationSpec, ParameterSpec, PathSpec } from './operation-spec.js';
import { resourcePaths } from './resource-paths.js';
import type { Definitions, Schema } from './schema.js';

/**
 * The OpenAPI 3.0 documents served under /openapi/v3: one per group-version ("api/v1", "apis/apps/v1") plus
 * the discovery roots ("api", "apis", "apis/<group>"), and the index that points at them by content hash.
 * Builders are pure and deterministic so a server can compute everything once.
 */

type Json = Record<string, unknown>;

const V2_PREFIX = '#/definitions/';
const V3_PREFIX = '#/components/schemas/';
const DEFAULT_INFO_VERSION = 'unversioned';
const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
const INT_OR_STRING = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';

interface DocumentInput {
  resources: readonly ResourceInfo[];
  definitions: Definitions;
  /** info.version of the documents. */
  version?: string;
}

const refName = (ref: string): string => (ref.startsWith(V2_PREFIX) ? ref.slice(V2_PREFIX.length) : ref);
const v3Ref = (definition: string): Json => ({ $ref: `${V3_PREFIX}${definition}` });

/** Rewrites a v2 schema into v3 form: references move to components, and a reference with siblings is wrapped in allOf. */
export function toV3Schema(schema: Schema): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$ref') continue;
    if (key === 'properties' && value !== undefined) {
      const props: Json = {};
      for (const [name, prop] of Object.entries(value as Record<string, Schema>)) props[name] = toV3Schema(prop);
      out.properties = props;
    } else if ((key === 'items' || key === 'additionalProperties') && typeof value === 'object' && value !== null) {
      out[key] = toV3Schema(value as Schema);
    } else {
      out[key] = value;
    }
  }
  if (schema.$ref === undefined) return out;
  const target = v3Ref(refName(schema.$ref));
  return Object.keys(out).length === 0 ? target : { allOf: [target], ...out };
}

/** The v3 form of a whole definition; Quantity and IntOrString are published as one-of unions in v3. */
function definitionToV3(name: string, schema: Schema): Json {
  if (name === QUANTITY) {
    return { description: schema.description, oneOf: [{ type: 'string' }, { type: 'number' }] };
  }
  if (name === INT_OR_STRING) {
    return {
      description: schema.description,
      format: 'int-or-string',
      oneOf: [{ type: 'integer' }, { type: 'string' }],
    };
  }
  return toV3Schema(schema);
}

function collectRefs(schema: Schema, into: Set<string>): void {
  if (schema.$ref !== undefined) into.add(refName(schema.$ref));
  if (schema.items !== undefined) collectRefs(schema.items, into);
  if (typeof schema.additionalProperties === 'object') collectRefs(schema.additionalProperties, into);
  for (const prop of Object.values(schema.properties ?? {})) collectRefs(prop, into);
}

/** The named definitions plus everything they reference, transitively. Throws on a dangling reference. */
export function definitionClosure(definitions: Definitions, roots: Iterable<string>): string[] {
  const seen = new Set<string>();
  const pending = [...roots];
  while (pending.length > 0) {
    const name = pending.pop() as string;
    if (seen.has(name)) continue;
    const schema = definitions[name];
    if (schema === undefined) throw new Error(`OpenAPI definition ${name} is referenced but not defined`);
    seen.add(name);
    const refs = new Set<string>();
    collectRefs(schema, refs);
    for (const r of refs) if (!seen.has(r)) pending.push(r);
  }
  return [...seen].sort();
}

function renderParameter(param: ParameterSpec): Json {
  return {
    description: param.description,
    in: param.in,
    name: param.name,
    ...(param.required === true ? { required: true } : {}),
    schema: { type: param.type, uniqueItems: true },
  };
}

function renderOperation(op: OperationSpec): Json {
  const responses: Json = {};
  for (const r of op.responses) {
    const content: Json = {};
    const schema = r.definition !== undefined ? v3Ref(r.definition) : r.schemaType !== undefined ? { type: r.schemaType } : undefined;
    if (schema !== undefined) {
      for (const type of op.produces) content[type] = { schema };
    }
    responses[r.code] = schema === undefined ? { description: r.description } : { content, description: r.description };
  }
  const operation: Json = {
    description: op.description,
    operationId: op.operationId,
    ...(op.parameters.length > 0 ? { parameters: op.parameters.map(renderParameter) } : {}),
  };
  if (op.body !== undefined) {
    const content: Json = {};
    for (const type of op.consumes) content[type] = { schema: v3Ref(op.body.definition) };
    operation.requestBody = { content, ...(op.body.required ? { required: true } : {}) };
  }
  return {
    ...operation,
    responses,
    tags: [op.tag],
    ...(op.action === undefined ? {} : { 'x-kubernetes-action': op.action }),
    ...(op.gvk === undefined ? {} : { 'x-kubernetes-group-version-kind': { ...op.gvk } }),
  };
}

function renderDocument(specs: PathSpec[], definitions: Definitions, version: string): object {
  const sorted = [...specs].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const paths: Json = {};
  const roots = new Set<string>();
  for (const spec of sorted) {
    const item: Json = {};
    for (const op of [...spec.operations].sort((a, b) => a.method.localeCompare(b.method))) {
      item[op.method] = renderOperation(op);
      if (op.body !== undefined) roots.add(op.body.definition);
      for (const r of op.responses) if (r.definition !== undefined) roots.add(r.definition);
    }
    if (spec.parameters.length > 0) item.parameters = spec.parameters.map(renderParameter);
    paths[spec.path] = item;
  }
  const schemas: Json = {};
  for (const name of definitionClosure(definitions, roots)) {
    schemas[name] = definitionToV3(name, definitions[name] as Schema);
  }
  return {
    components: {
      schemas,
      securitySchemes: {
        BearerToken: { description: 'Bearer Token authentication', in: 'header', name: 'authorization', type: 'apiKey' },
      },
    },
    info: { title: 'Kubernetes', version },
    openapi: '3.0.0',
    paths,
    security: [{ BearerToken: [] }],
  };
}

/** OpenAPI 3.0 document of one group-version: its resource paths and the closure of the schemas they use. */
export function buildOpenApiV3GroupVersion(input: {
  group: string;
  version: string;
  resources: readonly ResourceInfo[];
  definitions: Definitions;
  infoVersion?: string;
}): object {
  const specs: PathSpec[] = [groupVersionDiscoveryPath(input.group, input.version)];
  for (const r of input.resources) {
    if (r.group === input.group && r.version === input.version) specs.push(...resourcePaths(r));
  }
  return renderDocument(specs, input.definitions, input.infoVersion ?? DEFAULT_INFO_VERSION);
}

/** Keys of the served v3 documents, in the order the index lists them (sorted). */
export function openApiV3DocumentKeys(resources: readonly ResourceInfo[]): string[] {
  const keys = new Set<string>(['api', 'apis']);
  for (const gv of servedGroupVersions(resources)) {
    if (gv.group === '') keys.add(`api/${gv.version}`);
    else {
      keys.add(`apis/${gv.group}`);
      keys.add(`apis/${gv.group}/${gv.version}`);
    }
  }
  return [...keys].sort();
}

/** The document served at /openapi/v3/<key>, or undefined for an unknown key. */
export function buildOpenApiV3Document(key: string, input: DocumentInput): object | undefined {
  if (!openApiV3DocumentKeys(input.resources).includes(key)) return undefined;
  const version = input.version ?? DEFAULT_INFO_VERSION;
  const parts = key.split('/');
  if (key === 'api') return renderDocument([rootDiscoveryPath({ root: 'api' })], input.definitions, version);
  if (key === 'apis') return renderDocument([rootDiscoveryPath({ root: 'apis' })], input.definitions, version);
  if (parts[0] === 'apis' && parts.length === 2) {
    return renderDocument([rootDiscoveryPath({ group: parts[1] as string })], input.definitions, version);
  }
  const [group, gvVersion] = parts[0] === 'api' ? ['', parts[1] as string] : [parts[1] as string, parts[2] as string];
  return buildOpenApiV3GroupVersion({
    group,
    version: gvVersion,
    resources: input.resources,
    definitions: input.definitions,
    infoVersion: version,
  });
}

/** The exact bytes served for a document; the index hash is computed over them. */
export function serializeOpenApiV3(document: object): string {
  return JSON.stringify(document);
}

/** Upper-case hex SHA-512 of the serialized document, as kube-apiserver puts in serverRelativeURL. */
export function openApiV3Hash(serialized: string): string {
  return createHash('sha512').update(serialized).digest('hex').toUpperCase();
}

export interface OpenApiV3Served {
  /** Body of GET /openapi/v3. */
  index: { paths: Record<string, { serverRelativeURL: string }> };
  /** Key ("apis/apps/v1") → serialized document and its hash. */
  documents: ReadonlyMap<string, { json: string; hash: string }>;
}

/** Everything served under /openapi/v3, computed once. */
export function buildOpenApiV3(input: DocumentInput): OpenApiV3Served {
  const documents = new Map<string, { json: string; hash: string }>();
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const key of openApiV3DocumentKeys(input.resources)) {
    const json = serializeOpenApiV3(buildOpenApiV3Document(key, input) as object);
    const hash = openApiV3Hash(json);
    documents.set(key, { json, hash });
    paths[key] = { serverRelativeURL: `/openapi/v3/${key}?hash=${hash}` };
  }
  return { index: { paths }, documents };
}

/** Body of GET /openapi/v3: each served document with its content-addressed URL. */
export function buildOpenApiV3Index(input: DocumentInput): { paths: Record<string, { serverRelativeURL: string }> } {
  return buildOpenApiV3(input).index;
}
