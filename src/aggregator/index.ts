export { type AggregatedBackends, createAggregatedApiClient } from './aggregated-client.js';
export { type Aggregator, type AggregatorOptions, createAggregator } from './aggregator.js';
export { type ApiServiceEntry, type AvailableCondition, APISERVICES } from './api-service.js';
export type { BackendTarget, FrontProxyCredentials } from './backend-transport.js';
export {
  type GroupVersionPriority,
  mergeAggregatedDiscovery,
  mergeApiGroup,
  mergeApiGroupList,
  type PriorityOf,
  type RemoteGroupVersion,
} from './discovery-merge.js';
export { SERVICE_UNAVAILABLE_TEXT, sendProxyError } from './proxy.js';
