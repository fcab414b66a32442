import type { KindDefinition } from '../define/kind-definition.js';
import { notSupported } from '../define/field-selectors.js';
import { resourceInfo } from '../define/resource.js';
import { eventFields } from './types/event-fields.js';
import { EVENT_PRINTER } from './types/event-printer.js';

/** core/v1 Event. */
export const EVENT: KindDefinition = {
  // Core v1 Event validation skips the name check for compatibility; only the generic path-segment rule applies.
  resource: resourceInfo({
    group: '',
    version: 'v1',
    kind: 'Event',
    plural: 'events',
    namespaced: true,
    shortNames: ['ev'],
    nameFormat: 'path-segment',
  }),
  strategy: { gcPolicy: 'Unsupported' },
  fieldSelectors: {
    conversion: {
      labels: new Set([
        'involvedObject.kind',
        'involvedObject.namespace',
        'involvedObject.name',
        'involvedObject.uid',
        'involvedObject.apiVersion',
        'involvedObject.resourceVersion',
        'involvedObject.fieldPath',
        'reason',
        'reportingComponent',
        'source',
        'type',
        'metadata.namespace',
        'metadata.name',
      ]),
      error: notSupported,
    },
    attrs: (obj) => eventFields(obj, false),
  },
  printer: EVENT_PRINTER,
};
