import type { KubeObject } from '../../api/types.js';
import {
  bool,
  conditionDefinition,
  int32,
  kindDefinition,
  listDefinition,
  mergeMapList,
  ref,
  str,
} from '../../openapi/builders/group-builders.js';
import { definitionRef, type Definitions } from '../../openapi/schema.js';
import { age } from '../../tables/cell-format.js';
import { AGE_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import { get, list, text } from '../../tables/object-fields.js';
import { column, type Printer } from '../../tables/printer.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
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

const P = 'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.';

const DEFINITIONS: Definitions = {
  [`${P}APIService`]: kindDefinition({
    group: 'apiregistration.k8s.io',
    version: 'v1',
    kind: 'APIService',
    description: 'APIService registers the server of one group/version; its name is "<version>.<group>".',
    properties: {
      spec: ref(`${P}APIServiceSpec`, 'Where and how to reach the server.'),
      status: ref(`${P}APIServiceStatus`, 'Observed availability of the server.'),
    },
  }),
  [`${P}APIServiceList`]: listDefinition('apiregistration.k8s.io', 'v1', 'APIService', `${P}APIService`),
  [`${P}APIServiceSpec`]: {
    type: 'object',
    description: 'Where and how to reach the server of an APIService; only https is supported.',
    properties: {
      // Kubernetes publishes this list-type on the byte string; kept so the served documents match.
      caBundle: str("PEM-encoded CA bundle used to verify the server's certificate.", {
        format: 'byte',
        'x-kubernetes-list-type': 'atomic',
      }),
      group: str('API group served.'),
      groupPriorityMinimum: int32('Minimum priority of the group; higher values are preferred by clients.'),
      insecureSkipTLSVerify: bool('Skip TLS verification of the server; strongly discouraged.'),
      service: ref(`${P}ServiceReference`, 'Service fronting the server; unset means the group/version is served locally.'),
      version: str('API version served, e.g. v1.'),
      versionPriority: int32('Order of this version within its group; higher comes first. Must be positive.'),
    },
    required: ['groupPriorityMinimum', 'versionPriority'],
  },
  [`${P}ServiceReference`]: {
    type: 'object',
    description: 'Points to a Service.',
    properties: {
      name: str('Name of the service.'),
      namespace: str('Namespace of the service.'),
      port: int32('Port on the service. Defaults to 443.'),
    },
  },
  [`${P}APIServiceStatus`]: {
    type: 'object',
    description: 'Observed state of an APIService.',
    properties: {
      conditions: mergeMapList(definitionRef(`${P}APIServiceCondition`), 'type', 'Current state of the service.'),
    },
  },
  [`${P}APIServiceCondition`]: conditionDefinition('State of an APIService at a point in time.'),
};

const FIELD_NUMBERS: FieldNumberTable = {
  'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIService': { tags: { metadata: 1, spec: 2, status: 3 } },
  'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIServiceCondition': {
    tags: { type: 1, status: 2, lastTransitionTime: 3, reason: 4, message: 5 },
  },
  'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIServiceList': { tags: { metadata: 1, items: 2 } },
  'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIServiceSpec': {
    tags: { service: 1, group: 2, version: 3, insecureSkipTLSVerify: 4, caBundle: 5, groupPriorityMinimum: 7, versionPriority: 8 },
  },
  'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIServiceStatus': { tags: { conditions: 1 } },
  'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.ServiceReference': {
    tags: { namespace: 1, name: 2, port: 3 },
    pointers: ['port'],
  },
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
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
