/**
 * The bearer token the person signed in with: kept in sessionStorage (this tab only, gone when it closes), never in
 * a URL, and sent as an Authorization header on every request the page makes to its server.
 */
const KEY = 'cascade.token';

export function storedToken(): string {
  return window.sessionStorage.getItem(KEY) ?? '';
}

export function storeToken(token: string): void {
  if (token === '') window.sessionStorage.removeItem(KEY);
  else window.sessionStorage.setItem(KEY, token);
}

export function apiFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const token = storedToken();
  const headers = new Headers(init.headers);
  if (token !== '') headers.set('Authorization', `Bearer ${token}`);
  return fetch(path, { ...init, headers });
}

/** A Kubernetes Status as the server answered it, or what stands in for one when the answer was not JSON. */
export interface ApiFailure {
  readonly code: number;
  readonly reason: string;
  readonly message: string;
}

export async function failureOf(res: Response): Promise<ApiFailure> {
  const text = await res.text();
  try {
    const status = JSON.parse(text) as { code?: number; reason?: string; message?: string };
    return { code: status.code ?? res.status, reason: status.reason ?? res.statusText, message: status.message ?? text };
  } catch {
    return { code: res.status, reason: res.statusText, message: text };
  }
}
