import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fieldErrorBody, type FieldError } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import { decodeKubernetesProtobuf, encodeKubernetesProtobuf } from '../../protobuf/decode.js';
import { BUILTIN_DEFINITIONS } from '../definitions.js';
import {
  MANDATORY_FLOW_SCHEMAS,
  MANDATORY_PRIORITY_LEVELS,
  SUGGESTED_FLOW_SCHEMAS,
  SUGGESTED_PRIORITY_LEVELS,
} from './bootstrap-configuration.js';
import { FLOW_SCHEMA } from './flow-schema.js';
import { PRIORITY_LEVEL_CONFIGURATION } from './priority-level-configuration.js';

const render = (errs: FieldError[]): string[] => errs.map((e) => `${e.field}: ${fieldErrorBody(e)}`);

const fs = (name: string, spec: Record<string, unknown>): KubeObject => ({ metadata: { name }, spec });
const pl = (name: string, spec: Record<string, unknown>): KubeObject => ({ metadata: { name }, spec });

const validateFs = (obj: KubeObject): string[] => {
  FLOW_SCHEMA.strategy?.defaults?.(obj);
  return render(FLOW_SCHEMA.strategy?.validate?.(obj) ?? []);
};
const validatePl = (obj: KubeObject): string[] => {
  PRIORITY_LEVEL_CONFIGURATION.strategy?.defaults?.(obj);
  return render(PRIORITY_LEVEL_CONFIGURATION.strategy?.validate?.(obj) ?? []);
};

const RULES = [
  { subjects: [{ kind: 'Group', group: { name: 'dev' } }], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/metrics'] }] },
];
const QUEUE = { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: {} } } };

describe('FlowSchema (pkg/apis/flowcontrol/validation ValidateFlowSchema, SetDefaults_FlowSchemaSpec)', () => {
  it('accepts every bootstrap schema and a defaulted user schema', () => {
    for (const obj of [...MANDATORY_FLOW_SCHEMAS, ...SUGGESTED_FLOW_SCHEMAS])
      assert.deepEqual(validateFs(structuredClone(obj)), [], obj.metadata.name);
    const user = fs('dev', { priorityLevelConfiguration: { name: 'dev' }, rules: RULES });
    assert.deepEqual(validateFs(user), []);
    assert.equal((user.spec as Record<string, unknown>).matchingPrecedence, 1000);
  });

  const cases: [string, Record<string, unknown>, string[]][] = [
    [
      'ValidateFlowSchemaSpec: precedence range',
      { priorityLevelConfiguration: { name: 'x' }, matchingPrecedence: 10001 },
      ['spec.matchingPrecedence: Invalid value: 10001: must not be greater than 10000'],
    ],
    [
      'ValidateFlowSchemaSpec: precedence 1 is exempt only',
      { priorityLevelConfiguration: { name: 'x' }, matchingPrecedence: 1 },
      ["spec.matchingPrecedence: Invalid value: 1: only the schema named 'exempt' may have matchingPrecedence 1"],
    ],
    [
      'ValidateFlowSchemaSpec: negative precedence',
      { priorityLevelConfiguration: { name: 'x' }, matchingPrecedence: -3 },
      ['spec.matchingPrecedence: Invalid value: -3: must be a positive value'],
    ],
    [
      'ValidateFlowSchemaSpec: distinguisher and level name',
      { priorityLevelConfiguration: {}, distinguisherMethod: { type: 'ByPod' } },
      [
        'spec.distinguisherMethod.type: Unsupported value: flowcontrol.FlowDistinguisherMethod{Type:"ByPod"}: supported values: "ByNamespace", "ByUser"',
        'spec.priorityLevelConfiguration.name: Required value: must reference a priority level',
      ],
    ],
    [
      'ValidateFlowSchemaPolicyRulesWithSubjects: empty rule',
      { priorityLevelConfiguration: { name: 'x' }, rules: [{}] },
      [
        'spec.rules[0].subjects: Required value: subjects must contain at least one value',
        'spec.rules[0]: Required value: at least one of resourceRules and nonResourceRules has to be non-empty',
      ],
    ],
    [
      'ValidateFlowSchemaSubject: members',
      {
        priorityLevelConfiguration: { name: 'x' },
        rules: [
          {
            subjects: [
              { kind: 'ServiceAccount', serviceAccount: { name: 'Bad_Name' }, user: { name: 'u' } },
              { kind: 'Group', group: { name: '' } },
              { kind: 'Robot' },
            ],
            nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['/*'] }],
          },
        ],
      },
      [
        "spec.rules[0].subjects[0].serviceAccount.name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
        'spec.rules[0].subjects[0].serviceAccount.namespace: Required value: must specify namespace for service account',
        "spec.rules[0].subjects[0].user: Forbidden: user is forbidden when subject kind is not 'User'",
        'spec.rules[0].subjects[1].group.name: Required value',
        'spec.rules[0].subjects[2].kind: Unsupported value: "Robot": supported values: "Group", "ServiceAccount", "User"',
      ],
    ],
    [
      'ValidateFlowSchemaResourcePolicyRule and NonResourcePolicyRule',
      {
        priorityLevelConfiguration: { name: 'x' },
        rules: [
          {
            subjects: [{ kind: 'User', user: { name: '*' } }],
            resourceRules: [{ verbs: ['*', 'get'], apiGroups: ['*', 'apps'], resources: [], namespaces: ['Team'] }],
            nonResourceRules: [{ verbs: [], nonResourceURLs: ['metrics', '/a b', '/a//b', '/a*'] }],
          },
        ],
      },
      [
        'spec.rules[0].resourceRules[0].verbs: Invalid value: []string{"*", "get"}: if \'*\' is present, must not specify other verbs',
        'spec.rules[0].resourceRules[0].apiGroups: Invalid value: []string{"*", "apps"}: if \'*\' is present, must not specify other api groups',
        'spec.rules[0].resourceRules[0].resources: Required value: resource rules must supply at least one resource',
        "spec.rules[0].resourceRules[0].namespaces[0]: Invalid value: \"Team\": each member of this list must be '*' or a DNS-1123 label; a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
        'spec.rules[0].nonResourceRules[0].verbs: Required value: verbs must contain at least one value',
        'spec.rules[0].nonResourceRules[0].nonResourceURLs[0]: Invalid value: "metrics": must start with slash',
        'spec.rules[0].nonResourceRules[0].nonResourceURLs[1]: Invalid value: "/a b": must not contain white-space',
        'spec.rules[0].nonResourceRules[0].nonResourceURLs[2]: Invalid value: "/a//b": must not contain double slash',
        'spec.rules[0].nonResourceRules[0].nonResourceURLs[3]: Invalid value: "/a*": wildcard can only do suffix matching',
      ],
    ],
  ];
  for (const [name, spec, expected] of cases) {
    it(name, () => assert.deepEqual(validateFs(fs('user-schema', spec)), expected));
  }

  it('the mandatory schemas keep their fixed spec; status conditions are typed and unique', () => {
    const changed = structuredClone(MANDATORY_FLOW_SCHEMAS[1] as KubeObject);
    (changed.spec as Record<string, unknown>).matchingPrecedence = 9000;
    assert.match(validateFs(changed).join('\n'), /^spec: Invalid value: .*: spec of 'catch-all' must equal the fixed value$/);
    const withStatus = {
      ...fs('s', { priorityLevelConfiguration: { name: 'x' } }),
      status: { conditions: [{ type: 'Dangling' }, { type: 'Dangling' }, {}] },
    };
    assert.deepEqual(render(FLOW_SCHEMA.strategy?.validateStatusUpdate?.(withStatus, withStatus) ?? []), [
      'status.conditions[1].type: Duplicate value: "Dangling"',
      'status.conditions[2].type: Required value: must not be empty',
    ]);
  });

  it('prints the MissingPL column from the Dangling condition and sorts lists by precedence then name', () => {
    const now = new Date();
    const printer = FLOW_SCHEMA.printer;
    assert.ok(printer);
    const a = {
      metadata: { name: 'b', creationTimestamp: now.toISOString() },
      spec: { priorityLevelConfiguration: { name: 'p' }, matchingPrecedence: 5 },
    };
    assert.deepEqual(printer.row(a, now), ['b', 'p', 5, '<none>', '0s', '?']);
    const dangling = { ...a, status: { conditions: [{ type: 'Dangling', status: 'True' }] } };
    assert.equal(printer.row(dangling, now)[5], 'True');
    const order = [a, { ...a, metadata: { name: 'a' } }, { ...a, metadata: { name: 'z' }, spec: { matchingPrecedence: 1 } }].sort(
      (x, y) => printer.listOrder?.(x, y) ?? 0,
    );
    assert.deepEqual(
      order.map((o) => o.metadata.name),
      ['z', 'a', 'b'],
    );
  });
});

describe('PriorityLevelConfiguration (ValidatePriorityLevelConfiguration, SetDefaults_*PriorityLevelConfiguration)', () => {
  it('accepts every bootstrap level and defaults a user level', () => {
    for (const obj of [...MANDATORY_PRIORITY_LEVELS, ...SUGGESTED_PRIORITY_LEVELS])
      assert.deepEqual(validatePl(structuredClone(obj)), [], obj.metadata.name);
    const user = pl('dev', structuredClone(QUEUE));
    assert.deepEqual(validatePl(user), []);
    assert.deepEqual(user.spec, {
      type: 'Limited',
      limited: {
        nominalConcurrencyShares: 30,
        lendablePercent: 0,
        limitResponse: { type: 'Queue', queuing: { queues: 64, handSize: 8, queueLengthLimit: 50 } },
      },
    });
    const zero = pl('jail', { type: 'Limited', limited: { nominalConcurrencyShares: 0, limitResponse: { type: 'Reject' } } });
    assert.deepEqual(validatePl(zero), [], 'zero shares are allowed (GA since 1.30)');
  });

  const cases: [string, string, Record<string, unknown>, string[]][] = [
    [
      'ValidatePriorityLevelConfigurationSpec: type and name',
      'dev',
      { type: 'Exempt', limited: {} },
      [
        "spec.type: Invalid value: \"Exempt\": type must be 'Exempt' if and only if name is 'exempt'",
        'spec.limited: Forbidden: must be nil if the type is not Limited',
      ],
    ],
    [
      'ValidatePriorityLevelConfigurationSpec: unknown type',
      'dev',
      { type: 'Fast' },
      ['spec.type: Unsupported value: "Fast": supported values: "Exempt", "Limited"'],
    ],
    [
      'ValidatePriorityLevelConfigurationSpec: limited needs limited',
      'dev',
      { type: 'Limited', exempt: {} },
      [
        'spec.exempt: Forbidden: must be nil if the type is Limited',
        'spec.limited: Required value: must not be empty when type is Limited',
      ],
    ],
    [
      'ValidateLimitedPriorityLevelConfiguration',
      'dev',
      {
        type: 'Limited',
        limited: {
          nominalConcurrencyShares: -1,
          lendablePercent: 101,
          borrowingLimitPercent: -1,
          limitResponse: { type: 'Reject', queuing: {} },
        },
      },
      [
        'spec.limited.nominalConcurrencyShares: Invalid value: -1: must be a non-negative integer',
        'spec.limited.limitResponse.queuing: Forbidden: must be nil if limited.limitResponse.type is not Limited',
        'spec.limited.lendablePercent: Invalid value: 101: must be between 0 and 100, inclusive',
        'spec.limited.borrowingLimitPercent: Invalid value: -1: if specified, must be a non-negative integer',
      ],
    ],
    [
      'ValidateLimitResponse: queue without queuing, unknown type',
      'dev',
      { type: 'Limited', limited: { limitResponse: { type: 'Drop' } } },
      ['spec.limited.limitResponse.type: Unsupported value: "Drop": supported values: "Queue", "Reject"'],
    ],
    [
      'ValidatePriorityLevelQueuingConfiguration',
      'dev',
      {
        type: 'Limited',
        limited: { limitResponse: { type: 'Queue', queuing: { queues: 20000000, handSize: 30, queueLengthLimit: -1 } } },
      },
      [
        'spec.limited.limitResponse.queuing.queueLengthLimit: Invalid value: -1: must be positive',
        'spec.limited.limitResponse.queuing.queues: Invalid value: 20000000: must not be greater than 10000000',
        'spec.limited.limitResponse.queuing.handSize: Invalid value: 30: required entropy bits of deckSize 20000000 and handSize 30 should not be greater than 60',
      ],
    ],
    [
      'ValidatePriorityLevelQueuingConfiguration: hand bigger than deck',
      'dev',
      {
        type: 'Limited',
        limited: { limitResponse: { type: 'Queue', queuing: { queues: 4, handSize: 5 } } },
      },
      ['spec.limited.limitResponse.queuing.handSize: Invalid value: 5: should not be greater than queues (4)'],
    ],
    [
      'ValidateExemptPriorityLevelConfiguration',
      'exempt',
      { type: 'Exempt', exempt: { nominalConcurrencyShares: -1, lendablePercent: -1 } },
      [
        'spec.exempt.nominalConcurrencyShares: Invalid value: -1: must be a non-negative integer',
        'spec.exempt.lendablePercent: Invalid value: -1: must be between 0 and 100, inclusive',
      ],
    ],
  ];
  for (const [name, plName, spec, expected] of cases) {
    it(name, () => assert.deepEqual(validatePl(pl(plName, spec)), expected));
  }

  it('the exempt level may tune its exempt settings only; catch-all is fixed', () => {
    assert.deepEqual(validatePl(pl('exempt', { type: 'Exempt', exempt: { nominalConcurrencyShares: 10, lendablePercent: 50 } })), []);
    assert.match(
      validatePl(pl('catch-all', structuredClone(QUEUE))).join('\n'),
      /^spec: Invalid value: .*: spec of 'catch-all' must equal the fixed value$/,
    );
  });

  it('prints <none> where a level has no limits or queues', () => {
    const now = new Date();
    const printer = PRIORITY_LEVEL_CONFIGURATION.printer;
    assert.ok(printer);
    const exempt = structuredClone(MANDATORY_PRIORITY_LEVELS[1] as KubeObject);
    exempt.metadata.creationTimestamp = now.toISOString();
    assert.deepEqual(printer.row(exempt, now), ['exempt', 'Exempt', '<none>', '<none>', '<none>', '<none>', '0s']);
    const system = structuredClone(SUGGESTED_PRIORITY_LEVELS[0] as KubeObject);
    system.metadata.creationTimestamp = now.toISOString();
    assert.deepEqual(printer.row(system, now), ['system', 'Limited', 30, 64, 6, 50, '0s']);
  });
});

describe('flowcontrol protobuf (generated.proto of flowcontrol/v1)', () => {
  const roundTrip = (obj: Record<string, unknown>): Record<string, unknown> =>
    decodeKubernetesProtobuf(encodeKubernetesProtobuf(obj, BUILTIN_DEFINITIONS), BUILTIN_DEFINITIONS);
  it('every bootstrap object survives protobuf, zero pointer shares included', () => {
    for (const obj of [...MANDATORY_FLOW_SCHEMAS, ...SUGGESTED_FLOW_SCHEMAS, ...MANDATORY_PRIORITY_LEVELS, ...SUGGESTED_PRIORITY_LEVELS]) {
      assert.deepEqual(roundTrip(obj as unknown as Record<string, unknown>), obj, obj.metadata.name);
    }
  });
  it('status conditions survive protobuf', () => {
    const obj = {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
      kind: 'FlowSchema',
      metadata: { name: 'x' },
      spec: { priorityLevelConfiguration: { name: 'p' }, matchingPrecedence: 10 },
      status: {
        conditions: [{ type: 'Dangling', status: 'False', reason: 'Found', message: 'ok', lastTransitionTime: '2026-01-01T00:00:00Z' }],
      },
    };
    assert.deepEqual(roundTrip(obj), obj);
  });
});
