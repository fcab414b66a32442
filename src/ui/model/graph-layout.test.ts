import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { layout, NODE_HEIGHT, NODE_WIDTH } from './graph-layout.js';
import type { GraphNode, OwnershipGraph } from './ownership-graph.js';

function node(id: string, extra: Partial<GraphNode> = {}): GraphNode {
  return { id, role: 'dependent', kind: 'ConfigMap', name: id, words: [], ...extra };
}

describe('the graph layout', () => {
  it('puts owners above dependents and an expanded group’s members in rows under it', () => {
    const members = Array.from({ length: 20 }, (_, i) => node(`m${i}`, { memberOf: 'g' }));
    const graph: OwnershipGraph = {
      nodes: [node('owner', { role: 'target' }), node('g', { role: 'group' }), ...members, node('grandchild')],
      edges: [
        { id: 'e1', source: 'owner', target: 'g', type: 'owner' },
        // A member's own dependent hangs below the members' block.
        { id: 'e2', source: 'm3', target: 'grandchild', type: 'owner' },
      ],
      truncated: false,
    };
    const at = layout(graph);
    const p = (id: string) => at.get(id) ?? assert.fail(id);
    assert.ok(p('owner').y < p('g').y);
    assert.ok(p('g').y < p('m0').y);
    // Eight to a row, left to right, then the next row.
    assert.equal(p('m1').y, p('m0').y);
    assert.ok(p('m1').x >= p('m0').x + NODE_WIDTH);
    assert.equal(p('m8').x, p('m0').x);
    assert.ok(p('m8').y >= p('m0').y + NODE_HEIGHT);
    assert.ok(p('grandchild').y > p('m19').y);
    assert.equal(at.size, graph.nodes.length);
  });
});
