import type { FieldNumberTable } from '../define/field-numbers.js';

export const APIREGISTRATION_V1_FIELD_NUMBERS: FieldNumberTable = {
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
