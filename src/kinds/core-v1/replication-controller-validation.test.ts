import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type FieldError, fieldErrorBody } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import { REPLICATION_CONTROLLER } from './replication-controller.js';
import {
  validateReplicationController,
  validateReplicationControllerStatusUpdate,
  validateReplicationControllerUpdate,
} from './replication-controller-validation.js';

const rendered = (errors: FieldError[]): string[] => errors.map((e) => `${e.field}: ${fieldErrorBody(e)}`);

type Spec = Record<string, unknown>;

function controller(change: (spec: Spec) => void = () => {}): KubeObject {
  const obj: KubeObject = {
    apiVersion: 'v1',
    kind: 'ReplicationController',
    metadata: { name: 'web', namespace: 'default', uid: 'u1' },
    spec: { template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
  };
  change(obj.spec as Spec);
  REPLICATION_CONTROLLER.strategy?.defaults?.(obj);
  return obj;
}

describe('ReplicationController validation (core/validation ValidateReplicationControllerSpec)', () => {
  it('accepts one whose selector defaults to the template labels', () => {
    const rc = controller();
    assert.deepEqual((rc.spec as Spec).selector, { app: 'web' });
    assert.deepEqual(rendered(validateReplicationController(rc)), []);
  });

  const cases: [string, (spec: Spec) => void, string[]][] = [
    [
      'ValidatePodTemplateSpecForRC: template required',
      (s) => delete s.template,
      ['spec.selector: Required value', 'spec.template: Required value'],
    ],
    [
      'ValidatePodTemplateSpecForRC: selector not carried by the template',
      (s) => (s.selector = { app: 'web', tier: 'fe' }),
      ['spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`'],
    ],
    [
      'negative minReadySeconds and replicas',
      (s) => {
        s.minReadySeconds = -1;
        s.replicas = -1;
      },
      [
        'spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0',
        'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
      ],
    ],
    [
      'restartPolicy Never and activeDeadlineSeconds',
      (s) => {
        const pod = (s.template as Spec).spec as Spec;
        pod.restartPolicy = 'Never';
        pod.activeDeadlineSeconds = 10;
      },
      [
        'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
        'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicationController is not Supported',
      ],
    ],
  ];
  for (const [name, change, expected] of cases) {
    it(name, () => assert.deepEqual(rendered(validateReplicationController(controller(change))), expected));
  }
});

describe('ReplicationController update (rcStrategy.ValidateUpdate)', () => {
  it('lets the selector change together with the template', () => {
    const next = controller((s) => {
      s.selector = { app: 'web2' };
      ((s.template as Spec).metadata as Spec).labels = { app: 'web2' };
    });
    assert.deepEqual(rendered(validateReplicationControllerUpdate(next, controller())), []);
  });
  it('lists a spec error twice, as ValidateReplicationController and ValidateReplicationControllerUpdate both run', () => {
    assert.deepEqual(
      rendered(
        validateReplicationControllerUpdate(
          controller((s) => (s.replicas = -2)),
          controller(),
        ),
      ),
      [
        'spec.replicas: Invalid value: -2: must be greater than or equal to 0',
        'spec.replicas: Invalid value: -2: must be greater than or equal to 0',
      ],
    );
  });
});

describe('ReplicationController status (ValidateReplicationControllerStatus)', () => {
  it('refuses more available than ready replicas', () => {
    const next = { ...controller(), status: { replicas: 3, readyReplicas: 1, availableReplicas: 2 } };
    assert.deepEqual(rendered(validateReplicationControllerStatusUpdate(next)), [
      'status.availableReplicas: Invalid value: 2: cannot be greater than readyReplicas',
    ]);
  });
});
