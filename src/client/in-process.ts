import { methodNotAllowedRoute, notFoundPath } from '../api/errors.js';
import type { KubeObject } from '../api/types.js';
import type { Definitions } from '../openapi/schema.js';
import { applyPatch } from '../patch/apply.js';
import type { DeleteOptions } from '../registry/delete-policy.js';
import type { Registry } from '../registry/registry.js';
import type { ResourceStore } from '../registry/store.js';
import { watchCollection } from '../registry/watch.js';
import type { ApiClient, ResourceRef } from './interface.js';

/** DeleteOptions are flat apart from preconditions and dryRun: a shallow copy is a full one (and cheap per GC delete). */
function copyDeleteOptions(opts: DeleteOptions): DeleteOptions {
  const copy: DeleteOptions = { ...opts };
  if (opts.preconditions !== undefined) copy.preconditions = { ...opts.preconditions };
  if (opts.dryRun !== undefined) copy.dryRun = [...opts.dryRun];
  return copy;
}

/**
 * An ApiClient that calls the registry directly: the same stores, validation, admission and deletion rules as
 * the HTTP API, without serialising requests. Controllers running inside the server use it; objects passed in
 * are copied, so callers may keep using theirs.
 */
export function createInProcessClient(registry: Registry, definitions: Definitions): ApiClient {
  const storeFor = (ref: ResourceRef): ResourceStore => {
    const store = registry.lookup(ref.group, ref.version, ref.resource);
    if (store === undefined) throw notFoundPath();
    return store;
  };
  const scoped = (store: ResourceStore, namespace: string | undefined): string | undefined => (store.info.namespaced ? namespace : undefined);
  return {
    async discover() {
      return registry.resources();
    },
    onDiscoveryChange(listener) {
      return registry.onChange(listener);
    },
    async get(ref, namespace, name) {
      const store = storeFor(ref);
      return store.get(scoped(store, namespace), name);
    },
    async list(ref, namespace, opts = {}) {
      const store = storeFor(ref);
      return store.list(scoped(store, namespace), { ...opts });
    },
    async watch(ref, namespace, opts = {}) {
      const store = storeFor(ref);
      return watchCollection(store, scoped(store, namespace), { ...opts });
    },
    async create(ref, namespace, obj) {
      const store = storeFor(ref);
      return store.create(scoped(store, namespace), structuredClone(obj));
    },
    async update(ref, namespace, obj, subresource) {
      const store = storeFor(ref);
      return store.update(scoped(store, namespace), obj.metadata.name ?? '', structuredClone(obj), { subresource });
    },
    async patch(ref, namespace, name, type, patch) {
      const store = storeFor(ref);
      return store.guaranteedUpdate(scoped(store, namespace), name, {}, (current) => {
        const patched = applyPatch(type, current, patch, store.info, definitions) as KubeObject;
        const rv = patched.metadata?.resourceVersion;
        if (rv !== undefined && rv !== current.metadata.resourceVersion) throw store.conflictError(name);
        return patched;
      });
    },
    async delete(ref, namespace, name, opts = {}) {
      const store = storeFor(ref);
      const result = await store.delete(scoped(store, namespace), name, copyDeleteOptions(opts));
      return { code: result.code, body: result.body };
    },
    async deleteCollection(ref, namespace, listOpts = {}, opts = {}) {
      const store = storeFor(ref);
      if (!store.info.verbs.includes('deletecollection')) throw methodNotAllowedRoute();
      return store.deleteCollection(scoped(store, namespace), { ...listOpts }, copyDeleteOptions(opts));
    },
  };
}
