import { withGracePropagation } from './grace-propagation.js';
import { kindMergeType } from '../apply/object-type.js';
import type { ResourceInfo } from '../api/resource-info.js';
import type { Backend } from '../storage/backend.js';
import { conversionFor, strategyFor, writeHooksFor } from './resources/index.js';
import type { Schema } from '../openapi/schema.js';
import { ComputedFields } from './computed-fields.js';
import type { Strategy } from './strategy.js';
import { ResourceStore } from './store.js';
import { type AdmissionChain, EMPTY_ADMISSION_CHAIN } from './admission/chain.js';
import type { WriteHooks } from './write-hooks.js';
import type { Archive } from './archive/archive.js';
import type { ObjectConverter } from './object-converter.js';

export interface RegistryOptions {
  readonly backend: Backend;
  readonly resources: readonly ResourceInfo[];
  readonly clock?: () => Date;
  /** Admission for every write; a server whose plugins read through this registry installs it with `admitWith`. */
  readonly admission?: AdmissionChain;
  /** The strategy of a resource added without one; the built-in catalog unless the server brings more (CRDs'). */
  readonly strategyFor?: (info: ResourceInfo) => Strategy;
  /** Keeps what every store removes (issue 28); absent, nothing is archived. */
  readonly archive?: Archive;
  /** --propagate-grace-period (extension B, R12.173); default false. */
  readonly propagateGracePeriod?: boolean;
}

/** All served resources, addressable by group/version/plural, each with its store over the shared backend. */
export class Registry {
  readonly backend: Backend;
  readonly clock: () => Date;
  /** In the order resources were added, which discovery keeps. */
  private readonly stores = new Map<string, ResourceStore>();
  /** group → version → plural: looked up on every request, so without building a key string each time. */
  private readonly byPath = new Map<string, Map<string, Map<string, ResourceStore>>>();
  /** OpenAPI definitions of served custom resources, by definition name (the built-ins have theirs statically). */
  private readonly definitions = new Map<string, Schema>();
  private admission: AdmissionChain | undefined;
  private readonly strategyFor: (info: ResourceInfo) => Strategy;
  private readonly archive: Archive | undefined;
  /** --propagate-grace-period: DELETEs of non-pod owners carrying a grace period keep them until dependents terminate. */
  private readonly propagateGracePeriod: boolean;
  /** Field-selector labels computed per resource (in-use protection rules define them for their dependents). */
  readonly computedFields = new ComputedFields();
  private changes = 0;
  private readonly changeListeners = new Set<() => void>();

  constructor(options: RegistryOptions) {
    this.backend = options.backend;
    this.clock = options.clock ?? (() => new Date());
    this.admission = options.admission;
    this.strategyFor = options.strategyFor ?? strategyFor;
    this.archive = options.archive;
    this.propagateGracePeriod = options.propagateGracePeriod === true;
    for (const info of options.resources) this.add(info);
  }

  /**
   * Installs the admission chain, once, before the registry serves writes. Admission plugins read through the registry
   * and its clients, so they are built after it, with it, instead of reaching it through late-bound references.
   */
  admitWith(admission: AdmissionChain): void {
    if (this.admission !== undefined) throw new Error('registry admission is already installed');
    this.admission = admission;
  }

  /**
   * Serves a resource; custom resources bring their own strategy, OpenAPI definitions and, with a conversion
   * webhook, their converter; built-ins get theirs from the catalog.
   */
  add(
    info: ResourceInfo,
    given: Strategy = this.strategyFor(info),
    definitions: Readonly<Record<string, Schema>> = {},
    converter?: ObjectConverter,
  ): ResourceStore {
    const pods = info.group === '' && info.plural === 'pods';
    const strategy = this.propagateGracePeriod && !pods ? withGracePropagation(given) : given;
    for (const [name, schema] of Object.entries(definitions)) this.definitions.set(name, schema);
    const mergeType = kindMergeType(info.definition, definitions);
    const hooks: WriteHooks = writeHooksFor(info, this.backend);
    const admission = (): AdmissionChain => this.admission ?? EMPTY_ADMISSION_CHAIN;
    const store = new ResourceStore(
      info,
      strategy,
      this.backend,
      this.clock,
      admission,
      hooks,
      this.computedFields,
      mergeType,
      conversionFor(info),
      this.archive,
      converter,
    );
    this.stores.set(storeKey(info.group, info.version, info.plural), store);
    let versions = this.byPath.get(info.group);
    if (versions === undefined) {
      versions = new Map();
      this.byPath.set(info.group, versions);
    }
    let plurals = versions.get(info.version);
    if (plurals === undefined) {
      plurals = new Map();
      versions.set(info.version, plurals);
    }
    plurals.set(info.plural, store);
    this.changed();
    return store;
  }

  remove(info: ResourceInfo): void {
    this.stores.delete(storeKey(info.group, info.version, info.plural));
    const versions = this.byPath.get(info.group);
    const plurals = versions?.get(info.version);
    plurals?.delete(info.plural);
    if (plurals?.size === 0) versions?.delete(info.version);
    if (versions?.size === 0) this.byPath.delete(info.group);
    for (const name of [...this.definitions.keys()])
      if (name === info.definition || name === `${info.definition}List`) this.definitions.delete(name);
    this.changed();
  }

  private changed(): void {
    this.changes++;
    for (const listener of this.changeListeners) listener();
  }

  /** Subscribes to changes of the served resources; returns the unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /** Grows whenever the set of served resources changes, so derived documents know when to rebuild. */
  get generation(): number {
    return this.changes;
  }

  /** The OpenAPI definitions served resources add beyond the built-in ones. */
  extraDefinitions(): Record<string, Schema> {
    return Object.fromEntries(this.definitions);
  }

  lookup(group: string, version: string, plural: string): ResourceStore | undefined {
    return this.byPath.get(group)?.get(version)?.get(plural);
  }

  resources(): ResourceInfo[] {
    return [...this.stores.values()].map((s) => s.info);
  }
}

function storeKey(group: string, version: string, plural: string): string {
  return `${group}/${version}/${plural}`;
}
