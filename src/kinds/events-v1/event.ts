import { eventFields } from '../core-v1/types/event-fields.js';
import { EVENTS_API_EVENT_PRINTER } from '../core-v1/types/event-printer.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo } from '../define/resource.js';

/** events.k8s.io/v1 Event: core's Event seen through the newer API (apimachinery's default field label conversion). */
export const EVENTS_API_EVENT: KindDefinition = {
  resource: resourceInfo({ group: 'events.k8s.io', version: 'v1', kind: 'Event', plural: 'events', namespaced: true, shortNames: ['ev'] }),
  fieldSelectors: { attrs: (obj) => eventFields(obj, true) },
  printer: EVENTS_API_EVENT_PRINTER,
};
