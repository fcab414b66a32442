import type { IncomingMessage, ServerResponse } from 'node:http';
import { toStatusError } from '../api/errors.js';
import { createHttpClient, type HttpApiClient } from '../client/http-client.js';
import { writeStatus } from './api-proxy.js';
import { createUiRoutes } from './ui-server.js';

const PREFIX = '/ui';

/**
 * The web UI inside `cascade serve --insecure-http`, at /ui/. It reads the server through its own HTTP API, so
 * it sees exactly what clients see; on plain HTTP every request acts as the admin, which is also what the page's
 * requests (which carry no credentials) get. A secure server does not mount it: `cascade ui` with the server's
 * kubeconfig gives the same page with the user's own credentials.
 */
export class UiMount {
  private client: HttpApiClient | undefined;
  private routes: ReturnType<typeof createUiRoutes> | undefined;

  /** Called once the server listens, with the URL it answers on. */
  attach(serverUrl: string): void {
    this.client = createHttpClient({ server: serverUrl, userAgent: 'cascade-ui' });
    this.routes = createUiRoutes({ client: this.client, prefix: PREFIX });
  }

  /** Takes /ui and everything under /ui/; returns false for every other request (the API's). */
  handle(req: IncomingMessage, res: ServerResponse): boolean {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== PREFIX && !url.pathname.startsWith(`${PREFIX}/`)) return false;
    if (url.pathname === PREFIX || this.routes === undefined) {
      res.writeHead(302, { Location: `${PREFIX}/` });
      res.end();
      return true;
    }
    this.routes.handle(req, res, url).catch((err: unknown) => writeStatus(res, toStatusError(err)));
    return true;
  }

  async close(): Promise<void> {
    await this.routes?.close();
    this.client?.close();
  }
}
