import type { FieldNumberTable } from '../define/field-numbers.js';

export const DISCOVERY_V1_FIELD_NUMBERS: FieldNumberTable = {
  'io.k8s.api.discovery.v1.Endpoint': {
    tags: { addresses: 1, conditions: 2, hostname: 3, targetRef: 4, deprecatedTopology: 5, nodeName: 6, zone: 7, hints: 8 },
    pointers: ['hostname', 'nodeName', 'zone'],
  },
  'io.k8s.api.discovery.v1.EndpointConditions': {
    tags: { ready: 1, serving: 2, terminating: 3 },
    pointers: ['ready', 'serving', 'terminating'],
  },
  'io.k8s.api.discovery.v1.EndpointHints': { tags: { forZones: 1 } },
  'io.k8s.api.discovery.v1.EndpointPort': {
    tags: { name: 1, protocol: 2, port: 3, appProtocol: 4 },
    pointers: ['name', 'protocol', 'port', 'appProtocol'],
  },
  'io.k8s.api.discovery.v1.EndpointSlice': { tags: { metadata: 1, endpoints: 2, ports: 3, addressType: 4 } },
  'io.k8s.api.discovery.v1.EndpointSliceList': { tags: { metadata: 1, items: 2 } },
  'io.k8s.api.discovery.v1.ForZone': { tags: { name: 1 } },
};
