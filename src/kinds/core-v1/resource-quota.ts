import { isObject, type KubeObject } from '../../api/types.js';
import { CORE, core, coreArray, coreKind, object, quantityMap, str, stringArray } from '../../openapi/builders/shorthand.js';
import type { Definitions } from '../../openapi/schema.js';
import { age } from '../../tables/cell-format.js';
import { AGE_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import { get } from '../../tables/object-fields.js';
import { column, type Printer } from '../../tables/printer.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo, STATUS } from '../define/resource.js';
import { validateResourceQuota, validateResourceQuotaStatusUpdate, validateResourceQuotaUpdate } from './resource-quota-validation.js';

const quantitiesAt = (obj: KubeObject, ...path: string[]): Record<string, unknown> => {
  const value = get(obj, ...path);
  return isObject(value) ? value : {};
};
const shown = (value: unknown): string => (typeof value === 'string' ? value : String(value));

/** printResourceQuota: "<resource>: <used>/<hard>" sorted by name, the limits.* resources in the Limit column. */
function usage(quota: KubeObject): [string, string] {
  const hard = quantitiesAt(quota, 'spec', 'hard');
  const used = quantitiesAt(quota, 'status', 'used');
  const requests: string[] = [];
  const limits: string[] = [];
  for (const name of Object.keys(hard).sort()) {
    const cell = `${name}: ${used[name] === undefined ? '0' : shown(used[name])}/${shown(hard[name])}`;
    const pieces = name.split('.');
    (pieces.length > 1 && pieces[0] === 'limits' ? limits : requests).push(cell);
  }
  return [requests.join(', '), limits.join(', ')];
}

const RESOURCE_QUOTA_PRINTER: Printer = {
  style: 'printer',
  columns: [
    NAME_COLUMN,
    AGE_COLUMN,
    column('Request', 'string', 'Request represents a minimum amount of cpu/memory that a container may consume.'),
    column(
      'Limit',
      'string',
      'Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.',
    ),
  ],
  row: (quota, now) => [quota.metadata.name ?? '', age(quota.metadata.creationTimestamp, now), ...usage(quota)],
};

const DEFINITIONS: Definitions = {
  ...coreKind({
    kind: 'ResourceQuota',
    description: 'Limits on the total resources the objects of a namespace may use.',
    properties: {
      spec: core('ResourceQuotaSpec', 'The quota’s limits.'),
      status: core('ResourceQuotaStatus', 'The enforced limits and current usage.'),
    },
    listDescription: 'List of ResourceQuota objects.',
    itemsDescription: 'The resource quotas.',
  }),
  [`${CORE}ResourceQuotaSpec`]: object('Limits of a ResourceQuota and the objects they apply to.', {
    hard: quantityMap('Hard limit per named resource.'),
    scopeSelector: core('ScopeSelector', 'Scope expressions the tracked objects must all match.'),
    scopes: stringArray('Scopes the tracked objects must all match; unset, all objects are tracked.'),
  }),
  [`${CORE}ResourceQuotaStatus`]: object('Enforced limits and observed usage of a ResourceQuota.', {
    hard: quantityMap('Hard limit per named resource, as enforced.'),
    used: quantityMap('Current usage per named resource.'),
  }),
  [`${CORE}ScopeSelector`]: object(
    'Scope expressions that all must match.',
    {
      matchExpressions: coreArray('ScopedResourceSelectorRequirement', 'Scope requirements, ANDed.', {
        'x-kubernetes-list-type': 'atomic',
      }),
    },
    { 'x-kubernetes-map-type': 'atomic' },
  ),
  [`${CORE}ScopedResourceSelectorRequirement`]: object(
    'A scope name, an operator and values.',
    {
      operator: str('In, NotIn, Exists or DoesNotExist.', { enum: ['DoesNotExist', 'Exists', 'In', 'NotIn'] }),
      scopeName: str('The scope the requirement applies to.', {
        enum: ['BestEffort', 'CrossNamespacePodAffinity', 'NotBestEffort', 'NotTerminating', 'PriorityClass', 'Terminating'],
      }),
      values: stringArray('Values for In and NotIn; empty for Exists and DoesNotExist.'),
    },
    { required: ['scopeName', 'operator'] },
  ),
};

const FIELD_NUMBERS: FieldNumberTable = {
  'io.k8s.api.core.v1.ResourceQuota': { tags: { metadata: 1, spec: 2, status: 3 } },
  'io.k8s.api.core.v1.ResourceQuotaList': { tags: { metadata: 1, items: 2 } },
  'io.k8s.api.core.v1.ResourceQuotaSpec': { tags: { hard: 1, scopes: 2, scopeSelector: 3 } },
  'io.k8s.api.core.v1.ResourceQuotaStatus': { tags: { hard: 1, used: 2 } },
  'io.k8s.api.core.v1.ScopeSelector': { tags: { matchExpressions: 1 } },
  'io.k8s.api.core.v1.ScopedResourceSelectorRequirement': { tags: { scopeName: 1, operator: 2, values: 3 } },
};

/** core/v1 ResourceQuota; the quota admission and controller that fill in its usage are not served. */
export const RESOURCE_QUOTA: KindDefinition = {
  resource: resourceInfo({
    group: '',
    version: 'v1',
    kind: 'ResourceQuota',
    plural: 'resourcequotas',
    namespaced: true,
    shortNames: ['quota'],
    subresources: [STATUS],
  }),
  strategy: {
    validate: validateResourceQuota,
    validateUpdate: validateResourceQuotaUpdate,
    validateStatusUpdate: validateResourceQuotaStatusUpdate,
  },
  printer: RESOURCE_QUOTA_PRINTER,
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
