import { once } from 'node:events';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createCertificateAuthority, issueServingCertificate } from '../../src/pki/issue.js';

/**
 * A real HTTPS admission webhook server for the e2e suites: a test CA and a serving certificate for 127.0.0.1,
 * one handler per path. A handler gets the AdmissionReview request and answers the `response` part (uid, apiVersion
 * and kind are filled in unless it gives its own `review`), or takes over the raw response.
 */

export interface ReceivedReview {
  readonly path: string;
  readonly query: string;
  readonly request: Record<string, any>;
}

export interface RawAnswer {
  readonly raw: { readonly status: number; readonly body: string };
}
export type WebhookAnswer = Record<string, unknown> | { readonly review: unknown } | RawAnswer;
export type WebhookHandler = (request: Record<string, any>) => WebhookAnswer | Promise<WebhookAnswer>;

export interface WebhookServer {
  readonly url: string;
  readonly port: number;
  /** base64 PEM of the CA, as clientConfig.caBundle wants it. */
  readonly caBundle: string;
  readonly received: ReceivedReview[];
  handle(path: string, handler: WebhookHandler): void;
  stop(): Promise<void>;
}

/** `hosts` are the names the serving certificate is valid for besides 127.0.0.1 and localhost (`<svc>.<ns>.svc`). */
export async function startWebhookServer(hosts: readonly string[] = []): Promise<WebhookServer> {
  const ca = createCertificateAuthority('webhook-test-ca');
  const serving = issueServingCertificate(ca, 'webhook', ['127.0.0.1', 'localhost', ...hosts]);
  const handlers = new Map<string, WebhookHandler>();
  const received: ReceivedReview[] = [];
  const server: Server = createServer({ cert: serving.cert, key: serving.key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const [path = '', query = ''] = (req.url ?? '').split('?');
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      received.push({ path, query, request: review.request });
      const handler = handlers.get(path);
      const answer: WebhookAnswer = handler === undefined ? { allowed: true } : await handler(review.request);
      if ('raw' in answer) {
        const { raw } = answer as RawAnswer;
        res.writeHead(raw.status, { 'content-type': 'application/json' });
        res.end(raw.body);
        return;
      }
      const body =
        'review' in answer
          ? answer.review
          : { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: review.request.uid, ...answer } };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  return {
    url: `https://127.0.0.1:${port}`,
    port,
    caBundle: Buffer.from(ca.cert).toString('base64'),
    received,
    handle: (path, handler) => handlers.set(path, handler),
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** JSONPatch answer of a mutating webhook. */
export function jsonPatch(operations: unknown[]): Record<string, unknown> {
  return { allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(operations)).toString('base64') };
}
