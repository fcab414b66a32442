/** Cascade as a library for tests: an in-process API server, and clients that reach it or any real cluster. */
export {
  startTestServer,
  type TestServer,
  type TestServerOptions,
  type TestServerSecurity,
  type TestServerEtcd,
  type TestServerStorage,
} from './test-server.js';
export type { TestServerWebhooks, WebhookServing } from './webhook-install.js';
export type { ApiServerLimits } from '../server/api-server.js';
export type { UserInfo } from '../api/user.js';
export { waitFor, type WaitForOptions } from './wait-for.js';
export {
  createHttpClient,
  describeDiscoveryFailures,
  type DiscoveryFailure,
  type HttpApiClient,
  type HttpClientConfig,
} from '../client/http-client.js';
export { loadKubeconfig, type KubeconfigSelection, type LoadKubeconfigOptions } from '../client/kubeconfig.js';
export type { ApiClient, DeleteResponse, ListOptions, PatchType, ResourceRef, WatchOptions, WatchStream } from '../client/interface.js';
export type { KubeList, KubeObject, ObjectMeta, OwnerReference, Status } from '../api/types.js';
export type { ObjectEvent, ObjectEventType } from '../api/types.js';
export type { DeleteOptions, PropagationPolicy } from '../api/delete-options.js';
export type { ResourceInfo } from '../api/resource-info.js';
export { StatusError } from '../api/errors.js';
