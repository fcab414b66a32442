import { kindDefinition, listDefinition, ref } from '../../openapi/builders/group-builders.js';
import { ATOMIC, arrayOf, core, int32, object, str, stringArray } from '../../openapi/builders/shorthand.js';
import { type Definitions, definitionRef } from '../../openapi/schema.js';
import { age } from '../../tables/cell-format.js';
import { AGE_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import { get, list, text } from '../../tables/object-fields.js';
import { column, type Printer } from '../../tables/printer.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo, STATUS } from '../define/resource.js';
import { validateIngressCreate, validateIngressUpdate } from './ingress-validation.js';
import { byCodeUnit } from '../../util/by-code-unit.js';

const P = 'io.k8s.api.networking.v1.';

/** formatHosts: the first three non-empty hosts, "+ N more..." counting every rule past the third; "*" for none. */
function hosts(rules: readonly unknown[]): string {
  const shown: string[] = [];
  let more = false;
  for (const rule of rules) {
    if (shown.length === 3) more = true;
    const host = text(get(rule, 'host'));
    if (!more && host !== '') shown.push(host);
  }
  if (shown.length === 0) return '*';
  return more ? `${shown.join(',')} + ${rules.length - 3} more...` : shown.join(',');
}

/** ingressLoadBalancerStatusStringer, wide as the server prints: sorted unique IPs, else hostnames. */
function addresses(ingress: unknown): string {
  const found = new Set<string>();
  for (const point of list(get(ingress, 'status', 'loadBalancer', 'ingress'))) {
    const ip = text(get(point, 'ip'));
    const hostname = text(get(point, 'hostname'));
    if (ip !== '') found.add(ip);
    else if (hostname !== '') found.add(hostname);
  }
  return [...found].sort(byCodeUnit).join(',');
}

const INGRESS_PRINTER: Printer = {
  style: 'printer',
  columns: [
    NAME_COLUMN,
    column('Class', 'string', 'The name of the IngressClass resource that should be used for additional configuration'),
    column('Hosts', 'string', 'Hosts that incoming requests are matched against before the ingress rule'),
    column('Address', 'string', 'Address is a list containing ingress points for the load-balancer'),
    column('Ports', 'string', 'Ports of TLS configurations that open'),
    AGE_COLUMN,
  ],
  row(ingress, now) {
    const className = get(ingress, 'spec', 'ingressClassName');
    return [
      ingress.metadata.name ?? '',
      typeof className === 'string' ? className : '<none>',
      hosts(list(get(ingress, 'spec', 'rules'))),
      addresses(ingress),
      list(get(ingress, 'spec', 'tls')).length > 0 ? '80, 443' : '80',
      age(ingress.metadata.creationTimestamp, now),
    ];
  },
};

const PROTOCOL = str('Protocol of the port: TCP, UDP or SCTP.', { enum: ['SCTP', 'TCP', 'UDP'] });

const DEFINITIONS: Definitions = {
  [`${P}Ingress`]: kindDefinition({
    group: 'networking.k8s.io',
    version: 'v1',
    kind: 'Ingress',
    description: 'Ingress routes HTTP(S) traffic from outside the cluster to Services, by host and path.',
    properties: {
      spec: ref(`${P}IngressSpec`, 'Desired routing of the Ingress.'),
      status: ref(`${P}IngressStatus`, 'Current state of the Ingress, as its controller reports it.'),
    },
  }),
  [`${P}IngressList`]: listDefinition('networking.k8s.io', 'v1', 'Ingress', `${P}Ingress`),
  [`${P}IngressSpec`]: object('Routing the user wants for an Ingress.', {
    defaultBackend: ref(`${P}IngressBackend`, 'Backend for requests no rule matches; required when there are no rules.'),
    ingressClassName: str('Name of the IngressClass whose controller serves this Ingress.'),
    rules: arrayOf(definitionRef(`${P}IngressRule`), 'Host rules; requests matching none go to the default backend.', ATOMIC),
    tls: arrayOf(definitionRef(`${P}IngressTLS`), 'TLS termination, on port 443, per set of hosts.', ATOMIC),
  }),
  [`${P}IngressBackend`]: object('Where matching requests are sent: a Service port or another resource, not both.', {
    resource: core('TypedLocalObjectReference', 'Another resource in the namespace of the Ingress; exclusive with service.'),
    service: ref(`${P}IngressServiceBackend`, 'A Service in the namespace of the Ingress; exclusive with resource.'),
  }),
  [`${P}IngressServiceBackend`]: {
    ...object('A Service used as a backend.', {
      name: str('Name of the Service, in the namespace of the Ingress.'),
      port: ref(`${P}ServiceBackendPort`, 'Port of the Service, by name or number.'),
    }),
    required: ['name'],
  },
  [`${P}ServiceBackendPort`]: object(
    'A port of a Service, by name or by number (not both).',
    {
      name: str('Name of the port on the Service; exclusive with number.'),
      number: int32('Number of the port on the Service; exclusive with name.'),
    },
    { 'x-kubernetes-map-type': 'atomic' },
  ),
  [`${P}IngressRule`]: object('Routes requests for one host (or all hosts) to backends.', {
    host: str('Fully qualified domain name the rule matches, or a "*." wildcard of one; all hosts when empty. No IPs or ports.'),
    http: ref(`${P}HTTPIngressRuleValue`, 'Paths of the host and their backends.'),
  }),
  [`${P}HTTPIngressRuleValue`]: {
    ...object('HTTP paths routed to backends.', {
      paths: arrayOf(definitionRef(`${P}HTTPIngressPath`), 'Paths and the backends they lead to.', ATOMIC),
    }),
    required: ['paths'],
  },
  [`${P}HTTPIngressPath`]: {
    ...object('A path and the backend its requests go to.', {
      backend: ref(`${P}IngressBackend`, 'Backend that serves the matching requests.'),
      path: str('Path matched against the request path; must start with "/" for Exact and Prefix.'),
      pathType: str('How path is matched: Exact, Prefix (element by element along "/") or ImplementationSpecific.', {
        enum: ['Exact', 'ImplementationSpecific', 'Prefix'],
      }),
    }),
    required: ['pathType', 'backend'],
  },
  [`${P}IngressTLS`]: object('TLS termination for a set of hosts.', {
    hosts: stringArray('Hosts the certificate covers; the load balancer default when empty.'),
    secretName: str('Secret holding the certificate and key; optional when routing on SNI alone.'),
  }),
  [`${P}IngressStatus`]: object('Observed state of an Ingress.', {
    loadBalancer: ref(`${P}IngressLoadBalancerStatus`, 'Load balancer serving the Ingress.'),
  }),
  [`${P}IngressLoadBalancerStatus`]: object('State of the load balancer of an Ingress.', {
    ingress: arrayOf(definitionRef(`${P}IngressLoadBalancerIngress`), 'Ingress points of the load balancer.', ATOMIC),
  }),
  [`${P}IngressLoadBalancerIngress`]: object('One ingress point of a load balancer.', {
    hostname: str('DNS name of the ingress point, for DNS-based load balancers.'),
    ip: str('IP address of the ingress point, for IP-based load balancers.'),
    ports: arrayOf(definitionRef(`${P}IngressPortStatus`), 'Ports the load balancer exposes.', ATOMIC),
  }),
  [`${P}IngressPortStatus`]: {
    ...object('State of one port of a load balancer.', {
      error: str('Problem with the port, as a CamelCase reason (domain-prefixed for cloud-specific ones).'),
      port: int32('Port number.'),
      protocol: PROTOCOL,
    }),
    required: ['port', 'protocol'],
  },
};

const FIELD_NUMBERS: FieldNumberTable = {
  [`${P}Ingress`]: { tags: { metadata: 1, spec: 2, status: 3 } },
  [`${P}IngressList`]: { tags: { metadata: 1, items: 2 } },
  [`${P}IngressSpec`]: { tags: { defaultBackend: 1, tls: 2, rules: 3, ingressClassName: 4 }, pointers: ['ingressClassName'] },
  [`${P}IngressBackend`]: { tags: { resource: 3, service: 4 } },
  [`${P}IngressServiceBackend`]: { tags: { name: 1, port: 2 } },
  [`${P}ServiceBackendPort`]: { tags: { name: 1, number: 2 } },
  [`${P}IngressRule`]: { tags: { host: 1 }, inline: { 2: `${P}IngressRuleValue` } },
  [`${P}IngressRuleValue`]: { tags: { http: 1 } },
  [`${P}HTTPIngressRuleValue`]: { tags: { paths: 1 } },
  [`${P}HTTPIngressPath`]: { tags: { path: 1, backend: 2, pathType: 3 }, pointers: ['pathType'] },
  [`${P}IngressTLS`]: { tags: { hosts: 1, secretName: 2 } },
  [`${P}IngressStatus`]: { tags: { loadBalancer: 1 } },
  [`${P}IngressLoadBalancerStatus`]: { tags: { ingress: 1 } },
  [`${P}IngressLoadBalancerIngress`]: { tags: { ip: 1, hostname: 2, ports: 4 } },
  [`${P}IngressPortStatus`]: { tags: { port: 1, protocol: 2, error: 3 }, pointers: ['error'] },
};

/** networking.k8s.io/v1 Ingress: HTTP routing to Services; its status belongs to the ingress controller. */
export const INGRESS: KindDefinition = {
  resource: resourceInfo({
    group: 'networking.k8s.io',
    version: 'v1',
    kind: 'Ingress',
    plural: 'ingresses',
    namespaced: true,
    shortNames: ['ing'],
    subresources: [STATUS],
  }),
  strategy: {
    specGeneration: true,
    initialStatus: () => ({}),
    statusZeroValues: { loadBalancer: {} },
    validate: validateIngressCreate,
    validateUpdate: validateIngressUpdate,
  },
  printer: INGRESS_PRINTER,
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
