import { parse as parseYaml } from 'yaml';
import { type ActorName, allowed, type Attributes, refusalCode } from './actors.js';
import type { FuzzRequest } from './request.js';
import type { WireOutcome } from './wire-client.js';

// The per-request invariants of the fuzz suite (issue 19): no 5xx, no reset, no hang, every 4xx a Status, and no
// answer RBAC should have refused. Each violation names its invariant so failures can be grouped.

export interface Violation {
  readonly invariant: string;
  /** What was wrong, with the detail that tells one failure class from another. */
  readonly detail: string;
}

type Json = Record<string, any>;

/** A JSON or YAML body as an object; protobuf and anything else as undefined. */
function decodeBody(contentType: string, body: Buffer): unknown {
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  try {
    if (type === 'application/json' || type === '') return JSON.parse(body.toString('utf8'));
    if (type === 'application/yaml') return parseYaml(body.toString('utf8'));
  } catch {
    return undefined;
  }
  return undefined;
}

const PROTOBUF_MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

/** Why a 4xx body is not a Kubernetes Status with the answer's code, or undefined when it is one. */
function notAStatus(status: number, contentType: string, body: Buffer): string | undefined {
  if (contentType.startsWith('application/vnd.kubernetes.protobuf')) {
    return body.subarray(0, 4).equals(PROTOBUF_MAGIC) && body.includes('Status') ? undefined : 'protobuf body without a Status';
  }
  const s = decodeBody(contentType, body) as Json | undefined;
  if (s === undefined || s === null || typeof s !== 'object') return `not JSON/YAML (content-type ${JSON.stringify(contentType)})`;
  const problems: string[] = [];
  if (s.kind !== 'Status') problems.push(`kind=${JSON.stringify(s.kind)}`);
  if (s.apiVersion !== 'v1') problems.push(`apiVersion=${JSON.stringify(s.apiVersion)}`);
  if (s.status !== 'Failure') problems.push(`status=${JSON.stringify(s.status)}`);
  if (s.code !== status) problems.push(`code=${JSON.stringify(s.code)}`);
  if (typeof s.message !== 'string') problems.push('no message');
  return problems.length === 0 ? undefined : problems.join(' ');
}

/** Where RBAC would place an object found in an answer, for the kinds the fuzzer's users have rights on. */
const KIND_RESOURCES: Readonly<Record<string, { group: string; resource: string; subresource?: string }>> = {
  ConfigMap: { group: '', resource: 'configmaps' },
  Secret: { group: '', resource: 'secrets' },
  Deployment: { group: 'apps', resource: 'deployments' },
  Scale: { group: 'apps', resource: 'deployments', subresource: 'scale' },
  Namespace: { group: '', resource: 'namespaces' },
  Pod: { group: '', resource: 'pods' },
  ServiceAccount: { group: '', resource: 'serviceaccounts' },
  RoleBinding: { group: 'rbac.authorization.k8s.io', resource: 'rolebindings' },
  ClusterRole: { group: 'rbac.authorization.k8s.io', resource: 'clusterroles' },
  Lease: { group: 'coordination.k8s.io', resource: 'leases' },
};

const VERBS = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'];

/** The objects an answer carries: itself, a list's items, or a watch event's object. */
function objectsIn(value: Json): Json[] {
  const out: Json[] = [];
  if (typeof value.kind === 'string' && value.kind.endsWith('List') && Array.isArray(value.items)) {
    const itemKind = value.kind.slice(0, -'List'.length);
    for (const item of value.items as Json[]) if (item !== null && typeof item === 'object') out.push({ kind: itemKind, ...item });
  } else if (typeof value.kind === 'string') out.push(value);
  return out;
}

/** Objects in the answer the user may not see under any verb: what RBAC denies, reached. */
function leakedObjects(actor: ActorName, body: Json): string[] {
  const leaks: string[] = [];
  for (const obj of objectsIn(body)) {
    const where = KIND_RESOURCES[obj.kind as string];
    if (where === undefined) continue;
    const meta = (obj.metadata ?? {}) as Json;
    const namespace = where.resource === 'namespaces' ? String(meta.name ?? '') : String(meta.namespace ?? '');
    const attrs = (verb: string): Attributes => ({
      verb,
      group: where.group,
      resource: where.resource,
      subresource: where.subresource ?? '',
      namespace,
    });
    if (!VERBS.some((verb) => allowed(actor, attrs(verb)))) leaks.push(`${obj.kind} ${namespace}/${String(meta.name)}`);
  }
  return leaks;
}

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** What system:public-info-viewer grants anonymous users. */
const PUBLIC_PATH = /^\/(healthz|livez|readyz)(\/[^?]*)?(\?.*)?$|^\/version\/?(\?.*)?$/;
/** Self reviews, which system:basic-user grants every authenticated user. */
const SELF_REVIEW = /^\/apis\/(authorization|authentication)\.k8s\.io\/v1\/self/;

/** A percent sign not followed by two hex digits: Go's url.ParseRequestURI refuses such a target. */
const INVALID_ESCAPE = /%(?![0-9A-Fa-f]{2})/;

/**
 * Requests refused while the request line and headers are parsed, before any authentication, as Go's net/http
 * refuses them for kube-apiserver: `431 Request Header Fields Too Large` and `400 Bad Request` in plain text (no
 * handler has run, so there is no Status to write), and a target whose escapes do not decode (Cascade answers that
 * one with a 400 Status). Neither the Status shape nor the refusal code of the user applies to them.
 */
function refusedByHttpLayer(request: FuzzRequest, status: number, contentType: string, body: Buffer): boolean {
  const text = body.toString('utf8');
  const goText = `${status} ${status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}`;
  // An answer to HEAD carries no body.
  if (contentType.startsWith('text/plain') && (status === 431 || status === 400) && text === (request.method === 'HEAD' ? '' : goText))
    return true;
  return status === 400 && INVALID_ESCAPE.test(request.path.split('?')[0] ?? '');
}

/**
 * The one 5xx a valid request may get: a resourceVersion newer than the server's (504 Timeout with the
 * ResourceVersionTooLarge cause). kube-apiserver answers it once its cache has waited for that revision, and
 * client-go's reflector relies on exactly that answer to retry, so it is not bad input answered as a server fault.
 */
function tooLargeResourceVersion(status: number, contentType: string, body: Buffer): boolean {
  if (status !== 504) return false;
  const causes = (decodeBody(contentType, body) as Json | undefined)?.details?.causes;
  return Array.isArray(causes) && causes.some((c: Json) => c?.reason === 'ResourceVersionTooLarge');
}

export function checkOutcome(request: FuzzRequest, outcome: WireOutcome): Violation[] {
  if (outcome.kind === 'socket-error') return [{ invariant: 'no-reset', detail: `${outcome.code}: ${outcome.message}` }];
  if (outcome.kind === 'timeout') return [{ invariant: 'no-hang', detail: `no answer within ${outcome.afterMs} ms` }];
  const violations: Violation[] = [];
  const { status } = outcome;
  const contentType = String(outcome.headers['content-type'] ?? '');
  if (status >= 500 && !tooLargeResourceVersion(status, contentType, outcome.body)) {
    const message = (decodeBody(contentType, outcome.body) as Json | undefined)?.message;
    violations.push({
      invariant: 'no-5xx',
      detail: `${status}: ${typeof message === 'string' ? message.slice(0, 100) : outcome.body.subarray(0, 100).toString('utf8')}`,
    });
  }
  const httpLayer = refusedByHttpLayer(request, status, contentType, outcome.body);
  if (status >= 400 && request.method !== 'HEAD' && !outcome.cut && !httpLayer) {
    const why = notAStatus(status, contentType, outcome.body);
    if (why !== undefined) violations.push({ invariant: 'error-is-status', detail: `${status}: ${why}` });
  }
  if (status < 400 && status >= 200) violations.push(...checkAccess(request, outcome.body, contentType, outcome.cut));
  const refusalExpected =
    request.actor === 'bad-token' ||
    (request.actor === 'anonymous' && !PUBLIC_PATH.test(request.path)) ||
    (request.intent !== undefined && !allowed(request.actor, request.intent));
  if (refusalExpected && !httpLayer && status !== refusalCode(request.actor)) {
    const a = request.intent;
    const what =
      a === undefined
        ? 'request'
        : `${a.verb} ${a.group}/${a.resource}${a.subresource ? `/${a.subresource}` : ''} in ${JSON.stringify(a.namespace)}`;
    violations.push({
      invariant: status < 400 ? 'rbac' : 'rbac-refusal-code',
      detail: `denied ${what} answered ${status}, not ${refusalCode(request.actor)}`,
    });
  }
  return violations;
}

/** The answer's decoded documents: the body, or each whole event of a watch stream (the last may be cut off). */
function answerObjects(body: Buffer, contentType: string, cut: boolean): Json[] {
  if (contentType.startsWith('application/json') && body.subarray(0, 9).toString() === '{"type":"') {
    const events: Json[] = [];
    for (const line of body.toString('utf8').split('\n')) {
      try {
        const event = JSON.parse(line) as Json;
        if (event.object !== null && typeof event.object === 'object') events.push(event.object as Json);
      } catch {
        // An event cut off by the end of our reading.
      }
    }
    return events;
  }
  if (cut) return [];
  const decoded = decodeBody(contentType, body);
  return decoded !== null && typeof decoded === 'object' ? [decoded as Json] : [];
}

/** A success for a user RBAC limits: must not carry or have changed what the user may not reach. */
function checkAccess(request: FuzzRequest, body: Buffer, contentType: string, cut: boolean): Violation[] {
  const { actor } = request;
  if (actor === 'admin') return [];
  const violations: Violation[] = [];
  const pathOnly = request.path.split('?')[0] ?? '';
  if (actor === 'anonymous' && !PUBLIC_PATH.test(request.path))
    violations.push({ invariant: 'rbac', detail: 'anonymous success outside the public paths' });
  if ((actor === 'reader' || actor === 'nobody' || actor === 'anonymous') && MUTATING.has(request.method) && !SELF_REVIEW.test(pathOnly)) {
    violations.push({ invariant: 'rbac', detail: `${request.method} succeeded for a user without any write grant` });
  }
  const leaks = answerObjects(body, contentType, cut).flatMap((value) => leakedObjects(actor, value));
  if (leaks.length > 0) violations.push({ invariant: 'rbac', detail: `answer carries ${leaks.slice(0, 3).join(', ')}` });
  return violations;
}
