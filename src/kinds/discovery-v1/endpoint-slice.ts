import type { KubeObject } from '../../api/types.js';
import {
  arrayOf,
  bool,
  int32,
  kindDefinition,
  listDefinition,
  OBJECT_REFERENCE,
  ref,
  str,
  stringArray,
  stringMap,
} from '../../openapi/builders/group-builders.js';
import { definitionRef, type Definitions } from '../../openapi/schema.js';
import { age, listWithMore } from '../../tables/cell-format.js';
import { endpointSliceAddressType, endpointSliceEndpoints, endpointSlicePorts } from '../../tables/column-descriptions.js';
import { AGE_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import { get, list, text } from '../../tables/object-fields.js';
import { column, type Printer } from '../../tables/printer.js';
import { objects } from '../core-v1/types/defaulting.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo } from '../define/resource.js';

/** formatDiscoveryPorts: the port number, else its name, else "*". */
function slicePorts(ports: unknown[]): string {
  return listWithMore(
    ports.map((port) => {
      const number = get(port, 'port');
      if (typeof number === 'number') return String(Math.trunc(number));
      const name = get(port, 'name');
      return typeof name === 'string' ? name : '*';
    }),
  );
}

const ENDPOINT_SLICE_PRINTER: Printer = {
  style: 'printer',
  columns: [
    NAME_COLUMN,
    column('AddressType', 'string', endpointSliceAddressType),
    column('Ports', 'string', endpointSlicePorts),
    column('Endpoints', 'string', endpointSliceEndpoints),
    AGE_COLUMN,
  ],
  row: (slice, now) => [
    slice.metadata.name ?? '',
    text(get(slice, 'addressType')),
    slicePorts(list(get(slice, 'ports'))),
    listWithMore(list(get(slice, 'endpoints')).flatMap((endpoint) => list(get(endpoint, 'addresses')).map(text))),
    age(slice.metadata.creationTimestamp, now),
  ],
};

const P = 'io.k8s.api.discovery.v1.';

function defaultEndpointSlice(obj: KubeObject): void {
  for (const port of objects(obj.ports)) {
    port.name ??= '';
    port.protocol ??= 'TCP';
  }
}

const DEFINITIONS: Definitions = {
  [`${P}EndpointSlice`]: kindDefinition({
    group: 'discovery.k8s.io',
    version: 'v1',
    kind: 'EndpointSlice',
    description: 'EndpointSlice holds a subset of the endpoints backing a service.',
    properties: {
      addressType: str('Type of every address in the slice: IPv4, IPv6 or FQDN. Immutable.'),
      endpoints: arrayOf(definitionRef(`${P}Endpoint`), 'The unique endpoints of the slice, at most 1000.', {
        'x-kubernetes-list-type': 'atomic',
      }),
      ports: arrayOf(definitionRef(`${P}EndpointPort`), 'Ports exposed by every endpoint of the slice, at most 100.', {
        'x-kubernetes-list-type': 'atomic',
      }),
    },
    required: ['addressType', 'endpoints'],
  }),
  [`${P}EndpointSliceList`]: listDefinition('discovery.k8s.io', 'v1', 'EndpointSlice', `${P}EndpointSlice`),
  [`${P}Endpoint`]: {
    type: 'object',
    description: 'One logical backend of a service.',
    properties: {
      addresses: stringArray('Addresses of the endpoint, interpreted according to the addressType; 1 to 100.', {
        'x-kubernetes-list-type': 'set',
      }),
      conditions: ref(`${P}EndpointConditions`, 'Current state of the endpoint.'),
      deprecatedTopology: stringMap('Topology carried over from v1beta1; writes through v1 are ignored.'),
      hints: ref(`${P}EndpointHints`, 'How consumers should use the endpoint.'),
      hostname: str('Hostname of the endpoint; must be a DNS label.'),
      nodeName: str('Name of the Node hosting the endpoint.'),
      targetRef: ref(OBJECT_REFERENCE, 'The object this endpoint represents.'),
      zone: str('Zone the endpoint is in.'),
    },
    required: ['addresses'],
  },
  [`${P}EndpointConditions`]: {
    type: 'object',
    description: 'Current state of an endpoint.',
    properties: {
      ready: bool('Whether the endpoint accepts traffic; unset means unknown, usually treated as ready.'),
      serving: bool('Like ready, but also set while the endpoint is terminating.'),
      terminating: bool('Whether the endpoint is terminating; unset means not terminating.'),
    },
  },
  [`${P}EndpointHints`]: {
    type: 'object',
    description: 'Hints on how an endpoint should be consumed.',
    properties: {
      forZones: arrayOf(definitionRef(`${P}ForZone`), 'Zones that should consume this endpoint (topology aware routing).', {
        'x-kubernetes-list-type': 'atomic',
      }),
    },
  },
  [`${P}ForZone`]: {
    type: 'object',
    description: 'A zone that should consume an endpoint.',
    properties: {
      name: str('Name of the zone.'),
    },
    required: ['name'],
  },
  [`${P}EndpointPort`]: {
    type: 'object',
    description: 'A port exposed by the endpoints of an EndpointSlice.',
    properties: {
      appProtocol: str('Application protocol of the port, such as an IANA service name or a prefixed name.'),
      name: str('Name of the port, unique within the slice; empty or a DNS label.'),
      port: int32('Port number; unset means all ports.'),
      protocol: str('TCP (default), UDP or SCTP.'),
    },
    'x-kubernetes-map-type': 'atomic',
  },
};

const FIELD_NUMBERS: FieldNumberTable = {
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

/** discovery.k8s.io/v1 EndpointSlice. */
export const ENDPOINT_SLICE: KindDefinition = {
  resource: resourceInfo({ group: 'discovery.k8s.io', version: 'v1', kind: 'EndpointSlice', plural: 'endpointslices', namespaced: true }),
  strategy: { defaults: defaultEndpointSlice },
  printer: ENDPOINT_SLICE_PRINTER,
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
