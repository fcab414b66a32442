import type { Graph, GraphNode, ObjectIdentity } from './graph.js';

export interface GraphDumpNode {
  readonly identity: ObjectIdentity;
  readonly virtual: boolean;
  readonly beingDeleted: boolean;
  readonly deletingDependents: boolean;
  readonly owners: readonly { uid: string; blockOwnerDeletion: boolean; controller: boolean }[];
  readonly dependents: readonly string[];
}

export interface GraphDump {
  readonly uid: string;
  readonly nodes: readonly GraphDumpNode[];
}

function describe(node: GraphNode): GraphDumpNode {
  return {
    identity: node.identity,
    virtual: node.virtual,
    beingDeleted: node.beingDeleted,
    deletingDependents: node.deletingDependents,
    owners: node.owners.map((r) => ({ uid: r.uid, blockOwnerDeletion: r.blockOwnerDeletion === true, controller: r.controller === true })),
    dependents: [...node.dependents].map((d) => d.identity.uid),
  };
}

/**
 * The neighbourhood of one object in the ownership graph (dump.go's idea, as JSON): the object, every owner up
 * the chain and every dependent down it, each with its deletion state. Undefined when the uid is not in the graph.
 */
export function dumpGraph(graph: Graph, uid: string): GraphDump | undefined {
  const start = graph.get(uid);
  if (start === undefined) return undefined;
  const seen = new Map<string, GraphNode>();
  const visit = (node: GraphNode, next: (n: GraphNode) => Iterable<GraphNode>): void => {
    const stack = [node];
    while (stack.length > 0) {
      const current = stack.pop() as GraphNode;
      seen.set(current.identity.uid, current);
      for (const n of next(current)) if (!seen.has(n.identity.uid)) stack.push(n);
    }
  };
  visit(start, (n) => n.dependents);
  visit(start, (n) => n.owners.map((r) => graph.get(r.uid)).filter((o): o is GraphNode => o !== undefined));
  return { uid, nodes: [...seen.values()].map(describe) };
}
