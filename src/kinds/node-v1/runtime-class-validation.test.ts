import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fieldErrorBody } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import { validateRuntimeClass, validateRuntimeClassUpdate } from './runtime-class-validation.js';

const runtimeClass = (extra: Record<string, unknown>): KubeObject => ({
  apiVersion: 'node.k8s.io/v1',
  kind: 'RuntimeClass',
  metadata: { name: 'gvisor' },
  handler: 'runsc',
  ...extra,
});
const rendered = (errs: ReturnType<typeof validateRuntimeClass>): string[] => errs.map((e) => `${e.field}: ${fieldErrorBody(e)}`);

describe('RuntimeClass (pkg/apis/node/validation ValidateRuntimeClass)', () => {
  it('accepts an overhead and scheduling constraints', () => {
    const rc = runtimeClass({
      overhead: { podFixed: { cpu: '250m', memory: '64Mi', 'example.com/gpu': '1' } },
      scheduling: {
        nodeSelector: { 'runtime/gvisor': 'true' },
        tolerations: [
          { key: 'sandbox', operator: 'Exists', effect: 'NoSchedule' },
          { key: 'sandbox', operator: 'Equal', value: 'yes', effect: 'NoExecute', tolerationSeconds: 30 },
        ],
      },
    });
    assert.deepEqual(validateRuntimeClass(rc), []);
  });

  const invalid: [string, Record<string, unknown>, string[]][] = [
    [
      'a negative overhead (ValidateResourceQuantityValue, reported under limits)',
      { overhead: { podFixed: { cpu: '-1' } } },
      ['overhead.limits[cpu]: Invalid value: "-1": must be greater than or equal to 0'],
    ],
    [
      'an overhead resource that is not a container resource (validateContainerResourceName)',
      { overhead: { podFixed: { pods: '1' } } },
      ['overhead.limits[pods]: Invalid value: "pods": must be a standard resource for containers'],
    ],
    [
      'huge pages without cpu or memory',
      { overhead: { podFixed: { 'hugepages-2Mi': '2Mi' } } },
      ['overhead: Forbidden: HugePages require cpu or memory'],
    ],
    [
      'a toleration without key that is not Exists (ValidateTolerations)',
      { scheduling: { tolerations: [{ operator: 'Equal', value: 'x' }] } },
      [
        'scheduling.tolerations[0].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
      ],
    ],
    [
      'tolerationSeconds on a NoSchedule toleration and an unknown effect',
      {
        scheduling: {
          tolerations: [
            { key: 'a', operator: 'Exists', effect: 'NoSchedule', tolerationSeconds: 10 },
            { key: 'b', operator: 'Exists', effect: 'Never' },
          ],
        },
      },
      [
        'scheduling.tolerations[0].effect: Invalid value: "NoSchedule": effect must be \'NoExecute\' when `tolerationSeconds` is set',
        'scheduling.tolerations[1].effect: Unsupported value: "Never": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
      ],
    ],
    [
      'an unknown operator and a value with Exists',
      {
        scheduling: {
          tolerations: [
            { key: 'a', operator: 'In' },
            { key: 'b', operator: 'Exists', value: 'v' },
          ],
        },
      },
      [
        'scheduling.tolerations[0].operator: Unsupported value: "In": supported values: "Equal", "Exists"',
        `scheduling.tolerations[1].operator: Invalid value: core.Toleration{Key:"b", Operator:"Exists", Value:"v", Effect:"", TolerationSeconds:(*int64)(nil)}: value must be empty when \`operator\` is 'Exists'`,
      ],
    ],
    [
      'a duplicate toleration',
      {
        scheduling: {
          tolerations: [
            { key: 'a', operator: 'Exists' },
            { key: 'a', operator: 'Exists' },
          ],
        },
      },
      [
        'scheduling.tolerations[1]: Duplicate value: core.Toleration{Key:"a", Operator:"Exists", Value:"", Effect:"", TolerationSeconds:(*int64)(nil)}',
      ],
    ],
  ];
  for (const [name, extra, expected] of invalid) {
    it(`refuses ${name}`, () => assert.deepEqual(rendered(validateRuntimeClass(runtimeClass(extra))), expected));
  }

  it('keeps the handler immutable (ValidateRuntimeClassUpdate)', () => {
    assert.deepEqual(rendered(validateRuntimeClassUpdate(runtimeClass({ handler: 'kata' }), runtimeClass({}))), [
      'handler: Invalid value: "kata": field is immutable',
    ]);
  });
});
