import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resourceInfo } from './define/resource.js';
import { BUILTIN_KINDS, BUILTIN_RESOURCES, builtinKind } from './index.js';

const id = (group: string, name: string): string => `${group}/${name}`;

describe('the kind registration', () => {
  it('registers each kind once, with a unique kind and resource name in its group', () => {
    const stored = BUILTIN_KINDS.filter((kind) => kind.conversion === undefined);
    const kinds = stored.map((kind) => id(kind.resource.group, kind.resource.kind));
    const plurals = stored.map((kind) => id(kind.resource.group, kind.resource.plural));
    assert.equal(new Set(kinds).size, kinds.length);
    assert.equal(new Set(plurals).size, plurals.length);
    assert.deepEqual(
      BUILTIN_RESOURCES,
      BUILTIN_KINDS.map((kind) => kind.resource),
    );
  });

  it('serves a further version only of a kind registered at the storage version its conversion names', () => {
    const converted = BUILTIN_KINDS.filter((kind) => kind.conversion !== undefined);
    assert.deepEqual(
      converted.map((kind) => `${id(kind.resource.group, kind.resource.version)} ${kind.resource.plural}`),
      ['autoscaling/v1 horizontalpodautoscalers'],
    );
    for (const kind of converted) {
      const storage = builtinKind(kind.resource.group, kind.resource.kind);
      assert.equal(storage?.resource.version, kind.conversion?.storageVersion);
      assert.equal(storage?.resource.plural, kind.resource.plural);
    }
  });

  it('finds a kind by group and kind, and nothing for a kind it does not serve', () => {
    assert.equal(builtinKind('apps', 'Deployment')?.resource.plural, 'deployments');
    assert.equal(builtinKind('events.k8s.io', 'Event')?.resource.group, 'events.k8s.io');
    assert.equal(builtinKind('', 'Event')?.resource.group, '');
    assert.equal(builtinKind('apps', 'Pod'), undefined);
  });

  it('gives every kind its own schema: its definition, its List, and only types of its own Go package', () => {
    for (const kind of BUILTIN_KINDS) {
      const { definition, listKind, verbs } = kind.resource;
      const own = Object.keys(kind.definitions ?? {});
      assert.ok(own.includes(definition), `${definition} is declared by its kind`);
      const pkg = definition.slice(0, definition.lastIndexOf('.') + 1);
      // Create-only kinds (reviews, bindings) have no List.
      if (verbs.includes('list')) assert.ok(own.includes(pkg + listKind), `${pkg}${listKind} is declared by its kind`);
      for (const name of own) assert.ok(name.startsWith(pkg), `${name} belongs to ${pkg}`);
      for (const name of Object.keys(kind.fieldNumbers ?? {})) assert.ok(name.startsWith(pkg), `${name} numbered by ${definition}`);
      assert.ok(kind.fieldNumbers?.[definition] !== undefined, `${definition} has field numbers`);
    }
  });
});

describe('resourceInfo', () => {
  it("names the definition after k8s.io/api's package: the group's first label, or core", () => {
    const base = { version: 'v1', namespaced: true };
    assert.equal(
      resourceInfo({ ...base, group: 'networking.k8s.io', kind: 'Ingress', plural: 'ingresses' }).definition,
      'io.k8s.api.networking.v1.Ingress',
    );
    assert.equal(resourceInfo({ ...base, group: '', kind: 'Pod', plural: 'pods' }).definition, 'io.k8s.api.core.v1.Pod');
    assert.equal(
      resourceInfo({ ...base, group: 'policy', kind: 'PodDisruptionBudget', plural: 'poddisruptionbudgets' }).definition,
      'io.k8s.api.policy.v1.PodDisruptionBudget',
    );
  });

  it('fills in the common values of what a kind leaves out', () => {
    const info = resourceInfo({
      group: 'storage.k8s.io',
      version: 'v1',
      kind: 'StorageClass',
      plural: 'storageclasses',
      namespaced: false,
      shortNames: ['sc'],
    });
    assert.equal(info.listKind, 'StorageClassList');
    assert.equal(info.singular, 'storageclass');
    assert.equal(info.nameFormat, 'dns1123-subdomain');
    assert.deepEqual(info.verbs, ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
    assert.deepEqual([info.categories, info.subresources, info.review], [[], [], undefined]);
  });
});
