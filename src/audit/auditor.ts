import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { UserInfo } from '../api/user.js';
import type { AuditRecorder } from './context.js';
import type { AuditLogWriter } from './log-writer.js';
import type { AuditLevel, AuditPolicy, AuditRequestAttributes, AuditStage } from './policy.js';

/**
 * kube-apiserver's audit filter: each request gets an auditID (the client's `Audit-ID` header or a new UUID, echoed
 * as `Audit-Id`); once the user is known the policy decides its level, and unless None or omitted a RequestReceived
 * event is written, then a ResponseComplete one when the response ends, with the annotations, objects and status
 * collected meanwhile (context.ts).
 */

/** metav1.MicroTime: RFC 3339 with microseconds. */
function microTime(epochMicros: number): string {
  const millis = Math.floor(epochMicros / 1000);
  const micros = String(Math.floor(epochMicros % 1_000_000)).padStart(6, '0');
  return `${new Date(millis).toISOString().slice(0, 19)}.${micros}Z`;
}

const nowMicros = (): number => Math.round((performance.timeOrigin + performance.now()) * 1000);

/** utilnet.SourceIPs: X-Forwarded-For, then X-Real-Ip, then the connection's address, without repeats. */
function sourceIps(req: IncomingMessage): string[] {
  const out: string[] = [];
  const add = (ip: string | undefined): void => {
    const v = ip?.trim();
    if (v !== undefined && v !== '' && !out.includes(v)) out.push(v);
  };
  const forwarded = req.headers['x-forwarded-for'];
  for (const ip of (Array.isArray(forwarded) ? forwarded.join(',') : (forwarded ?? '')).split(',')) add(ip);
  const real = req.headers['x-real-ip'];
  add(Array.isArray(real) ? real[0] : real);
  add(req.socket.remoteAddress?.replace(/^::ffff:/, ''));
  return out;
}

function userOf(user: UserInfo | undefined): Record<string, unknown> {
  if (user === undefined) return {};
  const out: Record<string, unknown> = { username: user.name };
  if (user.uid !== undefined && user.uid !== '') out.uid = user.uid;
  if (user.groups.length > 0) out.groups = [...user.groups];
  if (user.extra !== undefined && Object.keys(user.extra).length > 0) out.extra = user.extra;
  return out;
}

const LEVEL_ORDER: Readonly<Record<AuditLevel, number>> = { None: 0, Metadata: 1, Request: 2, RequestResponse: 3 };

class RequestAudit implements AuditRecorder {
  readonly auditId: string;
  private readonly receivedMicros = nowMicros();
  private readonly req: IncomingMessage;
  private level: AuditLevel = 'None';
  private omit: ReadonlySet<AuditStage> = new Set();
  private attributes: AuditRequestAttributes | undefined;
  private readonly annotations: Record<string, string> = {};
  private status: Record<string, unknown> | undefined;
  private request: unknown;
  private response: unknown;
  private named: { namespace?: string; name?: string } = {};
  /** Read when the request arrives: the socket may be gone when the last event is written. */
  private readonly sourceIps: string[];

  constructor(req: IncomingMessage) {
    this.req = req;
    this.sourceIps = sourceIps(req);
    const header = req.headers['audit-id'];
    this.auditId = typeof header === 'string' && header.trim() !== '' ? header.trim() : randomUUID();
  }

  get logged(): boolean {
    return this.level !== 'None';
  }

  decided(attributes: AuditRequestAttributes, level: AuditLevel, omit: ReadonlySet<AuditStage>): void {
    this.attributes = attributes;
    this.level = level;
    this.omit = omit;
  }

  annotate(key: string, value: string): void {
    if (!(key in this.annotations)) this.annotations[key] = value;
  }

  requestObject(object: unknown): void {
    if (object === null || typeof object !== 'object') return;
    const meta = (object as { metadata?: Record<string, unknown> }).metadata;
    if (meta !== undefined && this.named.name === undefined) {
      const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
      this.named = { namespace: text(meta.namespace), name: text(meta.name) };
    }
    if (LEVEL_ORDER[this.level] >= LEVEL_ORDER.Request && this.request === undefined) this.request = structuredClone(object);
  }

  responseObject(object: unknown): void {
    if (LEVEL_ORDER[this.level] >= LEVEL_ORDER.RequestResponse) this.response = object;
  }

  responseStatus(status: Record<string, unknown>): void {
    this.status = status;
  }

  event(stage: AuditStage, code: number | undefined): Record<string, unknown> | undefined {
    if (this.level === 'None' || this.omit.has(stage) || this.attributes === undefined) return undefined;
    const a = this.attributes;
    const event: Record<string, unknown> = {
      kind: 'Event',
      apiVersion: 'audit.k8s.io/v1',
      level: this.level,
      auditID: this.auditId,
      stage,
      requestURI: this.req.url ?? '/',
      verb: a.verb,
      user: userOf(a.user),
      sourceIPs: this.sourceIps,
    };
    const agent = this.req.headers['user-agent'];
    if (agent !== undefined) event.userAgent = agent;
    if (a.resourceRequest) {
      const ref: Record<string, unknown> = { resource: a.resource };
      const namespace = a.namespace || this.named.namespace;
      if (namespace) ref.namespace = namespace;
      const name = a.name || this.named.name;
      if (name) ref.name = name;
      if (a.apiGroup !== '') ref.apiGroup = a.apiGroup;
      ref.apiVersion = a.apiVersion;
      if (a.subresource !== '') ref.subresource = a.subresource;
      event.objectRef = ref;
    }
    if (code !== undefined) {
      const status = this.status ?? {};
      const { kind: _k, apiVersion: _v, metadata: _m, ...rest } = status;
      event.responseStatus = { metadata: {}, ...rest, code };
    }
    if (this.request !== undefined) event.requestObject = this.request;
    if (code !== undefined && this.response !== undefined) event.responseObject = this.response;
    event.requestReceivedTimestamp = microTime(this.receivedMicros);
    event.stageTimestamp = microTime(stage === 'RequestReceived' ? this.receivedMicros : nowMicros());
    if (Object.keys(this.annotations).length > 0) event.annotations = { ...this.annotations };
    return event;
  }
}

export interface Auditor {
  /** Starts a request's audit; `complete` writes the ResponseComplete event when the response has ended. */
  begin(req: IncomingMessage, res: ServerResponse): RequestAudit;
  /** The user and request are known: the policy's level applies and RequestReceived is written. */
  received(audit: RequestAudit, attributes: AuditRequestAttributes): void;
  close(): Promise<void>;
}

export type { RequestAudit };

export function createAuditor(policy: AuditPolicy, writer: AuditLogWriter): Auditor {
  return {
    begin(req, res) {
      const audit = new RequestAudit(req);
      res.setHeader('Audit-Id', audit.auditId);
      res.once('close', () => {
        const event = audit.event('ResponseComplete', res.statusCode);
        if (event !== undefined) writer.write(event);
      });
      return audit;
    },
    received(audit, attributes) {
      const decision = policy.decide(attributes);
      audit.decided(attributes, decision.level, decision.omitStages);
      const event = audit.event('RequestReceived', undefined);
      if (event !== undefined) writer.write(event);
    },
    close: () => writer.close(),
  };
}
