import { type JsonLike, jsonText, malformedJson, malformedYaml, mutateObject } from './bodies.js';
import { ADMIN_HOSTILE_NAMES, type Context, nameFor, namespaceFor, objectFor, type Shape, write } from './generate-context.js';
import { CONFIGMAPS, intentOf, NAMESPACES, resourcePath, WRITABLE } from './targets.js';
import { HOSTILE_NAMES, pickName } from './values.js';

// Request bodies and their framing: JSON and YAML bodies, media types, oversize bodies and hostile metadata values.

export function jsonBody(ctx: Context): Shape {
  const { r } = ctx;
  const t = r.pick(WRITABLE);
  const shape = write(ctx, t, (base) =>
    r.chance(0.5) ? malformedJson(r, base) : { variant: 'mutated', body: Buffer.from(jsonText(mutateObject(r, base))) },
  );
  return { ...shape, headers: { 'Content-Type': 'application/json' } };
}

export function yamlBody(ctx: Context): Shape {
  const { r } = ctx;
  const t = r.pick(WRITABLE);
  const shape = write(ctx, t, (base) =>
    r.chance(0.7) ? malformedYaml(r, base) : { variant: 'mutated-json-as-yaml', body: Buffer.from(jsonText(mutateObject(r, base))) },
  );
  return {
    ...shape,
    headers: { 'Content-Type': r.pick(['application/yaml', 'application/yaml; charset=utf-8', 'application/apply-patch+yaml']) },
  };
}

const CONTENT_TYPES = [
  'application/json; charset=utf-8',
  'application/json;charset=UTF-16',
  'APPLICATION/JSON',
  'application/yaml',
  'application/vnd.kubernetes.protobuf',
  'application/cbor',
  'text/plain',
  'multipart/form-data; boundary=x',
  'application/x-www-form-urlencoded',
  '*/*',
  'application/*',
  '',
  'application/json; x',
  'application/json;;;',
  '"application/json"',
  'application/json, text/plain',
  `application/${'x'.repeat(5000)}`,
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/apply-patch+yaml',
  'application/json; charset="unterminated',
  'application',
  '/',
  ';',
];

const ACCEPTS = [
  'application/json;as=Table;v=v1;g=meta.k8s.io',
  'application/json;as=Table;v=v1beta1;g=meta.k8s.io',
  'application/json;as=Table;v=v2;g=meta.k8s.io',
  'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io',
  'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io',
  'application/json;as=Nope;v=v1;g=meta.k8s.io',
  'application/json;as=Table',
  'application/yaml',
  'application/vnd.kubernetes.protobuf',
  'application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io',
  'text/html',
  'image/png',
  '*/*;q=0',
  'application/json;q=0',
  'application/json;q=abc',
  ',',
  ';',
  'application/json;stream=watch',
  '',
  'application/json, application/yaml;q=0.5',
  `application/${'x'.repeat(5000)}`,
  'application/json;as=Table;v=v1;g=meta.k8s.io, application/json',
  'application/json;as=Table;v=v1;g=meta.k8s.io;includeObject=Bogus',
  '*/*',
  'application/*',
];

export function mediaType(ctx: Context): Shape {
  const { r } = ctx;
  const t = r.pick(WRITABLE);
  if (r.chance(0.5)) {
    const shape = write(ctx, t, (base) => ({
      variant: 'valid',
      body: Buffer.from(r.chance(0.2) ? r.string(r.between(1, 200), '\u0000k8s\u0001abc{}[]"') : jsonText(base)),
    }));
    const contentType = r.pick(CONTENT_TYPES);
    const headers: Record<string, string> = contentType === '' && r.chance(0.5) ? {} : { 'Content-Type': contentType };
    if (r.chance(0.3)) headers.Accept = r.pick(ACCEPTS);
    return { ...shape, headers, variant: `content-type/${shape.method}` };
  }
  const named = r.chance(0.5);
  const target = objectFor(ctx, t);
  const query: string[] = [];
  if (r.chance(0.2)) query.push(`includeObject=${r.pick(['None', 'Metadata', 'Object', 'Bogus', ''])}`);
  const accept = r.pick(ACCEPTS);
  return {
    method: r.chance(0.9) ? 'GET' : 'HEAD',
    path: resourcePath(t, target.namespace, named ? target.name : undefined),
    query,
    headers: { Accept: accept },
    variant: `accept/${named ? 'get' : 'list'}`,
    intent: intentOf('GET', t, target.namespace, named ? target.name : undefined),
  };
}

/** Built once per size: generating megabytes per request would measure the generator. */
const bigBodies = new Map<number, Buffer>();
function bigConfigMap(bytes: number): Buffer {
  let body = bigBodies.get(bytes);
  if (body === undefined) {
    const head = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"fz-big"},"data":{"k":"';
    const tail = '"}}';
    body = Buffer.from(`${head}${'x'.repeat(Math.max(0, bytes - head.length - tail.length))}${tail}`);
    bigBodies.set(bytes, body);
  }
  return body;
}

const LIMIT = 3 * 1024 * 1024;

export function oversize(ctx: Context): Shape {
  const { r } = ctx;
  const ns = namespaceFor(ctx);
  const path = resourcePath(CONFIGMAPS, ns);
  const intent = intentOf('POST', CONFIGMAPS, ns);
  const headers = { 'Content-Type': 'application/json' };
  return r.weighted<() => Shape>([
    [3, () => ({ method: 'POST', path, headers, body: bigConfigMap(LIMIT + 1), variant: 'limit+1', intent })],
    [
      2,
      () => ({
        method: 'POST',
        path,
        headers,
        body: bigConfigMap(LIMIT + 512 * 1024),
        chunked: true,
        variant: 'chunked-over-limit',
        intent,
      }),
    ],
    [
      2,
      () => ({
        method: r.pick(['POST', 'PUT', 'PATCH', 'DELETE']),
        path,
        headers,
        body: Buffer.from('{"a":'),
        declaredLength: r.pick([LIMIT + 1, 64 * 1024 * 1024, 2 ** 53 - 1]),
        variant: 'declared-over-limit',
        intent: undefined,
      }),
    ],
    [
      2,
      () => ({
        method: 'POST',
        path,
        headers,
        body: bigConfigMap(1024 * 1024 + r.between(-64, 64)),
        variant: 'configmap-size-edge',
        intent,
      }),
    ],
    [
      1,
      () => ({
        method: 'PATCH',
        path: resourcePath(CONFIGMAPS, ns, 'cm-0'),
        headers: { 'Content-Type': 'application/merge-patch+json' },
        body: bigConfigMap(LIMIT + 1),
        variant: 'patch-over-limit',
        intent: intentOf('PATCH', CONFIGMAPS, ns, 'cm-0'),
      }),
    ],
    [
      2,
      () => ({
        method: 'GET',
        path,
        headers: { 'X-Fuzz': 'h'.repeat(r.pick([8 * 1024, 17 * 1024, 64 * 1024])) },
        variant: 'huge-header',
        intent: undefined,
      }),
    ],
  ])();
}

export function metadataValues(ctx: Context): Shape {
  const { r } = ctx;
  const t = r.pick(WRITABLE);
  if (r.chance(0.5)) {
    const shape = write(ctx, t, (base) => {
      const copy = structuredClone(base);
      const meta = copy.metadata as { [key: string]: JsonLike };
      const which = r.pick([
        'name',
        'generateName',
        'namespace',
        'labels',
        'annotations',
        'finalizers',
        'ownerReferences',
        'resourceVersion',
        'uid',
      ]);
      switch (which) {
        case 'name':
        case 'namespace':
          meta[which] = pickName(r);
          break;
        case 'generateName':
          delete meta.name;
          meta.generateName = r.pick([...HOSTILE_NAMES, 'fz-', 'x'.repeat(300)]);
          break;
        default:
          return { variant: which, body: Buffer.from(jsonText(mutateObject(r, copy))) };
      }
      return { variant: which, body: Buffer.from(jsonText(copy)) };
    });
    return { ...shape, headers: { 'Content-Type': 'application/json' } };
  }
  // Hostile names and namespaces in the path of reads and deletes.
  const method = r.pick(['GET', 'GET', 'DELETE', 'HEAD']);
  const ns = t.namespaced ? (ctx.actor === 'admin' ? namespaceFor(ctx) : r.chance(0.5) ? pickName(r) : namespaceFor(ctx)) : undefined;
  const name =
    ctx.actor === 'admin' ? (t === NAMESPACES && method === 'DELETE' ? nameFor(ctx, t) : r.pick(ADMIN_HOSTILE_NAMES)) : pickName(r);
  return { method, path: resourcePath(t, ns, name), variant: `path-name/${method}`, intent: intentOf(method, t, ns, name) };
}
