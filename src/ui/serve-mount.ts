import type { IncomingMessage, ServerResponse } from 'node:http';
import { notFoundPath, StatusError, toStatusError } from '../api/errors.js';
import { writeStatus } from './api-proxy.js';
import { serveAsset } from './static-assets.js';
import { UiSessions } from './ui-sessions.js';

const PREFIX = '/ui';
const API_PREFIX = `${PREFIX}/ui-api/`;

/**
 * The web UI inside `cascade serve`, at /ui/. The page's files are served to anyone, before authentication: they
 * are the same public bytes for every visitor and hold no cluster data (docs/ui/README.md, "Serving"). Everything
 * the page reads goes through /ui/ui-api/, which reads the server's own HTTP API with the page's bearer token, so
 * the API server authenticates and authorizes it as it does any client; on plain HTTP (--insecure-http) every
 * request acts as the admin.
 */
export class UiMount {
  private sessions: UiSessions | undefined;

  /** Called once the server listens, with the URL it answers on and, for HTTPS, the CA of its certificate. */
  attach(serverUrl: string, ca?: string | Buffer): void {
    this.sessions = new UiSessions({ server: serverUrl, prefix: PREFIX, ...(ca === undefined ? {} : { ca }) });
  }

  /** Takes /ui and everything under /ui/; returns false for every other request (the API's). */
  handle(req: IncomingMessage, res: ServerResponse): boolean {
    // Every API request passes here first: answer them without parsing their URL.
    if (!(req.url ?? '').startsWith(PREFIX)) return false;
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== PREFIX && !url.pathname.startsWith(`${PREFIX}/`)) return false;
    if (url.pathname === PREFIX || this.sessions === undefined) {
      res.writeHead(302, { Location: `${PREFIX}/` });
      res.end();
      return true;
    }
    this.serve(this.sessions, req, res, url).catch((err: unknown) => writeStatus(res, toStatusError(err)));
    return true;
  }

  private async serve(sessions: UiSessions, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    if (url.pathname.startsWith(API_PREFIX)) return sessions.routesFor(req).handle(req, res, url);
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return writeStatus(res, new StatusError(405, 'MethodNotAllowed', `${req.method ?? ''} is not allowed`));
    if (!(await serveAsset(res, url.pathname.slice(PREFIX.length + 1)))) writeStatus(res, notFoundPath());
  }

  async close(): Promise<void> {
    await this.sessions?.close();
  }
}
