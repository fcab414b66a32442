import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type FieldError, fieldErrorBody } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import { DAEMON_SET } from './daemon-set.js';
import { validateDaemonSet, validateDaemonSetStatusUpdate, validateDaemonSetUpdate } from './daemon-set-validation.js';

const rendered = (errors: FieldError[]): string[] => errors.map((e) => `${e.field}: ${fieldErrorBody(e)}`);

type Spec = Record<string, unknown>;

function daemonSet(change: (spec: Spec) => void = () => {}): KubeObject {
  const obj: KubeObject = {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'agent', namespace: 'kube-system', uid: 'u1' },
    spec: {
      selector: { matchLabels: { app: 'agent' } },
      template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'c', image: 'agent' }] } },
    },
  };
  change(obj.spec as Spec);
  DAEMON_SET.strategy?.defaults?.(obj);
  return obj;
}

describe('DaemonSet validation (apps/validation ValidateDaemonSetSpec)', () => {
  it('accepts a defaulted DaemonSet and an OnDelete one', () => {
    assert.deepEqual(rendered(validateDaemonSet(daemonSet())), []);
    assert.deepEqual(rendered(validateDaemonSet(daemonSet((s) => (s.updateStrategy = { type: 'OnDelete' })))), []);
  });

  const cases: [string, (spec: Spec) => void, string[]][] = [
    [
      'an absent selector is reported only as not matching the template',
      (s) => delete s.selector,
      ['spec.template.metadata.labels: Invalid value: map[string]string{"app":"agent"}: `selector` does not match template `labels`'],
    ],
    [
      'empty selector',
      (s) => (s.selector = {}),
      [
        'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for daemonset',
      ],
    ],
    [
      'restartPolicy and activeDeadlineSeconds',
      (s) => {
        const pod = (s.template as Spec).spec as Spec;
        pod.restartPolicy = 'OnFailure';
        pod.activeDeadlineSeconds = 1;
      },
      [
        'spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"',
        'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in DaemonSet is not Supported',
      ],
    ],
    [
      'ValidateDaemonSetUpdateStrategy: unknown type',
      (s) => (s.updateStrategy = { type: 'Surge' }),
      [
        'spec.updateStrategy: Unsupported value: apps.DaemonSetUpdateStrategy{Type:"Surge", RollingUpdate:(*apps.RollingUpdateDaemonSet)(nil)}: supported values: "RollingUpdate", "OnDelete"',
      ],
    ],
    [
      'ValidateRollingUpdateDaemonSet: both limits set',
      (s) => (s.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: '10%' } }),
      [
        'spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"10%"}: may not be set when maxUnavailable is non-zero',
      ],
    ],
    [
      'ValidateRollingUpdateDaemonSet: both limits zero',
      (s) => (s.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 0 } }),
      ['spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0'],
    ],
    [
      'ValidateRollingUpdateDaemonSet: above 100%',
      (s) => (s.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '101%', maxSurge: 0 } }),
      [
        'spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"101%"}: must not be greater than 100%',
      ],
    ],
    [
      'negative minReadySeconds and revisionHistoryLimit',
      (s) => {
        s.minReadySeconds = -1;
        s.revisionHistoryLimit = -1;
      },
      [
        'spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0',
        'spec.revisionHistoryLimit: Invalid value: -1: must be greater than or equal to 0',
      ],
    ],
  ];
  for (const [name, change, expected] of cases) {
    it(name, () => assert.deepEqual(rendered(validateDaemonSet(daemonSet(change))), expected));
  }
});

describe('DaemonSet update (daemonSetStrategy.ValidateUpdate)', () => {
  it('accepts a template change', () => {
    const next = daemonSet((s) => ((s.template as Spec).spec = { containers: [{ name: 'c', image: 'agent:2' }] }));
    assert.deepEqual(rendered(validateDaemonSetUpdate(next, daemonSet())), []);
  });
  it('lists a spec error twice, as ValidateDaemonSet and ValidateDaemonSetUpdate both validate the spec', () => {
    assert.deepEqual(
      rendered(
        validateDaemonSetUpdate(
          daemonSet((s) => (s.minReadySeconds = -5)),
          daemonSet(),
        ),
      ),
      [
        'spec.minReadySeconds: Invalid value: -5: must be greater than or equal to 0',
        'spec.minReadySeconds: Invalid value: -5: must be greater than or equal to 0',
      ],
    );
  });
  it('refuses a selector change: field is immutable', () => {
    const next = daemonSet((s) => (s.selector = { matchExpressions: [{ key: 'app', operator: 'Exists' }] }));
    assert.deepEqual(rendered(validateDaemonSetUpdate(next, daemonSet())), [
      'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement{v1.LabelSelectorRequirement{Key:"app", Operator:"Exists", Values:[]string(nil)}}}: field is immutable',
    ]);
  });
});

describe('DaemonSet status (ValidateDaemonSetStatusUpdate)', () => {
  it('refuses negative counts', () => {
    const next = {
      ...daemonSet(),
      status: { currentNumberScheduled: 0, numberMisscheduled: -1, desiredNumberScheduled: 0, numberReady: 0 },
    };
    assert.deepEqual(rendered(validateDaemonSetStatusUpdate(next, daemonSet())), [
      'status.numberMisscheduled: Invalid value: -1: must be greater than or equal to 0',
    ]);
  });
});
