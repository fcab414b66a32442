/**
 * A small aggregated API server for tests, in the spirit of k8s.io/sample-apiserver: HTTPS on 127.0.0.1, discovery
 * for wardle.example.com/v1alpha1 and one namespaced resource, flunders (kind Flunder), kept in memory with uids,
 * resourceVersions, ownerReferences and finalizers. Identity comes from requestheader authentication: X-Remote-User,
 * X-Remote-Group and X-Remote-Extra-* are believed only from clients presenting a certificate signed by the
 * front-proxy CA; every other request is 401. stop() and start() take it down and bring it back on the same port
 * with the same objects, as a restarted pod behind a stable Service would.
 */

import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { KubeObject } from '../../src/api/types.js';
import { applyJsonMergePatch } from '../../src/patch/json-merge-patch.js';
import { applyJsonPatch } from '../../src/patch/json-patch.js';

export const WARDLE_GROUP = 'wardle.example.com';
export const WARDLE_VERSION = 'v1alpha1';
export const FLUNDERS = { group: WARDLE_GROUP, version: WARDLE_VERSION, resource: 'flunders' } as const;
const API_VERSION = `${WARDLE_GROUP}/${WARDLE_VERSION}`;
const QUALIFIED = `flunders.${WARDLE_GROUP}`;

export interface SampleApiServerOptions {
  /** Serving certificate and key (PEM). */
  readonly cert: string;
  readonly key: string;
  /** --requestheader-client-ca-file: identity headers are trusted only from clients this CA signed. */
  readonly frontProxyCa: string;
  /** --requestheader-allowed-names; empty or absent allows any common name. */
  readonly allowedNames?: readonly string[];
  /** 0 (default) picks a free port; stop()/start() keep the one picked. */
  readonly port?: number;
}

export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly user: string;
  readonly groups: readonly string[];
  readonly extra: Readonly<Record<string, readonly string[]>>;
  readonly headers: IncomingHttpHeaders;
}

export interface SampleApiServer {
  readonly port: number;
  /** Authenticated requests, oldest first. */
  readonly requests: RecordedRequest[];
  readonly running: boolean;
  /** The stored flunders (copies), optionally of one namespace. */
  flunders(namespace?: string): KubeObject[];
  stop(): Promise<void>;
  start(): Promise<void>;
}

interface WatchEvent {
  readonly rv: number;
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly object: KubeObject;
}

interface Watcher {
  readonly namespace: string | undefined;
  readonly res: ServerResponse;
}

class HttpError extends Error {
  readonly code: number;
  readonly reason: string;
  readonly details: Record<string, unknown> | undefined;
  constructor(code: number, reason: string, message: string, details?: Record<string, unknown>) {
    super(message);
    this.code = code;
    this.reason = reason;
    this.details = details;
  }
}

const notFound = (name: string): HttpError =>
  new HttpError(404, 'NotFound', `${QUALIFIED} "${name}" not found`, { name, group: WARDLE_GROUP, kind: 'flunders' });
const conflict = (name: string, detail: string): HttpError =>
  new HttpError(409, 'Conflict', `Operation cannot be fulfilled on ${QUALIFIED} "${name}": ${detail}`, {
    name,
    group: WARDLE_GROUP,
    kind: 'flunders',
  });

const DISCOVERY = {
  groupList: {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: [
      {
        name: WARDLE_GROUP,
        versions: [{ groupVersion: API_VERSION, version: WARDLE_VERSION }],
        preferredVersion: { groupVersion: API_VERSION, version: WARDLE_VERSION },
      },
    ],
  },
  resourceList: {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: API_VERSION,
    resources: [
      {
        name: 'flunders',
        singularName: 'flunder',
        namespaced: true,
        kind: 'Flunder',
        verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      },
    ],
  },
};

function sendJson(res: ServerResponse, code: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

function sendError(res: ServerResponse, err: HttpError): void {
  sendJson(res, err.code, {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: err.message,
    reason: err.reason,
    ...(err.details === undefined ? {} : { details: err.details }),
    code: err.code,
  });
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, 'BadRequest', 'the request body is not JSON');
  }
}

function headerList(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** requestheader authentication: the user the trusted front proxy names, or undefined. */
function authenticate(
  req: IncomingMessage,
  allowedNames: readonly string[],
): Omit<RecordedRequest, 'method' | 'url' | 'headers'> | undefined {
  const socket = req.socket as TLSSocket;
  if (!socket.authorized) return undefined;
  const cn = socket.getPeerCertificate().subject?.CN;
  if (allowedNames.length > 0 && (typeof cn !== 'string' || !allowedNames.includes(cn))) return undefined;
  const user = headerList(req.headers['x-remote-user'])[0];
  if (user === undefined || user === '') return undefined;
  const extra: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (!name.startsWith('x-remote-extra-')) continue;
    extra[decodeURIComponent(name.slice('x-remote-extra-'.length))] = headerList(value).flatMap((v) => v.split(',').map((s) => s.trim()));
  }
  // Node joins repeated headers with ", "; each X-Remote-Group line is one group.
  const groups = headerList(req.headers['x-remote-group']).flatMap((v) => v.split(',').map((s) => s.trim()));
  return { user, groups, extra };
}

export async function startSampleApiServer(options: SampleApiServerOptions): Promise<SampleApiServer> {
  const objects = new Map<string, KubeObject>();
  const history: WatchEvent[] = [];
  const watchers = new Set<Watcher>();
  const sockets = new Set<Socket>();
  const requests: RecordedRequest[] = [];
  let revision = 1;
  let server: Server | undefined;
  let port = options.port ?? 0;

  const keyOf = (namespace: string, name: string): string => `${namespace}/${name}`;
  const inScope = (obj: KubeObject, namespace: string | undefined): boolean =>
    namespace === undefined || obj.metadata.namespace === namespace;
  const scoped = (namespace: string | undefined): KubeObject[] =>
    [...objects.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, o]) => o)
      .filter((o) => inScope(o, namespace));

  const emit = (type: WatchEvent['type'], object: KubeObject): void => {
    const event: WatchEvent = { rv: Number(object.metadata.resourceVersion), type, object: structuredClone(object) };
    history.push(event);
    for (const w of watchers) if (inScope(object, w.namespace)) w.res.write(`${JSON.stringify({ type, object })}\n`);
  };

  const store = (obj: KubeObject, type: 'ADDED' | 'MODIFIED'): KubeObject => {
    revision++;
    obj.metadata.resourceVersion = String(revision);
    objects.set(keyOf(obj.metadata.namespace ?? '', obj.metadata.name ?? ''), obj);
    emit(type, obj);
    return obj;
  };

  const remove = (obj: KubeObject): KubeObject => {
    objects.delete(keyOf(obj.metadata.namespace ?? '', obj.metadata.name ?? ''));
    revision++;
    const gone = { ...obj, metadata: { ...obj.metadata, resourceVersion: String(revision) } };
    emit('DELETED', gone);
    return gone;
  };

  /** Stores an update; an object being deleted whose last finalizer went away is removed instead. */
  const settle = (obj: KubeObject): KubeObject => {
    if (obj.metadata.deletionTimestamp !== undefined && (obj.metadata.finalizers ?? []).length === 0) return remove(obj);
    return store(obj, 'MODIFIED');
  };

  const existing = (namespace: string, name: string): KubeObject => {
    const obj = objects.get(keyOf(namespace, name));
    if (obj === undefined) throw notFound(name);
    return obj;
  };

  const create = (namespace: string, body: unknown): KubeObject => {
    const obj = structuredClone(body) as KubeObject;
    if (typeof obj !== 'object' || obj === null || typeof obj.metadata !== 'object')
      throw new HttpError(400, 'BadRequest', 'the body is not an object');
    const name =
      obj.metadata.name ?? (obj.metadata.generateName === undefined ? '' : `${obj.metadata.generateName}${randomUUID().slice(0, 5)}`);
    if (name === '')
      throw new HttpError(422, 'Invalid', 'Flunder "" is invalid: metadata.name: Required value: name or generateName is required');
    if (objects.has(keyOf(namespace, name))) {
      throw new HttpError(409, 'AlreadyExists', `${QUALIFIED} "${name}" already exists`, { name, group: WARDLE_GROUP, kind: 'flunders' });
    }
    obj.apiVersion = API_VERSION;
    obj.kind = 'Flunder';
    obj.metadata = {
      ...obj.metadata,
      name,
      namespace,
      uid: randomUUID(),
      creationTimestamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
    };
    delete obj.metadata.deletionTimestamp;
    return store(obj, 'ADDED');
  };

  /** The server-owned fields survive any update or patch. */
  const keepIdentity = (current: KubeObject, next: KubeObject): KubeObject => ({
    ...next,
    apiVersion: API_VERSION,
    kind: 'Flunder',
    metadata: {
      ...next.metadata,
      name: current.metadata.name,
      namespace: current.metadata.namespace,
      uid: current.metadata.uid,
      creationTimestamp: current.metadata.creationTimestamp,
      ...(current.metadata.deletionTimestamp === undefined ? {} : { deletionTimestamp: current.metadata.deletionTimestamp }),
    },
  });

  const checkVersion = (current: KubeObject, requested: unknown): void => {
    if (requested !== undefined && requested !== '' && requested !== current.metadata.resourceVersion) {
      throw conflict(
        current.metadata.name ?? '',
        'the object has been modified; please apply your changes to the latest version and try again',
      );
    }
  };

  const deleteOne = (obj: KubeObject, opts: Record<string, unknown>): { deleted: boolean; obj: KubeObject } => {
    const preconditions = (opts.preconditions ?? {}) as { uid?: string; resourceVersion?: string };
    const name = obj.metadata.name ?? '';
    if (preconditions.uid !== undefined && preconditions.uid !== obj.metadata.uid) {
      throw conflict(name, `Precondition failed: UID in precondition: ${preconditions.uid}, UID in object meta: ${obj.metadata.uid ?? ''}`);
    }
    if (preconditions.resourceVersion !== undefined && preconditions.resourceVersion !== obj.metadata.resourceVersion) {
      throw conflict(
        name,
        `Precondition failed: ResourceVersion in precondition: ${preconditions.resourceVersion}, ResourceVersion in object meta: ${obj.metadata.resourceVersion ?? ''}`,
      );
    }
    const finalizers = [...(obj.metadata.finalizers ?? [])];
    const policyFinalizer =
      opts.propagationPolicy === 'Foreground' ? 'foregroundDeletion' : opts.propagationPolicy === 'Orphan' ? 'orphan' : undefined;
    if (policyFinalizer !== undefined && !finalizers.includes(policyFinalizer)) finalizers.push(policyFinalizer);
    if (finalizers.length === 0) return { deleted: true, obj: remove(obj) };
    const next = structuredClone(obj);
    next.metadata.finalizers = finalizers;
    next.metadata.deletionTimestamp ??= new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    return { deleted: false, obj: store(next, 'MODIFIED') };
  };

  const watch = (req: IncomingMessage, res: ServerResponse, namespace: string | undefined, query: URLSearchParams): void => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private' });
    res.flushHeaders();
    const from = query.get('resourceVersion');
    if (from === null || from === '' || from === '0') {
      for (const obj of scoped(namespace)) res.write(`${JSON.stringify({ type: 'ADDED', object: obj })}\n`);
    } else {
      for (const event of history) {
        if (event.rv > Number(from) && inScope(event.object, namespace))
          res.write(`${JSON.stringify({ type: event.type, object: event.object })}\n`);
      }
    }
    const watcher: Watcher = { namespace, res };
    watchers.add(watcher);
    const timeout = Number(query.get('timeoutSeconds') ?? '0');
    const timer = timeout > 0 ? setTimeout(() => res.end(), timeout * 1000) : undefined;
    req.on('close', () => {
      watchers.delete(watcher);
      if (timer !== undefined) clearTimeout(timer);
    });
  };

  const list = (namespace: string | undefined): unknown => ({
    apiVersion: API_VERSION,
    kind: 'FlunderList',
    metadata: { resourceVersion: String(revision) },
    items: scoped(namespace),
  });

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const identity = authenticate(req, options.allowedNames ?? []);
    if (identity === undefined) throw new HttpError(401, 'Unauthorized', 'Unauthorized');
    const method = req.method ?? 'GET';
    requests.push({ method, url: req.url ?? '/', headers: req.headers, ...identity });
    const url = new URL(req.url ?? '/', 'https://localhost');
    const parts = url.pathname.split('/').filter((p) => p !== '');
    if (url.pathname === '/apis' || url.pathname === '/apis/') return sendJson(res, 200, DISCOVERY.groupList);
    if (parts[0] !== 'apis' || parts[1] !== WARDLE_GROUP)
      throw new HttpError(404, 'NotFound', 'the server could not find the requested resource');
    if (parts.length === 2) return sendJson(res, 200, { kind: 'APIGroup', apiVersion: 'v1', ...DISCOVERY.groupList.groups[0] });
    if (parts[2] !== WARDLE_VERSION) throw new HttpError(404, 'NotFound', 'the server could not find the requested resource');
    if (parts.length === 3) return sendJson(res, 200, DISCOVERY.resourceList);
    const rest = parts.slice(3);
    const namespace = rest[0] === 'namespaces' ? rest[1] : undefined;
    const [resource, name, ...extra] = namespace === undefined ? rest : rest.slice(2);
    if (resource !== 'flunders' || extra.length > 0)
      throw new HttpError(404, 'NotFound', 'the server could not find the requested resource');
    const isWatch = url.searchParams.get('watch') === 'true' || url.searchParams.get('watch') === '1';

    if (name === undefined) {
      if (method === 'GET' && isWatch) return watch(req, res, namespace, url.searchParams);
      if (method === 'GET') return sendJson(res, 200, list(namespace));
      if (namespace === undefined)
        throw new HttpError(405, 'MethodNotAllowed', `${method} is not supported on the cluster-wide collection`);
      if (method === 'POST') return sendJson(res, 201, create(namespace, await readJson(req)));
      if (method === 'DELETE') {
        const opts = ((await readJson(req)) ?? {}) as Record<string, unknown>;
        const items = scoped(namespace).map((obj) => deleteOne(obj, opts).obj);
        return sendJson(res, 200, { apiVersion: API_VERSION, kind: 'FlunderList', metadata: { resourceVersion: String(revision) }, items });
      }
      throw new HttpError(405, 'MethodNotAllowed', `${method} is not supported on flunders`);
    }
    if (namespace === undefined) throw new HttpError(404, 'NotFound', 'the server could not find the requested resource');
    const current = existing(namespace, name);
    switch (method) {
      case 'GET':
        return sendJson(res, 200, current);
      case 'PUT': {
        const body = (await readJson(req)) as KubeObject;
        checkVersion(current, body.metadata?.resourceVersion);
        return sendJson(res, 200, settle(keepIdentity(current, body)));
      }
      case 'PATCH': {
        const type = String(req.headers['content-type'] ?? '')
          .split(';')[0]
          ?.trim();
        const patch = await readJson(req);
        let patched: KubeObject;
        if (type === 'application/merge-patch+json') patched = applyJsonMergePatch(current, patch) as KubeObject;
        else if (type === 'application/json-patch+json') patched = applyJsonPatch(current, patch) as KubeObject;
        else {
          throw new HttpError(
            415,
            'UnsupportedMediaType',
            `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json`,
          );
        }
        checkVersion(current, patched.metadata?.resourceVersion);
        return sendJson(res, 200, settle(keepIdentity(current, patched)));
      }
      case 'DELETE': {
        const opts = ((await readJson(req)) ?? {}) as Record<string, unknown>;
        const result = deleteOne(current, opts);
        if (!result.deleted) return sendJson(res, 200, result.obj);
        return sendJson(res, 200, {
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Success',
          details: { name, group: WARDLE_GROUP, kind: 'flunders', uid: current.metadata.uid },
        });
      }
      default:
        throw new HttpError(405, 'MethodNotAllowed', `${method} is not supported on flunders`);
    }
  };

  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    handle(req, res).catch((err: unknown) => {
      if (res.headersSent) {
        res.end();
        return;
      }
      sendError(res, err instanceof HttpError ? err : new HttpError(500, 'InternalError', String(err)));
    });
  };

  const api: SampleApiServer = {
    get port() {
      return port;
    },
    requests,
    get running() {
      return server !== undefined;
    },
    flunders: (namespace) => scoped(namespace).map((o) => structuredClone(o)),
    async start() {
      if (server !== undefined) return;
      const next = createServer(
        { cert: options.cert, key: options.key, ca: options.frontProxyCa, requestCert: true, rejectUnauthorized: false },
        listener,
      );
      next.on('connection', (socket: Socket) => {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
      });
      await new Promise<void>((resolve, reject) => {
        next.once('error', reject);
        next.listen(port, '127.0.0.1', () => {
          next.off('error', reject);
          resolve();
        });
      });
      port = (next.address() as AddressInfo).port;
      server = next;
    },
    async stop() {
      const current = server;
      if (current === undefined) return;
      server = undefined;
      for (const w of watchers) w.res.destroy();
      watchers.clear();
      const closed = new Promise<void>((resolve) => current.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
  await api.start();
  return api;
}
