/**
 * TLS connections to aggregated API servers: verified against the APIService's caBundle for the name
 * "<service>.<namespace>.svc" (unless insecureSkipTLSVerify), presenting the front-proxy client certificate so
 * the backend trusts the identity headers. One keep-alive Agent per APIService, replaced when its TLS settings
 * change.
 */

import type { ClientRequest, OutgoingHttpHeaders } from 'node:http';
import { Agent, type AgentOptions, request as httpsRequest } from 'node:https';
import type { ApiServiceEntry } from './api-service.js';
import { serviceServerName } from './api-service.js';
import { hostPort, type ResolvedEndpoint } from './endpoint-resolver.js';

/** The front-proxy client certificate and key (PEM), kube-apiserver's --proxy-client-cert-file/--proxy-client-key-file. */
export interface FrontProxyCredentials {
  readonly cert: string;
  readonly key: string;
}

/** Where one request to an aggregated API goes. */
export interface BackendTarget {
  readonly apiService: string;
  readonly endpoint: ResolvedEndpoint;
  /** The TLS server name (SNI and certificate check). */
  readonly serverName: string;
  readonly agent: Agent;
}

export interface BackendRequestSpec {
  readonly method: string;
  /** Path with query string. */
  readonly path: string;
  readonly headers: OutgoingHttpHeaders;
}

export function tlsOptionsFor(entry: ApiServiceEntry, credentials: FrontProxyCredentials): AgentOptions {
  return {
    ca: entry.caBundle,
    cert: credentials.cert,
    key: credentials.key,
    rejectUnauthorized: !entry.insecureSkipTLSVerify,
  };
}

function fingerprint(entry: ApiServiceEntry): string {
  return JSON.stringify([entry.caBundle ?? '', entry.insecureSkipTLSVerify, entry.service?.namespace, entry.service?.name]);
}

export class BackendAgents {
  private readonly credentials: FrontProxyCredentials;
  private readonly agents = new Map<string, { readonly fingerprint: string; readonly agent: Agent }>();

  constructor(credentials: FrontProxyCredentials) {
    this.credentials = credentials;
  }

  agentFor(entry: ApiServiceEntry): Agent {
    const wanted = fingerprint(entry);
    const current = this.agents.get(entry.name);
    if (current !== undefined && current.fingerprint === wanted) return current.agent;
    current?.agent.destroy();
    const agent = new Agent({ ...tlsOptionsFor(entry, this.credentials), keepAlive: true });
    this.agents.set(entry.name, { fingerprint: wanted, agent });
    return agent;
  }

  forget(name: string): void {
    this.agents.get(name)?.agent.destroy();
    this.agents.delete(name);
  }

  close(): void {
    for (const { agent } of this.agents.values()) agent.destroy();
    this.agents.clear();
  }
}

export function targetFor(entry: ApiServiceEntry, endpoint: ResolvedEndpoint, agent: Agent): BackendTarget | undefined {
  if (entry.service === undefined) return undefined;
  return { apiService: entry.name, endpoint, serverName: serviceServerName(entry.service), agent };
}

/** "https://10.0.0.1:443/apis/g/v": how Go prints the URL it requested. */
export function backendUrl(target: Pick<BackendTarget, 'endpoint'>, path: string): string {
  return `https://${hostPort(target.endpoint)}${path}`;
}

const REPLAYABLE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A pooled keep-alive connection the backend had already closed (it restarted): like Go's transport, a bodiless
 * idempotent request that failed on it is sent again once, on a fresh connection.
 */
export function shouldRetry(req: ClientRequest, method: string, err: unknown): boolean {
  return req.reusedSocket && REPLAYABLE_METHODS.has(method) && (err as NodeJS.ErrnoException).code === 'ECONNRESET';
}

/** Starts a request to the backend; the caller writes the body and ends it. */
export function openBackendRequest(target: BackendTarget, spec: BackendRequestSpec): ClientRequest {
  return httpsRequest({
    host: target.endpoint.host,
    port: target.endpoint.port,
    servername: target.serverName,
    method: spec.method,
    path: spec.path,
    headers: spec.headers,
    agent: target.agent,
  });
}
