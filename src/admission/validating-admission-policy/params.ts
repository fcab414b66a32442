import type { ResourceInfo } from '../../api/resource-info.js';
import { isObject, type KubeObject } from '../../api/types.js';
import { createSharedInformer, type SharedInformer } from '../../cache/shared-informer.js';
import type { ApiClient } from '../../client/interface.js';
import { asLabelSelectorObject, labelSelectorAsSelector } from '../../selectors/label-selector-object.js';
import type { ParamKind } from './compiled-policy.js';

/**
 * Where policy parameters come from (R11.157–R11.160): any served kind, read through an informer started the first
 * time a binding needs that kind, so params cost no storage read per request.
 */

/** A binding or policy that cannot be evaluated as configured; under failurePolicy Fail it denies (R11.161). */
export class ConfigurationError extends Error {
  readonly policyLevel: boolean;
  constructor(message: string, policyLevel = false) {
    super(message);
    this.policyLevel = policyLevel;
  }
}

const SYNC_TIMEOUT_MS = 10_000;

export interface ParamSourceOptions {
  readonly client: ApiClient;
  /** The resources served now (built-ins and established custom resources). */
  readonly resources: () => readonly ResourceInfo[];
  readonly onError: (err: unknown) => void;
}

/** Go's rendering of a GroupVersionKind: `group/version, Kind=Kind` (`/v1, Kind=ConfigMap` for the core group). */
function gvkText(pk: ParamKind): string {
  const slash = pk.apiVersion.indexOf('/');
  const group = slash < 0 ? '' : pk.apiVersion.slice(0, slash);
  const version = slash < 0 ? pk.apiVersion : pk.apiVersion.slice(slash + 1);
  return `${group}/${version}, Kind=${pk.kind}`;
}

export class ParamSource {
  private readonly informers = new Map<string, SharedInformer>();
  private readonly options: ParamSourceOptions;

  constructor(options: ParamSourceOptions) {
    this.options = options;
  }

  private resourceOf(pk: ParamKind): ResourceInfo {
    const slash = pk.apiVersion.indexOf('/');
    const group = slash < 0 ? '' : pk.apiVersion.slice(0, slash);
    const version = slash < 0 ? pk.apiVersion : pk.apiVersion.slice(slash + 1);
    const info = this.options.resources().find((r) => r.group === group && r.version === version && r.kind === pk.kind);
    if (info === undefined) throw new ConfigurationError(`failed to find resource referenced by paramKind: '${gvkText(pk)}'`, true);
    return info;
  }

  private async informerFor(info: ResourceInfo): Promise<SharedInformer> {
    const key = `${info.group}/${info.version}/${info.plural}`;
    let informer = this.informers.get(key);
    if (informer === undefined) {
      informer = createSharedInformer(this.options.client, { group: info.group, version: info.version, resource: info.plural }, undefined, {
        onError: this.options.onError,
      });
      this.informers.set(key, informer);
      informer.start();
    }
    if (!informer.hasSynced()) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), SYNC_TIMEOUT_MS);
      });
      const synced = await Promise.race([informer.whenSynced(), timeout]);
      clearTimeout(timer);
      if (!synced) throw new ConfigurationError(`paramKind kind '${info.kind}' not yet synced to use for admission`);
    }
    return informer;
  }

  /**
   * The params one binding selects for a request in `requestNamespace` ("" when cluster-scoped): empty when none
   * is found and the binding allows that, a ConfigurationError when it does not or the binding cannot work.
   */
  async paramsFor(pk: ParamKind, paramRef: Record<string, unknown>, requestNamespace: string): Promise<KubeObject[]> {
    const info = this.resourceOf(pk);
    const refNamespace = typeof paramRef.namespace === 'string' ? paramRef.namespace : '';
    let namespace: string | undefined;
    if (info.namespaced) {
      namespace = refNamespace !== '' ? refNamespace : requestNamespace;
      if (namespace === '')
        throw new ConfigurationError('cannot use namespaced paramRef in policy binding that matches cluster-scoped resources');
    } else if (refNamespace !== '') {
      throw new ConfigurationError('paramRef.namespace must not be provided for a cluster-scoped `paramKind`');
    }
    const store = (await this.informerFor(info)).store;
    let found: KubeObject[];
    if (typeof paramRef.name === 'string' && paramRef.name !== '') {
      const one = store.get(namespace, paramRef.name);
      found = one === undefined ? [] : [one];
    } else {
      const selector = labelSelectorAsSelector(asLabelSelectorObject(isObject(paramRef.selector) ? paramRef.selector : {}));
      found = store
        .list()
        .filter((o) => namespace === undefined || o.metadata.namespace === namespace)
        .filter((o) => selector.matches((o.metadata.labels ?? {}) as Record<string, string>))
        .sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
    }
    if (found.length === 0 && paramRef.parameterNotFoundAction !== 'Allow') {
      throw new ConfigurationError('no params found for policy binding with `Deny` parameterNotFoundAction');
    }
    return found;
  }

  async stop(): Promise<void> {
    await Promise.all([...this.informers.values()].map((i) => i.stop()));
    this.informers.clear();
  }
}
