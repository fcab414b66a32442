import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BUILTIN_RESOURCES } from './index.js';
import { type Definitions, resolveSchema, type Schema } from '../openapi/schema.js';
import { ADMISSIONREGISTRATION_V1_WEBHOOK_TYPES } from './admissionregistration-v1/webhook-types.js';
import { AUTHENTICATION_V1_TYPES } from './authentication-v1/types.js';
import { AUTHORIZATION_V1_TYPES } from './authorization-v1/types.js';
import { AUTOSCALING_V1_TYPES } from './autoscaling-v1/types.js';
import { BUILTIN_DEFINITIONS } from './definitions.js';
import { BUILTIN_KINDS } from './index.js';
import { RBAC_V1_TYPES } from './rbac-v1/types.js';
import { VALIDATING_ADMISSION_POLICY_TYPES } from './admissionregistration-v1/validating-admission-policy-types.js';

/** The definitions of every group but core: the non-core kinds' and the types those groups share. */
const GROUP_PARTS: Definitions[] = [
  ...BUILTIN_KINDS.filter((kind) => kind.resource.group !== '').map((kind) => kind.definitions ?? {}),
  ...[
    AUTOSCALING_V1_TYPES,
    AUTHENTICATION_V1_TYPES,
    AUTHORIZATION_V1_TYPES,
    RBAC_V1_TYPES,
    ADMISSIONREGISTRATION_V1_WEBHOOK_TYPES,
    VALIDATING_ADMISSION_POLICY_TYPES,
  ].map(
    (types) => types.definitions ?? {},
  ),
];
const GROUP_DEFINITIONS: Definitions = Object.assign({}, ...GROUP_PARTS);

/**
 * The meta and core/v1 definitions the group definitions point at. They are provided by the core
 * definitions, so the lead can check that every name here exists there.
 */
const EXTERNAL_REFERENCES = [
  'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
  'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta',
  'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
  'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime',
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString',
  'io.k8s.api.core.v1.PodTemplateSpec',
  'io.k8s.api.core.v1.PersistentVolumeClaim',
  'io.k8s.api.core.v1.ObjectReference',
  'io.k8s.api.core.v1.EventSource',
  'io.k8s.api.core.v1.TypedLocalObjectReference',
  'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Condition',
  'io.k8s.api.core.v1.TopologySelectorTerm',
  'io.k8s.api.core.v1.PersistentVolumeSpec',
  'io.k8s.apimachinery.pkg.api.resource.Quantity',
  'io.k8s.api.core.v1.Toleration',
  'io.k8s.apimachinery.pkg.runtime.RawExtension',
] as const;

/** Map lists whose key 1.32 itself leaves optional (flowcontrol's conditions declare `type` omitempty). */
const OPTIONAL_MAP_KEYS = new Set([
  'io.k8s.api.flowcontrol.v1.FlowSchemaStatus.conditions',
  'io.k8s.api.flowcontrol.v1.PriorityLevelConfigurationStatus.conditions',
]);

const REF_PREFIX = '#/definitions/';

function refName(schema: Schema): string | undefined {
  return schema.$ref?.slice(REF_PREFIX.length);
}

/** Calls `visit` on every schema nested in `schema` (itself included), following the schema structure. */
function walk(schema: Schema, path: string, visit: (schema: Schema, path: string) => void): void {
  visit(schema, path);
  for (const [name, property] of Object.entries(schema.properties ?? {})) walk(property, `${path}.${name}`, visit);
  if (schema.items !== undefined) walk(schema.items, `${path}[]`, visit);
  if (typeof schema.additionalProperties === 'object') walk(schema.additionalProperties, `${path}{}`, visit);
}

function definition(name: string): Schema {
  const schema = GROUP_DEFINITIONS[name];
  assert.ok(schema, `${name} is defined`);
  return schema;
}

/** The schema at `path` below a definition; a list along the way stands for its items. */
function property(definitionName: string, ...path: string[]): Schema {
  let schema = definition(definitionName);
  for (const name of path) {
    let container = resolveSchema(GROUP_DEFINITIONS, schema);
    if (container.type === 'array' && container.items !== undefined) {
      container = resolveSchema(GROUP_DEFINITIONS, container.items);
    }
    const next = container.properties?.[name];
    assert.ok(next, `${definitionName} has ${path.join('.')}`);
    schema = next;
  }
  return schema;
}

const nonCoreResources = BUILTIN_RESOURCES.filter((info) => info.group !== '');

describe('GROUP_DEFINITIONS', () => {
  it('merges the group files without one overriding another', () => {
    const parts: Definitions[] = GROUP_PARTS;
    const total = parts.reduce((sum, part) => sum + Object.keys(part).length, 0);
    assert.equal(Object.keys(GROUP_DEFINITIONS).length, total);
  });

  it('defines every served non-core kind with its group-version-kind', () => {
    assert.ok(nonCoreResources.length > 0);
    for (const info of nonCoreResources) {
      const schema = definition(info.definition);
      assert.deepEqual(
        schema['x-kubernetes-group-version-kind'],
        [{ group: info.group, version: info.version, kind: info.kind }],
        info.definition,
      );
      assert.equal(refName(property(info.definition, 'metadata')), 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta');
      assert.equal(property(info.definition, 'apiVersion').type, 'string');
      assert.equal(property(info.definition, 'kind').type, 'string');
    }
  });

  it('defines the List kind of every served non-core kind with ListMeta and items', () => {
    for (const info of nonCoreResources.filter((r) => r.review !== true)) {
      const listName = `${info.definition.slice(0, -info.kind.length)}${info.listKind}`;
      const list = definition(listName);
      assert.deepEqual(list['x-kubernetes-group-version-kind'], [{ group: info.group, version: info.version, kind: info.listKind }]);
      assert.equal(refName(property(listName, 'metadata')), 'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta');
      const items = property(listName, 'items');
      assert.equal(items.type, 'array');
      assert.equal(items.items && refName(items.items), info.definition);
      assert.deepEqual(list.required, ['items']);
    }
  });

  it('defines the kinds returned by subresources, such as autoscaling/v1 Scale', () => {
    for (const info of nonCoreResources) {
      for (const sub of info.subresources) {
        if (sub.kind === undefined) continue;
        const name = `io.k8s.api.${sub.group}.${sub.version}.${sub.kind}`;
        assert.deepEqual(definition(name)['x-kubernetes-group-version-kind'], [{ group: sub.group, version: sub.version, kind: sub.kind }]);
      }
    }
    assert.equal(property('io.k8s.api.autoscaling.v1.Scale', 'spec', 'replicas').format, 'int32');
    assert.deepEqual(definition('io.k8s.api.autoscaling.v1.ScaleStatus').required, ['replicas']);
    assert.equal(property('io.k8s.api.autoscaling.v1.Scale', 'status', 'selector').type, 'string');
  });

  it('only references its own definitions or the listed meta/core ones, and uses every listed one', () => {
    const allowed = new Set<string>(EXTERNAL_REFERENCES);
    const usedExternal = new Set<string>();
    for (const [name, schema] of Object.entries(GROUP_DEFINITIONS)) {
      walk(schema, name, (nested, path) => {
        const target = refName(nested);
        if (target === undefined) return;
        assert.ok(nested.$ref?.startsWith(REF_PREFIX), `${path} uses a #/definitions/ reference`);
        if (GROUP_DEFINITIONS[target] !== undefined) return;
        assert.ok(allowed.has(target), `${path} references unknown ${target}`);
        usedExternal.add(target);
      });
    }
    assert.deepEqual([...usedExternal].sort(), [...allowed].sort());
  });

  it('only lists required fields that are declared properties', () => {
    for (const [name, schema] of Object.entries(GROUP_DEFINITIONS)) {
      walk(schema, name, (nested, path) => {
        for (const field of nested.required ?? []) {
          assert.ok(nested.properties?.[field], `${path} requires undeclared ${field}`);
        }
      });
    }
  });

  it('keys map lists and merge lists by fields their items declare', () => {
    for (const [name, schema] of Object.entries(GROUP_DEFINITIONS)) {
      walk(schema, name, (nested, path) => {
        const keys = [...(nested['x-kubernetes-list-map-keys'] ?? [])];
        const mergeKey = nested['x-kubernetes-patch-merge-key'];
        if (mergeKey !== undefined) keys.push(mergeKey);
        if (nested['x-kubernetes-list-type'] === 'map') assert.ok(nested['x-kubernetes-list-map-keys']?.length, path);
        if (keys.length === 0) return;
        assert.equal(nested.type, 'array', `${path} is a list`);
        assert.ok(nested.items);
        // Items may be meta types (PDB conditions are meta/v1 Conditions), so resolve against every definition.
        const item = resolveSchema(BUILTIN_DEFINITIONS, nested.items);
        for (const key of keys) {
          assert.ok(item.properties?.[key], `${path} items declare ${key}`);
          if (!OPTIONAL_MAP_KEYS.has(path)) assert.ok(item.required?.includes(key), `${path} items require ${key}`);
        }
      });
    }
  });

  it('merges workload and APIService conditions by type (strategic merge and apply)', () => {
    const statuses = [
      'io.k8s.api.apps.v1.DeploymentStatus',
      'io.k8s.api.apps.v1.ReplicaSetStatus',
      'io.k8s.api.apps.v1.StatefulSetStatus',
      'io.k8s.api.apps.v1.DaemonSetStatus',
      'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIServiceStatus',
    ];
    for (const status of statuses) {
      const conditions = property(status, 'conditions');
      assert.equal(conditions['x-kubernetes-patch-strategy'], 'merge', status);
      assert.equal(conditions['x-kubernetes-patch-merge-key'], 'type', status);
      assert.equal(conditions['x-kubernetes-list-type'], 'map', status);
      assert.deepEqual(conditions['x-kubernetes-list-map-keys'], ['type'], status);
    }
  });

  it('keeps the irregular condition lists of Job and CustomResourceDefinition as Kubernetes has them', () => {
    const jobConditions = property('io.k8s.api.batch.v1.JobStatus', 'conditions');
    assert.equal(jobConditions['x-kubernetes-list-type'], 'atomic');
    assert.equal(jobConditions['x-kubernetes-patch-strategy'], 'merge');
    assert.equal(jobConditions['x-kubernetes-patch-merge-key'], 'type');

    const crdConditions = property('io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionStatus', 'conditions');
    assert.equal(crdConditions['x-kubernetes-list-type'], 'map');
    assert.deepEqual(crdConditions['x-kubernetes-list-map-keys'], ['type']);
    assert.equal(crdConditions['x-kubernetes-patch-strategy'], undefined);
  });

  it('retains keys of the Deployment strategy and models rolling update limits as IntOrString', () => {
    assert.equal(property('io.k8s.api.apps.v1.DeploymentSpec', 'strategy')['x-kubernetes-patch-strategy'], 'retainKeys');
    for (const field of ['maxSurge', 'maxUnavailable']) {
      assert.equal(
        refName(property('io.k8s.api.apps.v1.DeploymentSpec', 'strategy', 'rollingUpdate', field)),
        'io.k8s.apimachinery.pkg.util.intstr.IntOrString',
      );
    }
    assert.equal(property('io.k8s.api.apps.v1.DaemonSetSpec', 'updateStrategy')['x-kubernetes-patch-strategy'], undefined);
    assert.deepEqual(definition('io.k8s.api.apps.v1.DeploymentSpec').required, ['selector', 'template']);
  });

  it('treats RBAC rule and subject lists as atomic and references as atomic maps', () => {
    for (const field of ['apiGroups', 'nonResourceURLs', 'resourceNames', 'resources', 'verbs']) {
      assert.equal(property('io.k8s.api.rbac.v1.PolicyRule', field)['x-kubernetes-list-type'], 'atomic', field);
    }
    assert.deepEqual(definition('io.k8s.api.rbac.v1.PolicyRule').required, ['verbs']);
    assert.equal(property('io.k8s.api.rbac.v1.Role', 'rules')['x-kubernetes-list-type'], 'atomic');
    assert.equal(property('io.k8s.api.rbac.v1.ClusterRoleBinding', 'subjects')['x-kubernetes-list-type'], 'atomic');
    assert.equal(property('io.k8s.api.rbac.v1.ClusterRole', 'aggregationRule', 'clusterRoleSelectors')['x-kubernetes-list-type'], 'atomic');
    assert.equal(definition('io.k8s.api.rbac.v1.RoleRef')['x-kubernetes-map-type'], 'atomic');
    assert.equal(definition('io.k8s.api.rbac.v1.Subject')['x-kubernetes-map-type'], 'atomic');
    assert.deepEqual(definition('io.k8s.api.rbac.v1.RoleBinding').required, ['roleRef']);
  });

  it('describes StatefulSet storage, retention and ordinals', () => {
    const templates = property('io.k8s.api.apps.v1.StatefulSetSpec', 'volumeClaimTemplates');
    assert.equal(templates['x-kubernetes-list-type'], 'atomic');
    assert.equal(templates.items && refName(templates.items), 'io.k8s.api.core.v1.PersistentVolumeClaim');
    assert.equal(property('io.k8s.api.apps.v1.StatefulSetSpec', 'persistentVolumeClaimRetentionPolicy', 'whenScaled').type, 'string');
    assert.equal(property('io.k8s.api.apps.v1.StatefulSetSpec', 'ordinals', 'start').format, 'int32');
    assert.deepEqual(definition('io.k8s.api.apps.v1.StatefulSetSpec').required, ['selector', 'template', 'serviceName']);
  });

  it('describes the Job spec and status fields with their formats and list types', () => {
    const job = 'io.k8s.api.batch.v1.JobSpec';
    assert.equal(property(job, 'activeDeadlineSeconds').format, 'int64');
    for (const field of ['backoffLimit', 'backoffLimitPerIndex', 'maxFailedIndexes', 'ttlSecondsAfterFinished']) {
      assert.equal(property(job, field).format, 'int32', field);
    }
    assert.equal(property(job, 'suspend').type, 'boolean');
    assert.equal(property(job, 'completionMode').type, 'string');
    assert.equal(property(job, 'podFailurePolicy', 'rules')['x-kubernetes-list-type'], 'atomic');
    assert.equal(property(job, 'successPolicy', 'rules')['x-kubernetes-list-type'], 'atomic');
    const exitCodes = property('io.k8s.api.batch.v1.PodFailurePolicyRule', 'onExitCodes', 'values');
    assert.equal(exitCodes['x-kubernetes-list-type'], 'set');
    assert.equal(exitCodes.items?.format, 'int32');
    const uncounted = property('io.k8s.api.batch.v1.JobStatus', 'uncountedTerminatedPods', 'failed');
    assert.equal(uncounted['x-kubernetes-list-type'], 'set');
  });

  it('describes EndpointSlice lists and the required Event eventTime', () => {
    const slice = 'io.k8s.api.discovery.v1.EndpointSlice';
    assert.equal(property(slice, 'endpoints')['x-kubernetes-list-type'], 'atomic');
    assert.equal(property(slice, 'ports')['x-kubernetes-list-type'], 'atomic');
    assert.equal(property(slice, 'endpoints', 'addresses')['x-kubernetes-list-type'], 'set');
    assert.equal(property(slice, 'endpoints', 'hints', 'forZones')['x-kubernetes-list-type'], 'atomic');
    assert.equal(definition('io.k8s.api.discovery.v1.EndpointPort')['x-kubernetes-map-type'], 'atomic');
    assert.deepEqual(definition(slice).required, ['addressType', 'endpoints']);
    assert.deepEqual(definition('io.k8s.api.events.v1.Event').required, ['eventTime']);
    assert.equal(
      refName(property('io.k8s.api.coordination.v1.Lease', 'spec', 'renewTime')),
      'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime',
    );
  });

  it('models CRD schemas recursively and their loosely typed parts as preserving unknown fields', () => {
    const props = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps';
    const nested = property(props, 'properties');
    assert.equal(nested.type, 'object');
    assert.equal(typeof nested.additionalProperties === 'object' && refName(nested.additionalProperties), props);
    assert.equal(refName(property(props, 'not')), props);
    for (const field of ['default', 'items', 'additionalProperties']) {
      const loose = resolveSchema(GROUP_DEFINITIONS, property(props, field));
      assert.equal(loose['x-kubernetes-preserve-unknown-fields'], true, field);
      assert.equal(loose.type, undefined, field);
    }
    const validations = property(props, 'x-kubernetes-validations');
    assert.equal(validations['x-kubernetes-patch-merge-key'], 'rule');
    assert.deepEqual(validations['x-kubernetes-list-map-keys'], ['rule']);
    assert.equal(
      refName(
        property('io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition', 'spec', 'versions').items ?? {},
      ),
      'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionVersion',
    );
    assert.equal(
      property('io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionStatus', 'storedVersions')[
        'x-kubernetes-list-type'
      ],
      'atomic',
    );
  });
});
