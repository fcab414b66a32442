import { useCallback, useEffect, useMemo, useState } from 'react';
import { buildGraph, type ExpandedGroups, GROUP_PAGE, MAX_LAYOUT_NODES, MAX_MEMBER_NODES } from '../src/ui/model/ownership-graph.js';
import { RELATIONS, type Relation } from '../src/ui/model/relations.js';
import { ExplainPanel, PreviewPanel } from './answer-panels.js';
import { type GroupAction, GraphView } from './graph-view.js';
import type { ClusterView } from './use-cluster.js';

/** Terminating ages tick even when nothing changes. */
const CLOCK_MS = 5_000;

function useClock(): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), CLOCK_MS);
    return () => window.clearInterval(timer);
  }, []);
  return now;
}

export function ObjectView({
  cluster,
  resource,
  namespace,
  name,
}: {
  cluster: ClusterView;
  resource: string;
  namespace?: string | undefined;
  name: string;
}) {
  const [relations, setRelations] = useState<ReadonlySet<Relation>>(new Set());
  const [expanded, setExpanded] = useState<ExpandedGroups>(new Map());
  const onGroup = useCallback((id: string, action: GroupAction) => {
    setExpanded((current) => {
      const next = new Map(current);
      if (action === 'collapse') next.delete(id);
      else next.set(id, (action === 'more' ? (current.get(id) ?? 0) : 0) + GROUP_PAGE);
      return next;
    });
  }, []);
  const clock = useClock();
  const { store, revision, synced } = cluster;
  const target = synced ? store.find(resource, namespace, name) : undefined;
  const denied = synced ? store.forbiddenMessage(resource) : undefined;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the store mutates in place; revision says when
  const graph = useMemo(
    () => (target === undefined ? undefined : buildGraph(store, target, relations, Date.now(), expanded)),
    [store, target, relations, expanded, revision, clock],
  );
  const where = namespace === undefined ? '' : ` in namespace ${namespace}`;
  const toggle = (r: Relation): void => {
    const next = new Set(relations);
    if (next.has(r)) next.delete(r);
    else next.add(r);
    setRelations(next);
  };
  return (
    <main>
      <h1>
        {resource}/{name}
        {where}
      </h1>
      {!synced && <p role="status">Reading the cluster…</p>}
      {synced && denied !== undefined && (
        <p role="alert" aria-label="not allowed">
          {denied}
        </p>
      )}
      {synced && target === undefined && denied === undefined && (
        <p role="status">
          {resource}/{name}
          {where} is gone: it does not exist (any more).
        </p>
      )}
      {graph !== undefined && (
        <>
          <fieldset className="relations">
            <legend>Relations</legend>
            {RELATIONS.map((r) => (
              <label key={r.id}>
                <input type="checkbox" checked={relations.has(r.id)} onChange={() => toggle(r.id)} /> {r.label}
              </label>
            ))}
          </fieldset>
          {graph.truncated && (
            <p role="note">
              The graph is cut at {graph.nodes.length} nodes (at most {MAX_LAYOUT_NODES} laid out, {MAX_MEMBER_NODES} group members).
            </p>
          )}
          <GraphView graph={graph} onGroup={onGroup} />
        </>
      )}
      {synced && target !== undefined && (
        <div className="panels">
          <ExplainPanel target={{ resource, namespace, name }} revision={revision} />
          <PreviewPanel target={{ resource, namespace, name }} revision={revision} />
        </div>
      )}
    </main>
  );
}
