import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ResourceInfo } from '../../api/resource-info.js';
import type { KubeObject } from '../../api/types.js';
import { BUILTIN_DEFINITIONS } from '../../kinds/definitions.js';
import { inlineDefinition } from '../../openapi/inline-schema.js';
import { type GroupVersionKind, typeCheckPolicy, typesToCheck } from './type-checking.js';

const info = (group: string, kind: string, plural: string, definition: string): ResourceInfo =>
  ({ group, version: 'v1', kind, plural, definition }) as ResourceInfo;

const RESOURCES = [
  info('', 'ConfigMap', 'configmaps', 'io.k8s.api.core.v1.ConfigMap'),
  info('apps', 'Deployment', 'deployments', 'io.k8s.api.apps.v1.Deployment'),
  info('', 'Secret', 'secrets', 'io.k8s.api.core.v1.Secret'),
];

const schemaOf = (gvk: GroupVersionKind) => {
  const r = RESOURCES.find((x) => x.group === gvk.group && x.kind === gvk.kind);
  return r === undefined ? undefined : inlineDefinition(BUILTIN_DEFINITIONS, r.definition);
};

const policy = (rules: Record<string, unknown>[], spec: Record<string, unknown>): KubeObject => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicy',
  metadata: { name: 'p' },
  spec: { matchConstraints: { resourceRules: rules }, ...spec },
});

test('typesToCheck: the kinds of rules without wildcard groups or versions, sorted; wildcard resources and subresources skipped', () => {
  const p = policy(
    [
      { apiGroups: ['apps', ''], apiVersions: ['v1'], resources: ['deployments', 'configmaps', '*', 'deployments/scale'] },
      { apiGroups: ['*'], apiVersions: ['v1'], resources: ['secrets'] },
    ],
    {},
  );
  assert.deepEqual(typesToCheck(p, RESOURCES), [
    { group: '', version: 'v1', kind: 'ConfigMap' },
    { group: 'apps', version: 'v1', kind: 'Deployment' },
  ]);
});

test('warnings name each kind an expression fails on, in cel-go wording, for expressions and messageExpressions', () => {
  const p = policy([{ apiGroups: ['', 'apps'], apiVersions: ['v1'], resources: ['configmaps', 'deployments'] }], {
    paramKind: { apiVersion: 'v1', kind: 'Secret' },
    validations: [
      { expression: 'object.spec.replicas > 1', messageExpression: 'object.metadata.name + params.type' },
      { expression: 'object.metadata.labels.a == params.type' },
      { expression: 'object.foo == 1 || object.bar == 2' },
    ],
  });
  const configMap = (col: number, field: string, expression: string) =>
    `/v1, Kind=ConfigMap: ERROR: <input>:1:${col}: undefined field '${field}'\n | ${expression}\n | ${'.'.repeat(col - 1)}^\n`;
  const deployment = (col: number, field: string, expression: string) =>
    `apps/v1, Kind=Deployment: ERROR: <input>:1:${col}: undefined field '${field}'\n | ${expression}\n | ${'.'.repeat(col - 1)}^\n`;
  const third = 'object.foo == 1 || object.bar == 2';
  assert.deepEqual(typeCheckPolicy(p, { resources: RESOURCES, schemaOf }), [
    { fieldRef: 'spec.validations[0].expression', warning: configMap(7, 'spec', 'object.spec.replicas > 1') },
    {
      fieldRef: 'spec.validations[2].expression',
      warning: `${configMap(7, 'foo', third)}\n${deployment(7, 'foo', third)}`,
    },
  ]);
});
