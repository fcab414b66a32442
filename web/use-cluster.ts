import { useEffect, useState } from 'react';
import { ObjectStore } from '../src/ui/model/object-store.js';
import type { StreamBatch, StreamResource } from '../src/ui/model/stream-protocol.js';

export interface ClusterView {
  readonly store: ObjectStore;
  /** Changes whenever the store does (at most every RENDER_MS), so components recompute. */
  readonly revision: number;
  readonly synced: boolean;
  readonly connected: boolean;
}

/** Re-rendering on every event of a busy cluster would redraw the graph hundreds of times a second. */
const RENDER_MS = 100;

/** Opens the server's event stream: the whole cluster, then every change, kept in one ObjectStore. */
export function useCluster(): ClusterView {
  const [store, setStore] = useState(() => new ObjectStore());
  const [revision, setRevision] = useState(0);
  const [synced, setSynced] = useState(false);
  const [connected, setConnected] = useState(false);
  useEffect(() => {
    let current = new ObjectStore();
    let timer: number | undefined;
    const render = (): void => {
      timer ??= window.setTimeout(() => {
        timer = undefined;
        setRevision(current.revision);
      }, RENDER_MS);
    };
    const source = new EventSource('ui-api/stream');
    source.addEventListener('resources', (e) => {
      // A reconnect replays everything: start from an empty store so deletions missed meanwhile disappear.
      current = new ObjectStore();
      current.setResources(JSON.parse((e as MessageEvent<string>).data) as StreamResource[]);
      setStore(current);
      setConnected(true);
    });
    source.addEventListener('synced', () => {
      setSynced(true);
      setRevision(current.revision);
    });
    source.onmessage = (e: MessageEvent<string>) => {
      const batch = JSON.parse(e.data) as StreamBatch;
      for (const event of batch.events) current.apply(event);
      render();
    };
    source.onerror = () => setConnected(false);
    return () => {
      source.close();
      if (timer !== undefined) window.clearTimeout(timer);
    };
    // The stream lives as long as the page; the store is replaced from inside it on each (re)connect.
  }, []);
  return { store, revision, synced, connected };
}
