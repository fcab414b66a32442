import { isObject, type KubeObject } from '../../api/types.js';
import { int32, kindDefinition, listDefinition, mergeMapList, ref, str } from '../../openapi/builders/group-builders.js';
import { definitionRef, type Definitions } from '../../openapi/schema.js';
import { age } from '../../tables/cell-format.js';
import { AGE_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import { column } from '../../tables/printer.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo, STATUS } from '../define/resource.js';
import { validatePriorityLevel, validatePriorityLevelStatusUpdate } from './priority-level-validation.js';
import { flowcontrolCondition, GROUP, P } from './schema-parts.js';

/** Column descriptions: the swagger docs of the fields, as the Go printers report them. */
const plTypeDoc =
  '`type` indicates whether this priority level is subject to limitation on request execution.  A value of `"Exempt"` means that requests of this priority level are not subject to a limit (and thus are never queued) and do not detract from the capacity made available to other priority levels.  A value of `"Limited"` means that (a) requests of this priority level _are_ subject to limits and (b) some of the server\'s limited capacity is made available exclusively to this priority level. Required.';
const nominalConcurrencySharesDoc =
  '`nominalConcurrencyShares` (NCS) contributes to the computation of the NominalConcurrencyLimit (NominalCL) of this level. This is the number of execution seats available at this priority level. This is used both for requests dispatched from this priority level as well as requests dispatched from other priority levels borrowing seats from this level. The server\'s concurrency limit (ServerCL) is divided among the Limited priority levels in proportion to their NCS values:\n\nNominalCL(i)  = ceil( ServerCL * NCS(i) / sum_ncs ) sum_ncs = sum[priority level k] NCS(k)\n\nBigger numbers mean a larger nominal concurrency limit, at the expense of every other priority level.\n\nIf not specified, this field defaults to a value of 30.\n\nSetting this field to zero supports the construction of a "jail" for this priority level that is used to hold some request(s)';
const queuesDoc =
  '`queues` is the number of queues for this priority level. The queues exist independently at each apiserver. The value must be positive.  Setting it to 1 effectively precludes shufflesharding and thus makes the distinguisher method of associated flow schemas irrelevant.  This field has a default value of 64.';
const handSizeDoc =
  "`handSize` is a small positive number that configures the shuffle sharding of requests into queues.  When enqueuing a request at this priority level the request's flow identifier (a string pair) is hashed and the hash value is used to shuffle the list of queues and deal a hand of the size specified here.  The request is put into one of the shortest queues in that hand. `handSize` must be no larger than `queues`, and should be significantly smaller (so that a few heavy flows do not saturate most of the queues).  See the user-facing documentation for more extensive guidance on setting this field.  This field has a default value of 8.";
const queueLengthLimitDoc =
  '`queueLengthLimit` is the maximum number of requests allowed to be waiting in a given queue of this priority level at a time; excess requests are rejected.  This value must be positive.  If not specified, it will be defaulted to 50.';

const DEFAULT_SHARES = 30;
const QUEUING_DEFAULTS = { queues: 64, handSize: 8, queueLengthLimit: 50 } as const;

/**
 * SetDefaults_PriorityLevelConfiguration's parts: exempt and limited levels get explicit shares and lendable
 * percent (30 shares for a limited level), queuing its queue counts where they are zero.
 */
function defaultPriorityLevel(pl: KubeObject): void {
  if (!isObject(pl.spec)) return;
  const { exempt, limited } = pl.spec;
  if (isObject(exempt)) {
    exempt.nominalConcurrencyShares ??= 0;
    exempt.lendablePercent ??= 0;
  }
  if (!isObject(limited)) return;
  limited.nominalConcurrencyShares ??= DEFAULT_SHARES;
  limited.lendablePercent ??= 0;
  const queuing = isObject(limited.limitResponse) ? limited.limitResponse.queuing : undefined;
  if (!isObject(queuing)) return;
  for (const [field, value] of Object.entries(QUEUING_DEFAULTS)) {
    if (typeof queuing[field] !== 'number' || queuing[field] === 0) queuing[field] = value;
  }
}

/** printPriorityLevelConfiguration's cells: shares and queuing numbers, `<none>` where the level has none. */
function levelCells(pl: KubeObject): unknown[] {
  const spec = isObject(pl.spec) ? pl.spec : {};
  const limited = isObject(spec.limited) ? spec.limited : undefined;
  const queuing =
    limited !== undefined && isObject(limited.limitResponse) && isObject(limited.limitResponse.queuing)
      ? limited.limitResponse.queuing
      : undefined;
  const num = (v: unknown): number => (typeof v === 'number' ? Math.trunc(v) : 0);
  return [
    typeof spec.type === 'string' ? spec.type : '',
    limited === undefined ? '<none>' : num(limited.nominalConcurrencyShares),
    queuing === undefined ? '<none>' : num(queuing.queues),
    queuing === undefined ? '<none>' : num(queuing.handSize),
    queuing === undefined ? '<none>' : num(queuing.queueLengthLimit),
  ];
}

const DEFINITIONS: Definitions = {
  [`${P}PriorityLevelConfiguration`]: kindDefinition({
    group: GROUP,
    version: 'v1',
    kind: 'PriorityLevelConfiguration',
    description:
      'PriorityLevelConfiguration is a class of requests sharing a part of the apiserver’s concurrency (API Priority and Fairness).',
    properties: {
      spec: ref(`${P}PriorityLevelConfigurationSpec`, 'How requests at this level are limited.'),
      status: ref(`${P}PriorityLevelConfigurationStatus`, 'What the apiserver last observed about the level.'),
    },
  }),
  [`${P}PriorityLevelConfigurationList`]: listDefinition(GROUP, 'v1', 'PriorityLevelConfiguration', `${P}PriorityLevelConfiguration`),
  [`${P}PriorityLevelConfigurationSpec`]: {
    type: 'object',
    description: 'Whether the level is limited, and how.',
    properties: {
      exempt: ref(`${P}ExemptPriorityLevelConfiguration`, 'Settings of an Exempt level.'),
      limited: ref(`${P}LimitedPriorityLevelConfiguration`, 'Settings of a Limited level.'),
      type: str('Exempt (never queued) or Limited.'),
    },
    required: ['type'],
    'x-kubernetes-unions': [{ discriminator: 'type', 'fields-to-discriminateBy': { exempt: 'Exempt', limited: 'Limited' } }],
  },
  [`${P}PriorityLevelConfigurationStatus`]: {
    type: 'object',
    description: 'Observed state of a priority level.',
    properties: {
      conditions: mergeMapList(definitionRef(`${P}PriorityLevelConfigurationCondition`), 'type', 'Current conditions.'),
    },
  },
  [`${P}PriorityLevelConfigurationCondition`]: flowcontrolCondition('A condition of a priority level.'),
  [`${P}LimitedPriorityLevelConfiguration`]: {
    type: 'object',
    description: 'Concurrency of a Limited level and what happens to requests beyond it.',
    properties: {
      borrowingLimitPercent: int32('How much of its nominal limit, in percent, the level may borrow from others; unlimited when unset.'),
      lendablePercent: int32('Percent of the level’s nominal limit other levels may borrow.'),
      limitResponse: ref(`${P}LimitResponse`, 'What to do with requests that cannot run now.'),
      nominalConcurrencyShares: int32('The level’s share of the server’s concurrency; defaults to 30, 0 is allowed.'),
    },
  },
  [`${P}ExemptPriorityLevelConfiguration`]: {
    type: 'object',
    description: 'Tunables of the Exempt level, which never queues.',
    properties: {
      lendablePercent: int32('Percent of the level’s nominal limit other levels may borrow.'),
      nominalConcurrencyShares: int32('The level’s share of the server’s concurrency; defaults to 0.'),
    },
  },
  [`${P}LimitResponse`]: {
    type: 'object',
    description: 'Queue or Reject requests that cannot run now.',
    properties: {
      queuing: ref(`${P}QueuingConfiguration`, 'Queue settings, for type Queue.'),
      type: str('Queue or Reject.'),
    },
    required: ['type'],
    'x-kubernetes-unions': [{ discriminator: 'type', 'fields-to-discriminateBy': { queuing: 'Queuing' } }],
  },
  [`${P}QueuingConfiguration`]: {
    type: 'object',
    description: 'Shuffle-sharded queues of a priority level.',
    properties: {
      handSize: int32('Queues dealt to each flow; at most queues; defaults to 8.'),
      queueLengthLimit: int32('Requests a queue may hold; defaults to 50.'),
      queues: int32('Number of queues; defaults to 64.'),
    },
  },
};

const FIELD_NUMBERS: FieldNumberTable = {
  [`${P}PriorityLevelConfiguration`]: { tags: { metadata: 1, spec: 2, status: 3 } },
  [`${P}PriorityLevelConfigurationList`]: { tags: { metadata: 1, items: 2 } },
  [`${P}PriorityLevelConfigurationSpec`]: { tags: { type: 1, limited: 2, exempt: 3 } },
  [`${P}PriorityLevelConfigurationStatus`]: { tags: { conditions: 1 } },
  [`${P}PriorityLevelConfigurationCondition`]: { tags: { type: 1, status: 2, lastTransitionTime: 3, reason: 4, message: 5 } },
  [`${P}LimitedPriorityLevelConfiguration`]: {
    tags: { nominalConcurrencyShares: 1, limitResponse: 2, lendablePercent: 3, borrowingLimitPercent: 4 },
    pointers: ['nominalConcurrencyShares', 'lendablePercent', 'borrowingLimitPercent'],
  },
  [`${P}ExemptPriorityLevelConfiguration`]: {
    tags: { nominalConcurrencyShares: 1, lendablePercent: 2 },
    pointers: ['nominalConcurrencyShares', 'lendablePercent'],
  },
  [`${P}LimitResponse`]: { tags: { type: 1, queuing: 2 } },
  [`${P}QueuingConfiguration`]: { tags: { queues: 1, handSize: 2, queueLengthLimit: 3 } },
};

/** flowcontrol.apiserver.k8s.io/v1 PriorityLevelConfiguration. */
export const PRIORITY_LEVEL_CONFIGURATION: KindDefinition = {
  resource: resourceInfo({
    group: GROUP,
    version: 'v1',
    kind: 'PriorityLevelConfiguration',
    plural: 'prioritylevelconfigurations',
    namespaced: false,
    subresources: [STATUS],
  }),
  strategy: {
    specGeneration: true,
    initialStatus: () => ({}),
    defaults: defaultPriorityLevel,
    validate: validatePriorityLevel,
    validateUpdate: (next) => validatePriorityLevel(next),
    validateStatusUpdate: (next) => validatePriorityLevelStatusUpdate(next),
  },
  printer: {
    style: 'printer',
    columns: [
      NAME_COLUMN,
      column('Type', 'string', plTypeDoc),
      column('NominalConcurrencyShares', 'string', nominalConcurrencySharesDoc),
      column('Queues', 'string', queuesDoc),
      column('HandSize', 'string', handSizeDoc),
      column('QueueLengthLimit', 'string', queueLengthLimitDoc),
      AGE_COLUMN,
    ],
    row: (pl, now) => [pl.metadata.name ?? '', ...levelCells(pl), age(pl.metadata.creationTimestamp, now)],
  },
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
