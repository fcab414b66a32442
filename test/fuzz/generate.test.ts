import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Actor, type ActorName, actors, NS_CANARY, NS_PROBE } from './actors.js';
import { generateRequest } from './generate.js';
import { CATEGORIES } from './request.js';

const byName = new Map<ActorName, Actor>(actors('admin-token').map((a) => [a.name, a]));
const SAMPLE = 1500;

describe('fuzz request generator', () => {
  it('makes the same request from the same seed and index', () => {
    for (const index of [0, 1, 999]) assert.deepEqual(generateRequest(7, index, byName), generateRequest(7, index, byName));
    assert.notDeepEqual(generateRequest(7, 1, byName), generateRequest(8, 1, byName));
  });

  it('covers every category and actor', () => {
    const categories = new Set<string>();
    const seen = new Set<string>();
    for (let i = 0; i < SAMPLE && (categories.size < CATEGORIES.length || seen.size < byName.size); i++) {
      const q = generateRequest(19, i, byName);
      categories.add(q.category);
      seen.add(q.actor);
    }
    assert.deepEqual([...categories].sort(), [...CATEGORIES].sort());
    assert.deepEqual([...seen].sort(), [...byName.keys()].sort());
  });

  it("keeps the admin's requests away from the canaries and its deletes off whole collections outside namespace A", () => {
    for (let i = 0; i < SAMPLE; i++) {
      const q = generateRequest(19, i, byName);
      if (q.actor !== 'admin') continue;
      // Decoded twice, leniently: double encodings and malformed escapes are what the path generator makes.
      const path = [1, 2].reduce(
        (p) => p.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
        q.path.split('?')[0] ?? '',
      );
      assert.ok(!path.includes(NS_CANARY), `#${i} reaches the canaries: ${q.method} ${q.path}`);
      if (path.includes(NS_PROBE))
        assert.ok(
          q.probe !== undefined || q.method === 'GET' || q.method === 'HEAD',
          `#${i} writes the probes unwatched: ${q.method} ${q.path}`,
        );
      if (q.method === 'DELETE') {
        assert.ok(!/^\/api\/v1\/namespaces\/?$/.test(path), `#${i} deletes every namespace: ${q.path}`);
        assert.ok(
          /\/namespaces\/[^/]+(\/[^/]+\/[^/]+)?/.test(path) || path.includes('/namespaces/fz-tmp'),
          `#${i} deletes cluster-wide: ${q.path}`,
        );
      }
    }
  });

  it('sends the actor token, or none for anonymous users', () => {
    for (let i = 0; i < 500; i++) {
      const q = generateRequest(3, i, byName);
      const token = byName.get(q.actor)?.token;
      assert.equal(q.headers.Authorization, token === undefined ? undefined : `Bearer ${token}`);
    }
  });
});
