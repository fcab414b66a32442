import dagre from '@dagrejs/dagre';
import type { OwnershipGraph } from './ownership-graph.js';

export const NODE_WIDTH = 250;
export const NODE_HEIGHT = 96;
const GAP_X = 24;
const GAP_Y = 24;
/** Members of an expanded group, this many to a row under it. */
const GRID_COLUMNS = 8;

type Position = { x: number; y: number };

/**
 * Owners above, dependents below: dagre's layered layout along the edges (owner → dependent). The members of an
 * expanded group are not given to dagre, whose cost grows faster than linearly with a wide rank: each group's
 * members become one block of their grid's size, and are placed in rows inside it afterwards.
 */
export function layout(graph: OwnershipGraph): Map<string, Position> {
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: 'TB', nodesep: GAP_X, ranksep: 56 });
  g.setDefaultEdgeLabel(() => ({}));
  const members = new Map<string, string[]>();
  for (const node of graph.nodes) {
    if (node.memberOf === undefined) g.setNode(node.id, { width: NODE_WIDTH, height: NODE_HEIGHT });
    else {
      const list = members.get(node.memberOf);
      if (list === undefined) members.set(node.memberOf, [node.id]);
      else list.push(node.id);
    }
  }
  const blockOf = new Map<string, string>();
  for (const [group, ids] of members) {
    const block = `block:${group}`;
    const columns = Math.min(GRID_COLUMNS, ids.length);
    const rows = Math.ceil(ids.length / GRID_COLUMNS);
    g.setNode(block, { width: columns * (NODE_WIDTH + GAP_X) - GAP_X, height: rows * (NODE_HEIGHT + GAP_Y) - GAP_Y });
    g.setEdge(group, block);
    for (const id of ids) blockOf.set(id, block);
  }
  for (const edge of graph.edges) {
    const source = blockOf.get(edge.source) ?? edge.source;
    const target = blockOf.get(edge.target) ?? edge.target;
    if (source !== target) g.setEdge(source, target);
  }
  dagre.layout(g);
  const positions = new Map<string, Position>();
  for (const node of graph.nodes) {
    if (node.memberOf !== undefined) continue;
    const p = g.node(node.id);
    positions.set(node.id, { x: (p?.x ?? 0) - NODE_WIDTH / 2, y: (p?.y ?? 0) - NODE_HEIGHT / 2 });
  }
  for (const [group, ids] of members) {
    const block = g.node(`block:${group}`);
    const left = (block?.x ?? 0) - (block?.width ?? 0) / 2;
    const top = (block?.y ?? 0) - (block?.height ?? 0) / 2;
    ids.forEach((id, i) => {
      positions.set(id, {
        x: left + (i % GRID_COLUMNS) * (NODE_WIDTH + GAP_X),
        y: top + Math.floor(i / GRID_COLUMNS) * (NODE_HEIGHT + GAP_Y),
      });
    });
  }
  return positions;
}
