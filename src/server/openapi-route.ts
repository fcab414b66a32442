import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { notAcceptable, notFoundPath } from '../api/errors.js';
import { buildOpenApiV2 } from '../openapi/v2.js';
import { buildOpenApiV3, type OpenApiV3Served } from '../openapi/v3.js';
import { encodeOpenApiV2Document } from '../protobuf/openapi-v2-document.js';
import type { ApiContext } from './api-context.js';
import { KUBERNETES_VERSION } from './version.js';

/** The /openapi/v2 document in both encodings, with the ETag and Last-Modified they share (built once per generation). */
interface OpenApiV2Served {
  readonly json: string;
  readonly etag: string;
  readonly lastModified: string;
  protobuf?: Uint8Array;
}

interface Cached {
  readonly generation: number;
  v2?: OpenApiV2Served;
  v3?: OpenApiV3Served;
}

const PROTOBUF_V2 = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';
/** The subtypes kube-openapi serves /openapi/v2 as, in its order; the deprecated `@` spelling answers with the `.` one. */
const V2_SUBTYPES: readonly [string, 'json' | 'protobuf'][] = [
  ['json', 'json'],
  ['com.github.proto-openapi.spec.v2@v1.0+protobuf', 'protobuf'],
  ['com.github.proto-openapi.spec.v2.v1.0+protobuf', 'protobuf'],
];

interface AcceptClause {
  readonly type: string;
  readonly subtype: string;
  readonly q: number;
}

function acceptClauses(req: IncomingMessage): AcceptClause[] {
  const header = req.headers.accept;
  const clauses: AcceptClause[] = [];
  for (const part of header === undefined || header === '' ? ['*/*'] : header.split(',')) {
    const [range = '', ...params] = part.split(';');
    const [type = '', subtype = ''] = range.trim().toLowerCase().split('/');
    let q = 1;
    for (const param of params) {
      const [name, value] = param.split('=').map((s) => s.trim());
      if (name === 'q' && value !== undefined) q = Number(value);
    }
    if (type !== '' && Number.isFinite(q) && q > 0) clauses.push({ type, subtype, q });
  }
  // Highest quality first; a stable sort keeps the client's order among equals, as goautoneg's ordering does.
  return clauses.sort((a, b) => b.q - a.q);
}

/** kube-openapi's choice: the first clause (by quality) that one of the served encodings matches. */
function negotiateV2(req: IncomingMessage): 'json' | 'protobuf' | undefined {
  for (const clause of acceptClauses(req)) {
    if (clause.type !== 'application' && clause.type !== '*') continue;
    for (const [subtype, encoding] of V2_SUBTYPES) if (clause.subtype === subtype || clause.subtype === '*') return encoding;
  }
  return undefined;
}

function acceptsJson(req: IncomingMessage): boolean {
  return acceptClauses(req).some((c) => (c.type === 'application' || c.type === '*') && (c.subtype === 'json' || c.subtype === '*'));
}

/** A request revalidating with the ETag it holds gets 304, as Go's http.ServeContent answers it. */
function notModified(req: IncomingMessage, etag: string): boolean {
  const header = req.headers['if-none-match'];
  if (header === undefined) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

function buildV2(json: string): OpenApiV2Served {
  // kube-openapi's ETag: the upper-case hex SHA-512 of the JSON document, quoted; the protobuf form shares it.
  const etag = `"${createHash('sha512').update(json).digest('hex').toUpperCase()}"`;
  return { json, etag, lastModified: new Date().toUTCString() };
}

/**
 * /openapi/v2 (JSON or gnostic protobuf, with ETag) and /openapi/v3[/<path>]: built from the schema definitions on
 * first request and rebuilt only when the set of served resources changes.
 */
export function createOpenApiRoute(ctx: ApiContext): (req: IncomingMessage, res: ServerResponse, pathname: string) => void {
  let cache: Cached = { generation: -1 };
  const current = (): Cached => {
    if (cache.generation !== ctx.registry.generation) cache = { generation: ctx.registry.generation };
    return cache;
  };
  const sendDoc = (res: ServerResponse, text: string, immutable: boolean): void => {
    res.writeHead(200, {
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(text),
      ...(immutable ? { 'Cache-Control': 'public, immutable' } : {}),
    });
    res.end(text);
  };
  const sendV2 = (req: IncomingMessage, res: ServerResponse, v2: OpenApiV2Served, encoding: 'json' | 'protobuf'): void => {
    const headers = { Vary: 'Accept', Etag: v2.etag, 'Last-Modified': v2.lastModified };
    if (notModified(req, v2.etag)) {
      res.writeHead(304, headers);
      res.end();
      return;
    }
    if (encoding === 'json') {
      res.writeHead(200, { ...headers, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(v2.json) });
      res.end(v2.json);
      return;
    }
    v2.protobuf ??= encodeOpenApiV2Document(JSON.parse(v2.json) as Record<string, unknown>);
    res.writeHead(200, { ...headers, 'Content-Type': PROTOBUF_V2, 'Content-Length': v2.protobuf.length });
    res.end(v2.protobuf);
  };
  return (req, res, pathname) => {
    const c = current();
    // Built only when a document is missing from the cache (the served resources changed since).
    const input = () => ({
      resources: ctx.registry.resources(),
      definitions: { ...ctx.definitions, ...ctx.registry.extraDefinitions() },
      version: KUBERNETES_VERSION.gitVersion,
    });
    if (pathname === '/openapi/v2') {
      const encoding = negotiateV2(req);
      if (encoding === undefined) throw notAcceptable(`only application/json and ${PROTOBUF_V2} are served for /openapi/v2`);
      c.v2 ??= buildV2(JSON.stringify(buildOpenApiV2(input())));
      sendV2(req, res, c.v2, encoding);
      return;
    }
    if (!acceptsJson(req)) throw notAcceptable('only application/json is served for OpenAPI v3 documents');
    c.v3 ??= buildOpenApiV3(input());
    if (pathname === '/openapi/v3') {
      sendDoc(res, JSON.stringify(c.v3.index), false);
      return;
    }
    const doc = c.v3.documents.get(pathname.slice('/openapi/v3/'.length));
    if (doc === undefined) throw notFoundPath();
    sendDoc(res, doc.json, true);
  };
}
