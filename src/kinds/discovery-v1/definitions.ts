import { definitionRef, type Definitions } from '../../openapi/schema.js';
import { arrayOf, bool, int32, kindDefinition, listDefinition, OBJECT_REFERENCE, ref, str, stringArray, stringMap } from '../../openapi/builders/group-builders.js';

/** discovery.k8s.io/v1 EndpointSlice. */

const P = 'io.k8s.api.discovery.v1.';

export const DISCOVERY_V1_DEFINITIONS: Definitions = {
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
