import { useEffect, useState } from 'react';
import { ObjectStore } from '../src/ui/model/object-store.js';
import type { ForbiddenResource, StreamBatch, StreamResource } from '../src/ui/model/stream-protocol.js';
import { type ApiFailure, apiFetch, failureOf } from './auth.js';
import { readServerSentEvents } from '../src/ui/model/sse-reader.js';

export interface ClusterView {
  readonly store: ObjectStore;
  /** Changes whenever the store does (at most every RENDER_MS), so components recompute. */
  readonly revision: number;
  readonly synced: boolean;
  readonly connected: boolean;
  /** Why the stream is refused (401, 403, 429…), as the server's Status says it. */
  readonly failure: ApiFailure | undefined;
}

/** Re-rendering on every event of a busy cluster would redraw the graph hundreds of times a second. */
const RENDER_MS = 100;
const RETRY_MIN_MS = 1_000;
const RETRY_MAX_MS = 10_000;

/**
 * Opens the server's event stream with the signed-in token: the whole cluster, then every change, kept in one
 * ObjectStore. A dropped stream reconnects (with backoff); a refused credential does not, until `token` changes.
 */
export function useCluster(token: string): ClusterView {
  const [store, setStore] = useState(() => new ObjectStore());
  const [revision, setRevision] = useState(0);
  const [synced, setSynced] = useState(false);
  const [connected, setConnected] = useState(false);
  const [failure, setFailure] = useState<ApiFailure | undefined>();
  // biome-ignore lint/correctness/useExhaustiveDependencies: token is the reconnect trigger; the request reads it from storage
  useEffect(() => {
    // Another token is another user: nothing read with the previous one stays on screen.
    let current = new ObjectStore();
    setStore(current);
    setSynced(false);
    setFailure(undefined);
    let timer: number | undefined;
    let retry: number | undefined;
    let delay = RETRY_MIN_MS;
    const controller = new AbortController();
    const render = (): void => {
      timer ??= window.setTimeout(() => {
        timer = undefined;
        setRevision(current.revision);
      }, RENDER_MS);
    };
    const onEvent = ({ event, data }: { event: string; data: string }): void => {
      if (event === 'resources') {
        // A reconnect replays everything: start from an empty store so deletions missed meanwhile disappear.
        current = new ObjectStore();
        current.setResources(JSON.parse(data) as StreamResource[]);
        setStore(current);
        setConnected(true);
        delay = RETRY_MIN_MS;
      } else if (event === 'forbidden') current.setForbidden(JSON.parse(data) as ForbiddenResource[]);
      else if (event === 'synced') {
        setSynced(true);
        setRevision(current.revision);
      } else {
        for (const e of (JSON.parse(data) as StreamBatch).events) current.apply(e);
        render();
      }
    };
    /** Resolves to whether to reconnect. */
    const connect = async (): Promise<boolean> => {
      const res = await apiFetch('ui-api/stream', { signal: controller.signal });
      if (!res.ok || res.body === null) {
        const failed = await failureOf(res);
        setFailure(failed);
        // A refused credential stays refused: asking again would only repeat the 401 or 403.
        return failed.code !== 401 && failed.code !== 403;
      }
      setFailure(undefined);
      await readServerSentEvents(res.body, onEvent);
      return true;
    };
    const run = (): void => {
      connect()
        .catch(() => true)
        .then((again) => {
          if (controller.signal.aborted) return;
          setConnected(false);
          if (!again) return;
          retry = window.setTimeout(run, delay);
          delay = Math.min(delay * 2, RETRY_MAX_MS);
        });
    };
    run();
    return () => {
      controller.abort();
      if (timer !== undefined) window.clearTimeout(timer);
      if (retry !== undefined) window.clearTimeout(retry);
    };
  }, [token]);
  return { store, revision, synced, connected, failure };
}
