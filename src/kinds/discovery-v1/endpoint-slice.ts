import { age, listWithMore } from '../../tables/cell-format.js';
import { endpointSliceAddressType, endpointSliceEndpoints, endpointSlicePorts } from '../../tables/column-descriptions.js';
import { get, list, text } from '../../tables/object-fields.js';
import { column, type Printer } from '../../tables/printer.js';
import { AGE_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import { defaultEndpointSlice } from '../core-v1/types/kind-defaults.js';
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

/** discovery.k8s.io/v1 EndpointSlice. */
export const ENDPOINT_SLICE: KindDefinition = {
  resource: resourceInfo({ group: 'discovery.k8s.io', version: 'v1', kind: 'EndpointSlice', plural: 'endpointslices', namespaced: true }),
  strategy: { defaults: defaultEndpointSlice },
  printer: ENDPOINT_SLICE_PRINTER,
};
