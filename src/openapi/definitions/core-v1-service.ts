import { type Definitions, definitionRef } from '../schema.js';
import {
  ATOMIC,
  ATOMIC_STRUCT,
  arrayOf,
  bool,
  CORE,
  core,
  coreArray,
  coreKind,
  int32,
  intOrString,
  META,
  mergeByKey,
  object,
  str,
  stringArray,
  stringMap,
} from './shorthand.js';

/** core/v1 Service and Endpoints. */

const PROTOCOL = str('Network protocol: TCP, UDP or SCTP. Defaults to TCP.', { enum: ['SCTP', 'TCP', 'UDP'] });
const APP_PROTOCOL = str('Application protocol of the port, e.g. "http" or a domain-prefixed name.');

const SERVICE = coreKind({
  kind: 'Service',
  description: 'Named abstraction of a software service: a local port proxied to a set of pods selected by labels.',
  properties: {
    spec: core('ServiceSpec', 'Behaviour of the service.'),
    status: core('ServiceStatus', 'Most recently observed status of the service. Read-only.'),
  },
  listDescription: 'List of services.',
  itemsDescription: 'The services.',
});

const ENDPOINTS = coreKind({
  kind: 'Endpoints',
  description: 'Collection of endpoints that implement a service (superseded by discovery.k8s.io EndpointSlices).',
  properties: {
    subsets: coreArray(
      'EndpointSubset',
      'Sets of addresses and ports sharing the same ports; their union is the full set of endpoints.',
      ATOMIC,
    ),
  },
  listDescription: 'List of endpoints.',
  itemsDescription: 'The endpoints.',
});

export const CORE_V1_SERVICE_DEFINITIONS: Definitions = {
  ...SERVICE,
  ...ENDPOINTS,
  [`${CORE}ServiceSpec`]: object('Attributes a user creates on a service.', {
    allocateLoadBalancerNodePorts: bool('Whether NodePorts are allocated for LoadBalancer services. Defaults to true.'),
    clusterIP: str('Cluster-internal IP of the service, usually assigned randomly; "None" makes a headless service.'),
    clusterIPs: stringArray('Cluster IPs of the service, one per IP family; the first equals clusterIP.'),
    externalIPs: stringArray('IPs for which nodes also accept traffic for this service; not managed by Kubernetes.'),
    externalName: str('DNS name returned as a CNAME record for ExternalName services.'),
    externalTrafficPolicy: str('How externally-reachable addresses route traffic: Cluster or Local.', {
      enum: ['Cluster', 'Local'],
    }),
    healthCheckNodePort: int32('Health check node port for LoadBalancer services with Local traffic policy.'),
    internalTrafficPolicy: str('How cluster-internal traffic is routed: Cluster or Local.', {
      enum: ['Cluster', 'Local'],
    }),
    ipFamilies: stringArray('IP families (IPv4, IPv6) assigned to the service.'),
    ipFamilyPolicy: str('Dual-stack behaviour of the service. Defaults to SingleStack.', {
      enum: ['PreferDualStack', 'RequireDualStack', 'SingleStack'],
    }),
    loadBalancerClass: str('Class of the load balancer implementation; immutable once set.'),
    loadBalancerIP: str('Deprecated: requested load balancer IP, if the provider supports it.'),
    loadBalancerSourceRanges: stringArray('Client IP ranges allowed through a cloud load balancer.'),
    ports: coreArray('ServicePort', 'Ports exposed by the service.', mergeByKey('port', ['port', 'protocol'])),
    publishNotReadyAddresses: bool('Publish addresses of endpoints that are not ready.'),
    selector: stringMap('Routes traffic to pods whose labels match; empty means endpoints are managed externally.', {
      'x-kubernetes-map-type': 'atomic',
    }),
    sessionAffinity: str('Session affinity: ClientIP or None. Defaults to None.', { enum: ['ClientIP', 'None'] }),
    sessionAffinityConfig: core('SessionAffinityConfig', 'Configuration of session affinity.'),
    trafficDistribution: str('Preference for how traffic is distributed to endpoints, e.g. "PreferClose".'),
    type: str('How the service is exposed. Defaults to ClusterIP.', {
      enum: ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'],
    }),
  }),
  [`${CORE}ServicePort`]: object(
    'A port of a service.',
    {
      appProtocol: APP_PROTOCOL,
      name: str('Name of the port, a DNS label; required when there is more than one port.'),
      nodePort: int32('Port on each node for NodePort or LoadBalancer services, usually system-allocated.'),
      port: int32('Port exposed by the service.'),
      // The +default marker 1.32 publishes; server-side apply keys ports by it (R10.69).
      protocol: { ...PROTOCOL, default: 'TCP' },
      targetPort: intOrString('Number or name of the port on the target pods. Defaults to port.'),
    },
    { required: ['port'] },
  ),
  [`${CORE}ServiceStatus`]: object('Current status of a service.', {
    conditions: arrayOf(definitionRef(`${META}Condition`), 'Current state of the service.', mergeByKey('type')),
    loadBalancer: core('LoadBalancerStatus', 'Status of the load balancer, if any.'),
  }),
  [`${CORE}LoadBalancerStatus`]: object('Status of a load balancer.', {
    ingress: coreArray('LoadBalancerIngress', 'Ingress points of the load balancer.', ATOMIC),
  }),
  [`${CORE}LoadBalancerIngress`]: object('Ingress point of a load balancer.', {
    hostname: str('DNS-based ingress point.'),
    ip: str('IP-based ingress point.'),
    ipMode: str('How the load balancer IP behaves: VIP or Proxy.'),
    ports: coreArray('PortStatus', 'Records of the service ports.', ATOMIC),
  }),
  [`${CORE}PortStatus`]: object(
    'Status of one service port.',
    {
      error: str('Problem with the port, as a CamelCase reason.'),
      port: int32('Port number.'),
      protocol: PROTOCOL,
    },
    { required: ['port', 'protocol'] },
  ),
  [`${CORE}SessionAffinityConfig`]: object('Configuration of session affinity.', {
    clientIP: core('ClientIPConfig', 'Configuration of ClientIP session affinity.'),
  }),
  [`${CORE}ClientIPConfig`]: object('Configuration of ClientIP session affinity.', {
    timeoutSeconds: int32('Sticky session duration, 1-86400 seconds. Defaults to 10800.'),
  }),
  [`${CORE}EndpointSubset`]: object('Group of addresses sharing a common set of ports.', {
    addresses: coreArray('EndpointAddress', 'Ready addresses.', ATOMIC),
    notReadyAddresses: coreArray('EndpointAddress', 'Addresses not yet ready to receive traffic.', ATOMIC),
    ports: coreArray('EndpointPort', 'Port numbers available on the addresses.', ATOMIC),
  }),
  [`${CORE}EndpointAddress`]: object(
    'A single IP address of an endpoint.',
    {
      hostname: str('Hostname of this endpoint.'),
      ip: str('IP of this endpoint; may not be loopback, link-local or multicast.'),
      nodeName: str('Node hosting this endpoint.'),
      targetRef: core('ObjectReference', 'Reference to the object providing the endpoint.'),
    },
    { required: ['ip'], ...ATOMIC_STRUCT },
  ),
  [`${CORE}EndpointPort`]: object(
    'A port of an endpoint.',
    {
      appProtocol: APP_PROTOCOL,
      name: str('Name of the port; must match a ServicePort name.'),
      port: int32('Port number.'),
      protocol: PROTOCOL,
    },
    { required: ['port'], ...ATOMIC_STRUCT },
  ),
};
