import { useState } from 'react';
import { hrefOf } from '../src/ui/model/ownership-graph.js';
import type { ClusterView } from './use-cluster.js';

const MAX_RESULTS = 100;

/** Find an object by name; owners-less objects first, as they are where trees start. */
export function HomeView({ cluster }: { cluster: ClusterView }) {
  const [filter, setFilter] = useState('');
  const { store, synced } = cluster;
  const matches = synced
    ? [...store.all()]
        .filter((o) => o.resource.kind !== 'Event' && (o.object.metadata.name ?? '').includes(filter))
        .sort((a, b) => (a.object.metadata.ownerReferences?.length ?? 0) - (b.object.metadata.ownerReferences?.length ?? 0))
        .slice(0, MAX_RESULTS)
    : [];
  return (
    <main>
      <h1>Objects</h1>
      <p>
        <a href="#/stuck-namespaces">Namespaces being deleted</a>
      </p>
      <label>
        Name contains <input type="search" value={filter} onChange={(e) => setFilter(e.target.value)} />
      </label>
      {!synced && <p role="status">Reading the cluster…</p>}
      <ul aria-label="objects">
        {matches.map((o) => (
          <li key={o.object.metadata.uid}>
            <a href={hrefOf(o)}>
              {o.resource.kind} {o.object.metadata.namespace === undefined ? '' : `${o.object.metadata.namespace}/`}
              {o.object.metadata.name}
            </a>
          </li>
        ))}
      </ul>
    </main>
  );
}
