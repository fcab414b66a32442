import type { ApiClient } from './interface.js';

/**
 * A controller's client as kube-controller-manager composes it: list and watch (what feeds informers) go through
 * the controller manager's shared identity, every other call acts as the controller's own service account.
 */
export function withInformerReads(own: ApiClient, informers: ApiClient): ApiClient {
  return {
    ...own,
    // A getter: spreading `own` copied its value at this moment.
    get lastDiscoveryErrors() {
      return own.lastDiscoveryErrors;
    },
    list: (ref, namespace, opts) => informers.list(ref, namespace, opts),
    watch: (ref, namespace, opts) => informers.watch(ref, namespace, opts),
  };
}
