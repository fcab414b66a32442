/**
 * The availability controller's probe: GET /apis/<group>/<version> on the backend as system:kube-aggregator in
 * system:masters, over a fresh TLS connection with the proxy's settings, bounded by a short timeout. Any 2xx
 * passes. The APIResourceList it returns is kept for discovery, as kube-aggregator's discovery manager keeps the
 * document it downloads.
 */

import { request as httpsRequest } from 'node:https';
import type { APIResourceList } from '../discovery/types.js';
import type { ApiServiceEntry } from './api-service.js';
import { serviceServerName } from './api-service.js';
import { backendUrl, type FrontProxyCredentials, tlsOptionsFor } from './backend-transport.js';
import { hostPort, type ResolvedEndpoint } from './endpoint-resolver.js';
import { describeNetworkError, RequestTimeoutError } from './network-errors.js';

export const AGGREGATOR_USER = 'system:kube-aggregator';

export type DiscoveryCheckResult =
  | { readonly ok: true; readonly list: APIResourceList | undefined; readonly listError: string | undefined }
  | { readonly ok: false; readonly message: string };

function parseResourceList(body: Buffer): { list: APIResourceList | undefined; listError: string | undefined } {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as unknown;
    const list = parsed as APIResourceList;
    if (typeof parsed !== 'object' || parsed === null || !Array.isArray(list.resources)) {
      return { list: undefined, listError: 'the discovery response is not an APIResourceList' };
    }
    return { list, listError: undefined };
  } catch (err) {
    return { list: undefined, listError: `the discovery response is not JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
}

export function checkDiscovery(
  entry: ApiServiceEntry,
  endpoint: ResolvedEndpoint,
  credentials: FrontProxyCredentials,
  timeoutMs: number,
): Promise<DiscoveryCheckResult> {
  const path = `/apis/${entry.group}/${entry.version}`;
  const url = backendUrl({ endpoint }, path);
  const serverName = entry.service === undefined ? endpoint.host : serviceServerName(entry.service);
  const failing = (detail: string): DiscoveryCheckResult => ({ ok: false, message: `failing or missing response from ${url}: ${detail}` });
  return new Promise((resolve) => {
    const req = httpsRequest({
      ...tlsOptionsFor(entry, credentials),
      host: endpoint.host,
      port: endpoint.port,
      servername: serverName,
      method: 'GET',
      path,
      agent: false,
      headers: { Accept: 'application/json', 'X-Remote-User': AGGREGATOR_USER, 'X-Remote-Group': 'system:masters' },
    });
    const timer = setTimeout(() => req.destroy(new RequestTimeoutError()), timeoutMs);
    timer.unref();
    req.on('error', (err) => {
      clearTimeout(timer);
      resolve(failing(`Get ${JSON.stringify(url)}: ${describeNetworkError(err, hostPort(endpoint), serverName)}`));
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', () => undefined);
      res.on('end', () => {
        clearTimeout(timer);
        const status = res.statusCode ?? 0;
        if (status < 200 || status >= 300) {
          resolve(failing(`bad status from ${url}: ${status}`));
          return;
        }
        resolve({ ok: true, ...parseResourceList(Buffer.concat(chunks)) });
      });
    });
    req.end();
  });
}
