import dagre from '@dagrejs/dagre';
import type { OwnershipGraph } from '../src/ui/model/ownership-graph.js';

export const NODE_WIDTH = 250;
export const NODE_HEIGHT = 96;

/** Owners above, dependents below: dagre's layered layout along the edges (owner → dependent). */
export function layout(graph: OwnershipGraph): Map<string, { x: number; y: number }> {
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: 'TB', nodesep: 24, ranksep: 56 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const node of graph.nodes) g.setNode(node.id, { width: NODE_WIDTH, height: NODE_HEIGHT });
  for (const edge of graph.edges) g.setEdge(edge.source, edge.target);
  dagre.layout(g);
  const positions = new Map<string, { x: number; y: number }>();
  for (const node of graph.nodes) {
    const p = g.node(node.id);
    positions.set(node.id, { x: (p?.x ?? 0) - NODE_WIDTH / 2, y: (p?.y ?? 0) - NODE_HEIGHT / 2 });
  }
  return positions;
}
