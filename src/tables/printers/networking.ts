import { age, listWithMore } from '../cell-format.js';
import { endpointSliceAddressType, endpointSliceEndpoints, endpointSlicePorts, leaseSpecHolderIdentity } from '../column-descriptions.js';
import { get, list, text } from '../object-fields.js';
import { column, type Printer } from '../printer.js';
import { AGE_COLUMN, NAME_COLUMN } from './common-columns.js';

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

export const ENDPOINT_SLICE_PRINTER: Printer = {
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

export const LEASE_PRINTER: Printer = {
  style: 'printer',
  columns: [NAME_COLUMN, column('Holder', 'string', leaseSpecHolderIdentity), AGE_COLUMN],
  row: (lease, now) => [lease.metadata.name ?? '', text(get(lease, 'spec', 'holderIdentity')), age(lease.metadata.creationTimestamp, now)],
};
