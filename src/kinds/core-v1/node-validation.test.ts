import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fieldErrorBody, type FieldError } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import { validateNode, validateNodeUpdate } from './node-validation.js';

// Cases from pkg/apis/core/validation: ValidateNode, ValidateNodeUpdate, validateNodeTaints and
// ValidateNodeResources.

const render = (errs: FieldError[]): string[] => errs.map((e) => `${e.field}: ${fieldErrorBody(e)}`);
const node = (spec: Record<string, unknown>, status: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name: 'node-1' },
  spec,
  status,
});

const CREATE_CASES: [string, KubeObject, string[]][] = [
  [
    'a node with taints, CIDRs and capacity',
    node(
      { podCIDR: '10.244.0.0/24', taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] },
      { capacity: { cpu: '4', pods: '110' } },
    ),
    [],
  ],
  [
    'validateNodeTaints: key, value, effect and uniqueness (reported under metadata.taints, as Kubernetes does)',
    node({
      taints: [
        { key: 'a b', value: 'x', effect: 'NoSchedule' },
        { key: 'k', value: 'x', effect: 'Sometimes' },
        { key: 'k', effect: '' },
        { key: 'dup', effect: 'NoExecute' },
        { key: 'dup', value: 'y', effect: 'NoExecute' },
      ],
    }),
    [
      "metadata.taints[0].key: Invalid value: \"a b\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      'metadata.taints[1].effect: Unsupported value: "Sometimes": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
      'metadata.taints[2].effect: Required value',
      'metadata.taints[4]: Duplicate value: core.Taint{Key:"dup", Value:"y", Effect:"NoExecute", TimeAdded:(*v1.Time)(nil)}: taints must be unique by key and effect pair',
    ],
  ],
  [
    'ValidateNodeResources: quantities are non-negative, pods whole',
    node({}, { capacity: { memory: '-1Gi', pods: '1.5' } }),
    [
      'status.capacity.memory: Invalid value: "-1Gi": must be greater than or equal to 0',
      'status.capacity.pods: Invalid value: "1.5": must be an integer',
    ],
  ],
  [
    'ValidateNode: pod CIDRs are CIDRs, one per family',
    node({ podCIDRs: ['10.244.0.0/24', '10.245.0.0/24', 'x'] }),
    [
      'spec.podCIDRs[2]: Invalid value: "x": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
      'spec.podCIDRs: Invalid value: []string{"10.244.0.0/24", "10.245.0.0/24", "x"}: may specify no more than one CIDR for each IP family',
    ],
  ],
];

for (const [name, obj, expected] of CREATE_CASES) {
  test(`ValidateNode: ${name}`, () => assert.deepEqual(render(validateNode(obj)), expected));
}

test('ValidateNodeUpdate: podCIDR and providerID are set once; externalID never changes', () => {
  const old = node({ podCIDR: '10.244.0.0/24', podCIDRs: ['10.244.0.0/24'], providerID: 'aws://a' });
  assert.deepEqual(
    render(
      validateNodeUpdate(node({ podCIDR: '10.244.0.0/24', podCIDRs: ['10.244.0.0/24'], providerID: 'aws://a', unschedulable: true }), old),
    ),
    [],
  );
  assert.deepEqual(
    render(validateNodeUpdate(node({ podCIDR: '10.9.0.0/24', podCIDRs: ['10.9.0.0/24'], providerID: 'aws://b', externalID: 'x' }), old)),
    [
      'spec.podCIDRs: Forbidden: node updates may not change podCIDR except from "" to valid',
      'spec.providerID: Forbidden: node updates may not change providerID except from "" to valid',
      'spec.externalID: Forbidden: may not be updated',
    ],
  );
  assert.deepEqual(render(validateNodeUpdate(node({ podCIDRs: ['10.9.0.0/24'], providerID: 'aws://b' }), node({}))), []);
});

test('ValidateNodeUpdate: duplicate addresses and the deprecated config source', () => {
  const next = node(
    { configSource: { configMap: { namespace: 'kube-system', name: 'kubelet', uid: 'u' } } },
    {
      addresses: [
        { type: 'InternalIP', address: '10.0.0.1' },
        { type: 'InternalIP', address: '10.0.0.1' },
      ],
    },
  );
  assert.deepEqual(render(validateNodeUpdate(next, node({}))), [
    'status.addresses[1]: Duplicate value: core.NodeAddress{Type:"InternalIP", Address:"10.0.0.1"}',
    'spec.configSource.configMap.uid: Forbidden: uid must not be set in spec',
    'spec.configSource.configMap.kubeletConfigKey: Required value: kubeletConfigKey must be set',
  ]);
});
