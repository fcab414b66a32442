import {
  Background,
  Controls,
  type Edge,
  Handle,
  MarkerType,
  type Node,
  type NodeProps,
  Position,
  ReactFlow,
  type ReactFlowInstance,
} from '@xyflow/react';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { accessibleName, GROUP_PAGE, type GraphNode, type OwnershipGraph } from '../src/ui/model/ownership-graph.js';
import { layout, NODE_HEIGHT, NODE_WIDTH } from '../src/ui/model/graph-layout.js';

export type GroupAction = 'expand' | 'more' | 'collapse';
export type OnGroup = (groupId: string, action: GroupAction) => void;

type ObjectNodeType = Node<{ node: GraphNode; onGroup: OnGroup }, 'object'>;

/** Past this many nodes only those in the viewport are in the DOM (Tab then reaches only those). */
const RENDER_VISIBLE_ONLY_FROM = 300;

/** A group's buttons: Tab reaches them and Enter or a click expands, pages and collapses it. */
function GroupControls({ node, onGroup }: { node: GraphNode; onGroup: OnGroup }) {
  const group = node.group;
  if (group === undefined) return null;
  const what = `${group.count} ${node.kind} dependents`;
  if (group.shown === 0)
    return (
      <div className="group-controls nodrag">
        <button type="button" aria-label={`Expand group of ${what}`} onClick={() => onGroup(node.id, 'expand')}>
          Show members
        </button>
      </div>
    );
  const more = Math.min(GROUP_PAGE, group.count - group.shown);
  return (
    <div className="group-controls nodrag">
      {more > 0 && (
        <button type="button" aria-label={`Show ${more} more of ${what}`} onClick={() => onGroup(node.id, 'more')}>
          Show {more} more
        </button>
      )}
      <button type="button" aria-label={`Collapse group of ${what}`} onClick={() => onGroup(node.id, 'collapse')}>
        Collapse
      </button>
    </div>
  );
}

function stateClass(n: GraphNode): string {
  const classes = [`role-${n.role}`];
  if (n.state?.terminating !== undefined) classes.push('terminating');
  if ((n.state?.finalizers.length ?? 0) > 0) classes.push('held');
  if ((n.state?.blocking.length ?? 0) > 0) classes.push('blocking');
  if ((n.state?.referenceIssues.length ?? 0) > 0 || n.role === 'virtual') classes.push('problem');
  return classes.join(' ');
}

/** One object: a link to its own view (Tab reaches it, Enter opens it), named by kind, name and state. */
function ObjectNode({ data }: NodeProps<ObjectNodeType>) {
  const n = data.node;
  const onGroup = data.onGroup;
  const label = accessibleName(n);
  const title = (
    <>
      <span className="kind">{n.kind}</span> <span className="name">{n.name}</span>
    </>
  );
  return (
    <div className={`k8s-node ${stateClass(n)}`} style={{ width: NODE_WIDTH, minHeight: NODE_HEIGHT - 8 }}>
      <Handle type="target" position={Position.Top} isConnectable={false} />
      {n.href === undefined ? (
        <span className="node-title" role="img" aria-label={label}>
          {title}
        </span>
      ) : (
        <a className="node-title" href={n.href} aria-label={label} aria-current={n.role === 'target' ? 'page' : undefined}>
          {title}
        </a>
      )}
      <ul className="node-state" aria-hidden="true">
        {n.words.map((w) => (
          <li key={w}>{w}</li>
        ))}
      </ul>
      <GroupControls node={n} onGroup={onGroup} />
      <Handle type="source" position={Position.Bottom} isConnectable={false} />
    </div>
  );
}

const NODE_TYPES = { object: ObjectNode };

/** What the layout depends on: the nodes (and which group each sits in) and the edges' ends. */
function shapeOf(graph: OwnershipGraph): string {
  const nodes = graph.nodes.map((n) => `${n.id}<${n.memberOf ?? ''}`).join(',');
  return `${nodes}|${graph.edges.map((e) => `${e.source}>${e.target}`).join(',')}`;
}

/** The first row of members is brought into view with its group when a group opens or grows. */
const FOCUS_MEMBERS = 8;

export function GraphView({ graph, onGroup }: { graph: OwnershipGraph; onGroup: OnGroup }) {
  const flow = useRef<ReactFlowInstance<ObjectNodeType, Edge> | undefined>(undefined);
  const focusGroup = useRef<string | undefined>(undefined);
  const laidOut = useRef<{ shape: string; positions: ReturnType<typeof layout> } | undefined>(undefined);
  const act = useCallback<OnGroup>(
    (id, action) => {
      focusGroup.current = action === 'collapse' ? undefined : id;
      onGroup(id, action);
    },
    [onGroup],
  );
  const { nodes, edges, positions } = useMemo(() => {
    // Most changes are states (a finalizer removed, a deletion started): the same nodes and edges keep their places.
    const shape = shapeOf(graph);
    if (laidOut.current?.shape !== shape) laidOut.current = { shape, positions: layout(graph) };
    const positions = laidOut.current.positions;
    const nodes: ObjectNodeType[] = graph.nodes.map((n) => ({
      id: n.id,
      type: 'object',
      position: positions.get(n.id) ?? { x: 0, y: 0 },
      data: { node: n, onGroup: act },
      draggable: false,
      selectable: false,
    }));
    const edges: Edge[] = graph.edges.map((e) => ({
      id: e.id,
      source: e.source,
      target: e.target,
      ...(e.label === undefined ? {} : { label: e.label }),
      className: `edge-${e.type}${e.blockOwnerDeletion === true ? ' edge-block' : ''}`,
      markerEnd: { type: MarkerType.ArrowClosed },
      focusable: false,
    }));
    return { nodes, edges, positions };
  }, [graph, act]);
  useEffect(() => {
    const id = focusGroup.current;
    if (id === undefined || flow.current === undefined) return;
    focusGroup.current = undefined;
    // Our own positions, not React Flow's measurements, which the new members do not have yet.
    const shown = [
      id,
      ...graph.nodes
        .filter((n) => n.memberOf === id)
        .slice(0, FOCUS_MEMBERS)
        .map((n) => n.id),
    ];
    const points = shown.flatMap((n) => positions.get(n) ?? []);
    if (points.length === 0) return;
    const x = Math.min(...points.map((p) => p.x));
    const y = Math.min(...points.map((p) => p.y));
    const width = Math.max(...points.map((p) => p.x)) + NODE_WIDTH - x;
    const height = Math.max(...points.map((p) => p.y)) + NODE_HEIGHT - y;
    void flow.current.fitBounds({ x, y, width, height }, { padding: 0.1, duration: 0 });
  }, [graph, positions]);
  return (
    <section className="graph" aria-label="ownership graph">
      <ReactFlow
        nodes={nodes}
        edges={edges}
        nodeTypes={NODE_TYPES}
        nodesFocusable={false}
        edgesFocusable={false}
        nodesConnectable={false}
        fitView
        onInit={(instance) => {
          flow.current = instance;
        }}
        onlyRenderVisibleElements={nodes.length >= RENDER_VISIBLE_ONLY_FROM}
        minZoom={0.05}
        proOptions={{ hideAttribution: true }}
      >
        <Background />
        <Controls showInteractive={false} />
      </ReactFlow>
    </section>
  );
}
