import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fieldErrorBody } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import { validateNetworkPolicy, validateNetworkPolicyUpdate } from './network-policy-validation.js';

const policy = (spec: Record<string, unknown>): KubeObject => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'NetworkPolicy',
  metadata: { name: 'np', namespace: 'default' },
  spec,
});
const rendered = (errs: ReturnType<typeof validateNetworkPolicy>): string[] => errs.map((e) => `${e.field}: ${fieldErrorBody(e)}`);
const QUALIFIED =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

describe('NetworkPolicy selectors (ValidateNetworkPolicySpec, ValidateNetworkPolicyPeer)', () => {
  it('accepts selectors on the policy and its peers', () => {
    const spec = {
      podSelector: { matchLabels: { app: 'db' } },
      ingress: [
        {
          from: [
            {
              podSelector: { matchLabels: { app: 'web' } },
              namespaceSelector: { matchExpressions: [{ key: 'team', operator: 'Exists' }] },
            },
          ],
        },
      ],
    };
    assert.deepEqual(validateNetworkPolicy(policy(spec)), []);
  });

  const invalid: [string, Record<string, unknown>, string[]][] = [
    [
      'a pod selector with a bad key',
      { podSelector: { matchLabels: { 'bad key': 'x' } } },
      [`spec.podSelector.matchLabels: Invalid value: "bad key": ${QUALIFIED}`],
    ],
    [
      'a peer namespace selector with a bad operator',
      { podSelector: {}, egress: [{ to: [{ namespaceSelector: { matchExpressions: [{ key: 'team', operator: 'Is' }] } }] }] },
      ['spec.egress[0].to[0].namespaceSelector.matchExpressions[0].operator: Invalid value: "Is": not a valid selector operator'],
    ],
    [
      'a peer pod selector with values on Exists',
      {
        podSelector: {},
        ingress: [{ from: [{ podSelector: { matchExpressions: [{ key: 'app', operator: 'Exists', values: ['x'] }] } }] }],
      },
      [
        "spec.ingress[0].from[0].podSelector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
      ],
    ],
  ];
  for (const [name, spec, expected] of invalid) {
    it(`refuses ${name}`, () => assert.deepEqual(rendered(validateNetworkPolicy(policy(spec))), expected));
  }

  it('keeps a pod selector value the stored policy already had (ValidationOptionsForNetworking)', () => {
    const spec = { podSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['a b'] }] } };
    assert.deepEqual(validateNetworkPolicyUpdate(policy(spec), policy(spec)), []);
    assert.equal(validateNetworkPolicyUpdate(policy(spec), policy({ podSelector: {} })).length, 1);
  });
});
