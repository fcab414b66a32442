import type { IncomingMessage, ServerResponse } from 'node:http';
import { notAcceptable, notFoundPath } from '../api/errors.js';
import { buildOpenApiV2 } from '../openapi/v2.js';
import { buildOpenApiV3, type OpenApiV3Served } from '../openapi/v3.js';
import type { ApiContext } from './api-context.js';
import { KUBERNETES_VERSION } from './version.js';

interface Cached {
  readonly generation: number;
  v2?: string;
  v3?: OpenApiV3Served;
}

/** kubectl asks for protobuf first; only JSON is served, so a client that will not take JSON gets 406. */
function acceptsJson(req: IncomingMessage): boolean {
  const accept = req.headers.accept;
  if (accept === undefined || accept === '') return true;
  return accept.split(',').some((part) => {
    const type = part.split(';')[0]?.trim().toLowerCase();
    return type === 'application/json' || type === '*/*' || type === 'application/*';
  });
}

/**
 * /openapi/v2 and /openapi/v3[/<path>]: built from the schema definitions on first request and rebuilt only
 * when the set of served resources changes.
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
  return (req, res, pathname) => {
    if (!acceptsJson(req)) throw notAcceptable('only application/json is served for OpenAPI documents');
    const c = current();
    // Built only when a document is missing from the cache (the served resources changed since).
    const input = () => ({
      resources: ctx.registry.resources(),
      definitions: { ...ctx.definitions, ...ctx.registry.extraDefinitions() },
      version: KUBERNETES_VERSION.gitVersion,
    });
    if (pathname === '/openapi/v2') {
      c.v2 ??= JSON.stringify(buildOpenApiV2(input()));
      sendDoc(res, c.v2, false);
      return;
    }
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
