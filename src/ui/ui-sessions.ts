import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { StatusError } from '../api/errors.js';
import { createHttpClient, type HttpApiClient } from '../client/http-client.js';
import { createUiRoutes, type UiRoutes } from './ui-server.js';

/** Each session holds an informer cache of what its user may read: a few, not one per token ever seen. */
const MAX_SESSIONS = 8;
/** A session with no open page is dropped this long after its last request. */
const IDLE_MS = 60_000;
const SWEEP_MS = 15_000;

interface Session {
  readonly client: HttpApiClient;
  readonly routes: UiRoutes;
  lastUsed: number;
}

export interface UiSessionsOptions {
  readonly server: string;
  /** The serving certificate's CA, for an https server. */
  readonly ca?: string | Buffer;
  readonly prefix: string;
}

async function closeSession(session: Session): Promise<void> {
  await session.routes.close().catch(() => undefined);
  session.client.close();
}

/** The bearer token of an `Authorization: Bearer …` header; anything else is no credential (anonymous). */
export function bearerToken(req: IncomingMessage): string {
  const match = /^Bearer +(\S+) *$/i.exec(req.headers.authorization ?? '');
  return match?.[1] ?? '';
}

/**
 * The web app's server side inside `cascade serve`, one session per bearer token: each reads the API over HTTP with
 * the page's own token, so the API server authenticates and authorizes every read exactly as for any client (401
 * for a bad token, 403 for what its user may not read). Tokens are kept only inside the sessions' clients, keyed
 * by their digest.
 */
export class UiSessions {
  private readonly options: UiSessionsOptions;
  private readonly sessions = new Map<string, Session>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(options: UiSessionsOptions) {
    this.options = options;
    this.sweeper = setInterval(() => this.sweep(Date.now()), SWEEP_MS);
    this.sweeper.unref();
  }

  /** The routes acting with this request's token; a 429 Status when every session is in use by an open page. */
  routesFor(req: IncomingMessage): UiRoutes {
    const token = bearerToken(req);
    const key = createHash('sha256').update(token).digest('hex');
    const now = Date.now();
    let session = this.sessions.get(key);
    if (session === undefined) {
      if (this.sessions.size >= MAX_SESSIONS) this.evictIdlest();
      if (this.sessions.size >= MAX_SESSIONS)
        throw new StatusError(429, 'TooManyRequests', `the web UI serves at most ${MAX_SESSIONS} signed-in users at once`, {
          retryAfterSeconds: 10,
        });
      const client = createHttpClient({
        server: this.options.server,
        ...(this.options.ca === undefined ? {} : { ca: this.options.ca }),
        ...(token === '' ? {} : { token }),
        userAgent: 'cascade-ui',
      });
      session = { client, routes: createUiRoutes({ client, prefix: this.options.prefix }), lastUsed: now };
      this.sessions.set(key, session);
    }
    session.lastUsed = now;
    return session.routes;
  }

  private evictIdlest(): void {
    let idlest: [string, Session] | undefined;
    for (const entry of this.sessions) {
      if (entry[1].routes.openStreams > 0) continue;
      if (idlest === undefined || entry[1].lastUsed < idlest[1].lastUsed) idlest = entry;
    }
    if (idlest !== undefined) this.drop(idlest[0], idlest[1]);
  }

  private sweep(now: number): void {
    for (const [key, session] of this.sessions)
      if (session.routes.openStreams === 0 && now - session.lastUsed > IDLE_MS) this.drop(key, session);
  }

  private drop(key: string, session: Session): void {
    this.sessions.delete(key);
    void closeSession(session);
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(all.map(closeSession));
  }
}
