import { type FormEvent, useEffect, useState } from 'react';
import type { WhoAmIAnswer } from '../src/ui/model/answer-types.js';
import { type ApiFailure, apiFetch, failureOf, storeToken } from './auth.js';

export type Session =
  | { readonly state: 'checking' }
  | { readonly state: 'signed-in'; readonly user: WhoAmIAnswer }
  /** The server refused the credentials the page has (none, or the stored token). */
  | { readonly state: 'refused'; readonly failure: ApiFailure; readonly hadToken: boolean };

/**
 * Who the page is: a SelfSubjectReview with the stored token (or with none, where the server lets that through:
 * `cascade ui`'s kubeconfig credentials, `cascade serve --insecure-http`, a browser's client certificate).
 */
export function useSession(token: string): Session {
  const [session, setSession] = useState<Session>({ state: 'checking' });
  useEffect(() => {
    const controller = new AbortController();
    setSession({ state: 'checking' });
    apiFetch('ui-api/whoami', { signal: controller.signal })
      .then(async (res) => {
        if (res.ok) setSession({ state: 'signed-in', user: (await res.json()) as WhoAmIAnswer });
        else setSession({ state: 'refused', failure: await failureOf(res), hadToken: token !== '' });
      })
      .catch((err: unknown) => {
        if (!controller.signal.aborted)
          setSession({ state: 'refused', failure: { code: 0, reason: 'Unreachable', message: String(err) }, hadToken: token !== '' });
      });
    return () => controller.abort();
  }, [token]);
  return session;
}

/** "401 Unauthorized: Unauthorized" is how the server said no; shown as it came, with its code and reason. */
export function FailureMessage({ failure, label }: { failure: ApiFailure; label: string }) {
  return (
    <div role="alert" aria-label={label} className="failure">
      <strong>{failure.message}</strong>{' '}
      <span className="failure-code">({failure.code === 0 ? failure.reason : `HTTP ${failure.code} ${failure.reason}`})</span>
    </div>
  );
}

/** Asks for a bearer token; `kubectl create token ACCOUNT` prints one. */
export function LoginForm({ session, onToken }: { session: Extract<Session, { state: 'refused' }>; onToken: (t: string) => void }) {
  const [value, setValue] = useState('');
  const submit = (e: FormEvent): void => {
    e.preventDefault();
    const token = value.trim();
    storeToken(token);
    onToken(token);
  };
  return (
    <main className="login">
      <h1>Sign in to the cluster</h1>
      {session.hadToken && <FailureMessage failure={session.failure} label="sign-in refused" />}
      {!session.hadToken && session.failure.code !== 401 && <FailureMessage failure={session.failure} label="sign-in refused" />}
      <form onSubmit={submit}>
        <label>
          Bearer token <input type="password" autoComplete="off" value={value} onChange={(e) => setValue(e.target.value)} required />
        </label>{' '}
        <button type="submit">Sign in</button>
      </form>
      <p>
        Get one with <code>kubectl create token ACCOUNT -n NAMESPACE</code>. It stays in this tab only (sessionStorage) and is sent to this
        server as an <code>Authorization: Bearer</code> header.
      </p>
    </main>
  );
}
