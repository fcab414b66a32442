import { useEffect, useState } from 'react';
import type { ExplainAnswer, PreviewAnswer } from '../src/ui/model/answer-types.js';
import { apiFetch } from './auth.js';

export interface TargetQuery {
  readonly resource: string;
  readonly namespace?: string | undefined;
  readonly name: string;
}

/** Waits this long after the last change before asking again: each answer reads the whole cluster. */
const REFRESH_DELAY_MS = 600;

function queryOf(target: TargetQuery): string {
  const q = new URLSearchParams({ resource: target.resource, name: target.name });
  if (target.namespace !== undefined) q.set('namespace', target.namespace);
  return q.toString();
}

/** Fetches a server-side answer, again whenever `revision` moves (debounced); keeps the last answer meanwhile. */
function useAnswer<T>(path: string, target: TargetQuery, revision: number): { data?: T; error?: string } {
  const [state, setState] = useState<{ data?: T; error?: string }>({});
  const query = queryOf(target);
  // biome-ignore lint/correctness/useExhaustiveDependencies: revision is the refresh trigger
  useEffect(() => {
    const controller = new AbortController();
    const timer = window.setTimeout(() => {
      apiFetch(`${path}?${query}`, { signal: controller.signal })
        .then(async (res) => {
          const body = (await res.json()) as T & { message?: string };
          setState(res.ok ? { data: body } : { error: body.message ?? `HTTP ${res.status}` });
        })
        .catch((err: unknown) => {
          if (!controller.signal.aborted) setState({ error: String(err) });
        });
    }, REFRESH_DELAY_MS);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [path, query, revision]);
  return state;
}

export function ExplainPanel({ target, revision }: { target: TargetQuery; revision: number }) {
  const answer = useAnswer<ExplainAnswer>('ui-api/explain', target, revision);
  return (
    <section aria-labelledby="why-heading" className="panel">
      <h2 id="why-heading">Why is it still here?</h2>
      {answer.error !== undefined && <p role="alert">{answer.error}</p>}
      {answer.data === undefined ? (
        <p>Asking cascade explain…</p>
      ) : (
        <figure aria-label="cascade explain">
          <pre>{answer.data.text}</pre>
        </figure>
      )}
    </section>
  );
}

export function PreviewPanel({ target, revision }: { target: TargetQuery; revision: number }) {
  const answer = useAnswer<PreviewAnswer>('ui-api/preview', target, revision);
  return (
    <section aria-labelledby="preview-heading" className="panel">
      <h2 id="preview-heading">What would delete take?</h2>
      {answer.error !== undefined && <p role="alert">{answer.error}</p>}
      {answer.data === undefined && <p>Asking cascade delete --preview…</p>}
      {answer.data?.previews.map((p) => (
        <details key={p.policy} open={p.policy === 'Foreground'}>
          <summary>
            --cascade={p.policy.toLowerCase()}: deletes {p.document.deleted.length}, keeps {p.document.survivors.length}
          </summary>
          <figure aria-label={`preview ${p.policy.toLowerCase()}`}>
            <pre>{p.text}</pre>
          </figure>
        </details>
      ))}
    </section>
  );
}
