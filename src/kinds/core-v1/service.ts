import type { KubeObject } from '../../api/types.js';
import { age, formatLabels } from '../../tables/cell-format.js';
import {
  serviceSpecClusterIP,
  serviceSpecExternalIPs,
  serviceSpecPorts,
  serviceSpecSelector,
  serviceSpecType,
} from '../../tables/column-descriptions.js';
import { get, integer, list, text } from '../../tables/object-fields.js';
import { column, type Printer } from '../../tables/printer.js';
import { AGE_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { fieldAt, notSupported, textAttr } from '../define/field-selectors.js';
import { resourceInfo, STATUS } from '../define/resource.js';
import { defaultService, STATUS_ZERO_VALUES } from './types/kind-defaults.js';

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

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
  strategy: { returnDeletedObject: true, defaults: defaultService, initialStatus: () => ({}), statusZeroValues: STATUS_ZERO_VALUES.services },
  fieldSelectors: {
    conversion: { labels: new Set(['metadata.namespace', 'metadata.name', 'spec.clusterIP', 'spec.type']), error: notSupported },
    attrs: (obj) => ({ 'spec.clusterIP': textAttr(fieldAt(obj, 'spec', 'clusterIP')), 'spec.type': textAttr(fieldAt(obj, 'spec', 'type')) }),
  },
  printer: SERVICE_PRINTER,
};
