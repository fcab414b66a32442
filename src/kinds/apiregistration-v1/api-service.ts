import type { KubeObject } from '../../api/types.js';
import { age } from '../../tables/cell-format.js';
import { get, list, text } from '../../tables/object-fields.js';
import { column, type Printer } from '../../tables/printer.js';
import { AGE_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo, STATUS } from '../define/resource.js';

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
const API_SERVICE_PRINTER: Printer = {
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

/** apiregistration.k8s.io/v1 APIService: how the aggregator finds an aggregated API's backend. */
export const API_SERVICE: KindDefinition = {
  resource: resourceInfo({
    group: 'apiregistration.k8s.io',
    version: 'v1',
    kind: 'APIService',
    plural: 'apiservices',
    namespaced: false,
    definition: 'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIService',
    categories: ['api-extensions'],
    subresources: [STATUS],
    nameFormat: 'path-segment',
  }),
  printer: API_SERVICE_PRINTER,
};
