import type { ResourceInfo } from '../api/resource-info.js';
import { groupVersionDiscoveryPath, rootDiscoveryPath, servedGroupVersions } from './discovery-paths.js';
import type { OperationSpec, ParameterSpec, PathSpec } from './operation-spec.js';
import { resourcePaths } from './resource-paths.js';
import type { Definitions } from './schema.js';

/** The Swagger 2.0 document served at /openapi/v2. Pure and deterministic: paths and definitions are sorted. */

type Json = Record<string, unknown>;

const ref = (definition: string): Json => ({ $ref: `#/definitions/${definition}` });

function renderParameter(param: ParameterSpec): Json {
  return {
    description: param.description,
    in: param.in,
    name: param.name,
    ...(param.required === true ? { required: true } : {}),
    type: param.type,
    uniqueItems: true,
  };
}

function renderOperation(op: OperationSpec): Json {
  const parameters: Json[] = op.parameters.map(renderParameter);
  if (op.body !== undefined) {
    parameters.unshift({
      in: 'body',
      name: 'body',
      ...(op.body.required ? { required: true } : {}),
      schema: ref(op.body.definition),
    });
  }
  const responses: Json = {};
  for (const r of op.responses) {
    const schema = r.definition !== undefined ? ref(r.definition) : r.schemaType !== undefined ? { type: r.schemaType } : undefined;
    responses[r.code] = { description: r.description, ...(schema === undefined ? {} : { schema }) };
  }
  return {
    consumes: [...op.consumes],
    description: op.description,
    operationId: op.operationId,
    ...(parameters.length > 0 ? { parameters } : {}),
    produces: [...op.produces],
    responses,
    schemes: ['https'],
    tags: [op.tag],
    ...(op.action === undefined ? {} : { 'x-kubernetes-action': op.action }),
    ...(op.gvk === undefined ? {} : { 'x-kubernetes-group-version-kind': { ...op.gvk } }),
  };
}

function renderPath(spec: PathSpec): Json {
  const item: Json = {};
  for (const op of spec.operations) item[op.method] = renderOperation(op);
  if (spec.parameters.length > 0) item.parameters = spec.parameters.map(renderParameter);
  return sortKeys(item);
}

function sortKeys(obj: Json): Json {
  const out: Json = {};
  for (const key of Object.keys(obj).sort()) out[key] = obj[key];
  return out;
}

/** Every path of the served API: discovery roots, group-version resource lists and the resources themselves. */
export function allPathSpecs(resources: readonly ResourceInfo[]): PathSpec[] {
  const specs: PathSpec[] = [rootDiscoveryPath({ root: 'api' }), rootDiscoveryPath({ root: 'apis' })];
  const groups = new Set<string>();
  for (const gv of servedGroupVersions(resources)) {
    if (gv.group !== '' && !groups.has(gv.group)) {
      groups.add(gv.group);
      specs.push(rootDiscoveryPath({ group: gv.group }));
    }
    specs.push(groupVersionDiscoveryPath(gv.group, gv.version));
  }
  for (const resource of resources) specs.push(...resourcePaths(resource));
  return specs;
}

export function buildOpenApiV2(input: { resources: readonly ResourceInfo[]; definitions: Definitions; version: string }): object {
  const specs = allPathSpecs(input.resources).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const paths: Json = {};
  for (const spec of specs) {
    if (spec.path in paths) throw new Error(`duplicate OpenAPI path ${spec.path}`);
    paths[spec.path] = renderPath(spec);
  }
  const definitions: Json = {};
  for (const name of Object.keys(input.definitions).sort()) definitions[name] = input.definitions[name];
  return {
    definitions,
    info: { title: 'Kubernetes', version: input.version },
    paths,
    security: [{ BearerToken: [] }],
    securityDefinitions: {
      BearerToken: { description: 'Bearer Token authentication', in: 'header', name: 'authorization', type: 'apiKey' },
    },
    swagger: '2.0',
  };
}
