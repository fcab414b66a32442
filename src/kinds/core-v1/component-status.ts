import { isObject } from '../../api/types.js';
import { kindDefinition, listDefinition, mergeMapList, str } from '../../openapi/builders/group-builders.js';
import { CORE } from '../../openapi/builders/shorthand.js';
import { definitionRef, type Definitions } from '../../openapi/schema.js';
import { NAME_COLUMN } from '../../tables/common-columns.js';
import { column } from '../../tables/printer.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo } from '../define/resource.js';

const DEFINITIONS: Definitions = {
  [`${CORE}ComponentStatus`]: kindDefinition({
    group: '',
    version: 'v1',
    kind: 'ComponentStatus',
    description: 'ComponentStatus reports the health of one control-plane component. Deprecated since v1.19.',
    properties: {
      conditions: mergeMapList(definitionRef(`${CORE}ComponentCondition`), 'type', 'The conditions observed for the component.'),
    },
  }),
  [`${CORE}ComponentStatusList`]: listDefinition('', 'v1', 'ComponentStatus', `${CORE}ComponentStatus`),
  [`${CORE}ComponentCondition`]: {
    type: 'object',
    description: 'One observed condition of a component.',
    properties: {
      error: str('Why the condition could not be determined, if it could not.'),
      message: str("What the component's health check answered."),
      status: str('True, False or Unknown: whether the condition holds.'),
      type: str('The condition type; the only one is "Healthy".'),
    },
    required: ['type', 'status'],
  },
};

const FIELD_NUMBERS: FieldNumberTable = {
  [`${CORE}ComponentStatus`]: { tags: { metadata: 1, conditions: 2 } },
  [`${CORE}ComponentStatusList`]: { tags: { metadata: 1, items: 2 } },
  [`${CORE}ComponentCondition`]: { tags: { type: 1, status: 2, message: 3, error: 4 } },
};

/** The Healthy condition's cells, as printComponentStatus reads them: a status other than True prints Unhealthy. */
function healthCells(obj: Record<string, unknown>): [string, string, string] {
  const conditions = Array.isArray(obj.conditions) ? obj.conditions.filter(isObject) : [];
  const healthy = conditions.find((c) => c.type === 'Healthy');
  if (healthy === undefined) return ['Unknown', '', ''];
  const text = (v: unknown): string => (typeof v === 'string' ? v : '');
  return [healthy.status === 'True' ? 'Healthy' : 'Unhealthy', text(healthy.message), text(healthy.error)];
}

/**
 * core/v1 ComponentStatus (`kubectl get cs`): never stored, computed on each read from the health of the
 * components (server/handlers/component-statuses.ts); get and list only.
 */
export const COMPONENT_STATUS: KindDefinition = {
  resource: resourceInfo({
    group: '',
    version: 'v1',
    kind: 'ComponentStatus',
    plural: 'componentstatuses',
    namespaced: false,
    shortNames: ['cs'],
    verbs: ['get', 'list'],
    unstored: true,
  }),
  printer: {
    style: 'printer',
    columns: [
      NAME_COLUMN,
      column('Status', 'string', 'Status of the component conditions'),
      column('Message', 'string', 'Message of the component conditions'),
      column('Error', 'string', 'Error of the component conditions'),
    ],
    row: (obj) => [obj.metadata.name ?? '', ...healthCells(obj)],
  },
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
