import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BUILTIN_RESOURCES } from './index.js';
import { resolveSchema, type Schema } from '../openapi/schema.js';
import { BUILTIN_DEFINITIONS } from './definitions.js';

const CORE = 'io.k8s.api.core.v1.';
const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.';

function def(name: string): Schema {
  const schema = BUILTIN_DEFINITIONS[name];
  assert.ok(schema, `definition ${name} exists`);
  return schema;
}

function prop(name: string, field: string): Schema {
  const schema = def(name).properties?.[field];
  assert.ok(schema, `${name}.${field} exists`);
  return schema;
}

function eachRef(schema: Schema, visit: (ref: string) => void): void {
  if (schema.$ref !== undefined) visit(schema.$ref);
  if (schema.items !== undefined) eachRef(schema.items, visit);
  if (typeof schema.additionalProperties === 'object') eachRef(schema.additionalProperties, visit);
  for (const p of Object.values(schema.properties ?? {})) eachRef(p, visit);
}

test('every $ref in the built-in definitions resolves', () => {
  for (const [name, schema] of Object.entries(BUILTIN_DEFINITIONS)) {
    eachRef(schema, (ref) => {
      assert.doesNotThrow(() => resolveSchema(BUILTIN_DEFINITIONS, { $ref: ref }), `${name} → ${ref}`);
    });
  }
});

test('definitions are sorted by name so generated documents are stable', () => {
  const names = Object.keys(BUILTIN_DEFINITIONS);
  assert.deepEqual(names, [...names].sort());
});

test('every served resource has its kind and list definitions with x-kubernetes-group-version-kind', () => {
  for (const r of BUILTIN_RESOURCES) {
    assert.deepEqual(def(r.definition)['x-kubernetes-group-version-kind'], [{ group: r.group, kind: r.kind, version: r.version }]);
    assert.ok(def(r.definition).properties?.metadata?.$ref?.endsWith(`${META}ObjectMeta`), r.kind);
    // Create-only kinds (reviews, bindings) are never listed, so Kubernetes defines no List kind for them.
    if (!r.verbs.includes('list')) {
      assert.equal(BUILTIN_DEFINITIONS[`${r.definition}List`], undefined, r.kind);
      continue;
    }
    assert.deepEqual(def(`${r.definition}List`)['x-kubernetes-group-version-kind'], [
      { group: r.group, kind: r.listKind, version: r.version },
    ]);
  }
});

test('the core and meta names other groups reference exist', () => {
  for (const name of [
    `${CORE}PodTemplateSpec`,
    `${CORE}ObjectReference`,
    `${CORE}EventSource`,
    `${CORE}PersistentVolumeClaim`,
    `${CORE}EndpointPort`,
    `${META}LabelSelector`,
    `${META}Condition`,
    `${META}Time`,
    `${META}MicroTime`,
    'io.k8s.apimachinery.pkg.util.intstr.IntOrString',
    'io.k8s.apimachinery.pkg.api.resource.Quantity',
  ]) {
    def(name);
  }
  assert.equal(def('io.k8s.apimachinery.pkg.util.intstr.IntOrString').format, 'int-or-string');
  assert.equal(def(`${META}Time`).format, 'date-time');
});

test('container lists carry the strategic merge keys kubectl apply relies on', () => {
  const container = `${CORE}Container`;
  assert.equal(prop(container, 'env')['x-kubernetes-patch-merge-key'], 'name');
  assert.equal(prop(container, 'env')['x-kubernetes-patch-strategy'], 'merge');
  assert.equal(prop(container, 'volumeMounts')['x-kubernetes-patch-merge-key'], 'mountPath');
  const ports = prop(container, 'ports');
  assert.equal(ports['x-kubernetes-patch-merge-key'], 'containerPort');
  assert.equal(ports['x-kubernetes-list-type'], 'map');
  assert.deepEqual(ports['x-kubernetes-list-map-keys'], ['containerPort', 'protocol']);
  assert.equal(prop(container, 'command')['x-kubernetes-list-type'], 'atomic');

  const podSpec = `${CORE}PodSpec`;
  for (const field of ['containers', 'initContainers', 'ephemeralContainers']) {
    assert.equal(prop(podSpec, field)['x-kubernetes-patch-merge-key'], 'name', field);
  }
  assert.equal(prop(podSpec, 'volumes')['x-kubernetes-patch-strategy'], 'merge,retainKeys');
  assert.equal(prop(podSpec, 'tolerations')['x-kubernetes-list-type'], 'atomic');
  assert.deepEqual(def(`${CORE}PodSpec`).required, ['containers']);
});

test('status conditions, service ports and node addresses merge by their keys', () => {
  assert.equal(prop(`${CORE}PodStatus`, 'conditions')['x-kubernetes-patch-merge-key'], 'type');
  assert.equal(prop(`${CORE}NodeStatus`, 'addresses')['x-kubernetes-patch-merge-key'], 'type');
  assert.equal(prop(`${CORE}NodeStatus`, 'conditions')['x-kubernetes-patch-merge-key'], 'type');
  assert.equal(prop(`${CORE}NamespaceStatus`, 'conditions')['x-kubernetes-patch-merge-key'], 'type');
  const ports = prop(`${CORE}ServiceSpec`, 'ports');
  assert.equal(ports['x-kubernetes-patch-merge-key'], 'port');
  assert.deepEqual(ports['x-kubernetes-list-map-keys'], ['port', 'protocol']);
  assert.equal(prop(`${CORE}ServiceSpec`, 'selector')['x-kubernetes-map-type'], 'atomic');
});

test('ObjectMeta lifecycle fields carry their patch metadata (R1 finalizers, ownerReferences)', () => {
  const meta = `${META}ObjectMeta`;
  const finalizers = prop(meta, 'finalizers');
  assert.equal(finalizers['x-kubernetes-patch-strategy'], 'merge');
  assert.equal(finalizers['x-kubernetes-list-type'], 'set');
  const owners = prop(meta, 'ownerReferences');
  assert.equal(owners['x-kubernetes-patch-merge-key'], 'uid');
  assert.equal(owners['x-kubernetes-patch-strategy'], 'merge');
  assert.deepEqual(owners['x-kubernetes-list-map-keys'], ['uid']);
  assert.equal(prop(meta, 'managedFields')['x-kubernetes-list-type'], 'atomic');
  assert.deepEqual(def(`${META}OwnerReference`).required, ['apiVersion', 'kind', 'name', 'uid']);
  assert.equal(def(`${META}LabelSelector`)['x-kubernetes-map-type'], 'atomic');
});

test('PersistentVolume claimRef is granular although ObjectReference is atomic', () => {
  assert.equal(def(`${CORE}ObjectReference`)['x-kubernetes-map-type'], 'atomic');
  assert.equal(prop(`${CORE}PersistentVolumeSpec`, 'claimRef')['x-kubernetes-map-type'], 'granular');
});
