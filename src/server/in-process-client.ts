import { methodNotAllowedRoute, notFoundPath } from '../api/errors.js';
import type { KubeObject } from '../api/types.js';
import { type Aggregator, createAggregatedApiClient } from '../aggregator/index.js';
import type { Authorizer, ResourceAttributes } from '../auth/authorizer.js';
import { forbidden } from '../auth/authn/forbidden.js';
import { SYSTEM_MASTERS, type UserInfo } from '../api/user.js';
import type { Definitions } from '../openapi/schema.js';
import { applyPatch } from '../patch/apply.js';
import type { DeleteOptions } from '../api/delete-options.js';
import type { Registry } from '../registry/registry.js';
import { scaleOf, scalePathsOf, writeScale } from '../registry/scale.js';
import { bindPod } from '../registry/pod-binding.js';
import { ResourceStore } from '../registry/store.js';
import { watchCollection } from '../registry/watch.js';
import type { DiscoveryFailure } from '../client/http-discovery.js';
import type { ApiClient, ResourceRef } from '../client/interface.js';
import { applyObject } from './handlers/apply-object.js';
import { checkApplyManager } from './handlers/field-manager-options.js';

export interface InProcessClientOptions {
  /**
   * Who the client acts as: every call is authorized as an HTTP request would be and writes carry the user to
   * admission. Without one it is the server's own loopback client and is never refused.
   */
  readonly identity?: { readonly user: UserInfo; readonly authorizer: Authorizer };
  /** Resources of aggregated APIs are reached through it, as the same user. */
  readonly aggregator?: Aggregator;
  /** The manager its writes are recorded under in managedFields (R10.39): its binary's name, as client-go's User-Agent gives it. */
  readonly fieldManager?: string;
}

/** How the server itself appears to aggregated API servers (kube-apiserver's loopback identity). */
const LOOPBACK_USER: UserInfo = { name: 'system:apiserver', groups: [SYSTEM_MASTERS] };

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
export function createInProcessClient(registry: Registry, definitions: Definitions, options: InProcessClientOptions = {}): ApiClient {
  const { identity, aggregator, fieldManager } = options;
  const user = identity?.user;
  const remote = aggregator === undefined ? undefined : createAggregatedApiClient(aggregator, user ?? LOOPBACK_USER);
  let lastDiscoveryErrors: readonly DiscoveryFailure[] = [];
  const authorize = (
    ref: ResourceRef,
    verb: string,
    namespace: string | undefined,
    name: string | undefined,
    subresource?: string,
  ): void => {
    if (identity === undefined) return;
    const attributes: ResourceAttributes = {
      user: identity.user,
      resourceRequest: true,
      verb,
      apiGroup: ref.group,
      apiVersion: ref.version,
      resource: ref.resource,
      subresource: subresource ?? '',
      namespace: namespace ?? '',
      name: name ?? '',
    };
    const decision = identity.authorizer.authorize(attributes);
    if (decision.decision !== 'allow') throw forbidden(attributes, decision.reason);
  };
  /** The registry's store for `ref`, or the aggregated API's client when another server serves it. */
  const target = (
    ref: ResourceRef,
    verb: string,
    namespace: string | undefined,
    name?: string,
    subresource?: string,
  ): ResourceStore | ApiClient => {
    const store = registry.lookup(ref.group, ref.version, ref.resource);
    authorize(ref, verb, store?.info.namespaced === false ? undefined : namespace, name, subresource);
    if (store !== undefined) return store;
    if (remote !== undefined && aggregator?.serves(ref.group, ref.version) === true) return remote;
    throw notFoundPath();
  };
  const scoped = (store: ResourceStore, namespace: string | undefined): string | undefined =>
    store.info.namespaced ? namespace : undefined;
  return {
    async discover() {
      lastDiscoveryErrors = aggregator?.discoveryFailures() ?? [];
      return aggregator === undefined ? registry.resources() : [...registry.resources(), ...aggregator.resources()];
    },
    get lastDiscoveryErrors() {
      return lastDiscoveryErrors;
    },
    onDiscoveryChange(listener) {
      const unsubscribeRegistry = registry.onChange(listener);
      const unsubscribeAggregator = aggregator?.onChange(listener);
      return () => {
        unsubscribeRegistry();
        unsubscribeAggregator?.();
      };
    },
    async get(ref, namespace, name, subresource) {
      const t = target(ref, 'get', namespace, name, subresource);
      if (!(t instanceof ResourceStore)) return t.get(ref, namespace, name, subresource);
      if (subresource === undefined) return t.get(scoped(t, namespace), name);
      if (subresource !== 'scale' || !t.info.subresources.some((s) => s.name === 'scale')) throw notFoundPath();
      return scaleOf(await t.get(scoped(t, namespace), name), scalePathsOf(t));
    },
    async list(ref, namespace, opts = {}) {
      const t = target(ref, 'list', namespace);
      if (!(t instanceof ResourceStore)) return t.list(ref, namespace, opts);
      return t.list(scoped(t, namespace), { ...opts });
    },
    async watch(ref, namespace, opts = {}) {
      const t = target(ref, 'watch', namespace);
      if (!(t instanceof ResourceStore)) return t.watch(ref, namespace, opts);
      return watchCollection(t, scoped(t, namespace), { ...opts });
    },
    async create(ref, namespace, obj, subresource) {
      if (subresource !== undefined) {
        const t = target(ref, 'create', namespace, obj.metadata.name, subresource);
        if (!(t instanceof ResourceStore)) return t.create(ref, namespace, obj, subresource);
        if (subresource !== 'binding' || t.info.group !== '' || t.info.plural !== 'pods') throw notFoundPath();
        return bindPod(t, namespace ?? '', obj.metadata.name ?? '', structuredClone(obj), user);
      }
      const t = target(ref, 'create', namespace);
      if (!(t instanceof ResourceStore)) return t.create(ref, namespace, obj);
      return t.create(scoped(t, namespace), structuredClone(obj), { user, fieldManager });
    },
    async update(ref, namespace, obj, subresource) {
      const name = obj.metadata.name ?? '';
      const t = target(ref, 'update', namespace, name, subresource);
      if (!(t instanceof ResourceStore)) return t.update(ref, namespace, obj, subresource);
      if (subresource === 'scale') {
        if (!t.info.subresources.some((s) => s.name === 'scale')) throw notFoundPath();
        return writeScale(t, scoped(t, namespace), structuredClone(obj), { user, fieldManager });
      }
      return t.update(scoped(t, namespace), name, structuredClone(obj), { subresource, user, fieldManager });
    },
    async patch(ref, namespace, name, type, patch) {
      const t = target(ref, 'patch', namespace, name);
      if (!(t instanceof ResourceStore)) return t.patch(ref, namespace, name, type, patch);
      const store = t;
      return store.guaranteedUpdate(scoped(store, namespace), name, { user, fieldManager }, (current) => {
        const patched = applyPatch(type, current, patch, store.info, definitions) as KubeObject;
        const rv = patched.metadata?.resourceVersion;
        if (rv !== undefined && rv !== current.metadata.resourceVersion) throw store.conflictError(name);
        return patched;
      });
    },
    async apply(ref, namespace, config, opts) {
      const name = config.metadata.name ?? '';
      const t = target(ref, 'patch', namespace, name);
      if (!(t instanceof ResourceStore)) return t.apply(ref, namespace, config, opts);
      const manager = checkApplyManager(opts.fieldManager);
      const ns = scoped(t, namespace);
      const applyTarget = {
        store: t,
        namespace: ns,
        subresource: undefined,
        user,
        // Objects from controllers skip the body decoding an HTTP request gets, as create and update do here.
        decode: (object: Record<string, unknown>) => {
          const obj = object as KubeObject;
          if (ns === undefined) delete obj.metadata.namespace;
          else obj.metadata.namespace = ns;
          return obj;
        },
        authorizeCreate: (objectName: string) => authorize(ref, 'create', ns, objectName),
      };
      const call = {
        manager,
        force: opts.force === true,
        dryRun: opts.dryRun === true,
        config: structuredClone(config),
        strictErrors: [],
        validation: 'Ignore' as const,
      };
      return (await applyObject(applyTarget, name, call)).object;
    },
    async delete(ref, namespace, name, opts = {}, cause = undefined) {
      const t = target(ref, 'delete', namespace, name);
      if (!(t instanceof ResourceStore)) return t.delete(ref, namespace, name, opts);
      const result = await t.delete(scoped(t, namespace), name, copyDeleteOptions(opts), { user, cause });
      return { code: result.code, body: result.body };
    },
    async deleteCollection(ref, namespace, listOpts = {}, opts = {}, cause = undefined) {
      const t = target(ref, 'deletecollection', namespace);
      if (!(t instanceof ResourceStore)) return t.deleteCollection(ref, namespace, listOpts, opts);
      if (!t.info.verbs.includes('deletecollection')) throw methodNotAllowedRoute();
      return t.deleteCollection(scoped(t, namespace), { ...listOpts }, copyDeleteOptions(opts), { user, cause });
    },
  };
}
