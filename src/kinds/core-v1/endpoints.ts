import { objects, type KubeObject } from '../../api/types.js';
import { ATOMIC, ATOMIC_STRUCT, CORE, core, coreArray, coreKind, int32, object, str } from '../../openapi/builders/shorthand.js';
import type { Definitions } from '../../openapi/schema.js';
import { age, joinHostPort } from '../../tables/cell-format.js';
import { AGE_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import { get, integer, list, text } from '../../tables/object-fields.js';
import { column, type Printer } from '../../tables/printer.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo } from '../define/resource.js';
import { APP_PROTOCOL, PROTOCOL } from './types/port-schemas.js';
import { validateEndpoints } from './endpoints-validation.js';

/** Column descriptions: the swagger docs of the fields, as the Go printers report them. */
const endpointsSubsets =
  'The set of all endpoints is the union of all subsets. Addresses are placed into subsets according to the IPs they share. A single address with multiple ports, some of which are ready and some of which are not (because they come from different containers) will result in the address being displayed in different subsets for the different ports. No address will appear in both Addresses and NotReadyAddresses in the same subset. Sets of addresses and ports that comprise a service.';

/** formatEndpoints: up to three "ip:port" (or bare ip for port-less subsets), then "+ N more...". */
function formatEndpoints(obj: KubeObject): string {
  const subsets = list(get(obj, 'subsets'));
  if (subsets.length === 0) return '<none>';
  const shown: string[] = [];
  const max = 3;
  let more = false;
  let count = 0;
  for (const subset of subsets) {
    const addresses = list(get(subset, 'addresses')).map((address) => text(get(address, 'ip')));
    const ports = list(get(subset, 'ports'));
    const targets = ports.length === 0 ? [undefined] : ports.map((port) => integer(get(port, 'port')));
    for (const port of targets) {
      count += addresses.length;
      for (const ip of addresses) {
        if (shown.length === max) {
          more = true;
          break;
        }
        shown.push(port === undefined ? ip : joinHostPort(ip, port));
      }
    }
  }
  const joined = shown.join(',');
  return more ? `${joined} + ${count - max} more...` : joined;
}

const ENDPOINTS_PRINTER: Printer = {
  style: 'printer',
  columns: [NAME_COLUMN, column('Endpoints', 'string', endpointsSubsets), AGE_COLUMN],
  row: (obj, now) => [obj.metadata.name ?? '', formatEndpoints(obj), age(obj.metadata.creationTimestamp, now)],
};

const ENDPOINTS_TYPES = coreKind({
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

function defaultEndpoints(obj: KubeObject): void {
  for (const subset of objects(obj.subsets)) for (const port of objects(subset.ports)) port.protocol ??= 'TCP';
}

const DEFINITIONS: Definitions = {
  ...ENDPOINTS_TYPES,
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

const FIELD_NUMBERS: FieldNumberTable = {
  'io.k8s.api.core.v1.EndpointAddress': {
    tags: { ip: 1, targetRef: 2, hostname: 3, nodeName: 4 },
    pointers: ['nodeName'],
  },
  'io.k8s.api.core.v1.EndpointPort': {
    tags: { name: 1, port: 2, protocol: 3, appProtocol: 4 },
    pointers: ['appProtocol'],
  },
  'io.k8s.api.core.v1.EndpointSubset': { tags: { addresses: 1, notReadyAddresses: 2, ports: 3 } },
  'io.k8s.api.core.v1.Endpoints': { tags: { metadata: 1, subsets: 2 } },
  'io.k8s.api.core.v1.EndpointsList': { tags: { metadata: 1, items: 2 } },
};

/** core/v1 Endpoints. */
export const ENDPOINTS: KindDefinition = {
  resource: resourceInfo({ group: '', version: 'v1', kind: 'Endpoints', plural: 'endpoints', namespaced: true, shortNames: ['ep'] }),
  strategy: { defaults: defaultEndpoints, validate: validateEndpoints },
  printer: ENDPOINTS_PRINTER,
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
