import type { KubeObject } from '../../api/types.js';
import { age } from '../cell-format.js';
import { get, list, text } from '../object-fields.js';
import { column, type Printer } from '../printer.js';
import { AGE_COLUMN, NAME_COLUMN } from './common-columns.js';

function availability(apiService: KubeObject): string {
  const condition = list(get(apiService, 'status', 'conditions')).find((entry) => text(get(entry, 'type')) === 'Available');
  if (condition === undefined) return 'Unknown';
  const status = text(get(condition, 'status'));
  const reason = text(get(condition, 'reason'));
  return status !== 'True' && reason !== '' ? `${status} (${reason})` : status;
}

function serviceReference(apiService: KubeObject): string {
  const service = get(apiService, 'spec', 'service');
  if (service === undefined || service === null) return 'Local';
  return `${text(get(service, 'namespace'))}/${text(get(service, 'name'))}`;
}

/** kube-aggregator's own ConvertToTable (pkg/registry/apiservice/etcd). */
export const API_SERVICE_PRINTER: Printer = {
  style: 'aggregator',
  columns: [
    NAME_COLUMN,
    column('Service', 'string', 'The reference to the service that hosts this API endpoint.'),
    column('Available', 'string', 'Whether this service is available.'),
    AGE_COLUMN,
  ],
  row: (apiService, now) => [
    apiService.metadata.name ?? '',
    serviceReference(apiService),
    availability(apiService),
    age(apiService.metadata.creationTimestamp, now),
  ],
};
