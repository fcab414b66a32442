import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type FieldError, fieldErrorBody } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import { STATEFUL_SET } from './stateful-set.js';
import { validateStatefulSet, validateStatefulSetStatusUpdate, validateStatefulSetUpdate } from './stateful-set-validation.js';

const rendered = (errors: FieldError[]): string[] => errors.map((e) => `${e.field}: ${fieldErrorBody(e)}`);

type Spec = Record<string, unknown>;

function statefulSet(change: (spec: Spec) => void = () => {}): KubeObject {
  const obj: KubeObject = {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'db', namespace: 'default', uid: 'u1' },
    spec: {
      serviceName: 'db',
      selector: { matchLabels: { app: 'db' } },
      template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'c', image: 'postgres' }] } },
      volumeClaimTemplates: [
        { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } },
      ],
    },
  };
  change(obj.spec as Spec);
  STATEFUL_SET.strategy?.defaults?.(obj);
  return obj;
}

const FORBIDDEN_UPDATE =
  "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden";

describe('StatefulSet validation (apps/validation ValidateStatefulSetSpec)', () => {
  it('accepts a defaulted StatefulSet, including one with partial strategy and retention policy', () => {
    assert.deepEqual(rendered(validateStatefulSet(statefulSet())), []);
    const partial = statefulSet((s) => {
      s.updateStrategy = {};
      s.persistentVolumeClaimRetentionPolicy = { whenScaled: 'Delete' };
    });
    assert.deepEqual((partial.spec as Spec).updateStrategy, { type: 'RollingUpdate', rollingUpdate: { partition: 0 } });
    assert.deepEqual((partial.spec as Spec).persistentVolumeClaimRetentionPolicy, { whenScaled: 'Delete', whenDeleted: 'Retain' });
    assert.deepEqual(rendered(validateStatefulSet(partial)), []);
  });

  const cases: [string, (spec: Spec) => void, string[]][] = [
    [
      'podManagementPolicy must be OrderedReady or Parallel',
      (s) => (s.podManagementPolicy = 'Random'),
      ["spec.podManagementPolicy: Invalid value: \"Random\": must be 'OrderedReady' or 'Parallel'"],
    ],
    [
      'updateStrategy type unknown',
      (s) => (s.updateStrategy = { type: 'Canary' }),
      [
        "spec.updateStrategy: Invalid value: apps.StatefulSetUpdateStrategy{Type:\"Canary\", RollingUpdate:(*apps.RollingUpdateStatefulSetStrategy)(nil)}: must be 'RollingUpdate' or 'OnDelete'",
      ],
    ],
    [
      'OnDelete with rollingUpdate',
      (s) => (s.updateStrategy = { type: 'OnDelete', rollingUpdate: { partition: 2 } }),
      [
        "spec.updateStrategy.rollingUpdate: Invalid value: apps.RollingUpdateStatefulSetStrategy{Partition:2, MaxUnavailable:(*intstr.IntOrString)(nil)}: only allowed for updateStrategy 'RollingUpdate'",
      ],
    ],
    [
      'negative partition',
      (s) => (s.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { partition: -1 } }),
      ['spec.updateStrategy.rollingUpdate.partition: Invalid value: -1: must be greater than or equal to 0'],
    ],
    [
      'ValidatePersistentVolumeClaimRetentionPolicy',
      (s) => (s.persistentVolumeClaimRetentionPolicy = { whenDeleted: 'Keep', whenScaled: 'Retain' }),
      ['spec.persistentVolumeClaimRetentionPolicy.whenDeleted: Unsupported value: "Keep": supported values: "Retain", "Delete"'],
    ],
    [
      'negative replicas, minReadySeconds and ordinals.start',
      (s) => {
        s.replicas = -1;
        s.minReadySeconds = -1;
        s.ordinals = { start: -1 };
      },
      [
        'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
        'spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0',
        'spec.ordinals.start: Invalid value: -1: must be greater than or equal to 0',
      ],
    ],
    [
      'selector required',
      (s) => delete s.selector,
      [
        'spec.selector: Required value',
        'spec.template.metadata.labels: Invalid value: map[string]string{"app":"db"}: `selector` does not match template `labels`',
      ],
    ],
    [
      'empty selector',
      (s) => (s.selector = {}),
      [
        'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for statefulset',
      ],
    ],
    [
      'ValidatePodTemplateSpecForStatefulSet: selector mismatch',
      (s) => (s.selector = { matchLabels: { app: 'web' } }),
      ['spec.template.metadata.labels: Invalid value: map[string]string{"app":"db"}: `selector` does not match template `labels`'],
    ],
    [
      'restartPolicy and activeDeadlineSeconds of the template',
      (s) => {
        const pod = (s.template as Spec).spec as Spec;
        pod.restartPolicy = 'Never';
        pod.activeDeadlineSeconds = 5;
      },
      [
        'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
        'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in StatefulSet is not Supported',
      ],
    ],
  ];
  for (const [name, change, expected] of cases) {
    it(name, () => assert.deepEqual(rendered(validateStatefulSet(statefulSet(change))), expected));
  }
});

describe('StatefulSet strategy: dropStatefulSetDisabledFields', () => {
  it('drops rollingUpdate.maxUnavailable (MaxUnavailableStatefulSet is off) unless the stored object uses it', () => {
    const created = statefulSet((s) => (s.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { partition: 1, maxUnavailable: 2 } }));
    STATEFUL_SET.strategy?.prepareForCreate?.(created, undefined);
    assert.deepEqual((created.spec as Spec).updateStrategy, { type: 'RollingUpdate', rollingUpdate: { partition: 1 } });
    const stored = statefulSet((s) => (s.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 2 } }));
    const next = statefulSet((s) => (s.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 3 } }));
    STATEFUL_SET.strategy?.prepareForUpdate?.(next, stored);
    assert.deepEqual((next.spec as Spec).updateStrategy, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 3, partition: 0 } });
  });
});

describe('StatefulSet update (ValidateStatefulSetUpdate)', () => {
  it('accepts changes to replicas, template, updateStrategy, minReadySeconds, ordinals and the retention policy', () => {
    const next = statefulSet((s) => {
      s.replicas = 3;
      s.minReadySeconds = 10;
      s.ordinals = { start: 1 };
      s.updateStrategy = { type: 'OnDelete' };
      s.persistentVolumeClaimRetentionPolicy = { whenDeleted: 'Delete', whenScaled: 'Delete' };
      (s.template as Spec).spec = { containers: [{ name: 'c', image: 'postgres:17' }] };
    });
    assert.deepEqual(rendered(validateStatefulSetUpdate(next, statefulSet())), []);
  });
  const forbidden: [string, (spec: Spec) => void][] = [
    ['serviceName', (s) => (s.serviceName = 'other')],
    ['podManagementPolicy', (s) => (s.podManagementPolicy = 'Parallel')],
    ['revisionHistoryLimit', (s) => (s.revisionHistoryLimit = 3)],
    ['volumeClaimTemplates', (s) => (s.volumeClaimTemplates = [])],
  ];
  for (const [field, change] of forbidden) {
    it(`refuses a change of ${field}`, () => {
      assert.deepEqual(rendered(validateStatefulSetUpdate(statefulSet(change), statefulSet())), [FORBIDDEN_UPDATE]);
    });
  }
});

describe('StatefulSet status (ValidateStatefulSetStatusUpdate)', () => {
  it('refuses inconsistent counts and a decremented collisionCount', () => {
    const next = { ...statefulSet(), status: { replicas: 2, readyReplicas: 1, currentReplicas: 3, availableReplicas: 2 } };
    const old = { ...statefulSet(), status: { replicas: 2, collisionCount: 1 } };
    assert.deepEqual(rendered(validateStatefulSetStatusUpdate(next, old)), [
      'status.currentReplicas: Invalid value: 3: cannot be greater than status.replicas',
      'status.availableReplicas: Invalid value: 2: cannot be greater than status.readyReplicas',
      'status.collisionCount: Invalid value: 0: cannot be decremented',
    ]);
  });
});
