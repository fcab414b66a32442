import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type FieldError, fieldErrorBody } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import { DEPLOYMENT } from './deployment.js';
import { validateDeployment, validateDeploymentStatusUpdate, validateDeploymentUpdate } from './deployment-validation.js';
import { podOptionsForUpdate } from './workload-validation.js';

const rendered = (errors: FieldError[]): string[] => errors.map((e) => `${e.field}: ${fieldErrorBody(e)}`);

type Spec = Record<string, unknown>;

/** A Deployment as the store validates it: decoded, then defaulted. */
function deployment(change: (spec: Spec) => void = () => {}): KubeObject {
  const obj: KubeObject = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', uid: 'u1' },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    },
  };
  change(obj.spec as Spec);
  DEPLOYMENT.strategy?.defaults?.(obj);
  return obj;
}

const template = (spec: Spec): Spec => spec.template as Spec;
const podSpec = (spec: Spec): Spec => template(spec).spec as Spec;

describe('Deployment validation (apps/validation ValidateDeployment → ValidateDeploymentSpec)', () => {
  it('accepts a defaulted Deployment, a Recreate one and one naming only its strategy type', () => {
    assert.deepEqual(rendered(validateDeployment(deployment())), []);
    assert.deepEqual(rendered(validateDeployment(deployment((s) => (s.strategy = { type: 'Recreate' })))), []);
    const typed = deployment((s) => (s.strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0 } }));
    assert.deepEqual((typed.spec as Spec).strategy, { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: '25%' } });
    assert.deepEqual(rendered(validateDeployment(typed)), []);
  });

  const cases: [string, (spec: Spec) => void, string[]][] = [
    [
      'ValidateDeploymentSpec: selector required (an absent selector matches nothing, so the template is reported too)',
      (s) => delete s.selector,
      [
        'spec.selector: Required value',
        'spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`',
      ],
    ],
    [
      'ValidateDeploymentSpec: empty selector',
      (s) => (s.selector = {}),
      [
        'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment',
      ],
    ],
    [
      'ValidatePodTemplateSpecForReplicaSet: selector does not match the template labels',
      (s) => (s.selector = { matchLabels: { app: 'other' } }),
      ['spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`'],
    ],
    [
      'ValidatePodTemplateSpecForReplicaSet: template without labels',
      (s) => delete (template(s).metadata as Spec).labels,
      ['spec.template.metadata.labels: Invalid value: map[string]string(nil): `selector` does not match template `labels`'],
    ],
    [
      'ValidateLabelSelector then LabelSelectorAsSelector: an unknown operator',
      (s) => (s.selector = { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'Near', values: ['a'] }] }),
      [
        'spec.selector.matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator',
        'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"web"}, MatchExpressions:[]v1.LabelSelectorRequirement{v1.LabelSelectorRequirement{Key:"tier", Operator:"Near", Values:[]string{"a"}}}}: invalid label selector',
      ],
    ],
    [
      'ValidateDeploymentSpec: negative replicas',
      (s) => (s.replicas = -1),
      ['spec.replicas: Invalid value: -1: must be greater than or equal to 0'],
    ],
    [
      'ValidatePodTemplateSpecForReplicaSet: restartPolicy must be Always',
      (s) => (podSpec(s).restartPolicy = 'Never'),
      ['spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"'],
    ],
    [
      'ValidatePodTemplateSpecForReplicaSet: activeDeadlineSeconds forbidden (worded for ReplicaSet)',
      (s) => (podSpec(s).activeDeadlineSeconds = 30),
      ['spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported'],
    ],
    [
      'ValidateDeploymentStrategy: unknown type',
      (s) => (s.strategy = { type: 'BlueGreen' }),
      [
        'spec.strategy: Unsupported value: apps.DeploymentStrategy{Type:"BlueGreen", RollingUpdate:(*apps.RollingUpdateDeployment)(nil)}: supported values: "Recreate", "RollingUpdate"',
      ],
    ],
    [
      'ValidateDeploymentStrategy: Recreate with rollingUpdate',
      (s) => (s.strategy = { type: 'Recreate', rollingUpdate: { maxSurge: 1 } }),
      ["spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'"],
    ],
    [
      'ValidateRollingUpdateDeployment: both limits zero',
      (s) => (s.strategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: '0%' } }),
      [
        'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:""}: may not be 0 when `maxSurge` is 0',
      ],
    ],
    [
      'ValidateRollingUpdateDeployment: maxUnavailable above 100%',
      (s) => (s.strategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '150%' } }),
      [
        'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"150%"}: must not be greater than 100%',
      ],
    ],
    [
      'ValidatePositiveIntOrPercent: not a percentage, and a negative integer',
      (s) => (s.strategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: -1, maxSurge: 'many' } }),
      [
        'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: -1: must be greater than or equal to 0',
        "spec.strategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:\"many\"}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
      ],
    ],
    [
      'ValidateDeploymentSpec: negative minReadySeconds and revisionHistoryLimit',
      (s) => {
        s.minReadySeconds = -1;
        s.revisionHistoryLimit = -2;
      },
      [
        'spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0',
        'spec.revisionHistoryLimit: Invalid value: -2: must be greater than or equal to 0',
      ],
    ],
    [
      'ValidateDeploymentSpec: progressDeadlineSeconds must exceed minReadySeconds',
      (s) => {
        s.minReadySeconds = 30;
        s.progressDeadlineSeconds = 30;
      },
      ['spec.progressDeadlineSeconds: Invalid value: 30: must be greater than minReadySeconds'],
    ],
    [
      'ValidatePodTemplateSpec: template label values',
      (s) => {
        s.selector = { matchLabels: { app: 'web' } };
        (template(s).metadata as Spec).labels = { app: 'web', bad: '-x-' };
      },
      [
        "spec.template.labels: Invalid value: \"-x-\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
      ],
    ],
  ];
  for (const [name, change, expected] of cases) {
    it(name, () => assert.deepEqual(rendered(validateDeployment(deployment(change))), expected));
  }
});

describe('Deployment update (ValidateDeploymentUpdate + the apps/v1 strategy)', () => {
  it('accepts a scale, an image change and a pause', () => {
    const next = deployment((s) => {
      s.replicas = 5;
      s.paused = true;
      podSpec(s).containers = [{ name: 'c', image: 'nginx:2' }];
    });
    assert.deepEqual(rendered(validateDeploymentUpdate(next, deployment())), []);
  });

  it('refuses a selector change: field is immutable', () => {
    const next = deployment((s) => {
      s.selector = { matchLabels: { app: 'web', tier: 'fe' } };
      (template(s).metadata as Spec).labels = { app: 'web', tier: 'fe' };
    });
    assert.deepEqual(rendered(validateDeploymentUpdate(next, deployment())), [
      'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"web", "tier":"fe"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
    ]);
  });

  it('runs the spec rules on update too', () => {
    assert.deepEqual(
      rendered(
        validateDeploymentUpdate(
          deployment((s) => (s.replicas = -3)),
          deployment(),
        ),
      ),
      ['spec.replicas: Invalid value: -3: must be greater than or equal to 0'],
    );
  });
});

describe('Deployment status (ValidateDeploymentStatusUpdate)', () => {
  const withStatus = (status: Spec): KubeObject => ({ ...deployment(), status });
  it('accepts consistent counts', () => {
    const status = { replicas: 3, updatedReplicas: 3, readyReplicas: 2, availableReplicas: 2, collisionCount: 1 };
    assert.deepEqual(rendered(validateDeploymentStatusUpdate(withStatus(status), withStatus({}))), []);
  });
  it('refuses negative and inconsistent counts and a decremented collisionCount', () => {
    const status = { replicas: 1, updatedReplicas: 2, readyReplicas: 1, availableReplicas: 2, unavailableReplicas: -1, collisionCount: 1 };
    assert.deepEqual(rendered(validateDeploymentStatusUpdate(withStatus(status), withStatus({ collisionCount: 2 }))), [
      'status.unavailableReplicas: Invalid value: -1: must be greater than or equal to 0',
      'status.updatedReplicas: Invalid value: 2: cannot be greater than status.replicas',
      'status.availableReplicas: Invalid value: 2: cannot be greater than status.replicas',
      'status.availableReplicas: Invalid value: 2: cannot be greater than readyReplicas',
      'status.collisionCount: Invalid value: 1: cannot be decremented',
    ]);
  });
});

describe('Workload create warnings (deploymentStrategy.WarningsOnCreate and the other pod-name prefixes)', () => {
  it('warns about a name that is not a DNS label', () => {
    const dotted = deployment();
    dotted.metadata.name = 'web.v1';
    assert.deepEqual(DEPLOYMENT.strategy?.warningsOnCreate?.(dotted), [
      'metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]',
    ]);
    assert.deepEqual(DEPLOYMENT.strategy?.warningsOnCreate?.(deployment()), []);
  });
});

describe('podOptionsForUpdate (what an update tells the pod validation)', () => {
  it('marks the template as revalidated only when the update leaves it unchanged', () => {
    const stored = deployment();
    assert.deepEqual(podOptionsForUpdate((deployment().spec as Spec).template, (stored.spec as Spec).template), { isUpdate: true });
    const changed = deployment((s) => (podSpec(s).containers = [{ name: 'c', image: 'nginx:2' }]));
    assert.deepEqual(podOptionsForUpdate((changed.spec as Spec).template, (stored.spec as Spec).template), { isUpdate: false });
  });
});
