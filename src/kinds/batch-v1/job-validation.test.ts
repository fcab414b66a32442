import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type FieldError, fieldErrorBody } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import { CRON_JOB } from './cron-job.js';
import { JOB } from './job.js';
import { validateJob, validateJobUpdate } from './job-validation.js';

const rendered = (errors: FieldError[]): string[] => errors.map((e) => `${e.field}: ${fieldErrorBody(e)}`);

type Spec = Record<string, unknown>;

const UID = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

/** A Job as the store validates it on create: defaulted, then its selector generated. */
function job(change: (spec: Spec) => void = () => {}, meta: Spec = {}): KubeObject {
  const obj: KubeObject = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'pi', namespace: 'default', uid: UID, ...meta },
    spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'pi', image: 'perl' }] } } },
  };
  change(obj.spec as Spec);
  JOB.strategy?.defaults?.(obj);
  JOB.strategy?.prepareForCreate?.(obj, undefined);
  return obj;
}

const podSpec = (spec: Spec): Spec => (spec.template as Spec).spec as Spec;

describe('Job validation (batch/validation ValidateJob)', () => {
  it('accepts a Job with the generated selector and labels', () => {
    const created = job();
    assert.deepEqual((created.spec as Spec).selector, { matchLabels: { 'batch.kubernetes.io/controller-uid': UID } });
    assert.deepEqual(rendered(validateJob(created)), []);
  });

  it('accepts a manualSelector Job whose template carries its selector', () => {
    const manual = job((s) => {
      s.manualSelector = true;
      s.selector = { matchLabels: { app: 'pi' } };
      (s.template as Spec).metadata = { labels: { app: 'pi' } };
    });
    assert.deepEqual(rendered(validateJob(manual)), []);
  });

  const cases: [string, (spec: Spec) => void, string[]][] = [
    [
      'validateJobSpec: restartPolicy left to its default (Always)',
      (s) => delete podSpec(s).restartPolicy,
      ['spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"'],
    ],
    [
      'validateJobSpec: restartPolicy Always',
      (s) => (podSpec(s).restartPolicy = 'Always'),
      ['spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"'],
    ],
    [
      'validateJobSpec: an unknown restartPolicy',
      (s) => (podSpec(s).restartPolicy = 'Sometimes'),
      [
        // ValidatePodTemplateSpec refuses it as a pod's restart policy, then validateJobSpec as a Job's.
        'spec.template.spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
        'spec.template.spec.restartPolicy: Unsupported value: "Sometimes": supported values: "OnFailure", "Never"',
      ],
    ],
    [
      'validateJobSpec: negative counts',
      (s) => {
        s.parallelism = -1;
        s.completions = -1;
        s.activeDeadlineSeconds = -1;
        s.backoffLimit = -1;
        s.ttlSecondsAfterFinished = -1;
      },
      [
        'spec.parallelism: Invalid value: -1: must be greater than or equal to 0',
        'spec.completions: Invalid value: -1: must be greater than or equal to 0',
        'spec.activeDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0',
        'spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0',
        'spec.ttlSecondsAfterFinished: Invalid value: -1: must be greater than or equal to 0',
      ],
    ],
    [
      'validateJobSpec: completionMode unknown',
      (s) => (s.completionMode = 'Sequential'),
      ['spec.completionMode: Unsupported value: "Sequential": supported values: "NonIndexed", "Indexed"'],
    ],
    [
      'validateJobSpec: per-index limits need Indexed mode',
      (s) => {
        s.backoffLimitPerIndex = 1;
        s.maxFailedIndexes = 1;
      },
      [
        'spec.backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode',
        'spec.maxFailedIndexes: Invalid value: 1: requires indexed completion mode',
      ],
    ],
    [
      'validateJobSpec: maxFailedIndexes needs backoffLimitPerIndex and at most completions',
      (s) => {
        s.completionMode = 'Indexed';
        s.completions = 2;
        s.maxFailedIndexes = 3;
      },
      [
        'spec.backoffLimitPerIndex: Required value: when maxFailedIndexes is specified',
        'spec.maxFailedIndexes: Invalid value: 3: must be less than or equal to completions',
      ],
    ],
    [
      'validateJobSpec: managedBy must be a domain-prefixed path',
      (s) => (s.managedBy = 'controller'),
      ['spec.managedBy: Invalid value: "controller": must be a domain-prefixed path (such as "acme.io/foo")'],
    ],
    [
      'validateSuccessPolicy: needs Indexed mode',
      (s) => (s.successPolicy = { rules: [{ succeededCount: 1 }] }),
      [
        'spec.successPolicy: Invalid value: batch.SuccessPolicy{Rules:[]batch.SuccessPolicyRule{batch.SuccessPolicyRule{SucceededIndexes:(*string)(nil), SucceededCount:(*int32)(0xc000000000)}}}: requires indexed completion mode',
      ],
    ],
    [
      'validateSuccessPolicyRule: indexes format and counts',
      (s) => {
        s.completionMode = 'Indexed';
        s.completions = 3;
        s.successPolicy = { rules: [{}, { succeededIndexes: '0-1,5' }, { succeededIndexes: '1', succeededCount: 2 }] };
      },
      [
        'spec.successPolicy.rules[0]: Required value: at least one of succeededCount or succeededIndexes must be specified',
        'spec.successPolicy.rules[1].succeededIndexes: Invalid value: "0-1,5": error parsing succeededIndexes: too large index: "5"',
        'spec.successPolicy.rules[2].succeededCount: Invalid value: 2: must be less than or equal to 1 (the number of indexes in the specified succeededIndexes field)',
      ],
    ],
    [
      'validatePodFailurePolicy: rules, restartPolicy Never only and podReplacementPolicy Failed only',
      (s) => {
        podSpec(s).restartPolicy = 'OnFailure';
        s.podReplacementPolicy = 'TerminatingOrFailed';
        s.podFailurePolicy = {
          rules: [
            { action: 'Restart', onExitCodes: { containerName: 'other', operator: 'In', values: [0, 3, 3, 1] } },
            { action: 'Ignore' },
            { action: 'FailIndex', onPodConditions: [{ type: 'DisruptionTarget', status: 'Maybe' }] },
          ],
        };
      },
      [
        'spec.podFailurePolicy.rules[0].action: Unsupported value: "Restart": supported values: "Count", "FailIndex", "FailJob", "Ignore"',
        'spec.podFailurePolicy.rules[0].onExitCodes.containerName: Invalid value: "other": must be one of the container or initContainer names in the pod template',
        'spec.podFailurePolicy.rules[0].onExitCodes.values[0]: Invalid value: 0: must not be 0 for the In operator',
        'spec.podFailurePolicy.rules[0].onExitCodes.values[2]: Duplicate value: 3',
        'spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: []int32{0, 3, 3, 1}: must be ordered',
        'spec.podFailurePolicy.rules[1]: Invalid value: specifying one of OnExitCodes and OnPodConditions is required',
        'spec.podFailurePolicy.rules[2].action: Invalid value: "FailIndex": requires the backoffLimitPerIndex to be set',
        'spec.podFailurePolicy.rules[2].onPodConditions[0].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown"',
        'spec.podReplacementPolicy: Unsupported value: "TerminatingOrFailed": supported values: "Failed"',
        'spec.template.spec.restartPolicy: Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified',
      ],
    ],
    [
      'ValidateJobSpec: a manual selector the template does not carry',
      (s) => {
        s.manualSelector = true;
        s.selector = { matchLabels: { app: 'pi' } };
      },
      ['spec.template.metadata.labels: Invalid value: map[string]string(nil): `selector` does not match template `labels`'],
    ],
    [
      'validateGeneratedSelector: a template label that contradicts the generated one',
      (s) => ((s.template as Spec).metadata = { labels: { 'job-name': 'other' } }),
      [
        `spec.template.metadata.labels[job-name]: Invalid value: map[string]string{"batch.kubernetes.io/controller-uid":"${UID}", "batch.kubernetes.io/job-name":"pi", "controller-uid":"${UID}", "job-name":"other"}: must be 'pi'`,
      ],
    ],
    [
      'validateGeneratedSelector: a selector set without manualSelector',
      (s) => {
        s.selector = { matchLabels: { app: 'pi' } };
        (s.template as Spec).metadata = { labels: { app: 'pi' } };
      },
      [
        `spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"pi", "batch.kubernetes.io/controller-uid":"${UID}"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: \`selector\` not auto-generated`,
      ],
    ],
  ];
  for (const [name, change, expected] of cases) {
    it(name, () => assert.deepEqual(rendered(validateJob(job(change))), expected));
  }

  it('ValidateJob: an Indexed Job whose last pod hostname is not a DNS label', () => {
    const long = 'a'.repeat(62);
    const indexed = job(
      (s) => {
        s.completionMode = 'Indexed';
        s.completions = 10;
      },
      { name: long },
    );
    assert.deepEqual(rendered(validateJob(indexed)), [
      `metadata.name: Invalid value: "${long}": will not able to create pod with invalid DNS label: ${long}-9`,
    ]);
  });
});

describe('Job update (ValidateJobUpdate with the job strategy options)', () => {
  it('accepts changes of parallelism, suspend and activeDeadlineSeconds', () => {
    const next = job((s) => {
      s.completions = 1;
      s.parallelism = 3;
      s.suspend = true;
      s.activeDeadlineSeconds = 100;
    });
    assert.deepEqual(rendered(validateJobUpdate(next, job())), []);
  });

  it('refuses a template change: field is immutable', () => {
    const errors = validateJobUpdate(
      job((s) => (podSpec(s).containers = [{ name: 'pi', image: 'perl:2' }])),
      job(),
    );
    assert.deepEqual(
      errors.map((e) => [e.field, e.type, e.detail]),
      [['spec.template', 'FieldValueInvalid', 'field is immutable']],
    );
  });

  it('lets a suspended Job that never started change its scheduling directives', () => {
    const old = job((s) => (s.suspend = true));
    const next = job((s) => {
      s.suspend = true;
      podSpec(s).nodeSelector = { zone: 'a' };
      podSpec(s).tolerations = [{ key: 'k', operator: 'Exists' }];
      podSpec(s).affinity = {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }],
          },
        },
      };
    });
    assert.deepEqual(rendered(validateJobUpdate(next, old)), []);
    const started = { ...old, status: { startTime: '2026-01-01T00:00:00Z' } };
    assert.deepEqual(
      validateJobUpdate(next, started).map((e) => e.field),
      ['spec.template'],
    );
  });

  it('defends completions, completionMode and the selector', () => {
    const old = job();
    const next = job((s) => {
      s.completions = 4;
      s.completionMode = 'Indexed';
    });
    (next.spec as Spec).selector = { matchLabels: { 'batch.kubernetes.io/controller-uid': 'other' } };
    assert.deepEqual(
      rendered(validateJobUpdate(next, old)).filter((m) => !m.startsWith('spec.template')),
      [
        'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"batch.kubernetes.io/controller-uid":"other"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: `selector` not auto-generated',
        'spec.completions: Invalid value: 4: can only be modified in tandem with spec.parallelism',
        'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"batch.kubernetes.io/controller-uid":"other"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
        'spec.completionMode: Invalid value: "Indexed": field is immutable',
      ],
    );
  });

  it('lets an Indexed Job scale completions with parallelism (elastic Indexed Jobs)', () => {
    const indexed = (n: number) =>
      job((s) => {
        s.completionMode = 'Indexed';
        s.completions = n;
        s.parallelism = n;
      });
    assert.deepEqual(rendered(validateJobUpdate(indexed(5), indexed(3))), []);
  });

  it('lists a spec error twice: ValidateJob, then ValidateJobUpdate (jobStrategy.ValidateUpdate)', () => {
    const next = job((s) => {
      s.completions = 1;
      s.backoffLimit = -1;
    });
    assert.deepEqual(rendered(validateJobUpdate(next, job())), [
      'spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0',
      'spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0',
    ]);
  });

  it('refuses a completions change of a NonIndexed Job', () => {
    assert.deepEqual(
      rendered(
        validateJobUpdate(
          job((s) => (s.completions = 2)),
          job(),
        ),
      ),
      ['spec.completions: Invalid value: 2: field is immutable'],
    );
  });
});

describe("CronJob's jobTemplate (ValidateJobTemplateSpec)", () => {
  function cronJob(change: (jobSpec: Spec) => void): KubeObject {
    const jobSpec: Spec = { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'c', image: 'busybox' }] } } };
    change(jobSpec);
    const obj: KubeObject = {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'nightly', namespace: 'default', uid: 'u' },
      spec: { schedule: '0 0 * * *', jobTemplate: { spec: jobSpec } },
    };
    CRON_JOB.strategy?.defaults?.(obj);
    return obj;
  }
  const validate = (obj: KubeObject): string[] => rendered(CRON_JOB.strategy?.validate?.(obj) ?? []);

  it('accepts a valid template', () => assert.deepEqual(validate(cronJob(() => {})), []));
  it('refuses restartPolicy Always, negative counts, a selector and manualSelector', () => {
    const invalid = cronJob((s) => {
      (s.template as Spec).spec = { containers: [{ name: 'c', image: 'busybox' }] };
      s.backoffLimit = -1;
      s.selector = { matchLabels: { a: 'b' } };
      s.manualSelector = true;
    });
    assert.deepEqual(validate(invalid), [
      'spec.jobTemplate.spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0',
      'spec.jobTemplate.spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"',
      'spec.jobTemplate.spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"a":"b"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: `selector` will be auto-generated',
      'spec.jobTemplate.spec.manualSelector: Unsupported value: true: supported values: "nil", "false"',
    ]);
  });
});

describe('Job warnings (jobStrategy.WarningsOnCreate / WarningsForJobSpec)', () => {
  it('warns about a dotted name and about very large Indexed Jobs', () => {
    const big = job(
      (s) => {
        s.completionMode = 'Indexed';
        s.completions = 200_000;
        s.parallelism = 20_000;
        s.backoffLimitPerIndex = 1;
        s.maxFailedIndexes = 10;
      },
      { name: 'pi.v1' },
    );
    assert.deepEqual(JOB.strategy?.warningsOnCreate?.(big), [
      'metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]',
      'spec: In Indexed Jobs with a number of completions higher than 10^5 and a parallelism higher than 10^4, Kubernetes might not be able to track completedIndexes when a big number of indexes fail',
    ]);
    assert.deepEqual(JOB.strategy?.warningsOnCreate?.(job()), []);
  });
});
