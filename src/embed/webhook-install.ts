import { createServer } from 'node:net';
import { isObject, type KubeObject, objects } from '../api/types.js';
import type { ApiClient, ResourceRef } from '../client/interface.js';
import type { ApiServer } from '../server/api-server.js';
import { waitFor } from './wait-for.js';

/**
 * envtest's WebhookInstallOptions for Cascade: a CA and a serving certificate for the test's own webhook server, and
 * webhook configurations installed with every clientConfig pointed at that server (the service's path, or the
 * URL's, kept) and trusting that CA. The server is the test's to start, on `serving.port` with `serving.cert`/`key`.
 */

export interface TestServerWebhooks {
  /** MutatingWebhookConfiguration and ValidatingWebhookConfiguration objects to install before the server is handed over. */
  readonly configurations?: readonly KubeObject[];
  /** Where the test's webhook server will listen: host (default 127.0.0.1) and port (default: a free one). */
  readonly host?: string;
  readonly port?: number;
}

export interface WebhookServing {
  readonly host: string;
  readonly port: number;
  /** https://<host>:<port> */
  readonly url: string;
  /** PEM serving certificate and key for the webhook server (valid for the host and localhost). */
  readonly cert: string;
  readonly key: string;
  /** PEM of the CA that signed `cert`, and the same base64-encoded as clientConfig.caBundle takes it. */
  readonly caCert: string;
  readonly caBundle: string;
}

const KINDS: Readonly<Record<string, ResourceRef>> = {
  MutatingWebhookConfiguration: { group: 'admissionregistration.k8s.io', version: 'v1', resource: 'mutatingwebhookconfigurations' },
  ValidatingWebhookConfiguration: { group: 'admissionregistration.k8s.io', version: 'v1', resource: 'validatingwebhookconfigurations' },
};
const OBSERVED_TIMEOUT_MS = 10_000;

async function freePort(host: string): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, host, () => resolve());
  });
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return typeof address === 'object' && address !== null ? address.port : 0;
}

export async function webhookServing(options: TestServerWebhooks): Promise<WebhookServing> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? (await freePort(host));
  // Loaded on demand: the DER libraries are start-up time a server without webhooks does not need.
  const { createCertificateAuthority, issueServingCertificate } = await import('../pki/issue.js');
  const ca = createCertificateAuthority('cascade-webhook-ca');
  const serving = issueServingCertificate(ca, 'cascade-webhook', [host, 'localhost']);
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    host,
    port,
    url: `https://${urlHost}:${port}`,
    cert: serving.cert,
    key: serving.key,
    caCert: ca.cert,
    caBundle: Buffer.from(ca.cert).toString('base64'),
  };
}

/** The configuration with each webhook calling the local server at the path it named. */
function pointedAt(configuration: KubeObject, serving: WebhookServing): KubeObject {
  const copy = structuredClone(configuration);
  for (const hook of objects(copy.webhooks)) {
    const cc = isObject(hook.clientConfig) ? hook.clientConfig : {};
    const service = isObject(cc.service) ? cc.service : undefined;
    const path =
      service !== undefined
        ? typeof service.path === 'string'
          ? service.path
          : ''
        : typeof cc.url === 'string'
          ? new URL(cc.url).pathname
          : '';
    hook.clientConfig = { url: `${serving.url}${path}`, caBundle: serving.caBundle };
  }
  return copy;
}

/** Creates the configurations and waits until admission uses them, so the first request of the test is admitted by them. */
export async function installWebhookConfigurations(
  server: ApiServer,
  client: ApiClient,
  configurations: readonly KubeObject[],
  serving: WebhookServing,
): Promise<void> {
  for (const configuration of configurations) {
    const ref = KINDS[configuration.kind ?? ''];
    const name = configuration.metadata?.name ?? '(unnamed)';
    if (ref === undefined)
      throw new Error(`webhooks.configurations: ${name} is a ${String(configuration.kind)}, not a webhook configuration`);
    const created = await client.create(ref, undefined, pointedAt(configuration, serving));
    const kind = configuration.kind as 'MutatingWebhookConfiguration' | 'ValidatingWebhookConfiguration';
    await waitFor(() => server.webhookConfigurationObserved(kind, name, created.metadata.resourceVersion ?? ''), {
      timeoutMs: OBSERVED_TIMEOUT_MS,
      intervalMs: 2,
      what: `${kind} ${name} to reach admission`,
    });
  }
}
