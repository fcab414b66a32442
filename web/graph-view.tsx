import { Background, Controls, type Edge, Handle, MarkerType, type Node, type NodeProps, Position, ReactFlow } from '@xyflow/react';
import { useMemo } from 'react';
import { accessibleName, type GraphNode, type OwnershipGraph } from '../src/ui/model/ownership-graph.js';
import { layout, NODE_HEIGHT, NODE_WIDTH } from './graph-layout.js';

type ObjectNodeType = Node<{ node: GraphNode }, 'object'>;

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
      <Handle type="source" position={Position.Bottom} isConnectable={false} />
    </div>
  );
}

const NODE_TYPES = { object: ObjectNode };

export function GraphView({ graph }: { graph: OwnershipGraph }) {
  const { nodes, edges } = useMemo(() => {
    const positions = layout(graph);
    const nodes: ObjectNodeType[] = graph.nodes.map((n) => ({
      id: n.id,
      type: 'object',
      position: positions.get(n.id) ?? { x: 0, y: 0 },
      data: { node: n },
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
    return { nodes, edges };
  }, [graph]);
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
        minZoom={0.05}
        proOptions={{ hideAttribution: true }}
      >
        <Background />
        <Controls showInteractive={false} />
      </ReactFlow>
    </section>
  );
}
