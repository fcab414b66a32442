import { isObject, type KubeObject, objects } from '../../api/types.js';
import {
  arrayOf,
  ATOMIC,
  bool,
  CORE,
  core,
  coreArray,
  coreKind,
  int32,
  intOrString,
  mergeByKey,
  META,
  object,
  str,
  stringArray,
  stringMap,
} from '../../openapi/builders/shorthand.js';
import { definitionRef, type Definitions } from '../../openapi/schema.js';
import { age, formatLabels } from '../../tables/cell-format.js';
import { AGE_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import { get, integer, list, text } from '../../tables/object-fields.js';
import { column, type Printer } from '../../tables/printer.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import { fieldAt, notSupported, textAttr } from '../define/field-selectors.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo, STATUS } from '../define/resource.js';
import { specOf } from './types/defaulting.js';
import { APP_PROTOCOL, PROTOCOL } from './types/port-schemas.js';
import { prepareServiceCreate, prepareServiceUpdate } from './service-prepare.js';
import { serviceWarnings, validateService, validateServiceStatusUpdate, validateServiceUpdate } from './service-validation.js';
import { byCodeUnit } from '../../util/by-code-unit.js';

/** Column descriptions: the swagger docs of the fields, as the Go printers report them. */
const serviceSpecClusterIP =
  'clusterIP is the IP address of the service and is usually assigned randomly. If an address is specified manually, is in-range (as per system configuration), and is not in use, it will be allocated to the service; otherwise creation of the service will fail. This field may not be changed through updates unless the type field is also being changed to ExternalName (which requires this field to be blank) or the type field is being changed from ExternalName (in which case this field may optionally be specified, as describe above).  Valid values are "None", empty string (""), or a valid IP address. Setting this to "None" makes a "headless service" (no virtual IP), which is useful when direct endpoint connections are preferred and proxying is not required.  Only applies to types ClusterIP, NodePort, and LoadBalancer. If this field is specified when creating a Service of type ExternalName, creation will fail. This field will be wiped when updating a Service to type ExternalName. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies';
const serviceSpecExternalIPs =
  'externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.  These IPs are not managed by Kubernetes.  The user is responsible for ensuring that traffic arrives at a node with this IP.  A common example is external load-balancers that are not part of the Kubernetes system.';
const serviceSpecPorts =
  'The list of ports that are exposed by this service. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies';
const serviceSpecSelector =
  'Route service traffic to pods with label keys and values matching this selector. If empty or not present, the service is assumed to have an external process managing its endpoints, which Kubernetes will not modify. Only applies to types ClusterIP, NodePort, and LoadBalancer. Ignored if type is ExternalName. More info: https://kubernetes.io/docs/concepts/services-networking/service/';
const serviceSpecType =
  'type determines how the Service is exposed. Defaults to ClusterIP. Valid options are ExternalName, ClusterIP, NodePort, and LoadBalancer. "ClusterIP" allocates a cluster-internal IP address for load-balancing to endpoints. Endpoints are determined by the selector or if that is not specified, by manual construction of an Endpoints object or EndpointSlice objects. If clusterIP is "None", no virtual IP is allocated and the endpoints are published as a set of endpoints rather than a virtual IP. "NodePort" builds on ClusterIP and allocates a port on every node which routes to the same endpoints as the clusterIP. "LoadBalancer" builds on NodePort and creates an external load-balancer (if supported in the current cloud) which routes to the same endpoints as the clusterIP. "ExternalName" aliases this service to the specified externalName. Several other fields do not apply to ExternalName services. More info: https://kubernetes.io/docs/concepts/services-networking/service/#publishing-services-service-types';

/** loadBalancerStatusStringer in wide mode (the server always prints wide): sorted unique IPs/hostnames. */
function loadBalancerAddresses(svc: KubeObject): string {
  const addresses = new Set<string>();
  for (const ingress of list(get(svc, 'status', 'loadBalancer', 'ingress'))) {
    const ip = text(get(ingress, 'ip'));
    const hostname = text(get(ingress, 'hostname'));
    if (ip !== '') addresses.add(ip);
    else if (hostname !== '') addresses.add(hostname);
  }
  return [...addresses].sort(byCodeUnit).join(',');
}

function externalIP(svc: KubeObject): string {
  const externalIPs = list(get(svc, 'spec', 'externalIPs')).map(text);
  switch (text(get(svc, 'spec', 'type'))) {
    case 'ClusterIP':
    case 'NodePort':
      return externalIPs.length > 0 ? externalIPs.join(',') : '<none>';
    case 'LoadBalancer': {
      const balancer = loadBalancerAddresses(svc);
      if (externalIPs.length > 0) return [...(balancer === '' ? [] : balancer.split(',')), ...externalIPs].join(',');
      return balancer === '' ? '<pending>' : balancer;
    }
    case 'ExternalName':
      return text(get(svc, 'spec', 'externalName'));
    default:
      return '<unknown>';
  }
}

function ports(svc: KubeObject): string {
  const formatted = list(get(svc, 'spec', 'ports'))
    .map((port) => {
      const nodePort = integer(get(port, 'nodePort'));
      const protocol = text(get(port, 'protocol'));
      const number = integer(get(port, 'port'));
      return nodePort > 0 ? `${number}:${nodePort}/${protocol}` : `${number}/${protocol}`;
    })
    .join(',');
  return formatted === '' ? '<none>' : formatted;
}

/** Upstream reads clusterIPs[0]; objects that only carry the singular field are read through it. */
function clusterIP(svc: KubeObject): string {
  const first = list(get(svc, 'spec', 'clusterIPs'))[0];
  const value = typeof first === 'string' ? first : text(get(svc, 'spec', 'clusterIP'));
  return value === '' ? '<none>' : value;
}

const SERVICE_PRINTER: Printer = {
  style: 'printer',
  columns: [
    NAME_COLUMN,
    column('Type', 'string', serviceSpecType),
    column('Cluster-IP', 'string', serviceSpecClusterIP),
    column('External-IP', 'string', serviceSpecExternalIPs),
    column('Port(s)', 'string', serviceSpecPorts),
    AGE_COLUMN,
    column('Selector', 'string', serviceSpecSelector, { wide: true }),
  ],
  row: (svc, now) => [
    svc.metadata.name ?? '',
    text(get(svc, 'spec', 'type')),
    clusterIP(svc),
    externalIP(svc),
    ports(svc),
    age(svc.metadata.creationTimestamp, now),
    formatLabels(get(svc, 'spec', 'selector')),
  ],
};

const SERVICE_TYPES = coreKind({
  kind: 'Service',
  description: 'Named abstraction of a software service: a local port proxied to a set of pods selected by labels.',
  properties: {
    spec: core('ServiceSpec', 'Behaviour of the service.'),
    status: core('ServiceStatus', 'Most recently observed status of the service. Read-only.'),
  },
  listDescription: 'List of services.',
  itemsDescription: 'The services.',
});

/** Sticky client IP affinity lasts three hours unless the client says otherwise. */
const DEFAULT_CLIENT_IP_TIMEOUT_SECONDS = 10800;

function defaultService(obj: KubeObject): void {
  const s = specOf(obj);
  s.type ??= 'ClusterIP';
  s.sessionAffinity ??= 'None';
  if (s.sessionAffinity === 'None') delete s.sessionAffinityConfig;
  if (s.sessionAffinity === 'ClientIP') {
    const config = isObject(s.sessionAffinityConfig) ? s.sessionAffinityConfig : undefined;
    const clientIP = config !== undefined && isObject(config.clientIP) ? config.clientIP : undefined;
    if (clientIP?.timeoutSeconds === undefined) {
      s.sessionAffinityConfig = { clientIP: { timeoutSeconds: DEFAULT_CLIENT_IP_TIMEOUT_SECONDS } };
    }
  }
  if (s.type !== 'ExternalName') {
    s.internalTrafficPolicy ??= 'Cluster';
    s.ipFamilyPolicy ??= 'SingleStack';
    s.ipFamilies ??= ['IPv4'];
  }
  const externallyAccessible =
    s.type === 'LoadBalancer' ||
    s.type === 'NodePort' ||
    (s.type === 'ClusterIP' && Array.isArray(s.externalIPs) && s.externalIPs.length > 0);
  if (externallyAccessible && (s.externalTrafficPolicy === undefined || s.externalTrafficPolicy === '')) {
    s.externalTrafficPolicy = 'Cluster';
  }
  if (s.type === 'LoadBalancer') s.allocateLoadBalancerNodePorts ??= true;
  for (const p of objects(s.ports)) {
    p.protocol ??= 'TCP';
    if (p.targetPort === undefined || p.targetPort === 0 || p.targetPort === '') p.targetPort = p.port;
  }
}

const DEFINITIONS: Definitions = {
  ...SERVICE_TYPES,
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
};

const FIELD_NUMBERS: FieldNumberTable = {
  'io.k8s.api.core.v1.ClientIPConfig': { tags: { timeoutSeconds: 1 }, pointers: ['timeoutSeconds'] },
  'io.k8s.api.core.v1.LoadBalancerIngress': { tags: { ip: 1, hostname: 2, ipMode: 3, ports: 4 }, pointers: ['ipMode'] },
  'io.k8s.api.core.v1.LoadBalancerStatus': { tags: { ingress: 1 } },
  'io.k8s.api.core.v1.PortStatus': { tags: { port: 1, protocol: 2, error: 3 }, pointers: ['error'] },
  'io.k8s.api.core.v1.Service': { tags: { metadata: 1, spec: 2, status: 3 } },
  'io.k8s.api.core.v1.ServiceList': { tags: { metadata: 1, items: 2 } },
  'io.k8s.api.core.v1.ServicePort': {
    tags: { name: 1, protocol: 2, port: 3, targetPort: 4, nodePort: 5, appProtocol: 6 },
    pointers: ['appProtocol'],
  },
  'io.k8s.api.core.v1.ServiceSpec': {
    tags: {
      ports: 1,
      selector: 2,
      clusterIP: 3,
      type: 4,
      externalIPs: 5,
      sessionAffinity: 7,
      loadBalancerIP: 8,
      loadBalancerSourceRanges: 9,
      externalName: 10,
      externalTrafficPolicy: 11,
      healthCheckNodePort: 12,
      publishNotReadyAddresses: 13,
      sessionAffinityConfig: 14,
      ipFamilyPolicy: 17,
      clusterIPs: 18,
      ipFamilies: 19,
      allocateLoadBalancerNodePorts: 20,
      loadBalancerClass: 21,
      internalTrafficPolicy: 22,
      trafficDistribution: 23,
    },
    pointers: ['ipFamilyPolicy', 'allocateLoadBalancerNodePorts', 'loadBalancerClass', 'internalTrafficPolicy', 'trafficDistribution'],
  },
  'io.k8s.api.core.v1.ServiceStatus': { tags: { loadBalancer: 1, conditions: 2 } },
  'io.k8s.api.core.v1.SessionAffinityConfig': { tags: { clientIP: 1 } },
};

/** core/v1 Service. */
export const SERVICE: KindDefinition = {
  resource: resourceInfo({
    group: '',
    version: 'v1',
    kind: 'Service',
    plural: 'services',
    namespaced: true,
    shortNames: ['svc'],
    categories: ['all'],
    subresources: [STATUS],
    nameFormat: 'dns1035-label',
  }),
  strategy: {
    returnDeletedObject: true,
    defaults: defaultService,
    initialStatus: () => ({}),
    statusZeroValues: { loadBalancer: {} },
    prepareForCreate: prepareServiceCreate,
    prepareForUpdate: prepareServiceUpdate,
    validate: validateService,
    validateUpdate: validateServiceUpdate,
    validateStatusUpdate: validateServiceStatusUpdate,
    warningsOnCreate: serviceWarnings,
    warningsOnUpdate: serviceWarnings,
  },
  fieldSelectors: {
    conversion: { labels: new Set(['metadata.namespace', 'metadata.name', 'spec.clusterIP', 'spec.type']), error: notSupported },
    attrs: (obj) => ({
      'spec.clusterIP': textAttr(fieldAt(obj, 'spec', 'clusterIP')),
      'spec.type': textAttr(fieldAt(obj, 'spec', 'type')),
    }),
  },
  printer: SERVICE_PRINTER,
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
