import type { IncomingMessage } from 'node:http';
import { Agent } from 'node:https';
import { type BackendTarget, openBackendRequest } from '../../aggregator/backend-transport.js';
import { type ResolvedEndpoint, resolveEndpoint, type ServiceLookups } from '../../aggregator/endpoint-resolver.js';
import { describeNetworkError } from '../../aggregator/network-errors.js';
import { isObject } from '../../api/types.js';

/**
 * Calls a webhook over HTTPS the way k8s.io/apiserver's util/webhook client does (R11.23–R11.25): a `url` as
 * written, or a `service` resolved to one of its endpoints while the certificate is checked for
 * `<name>.<namespace>.svc`; trust is the caBundle (else the system roots); POST of JSON with `?timeout=<n>s`.
 * Every failure is a WebhookCallError carrying Kubernetes' wording; response bodies are bounded.
 */

export const MAX_RESPONSE_BYTES = 3 * 1024 * 1024;
const USER_AGENT = 'kube-apiserver-admission';

/** A call that failed before a usable answer came back; `message` is the reason after `failed calling webhook "<name>": `. */
export class WebhookCallError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookCallError';
  }
}

/** Service reads the resolution needs, done when a call is made (webhooks on services are rare). */
export type ServiceLookupsLoader = (namespace: string, name: string) => Promise<ServiceLookups>;

interface Destination {
  readonly endpoint: ResolvedEndpoint;
  /** Host name the certificate must be valid for ('' for an IP address: Node checks the IP itself). */
  readonly serverName: string;
  /** The URL as Go prints it in errors, without the query. */
  readonly url: string;
  readonly path: string;
}

const isIp = (host: string): boolean => /^[\d.]+$/.test(host) || host.includes(':');

/** PEM that at least looks like certificates; Go refuses anything else before dialling. */
function caOf(clientConfig: Record<string, unknown>): string | undefined {
  if (typeof clientConfig.caBundle !== 'string' || clientConfig.caBundle === '') return undefined;
  const pem = Buffer.from(clientConfig.caBundle, 'base64').toString('utf8');
  if (!pem.includes('-----BEGIN CERTIFICATE-----'))
    throw new WebhookCallError('could not get REST client: unable to load root certificates: unable to parse bytes as PEM block');
  return pem;
}

/** What the plugins need of the client: one POST of a review, answered or failed by `deadline` (epoch ms). */
export interface WebhookTransport {
  post(clientConfig: Record<string, unknown>, review: unknown, deadline: number): Promise<unknown>;
}

export class WebhookClient implements WebhookTransport {
  private readonly agents = new Map<string, Agent>();
  private readonly loadServiceLookups: ServiceLookupsLoader;

  constructor(loadServiceLookups: ServiceLookupsLoader) {
    this.loadServiceLookups = loadServiceLookups;
  }

  private agentFor(ca: string | undefined): Agent {
    const key = ca ?? '';
    let agent = this.agents.get(key);
    if (agent === undefined) {
      if (this.agents.size >= 64) this.close();
      agent = new Agent({ ca, keepAlive: true, maxSockets: 64 });
      this.agents.set(key, agent);
    }
    return agent;
  }

  private async destination(clientConfig: Record<string, unknown>): Promise<Destination> {
    if (typeof clientConfig.url === 'string') {
      let parsed: URL;
      try {
        parsed = new URL(clientConfig.url);
      } catch {
        throw new WebhookCallError(`could not get REST client: invalid URL ${JSON.stringify(clientConfig.url)}`);
      }
      const host = parsed.hostname.replace(/^\[|\]$/g, '');
      const port = parsed.port === '' ? 443 : Number(parsed.port);
      return { endpoint: { host, port }, serverName: isIp(host) ? '' : host, url: clientConfig.url, path: parsed.pathname };
    }
    const service = isObject(clientConfig.service) ? clientConfig.service : {};
    const namespace = typeof service.namespace === 'string' ? service.namespace : '';
    const name = typeof service.name === 'string' ? service.name : '';
    const port = typeof service.port === 'number' ? service.port : 443;
    const path = typeof service.path === 'string' && service.path !== '' ? service.path : '/';
    const serverName = `${name}.${namespace}.svc`;
    const url = `https://${serverName}:${port}${path}`;
    const resolution = resolveEndpoint({ namespace, name, port }, await this.loadServiceLookups(namespace, name));
    if (!resolution.ok) throw new WebhookCallError(`failed to call webhook: Post "${url}": ${resolution.error}`);
    return { endpoint: resolution.endpoint, serverName, url, path };
  }

  /** POSTs the review and returns the decoded answer; `deadline` is the epoch millisecond the call must end by. */
  async post(clientConfig: Record<string, unknown>, review: unknown, deadline: number): Promise<unknown> {
    const ca = caOf(clientConfig);
    const to = await this.destination(clientConfig);
    const remaining = Math.max(deadline - Date.now(), 0);
    const target: BackendTarget = { apiService: to.url, endpoint: to.endpoint, serverName: to.serverName, agent: this.agentFor(ca) };
    const query = `?timeout=${Math.max(Math.ceil(remaining / 1000), 1)}s`;
    const shown = `Post "${to.url}${query}"`;
    const body = JSON.stringify(review);
    return await new Promise<unknown>((resolve, reject) => {
      const req = openBackendRequest(target, {
        method: 'POST',
        path: `${to.path}${query}`,
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, */*',
          'User-Agent': USER_AGENT,
          'Content-Length': Buffer.byteLength(body),
        },
      });
      // Headers and body leave as one write; without this, Nagle's algorithm holds the body for the server's delayed ACK.
      req.setNoDelay(true);
      const fail = (reason: string): void => {
        clearTimeout(timer);
        req.destroy();
        reject(new WebhookCallError(`failed to call webhook: ${reason}`));
      };
      const timer = setTimeout(() => fail(`${shown}: context deadline exceeded`), remaining);
      req.on('error', (err) => fail(`${shown}: ${describeNetworkError(err, `${to.endpoint.host}:${to.endpoint.port}`, to.serverName)}`));
      req.on('response', (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_RESPONSE_BYTES) fail(`${shown}: response body larger than ${MAX_RESPONSE_BYTES} bytes`);
          else chunks.push(chunk);
        });
        res.on('error', (err) => fail(`${shown}: ${describeNetworkError(err, `${to.endpoint.host}:${to.endpoint.port}`, to.serverName)}`));
        res.on('end', () => {
          clearTimeout(timer);
          const text = Buffer.concat(chunks).toString('utf8');
          const status = res.statusCode ?? 0;
          if (status < 200 || status > 299) {
            reject(new WebhookCallError(`failed to call webhook: ${unsuccessfulStatus(status, text)}`));
            return;
          }
          try {
            resolve(JSON.parse(text));
          } catch {
            reject(new WebhookCallError(`failed to call webhook: ${undecodable(text)}`));
          }
        });
      });
      req.end(body);
    });
  }

  close(): void {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }
}

/** client-go's words for an answer that is no success and no Status (rest.Result's generic errors). */
function unsuccessfulStatus(code: number, body: string): string {
  if (code === 404) return 'the server could not find the requested resource';
  if (code >= 500 && code !== 503 && code !== 504)
    return `an error on the server (${JSON.stringify(body.slice(0, 1024))}) has prevented the request from succeeding`;
  return `the server responded with the status code ${code} but did not return more information`;
}

/** encoding/json's complaint about the first byte that is not JSON. */
function undecodable(text: string): string {
  const trimmed = text.trimStart();
  if (trimmed === '') return 'unexpected end of JSON input';
  return `invalid character '${trimmed[0]}' looking for beginning of value`;
}
