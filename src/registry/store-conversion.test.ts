import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CustomResourceDefinition } from '../api/crd-types.js';
import { StatusError } from '../api/errors.js';
import type { KubeObject } from '../api/types.js';
import { customResourceInfos } from '../apiextensions/custom-resource-info.js';
import { customResourceDefinitions } from '../apiextensions/openapi.js';
import { createMemoryBackend } from '../storage/memory/backend.js';
import { ConversionFailure, type ObjectConverter } from './object-converter.js';
import { Registry } from './registry.js';
import { genericStrategy } from './resources/generic.js';
import { watchCollection } from './watch.js';

// The store's storage boundary for webhook-converted custom resources (R11.88, R11.89, R11.96–R11.98): what is
// written, when the converter is called, and how its failures surface, with a scripted converter.

const CRD = {
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    names: { plural: 'widgets', kind: 'Widget' },
    scope: 'Namespaced',
    versions: [
      { name: 'v1', served: true, storage: true },
      { name: 'v2', served: true, storage: false },
    ],
  },
} as unknown as CustomResourceDefinition;

const OPEN = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } as const;

/** v1 has spec.a, v2 spec.b; every call is recorded as `<to> <names>`. */
class FakeConverter implements ObjectConverter {
  readonly storageApiVersion = 'example.com/v1';
  readonly calls: string[] = [];
  failing = false;
  async convert(objects: readonly KubeObject[], to: string, listKind?: string): Promise<KubeObject[]> {
    const pending = objects.filter((o) => o.apiVersion !== to);
    if (pending.length === 0) return [...objects];
    this.calls.push(`${to} ${pending.map((o) => o.metadata.name).join(',')}`);
    if (this.failing) throw new ConversionFailure(`conversion webhook for example.com/v1, Kind=${listKind ?? 'Widget'} failed: down`);
    return objects.map((o) => {
      if (o.apiVersion === to) return o;
      const spec = o.spec as Record<string, unknown>;
      return { ...o, apiVersion: to, spec: to === 'example.com/v2' ? { b: spec.a } : { a: spec.b } };
    });
  }
}

function setup() {
  const backend = createMemoryBackend();
  const registry = new Registry({ backend, resources: [] });
  const converter = new FakeConverter();
  const stores = Object.fromEntries(
    customResourceInfos(CRD, CRD.spec.names).map(({ info }) => [
      info.version,
      registry.add(info, genericStrategy(info, {}), customResourceDefinitions(info.group, info.version, CRD.spec.names, OPEN), converter),
    ]),
  );
  return { backend, converter, v1: stores.v1 as NonNullable<(typeof stores)['v1']>, v2: stores.v2 as NonNullable<(typeof stores)['v2']> };
}

const widget = (name: string, spec: Record<string, unknown>): KubeObject => ({ metadata: { name }, spec });

describe('ResourceStore with a conversion webhook', () => {
  it('writes a non-storage version in the storage version and answers in the request’s (R11.88)', async () => {
    const { backend, converter, v2 } = setup();
    const created = await v2.create('ns', widget('w', { b: 1 }));
    assert.equal(created.apiVersion, 'example.com/v2');
    assert.deepEqual(created.spec, { b: 1 });
    const { kv } = await backend.get('/registry/example.com/widgets/ns/w');
    const stored = JSON.parse(new TextDecoder().decode(kv?.value));
    assert.equal(stored.apiVersion, 'example.com/v1');
    assert.deepEqual(stored.spec, { a: 1 });
    assert.deepEqual(converter.calls, ['example.com/v1 w', 'example.com/v2 w']);
  });

  it('reads at the storage version without a call, lists another version with one (R11.89)', async () => {
    const { converter, v1, v2 } = setup();
    await v1.create('ns', widget('x', { a: 1 }));
    await v1.create('ns', widget('y', { a: 2 }));
    converter.calls.length = 0;
    assert.deepEqual((await v1.get('ns', 'x')).spec, { a: 1 });
    assert.deepEqual(converter.calls, []);
    const list = await v2.list('ns');
    assert.deepEqual(
      list.items.map((o) => o.spec),
      [{ b: 1 }, { b: 2 }],
    );
    assert.deepEqual(converter.calls, ['example.com/v2 x,y']);
  });

  it('updates at another version from the converted current object', async () => {
    const { v1, v2 } = setup();
    await v1.create('ns', widget('u', { a: 1 }));
    const updated = await v2.guaranteedUpdate('ns', 'u', {}, (current) => ({
      ...current,
      spec: { b: (current.spec as { b: number }).b + 1 },
    }));
    assert.deepEqual(updated.spec, { b: 2 });
    assert.deepEqual((await v1.get('ns', 'u')).spec, { a: 2 });
  });

  it('fails reads with a reasonless 500 and writes with an InternalError (R11.96, R11.97)', async () => {
    const { converter, v1, v2 } = setup();
    await v1.create('ns', widget('f', { a: 1 }));
    converter.failing = true;
    await assert.rejects(v2.get('ns', 'f'), (err: unknown) => {
      assert.ok(err instanceof StatusError);
      assert.deepEqual([err.code, err.reason, err.message], [500, '', 'conversion webhook for example.com/v1, Kind=Widget failed: down']);
      return true;
    });
    await assert.rejects(v2.list('ns'), /Kind=WidgetList failed: down/);
    await assert.rejects(v2.create('ns', widget('g', { b: 1 })), (err: unknown) => {
      assert.ok(err instanceof StatusError);
      assert.deepEqual([err.code, err.reason], [500, 'InternalError']);
      assert.equal(err.message, 'Internal error occurred: conversion webhook for example.com/v1, Kind=Widget failed: down');
      return true;
    });
  });

  it('converts each watch event, never offers one through poll, and ends the watch on a failure (R11.98)', async () => {
    const { converter, v1, v2 } = setup();
    const watch = await watchCollection(v2, 'ns', { sendInitialEvents: false });
    const events = watch[Symbol.asyncIterator]();
    await v1.create('ns', widget('e', { a: 5 }));
    assert.equal(watch.poll(), undefined);
    const first = await events.next();
    assert.equal(first.value?.type, 'ADDED');
    assert.deepEqual((first.value?.object as KubeObject | undefined)?.spec, { b: 5 });
    converter.failing = true;
    await v1.guaranteedUpdate('ns', 'e', {}, (current) => ({ ...current, spec: { a: 6 } }));
    assert.equal((await events.next()).done, true);
  });
});
