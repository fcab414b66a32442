import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type FieldError, fieldErrorBody } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import { REPLICA_SET } from './replica-set.js';
import { validateReplicaSet, validateReplicaSetStatusUpdate, validateReplicaSetUpdate } from './replica-set-validation.js';

const rendered = (errors: FieldError[]): string[] => errors.map((e) => `${e.field}: ${fieldErrorBody(e)}`);

type Spec = Record<string, unknown>;

function replicaSet(change: (spec: Spec) => void = () => {}): KubeObject {
  const obj: KubeObject = {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name: 'web-1', namespace: 'default', uid: 'u1' },
    spec: {
      selector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['web'] }] },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    },
  };
  change(obj.spec as Spec);
  REPLICA_SET.strategy?.defaults?.(obj);
  return obj;
}

describe('ReplicaSet validation (apps/validation ValidateReplicaSetSpec)', () => {
  it('accepts a ReplicaSet selecting with matchExpressions', () => assert.deepEqual(rendered(validateReplicaSet(replicaSet())), []));

  const cases: [string, (spec: Spec) => void, string[]][] = [
    [
      'negative replicas and minReadySeconds',
      (s) => {
        s.replicas = -1;
        s.minReadySeconds = -1;
      },
      [
        'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
        'spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0',
      ],
    ],
    [
      'an empty selector (worded "for deployment", as Kubernetes words it)',
      (s) => (s.selector = { matchLabels: {} }),
      [
        'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment',
      ],
    ],
    [
      'a selector the template does not satisfy',
      (s) => (s.selector = { matchExpressions: [{ key: 'app', operator: 'NotIn', values: ['web'] }] }),
      ['spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`'],
    ],
    [
      'restartPolicy OnFailure',
      (s) => (((s.template as Spec).spec as Spec).restartPolicy = 'OnFailure'),
      ['spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"'],
    ],
  ];
  for (const [name, change, expected] of cases) {
    it(name, () => assert.deepEqual(rendered(validateReplicaSet(replicaSet(change))), expected));
  }
});

describe('ReplicaSet update (rsStrategy.ValidateUpdate)', () => {
  it('accepts a replica change', () =>
    assert.deepEqual(
      rendered(
        validateReplicaSetUpdate(
          replicaSet((s) => (s.replicas = 4)),
          replicaSet(),
        ),
      ),
      [],
    ));
  it('lists a spec error twice (ValidateReplicaSet, then ValidateReplicaSetUpdate) and defends the selector', () => {
    const next = replicaSet((s) => {
      s.replicas = -1;
      s.selector = { matchLabels: { app: 'web' } };
    });
    assert.deepEqual(rendered(validateReplicaSetUpdate(next, replicaSet())), [
      'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
      'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
      'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"web"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
    ]);
  });
});

describe('ReplicaSet status (ValidateReplicaSetStatus)', () => {
  it('refuses counts above status.replicas', () => {
    const next = {
      ...replicaSet(),
      status: { replicas: 1, fullyLabeledReplicas: 2, readyReplicas: 1, availableReplicas: 1, observedGeneration: -1 },
    };
    assert.deepEqual(rendered(validateReplicaSetStatusUpdate(next)), [
      'status.observedGeneration: Invalid value: -1: must be greater than or equal to 0',
      'status.fullyLabeledReplicas: Invalid value: 2: cannot be greater than status.replicas',
    ]);
  });
});
