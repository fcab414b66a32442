import { isObject, type KubeObject, objects } from '../../api/types.js';
import { CORE, core, coreArray, coreKind, object, quantityMap, str } from '../../openapi/builders/shorthand.js';
import type { Definitions } from '../../openapi/schema.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo } from '../define/resource.js';
import { validateLimitRange } from './limit-range-validation.js';

type Quantities = Record<string, unknown>;

const itemsOf = (lr: KubeObject): Record<string, unknown>[] => (isObject(lr.spec) ? objects(lr.spec.limits) : []);
const quantities = (value: unknown): Quantities => (isObject(value) ? value : {});

/** Copies the missing keys of `from` into `item[field]`, leaving the field absent when it stays empty (omitempty). */
function fillFrom(item: Record<string, unknown>, field: string, from: Quantities): void {
  const target = { ...quantities(item[field]) };
  for (const [key, value] of Object.entries(from)) if (!(key in target)) target[key] = value;
  if (Object.keys(target).length > 0) item[field] = target;
}

/** SetDefaults_LimitRangeItem: a Container item's default limit comes from max, its default request from the default limit, then min. */
function defaultLimitRange(lr: KubeObject): void {
  for (const item of itemsOf(lr)) {
    if (item.type !== 'Container') continue;
    fillFrom(item, 'default', quantities(item.max));
    fillFrom(item, 'defaultRequest', quantities(item.default));
    fillFrom(item, 'defaultRequest', quantities(item.min));
  }
}

const DEFINITIONS: Definitions = {
  ...coreKind({
    kind: 'LimitRange',
    description: 'Per-kind resource bounds and defaults for the objects of a namespace.',
    properties: { spec: core('LimitRangeSpec', 'The limits enforced in the namespace.') },
    listDescription: 'List of LimitRange objects.',
    itemsDescription: 'The limit ranges.',
  }),
  [`${CORE}LimitRangeSpec`]: object(
    'The limits of a LimitRange.',
    { limits: coreArray('LimitRangeItem', 'One entry per kind of object limited.', { 'x-kubernetes-list-type': 'atomic' }) },
    { required: ['limits'] },
  ),
  [`${CORE}LimitRangeItem`]: object(
    'Bounds and defaults for one kind of object (Pod, Container or PersistentVolumeClaim).',
    {
      default: quantityMap('Default limit of a resource when a container names none.'),
      defaultRequest: quantityMap('Default request of a resource when a container names none.'),
      max: quantityMap('Maximum usage of a resource.'),
      maxLimitRequestRatio: quantityMap('Largest allowed limit-to-request ratio of a resource.'),
      min: quantityMap('Minimum usage of a resource.'),
      type: str('The kind of object the item limits: Pod, Container or PersistentVolumeClaim.'),
    },
    { required: ['type'] },
  ),
};

const FIELD_NUMBERS: FieldNumberTable = {
  'io.k8s.api.core.v1.LimitRange': { tags: { metadata: 1, spec: 2 } },
  'io.k8s.api.core.v1.LimitRangeList': { tags: { metadata: 1, items: 2 } },
  'io.k8s.api.core.v1.LimitRangeSpec': { tags: { limits: 1 } },
  'io.k8s.api.core.v1.LimitRangeItem': { tags: { type: 1, max: 2, min: 3, default: 4, defaultRequest: 5, maxLimitRequestRatio: 6 } },
};

/** core/v1 LimitRange; the LimitRanger admission that applies it to pods is not served. */
export const LIMIT_RANGE: KindDefinition = {
  resource: resourceInfo({ group: '', version: 'v1', kind: 'LimitRange', plural: 'limitranges', namespaced: true, shortNames: ['limits'] }),
  strategy: { defaults: defaultLimitRange, validate: validateLimitRange },
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
