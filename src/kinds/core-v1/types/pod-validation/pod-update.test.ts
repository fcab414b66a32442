import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type FieldError, fieldErrorBody } from '../../../../api/errors.js';
import type { KubeObject } from '../../../../api/types.js';
import { defaultPod } from '../pod-defaults.js';
import { validatePodTemplateSpec } from './index.js';
import { validatePodStatusUpdate, validatePodTemplateObject, validatePodUpdate } from './pod-object.js';
import { podTemplateWarnings, podWarnings } from './warnings.js';

type Obj = Record<string, unknown>;

const rendered = (errs: FieldError[]): string[] => errs.map((e) => `${e.field}: ${fieldErrorBody(e)}`);
const FORBIDDEN_PREFIX =
  'spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)\n';

function pod(spec: Obj, status: Obj = {}, metadata: Obj = {}): KubeObject {
  const copy = structuredClone(spec);
  defaultPod(copy);
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default', ...metadata }, spec: copy, status };
}

const base = (extra: Obj = {}): Obj => ({
  containers: [{ name: 'app', image: 'nginx:1' }],
  tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 10 }],
  ...extra,
});

describe('ValidatePodUpdate', () => {
  const old = pod(base({ activeDeadlineSeconds: 100, schedulingGates: [{ name: 'gate' }] }));
  const allowed: [string, Obj][] = [
    ['an unchanged spec', base({ activeDeadlineSeconds: 100, schedulingGates: [{ name: 'gate' }] })],
    [
      'a new image',
      base({ containers: [{ name: 'app', image: 'nginx:2' }], activeDeadlineSeconds: 100, schedulingGates: [{ name: 'gate' }] }),
    ],
    [
      'a shorter deadline, a removed gate, an added toleration and changed tolerationSeconds',
      {
        ...base({ activeDeadlineSeconds: 50 }),
        tolerations: [
          { key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 1 },
          { key: 'other', operator: 'Exists' },
        ],
      },
    ],
    [
      'node selector additions while gated',
      base({ activeDeadlineSeconds: 100, schedulingGates: [{ name: 'gate' }], nodeSelector: { zone: 'a' } }),
    ],
  ];
  for (const [title, spec] of allowed) it(`accepts ${title}`, () => assert.deepEqual(rendered(validatePodUpdate(pod(spec), old)), []));

  it('refuses a renamed container with the Forbidden message and a diff', () => {
    const errs = rendered(
      validatePodUpdate(
        pod(base({ containers: [{ name: 'other', image: 'nginx:1' }], activeDeadlineSeconds: 100, schedulingGates: [{ name: 'gate' }] })),
        old,
      ),
    );
    assert.equal(errs.length, 1);
    assert.ok(errs[0]?.startsWith(FORBIDDEN_PREFIX), errs[0]);
    assert.match(errs[0] ?? '', /- \tcontainers\[0\]\.name: "app"\n\+ \tcontainers\[0\]\.name: "other"/);
  });

  const refused: [string, Obj, string[]][] = [
    [
      'ValidateContainerUpdates: added container',
      base({
        containers: [
          { name: 'app', image: 'nginx:1' },
          { name: 'b', image: 'x' },
        ],
        activeDeadlineSeconds: 100,
      }),
      ['spec.containers: Forbidden: pod updates may not add or remove containers'],
    ],
    [
      'activeDeadlineSeconds may only decrease',
      base({ activeDeadlineSeconds: 200, schedulingGates: [{ name: 'gate' }] }),
      ['spec.activeDeadlineSeconds: Invalid value: 200: must be less than or equal to previous value'],
    ],
    [
      'activeDeadlineSeconds may not be removed',
      base({ schedulingGates: [{ name: 'gate' }] }),
      ['spec.activeDeadlineSeconds: Invalid value: null: must not update from a positive integer to nil value'],
    ],
    [
      'validateOnlyAddedTolerations',
      { ...base({ activeDeadlineSeconds: 100, schedulingGates: [{ name: 'gate' }] }), tolerations: [] },
      ['spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds'],
    ],
    [
      'validateOnlyDeletedSchedulingGates',
      base({ activeDeadlineSeconds: 100, schedulingGates: [{ name: 'gate' }, { name: 'new' }] }),
      ["spec.schedulingGates[1].name: Forbidden: only deletion is allowed, but found new scheduling gate 'new'"],
    ],
    [
      'an empty node selector equals none (Semantic.DeepEqual)',
      base({ activeDeadlineSeconds: 100, schedulingGates: [{ name: 'gate' }], nodeSelector: {} }),
      [],
    ],
  ];
  for (const [title, spec, expected] of refused) it(title, () => assert.deepEqual(rendered(validatePodUpdate(pod(spec), old)), expected));

  it('validateNodeSelectorMutation: a gated pod may not change a selector entry', () => {
    const gated = pod(base({ schedulingGates: [{ name: 'gate' }], nodeSelector: { zone: 'a' } }));
    assert.deepEqual(rendered(validatePodUpdate(pod(base({ schedulingGates: [{ name: 'gate' }], nodeSelector: { zone: 'b' } })), gated)), [
      'spec.nodeSelector: Invalid value: map[string]string{"zone":"b"}: only additions to spec.nodeSelector are allowed (no mutations or deletions)',
    ]);
  });

  it('ValidatePodSpecificAnnotationUpdates: the mirror pod annotation is fixed', () => {
    const next = pod(
      base({ activeDeadlineSeconds: 100, schedulingGates: [{ name: 'gate' }], nodeName: '' }),
      {},
      { annotations: { 'kubernetes.io/config.mirror': 'x' } },
    );
    assert.deepEqual(rendered(validatePodUpdate(next, old)), [
      'metadata.annotations[kubernetes.io/config.mirror]: Invalid value: "x": must set spec.nodeName if mirror pod annotation is set',
      'metadata.annotations[kubernetes.io/config.mirror]: Forbidden: may not add mirror pod annotation',
      'metadata.annotations[kubernetes.io/config.mirror]: Invalid value: "x": must set spec.nodeName if mirror pod annotation is set',
    ]);
  });
});

describe('ValidatePodStatusUpdate', () => {
  const old = pod(base({ restartPolicy: 'Never', nodeName: 'n1' }), {
    phase: 'Running',
    qosClass: 'BestEffort',
    containerStatuses: [{ name: 'app', state: { terminated: { exitCode: 0 } } }],
  });
  const withStatus = (status: Obj, spec: Obj = base({ restartPolicy: 'Never', nodeName: 'n1' })): KubeObject =>
    pod(spec, {
      phase: 'Running',
      qosClass: 'BestEffort',
      containerStatuses: [{ name: 'app', state: { terminated: { exitCode: 0 } } }],
      ...status,
    });
  const cases: [string, KubeObject, string[]][] = [
    ['valid dual-stack pod IPs', withStatus({ podIP: '10.0.0.1', podIPs: [{ ip: '10.0.0.1' }, { ip: 'fd00::1' }] }), []],
    [
      'validatePodIPs: a bad address',
      withStatus({ podIPs: [{ ip: 'not-an-ip' }] }),
      ['status.podIPs[0]: Invalid value: "not-an-ip": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'],
    ],
    [
      'validatePodIPs: one per family, no duplicates',
      withStatus({ podIPs: [{ ip: '10.0.0.1' }, { ip: '10.0.0.1' }] }),
      [
        'status.podIPs: Invalid value: []core.PodIP{core.PodIP{IP:"10.0.0.1"}, core.PodIP{IP:"10.0.0.1"}}: may specify no more than one IP for each IP family',
        'status.podIPs[1]: Duplicate value: core.PodIP{IP:"10.0.0.1"}',
      ],
    ],
    [
      'nodeName may not change through status',
      withStatus({}, base({ restartPolicy: 'Never', nodeName: 'n2' })),
      ['status.nodeName: Forbidden: may not be changed directly'],
    ],
    ['qosClass is immutable', withStatus({ qosClass: 'Guaranteed' }), ['status.qosClass: Invalid value: "Guaranteed": field is immutable']],
    [
      'ValidateContainerStateTransition: a terminated container of a Never pod stays terminated',
      withStatus({ containerStatuses: [{ name: 'app', state: { running: {} } }] }),
      ['status.containerStatuses[0].state: Forbidden: may not be transitioned to non-terminated state'],
    ],
    [
      'validatePodConditions: custom condition types are qualified names',
      withStatus({ conditions: [{ type: 'bad type', status: 'True' }] }),
      [
        "metadata.conditions[0].Type: Invalid value: \"bad type\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      ],
    ],
  ];
  for (const [title, next, expected] of cases) it(title, () => assert.deepEqual(rendered(validatePodStatusUpdate(next, old)), expected));
});

describe('ValidatePodTemplateSpec and ValidatePodTemplate', () => {
  it('validates the spec under <path>.spec and forbids ephemeral containers', () => {
    const template = {
      metadata: { labels: { app: 'web' } },
      spec: {
        containers: [],
        restartPolicy: 'Always',
        dnsPolicy: 'ClusterFirst',
        terminationGracePeriodSeconds: 30,
        ephemeralContainers: [{ name: 'd', image: 'x' }],
      },
    };
    assert.deepEqual(rendered(validatePodTemplateSpec(template, 'spec.template')), [
      'spec.template.spec.containers: Required value',
      'spec.template.spec.ephemeralContainers[0].terminationMessagePolicy: Required value',
      'spec.template.spec.ephemeralContainers[0].imagePullPolicy: Required value',
      'spec.template.spec.ephemeralContainers: Forbidden: ephemeral containers not allowed in pod template',
    ]);
  });
  it('templates tolerate host port 0 on the host network and surrounding image whitespace', () => {
    const spec: Obj = { hostNetwork: true, containers: [{ name: 'a', image: ' x ', ports: [{ containerPort: 80 }] }] };
    const template = { spec };
    const errs = validatePodTemplateObject({
      apiVersion: 'v1',
      kind: 'PodTemplate',
      metadata: { name: 't' },
      template: {
        ...template,
        spec: {
          ...spec,
          restartPolicy: 'Always',
          dnsPolicy: 'ClusterFirst',
          terminationGracePeriodSeconds: 30,
          containers: [
            {
              name: 'a',
              image: ' x ',
              terminationMessagePolicy: 'File',
              imagePullPolicy: 'IfNotPresent',
              ports: [{ containerPort: 80, protocol: 'TCP' }],
            },
          ],
        },
      },
    } as KubeObject);
    assert.deepEqual(rendered(errs), []);
  });
});

describe('GetWarningsForPod', () => {
  it('warns about deprecated node labels, annotations, duplicate env and fractional bytes', () => {
    const p = pod(
      {
        nodeSelector: { 'beta.kubernetes.io/os': 'linux' },
        containers: [
          {
            name: 'app',
            image: 'x',
            env: [
              { name: 'A', value: '1' },
              { name: 'A', value: '2' },
            ],
            resources: { limits: { memory: '1500m' } },
          },
        ],
      },
      {},
      { annotations: { 'scheduler.alpha.kubernetes.io/critical-pod': '' } },
    );
    assert.deepEqual(podWarnings(p), [
      'spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use "kubernetes.io/os" instead',
      'metadata.annotations[scheduler.alpha.kubernetes.io/critical-pod]: non-functional in v1.16+; use the "priorityClassName" field instead',
      'spec.containers[0].resources.limits[memory]: fractional byte value "1500m" is invalid, must be an integer',
      'spec.containers[0].resources.requests[memory]: fractional byte value "1500m" is invalid, must be an integer',
      'spec.containers[0].env[1]: hides previous definition of "A", which may be dropped when using apply',
    ]);
  });
  it('prefixes template warnings with the template path', () => {
    assert.deepEqual(podTemplateWarnings({ spec: { volumes: [{ name: 'g', gitRepo: { repository: 'r' } }] } }, 'spec.template'), [
      'spec.template.spec.volumes[0].gitRepo: deprecated in v1.11',
    ]);
  });
});

describe('POD strategy', () => {
  it('backfills an omitted QoS class on /status writes, so only a changed one is refused', async () => {
    const { POD } = await import('../../pod.js');
    const old = pod(base(), { phase: 'Pending', qosClass: 'BestEffort' });
    const next = pod(base(), { phase: 'Running' });
    POD.strategy?.prepareForStatusUpdate?.(next, old);
    assert.equal((next.status as Obj).qosClass, 'BestEffort');
    assert.deepEqual(rendered(validatePodStatusUpdate(next, old)), []);
  });
});

describe('ValidatePodUpdate: node affinity of gated pods (validateNodeAffinityMutation)', () => {
  const term = (...keys: string[]): Obj => ({ matchExpressions: keys.map((key) => ({ key, operator: 'Exists' })) });
  const affinity = (...terms: Obj[]): Obj => ({
    nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } },
  });
  const gated = (extra: Obj): KubeObject => pod(base({ schedulingGates: [{ name: 'gate' }], ...extra }));
  const old = gated({ affinity: affinity(term('a')) });
  it('accepts added requirements and a first affinity', () => {
    assert.deepEqual(rendered(validatePodUpdate(gated({ affinity: affinity(term('a', 'b')) }), old)), []);
    assert.deepEqual(rendered(validatePodUpdate(gated({ affinity: affinity(term('a')) }), gated({}))), []);
  });
  it('refuses removed requirements and added terms', () => {
    assert.deepEqual(rendered(validatePodUpdate(gated({ affinity: affinity(term('b')) }), old)), [
      'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]: Invalid value: {"matchExpressions":[{"key":"b","operator":"Exists"}]}: only additions are allowed (no mutations or deletions)',
    ]);
    assert.deepEqual(rendered(validatePodUpdate(gated({ affinity: affinity(term('a'), term('c')) }), old)), [
      'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Invalid value: [{"matchExpressions":[{"key":"a","operator":"Exists"}]},{"matchExpressions":[{"key":"c","operator":"Exists"}]}]: no additions/deletions to non-empty NodeSelectorTerms list are allowed',
    ]);
  });
});

describe('a template without a spec', () => {
  it('is defaulted first, so only the missing containers are reported (as Kubernetes reports them)', async () => {
    const { defaultPodTemplate } = await import('../pod-defaults.js');
    const template: Obj = { metadata: { labels: { app: 'x' } } };
    defaultPodTemplate(template);
    assert.deepEqual(rendered(validatePodTemplateSpec(template, 'spec.template')), ['spec.template.spec.containers: Required value']);
  });
  it('nor does a missing template (ValidatePodTemplate of a PodTemplate without one)', () => {
    const errs = validatePodTemplateObject({ apiVersion: 'v1', kind: 'PodTemplate', metadata: { name: 't' } } as KubeObject);
    assert.deepEqual(rendered(errs), ['template.spec.containers: Required value']);
  });
});
