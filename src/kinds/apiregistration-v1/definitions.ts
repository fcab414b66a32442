import { definitionRef, type Definitions } from '../../openapi/schema.js';
import { bool, int32, kindDefinition, listDefinition, mergeMapList, ref, str, conditionDefinition } from '../../openapi/builders/group-builders.js';

/** apiregistration.k8s.io/v1 APIService. */

const P = 'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.';

export const APIREGISTRATION_V1_DEFINITIONS: Definitions = {
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
