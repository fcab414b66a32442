import { StatusError } from '../api/errors.js';
import type { ResourceInfo } from '../api/resource-info.js';
import type { KubeObject } from '../api/types.js';
import { createSharedInformer, type SharedInformer } from '../cache/shared-informer.js';
import type { ApiClient, ResourceRef } from '../client/interface.js';
import type { Registry } from '../registry/registry.js';
import { createQueue, type Queue } from '../workqueue/queue.js';
import { type CrdCondition, type CrdNames, CUSTOM_RESOURCE_CLEANUP_FINALIZER, type CustomResourceDefinition } from '../api/crd-types.js';
import { customResourceInfos } from './custom-resource-info.js';
import { customResourceStrategy } from './custom-resource-strategy.js';
import { customResourceDefinitions } from './openapi.js';
import { acceptNames, type NameHolder } from './naming.js';
import type { ObjectConverter } from '../registry/object-converter.js';

/** Builds the converter of a CRD whose `spec.conversion.strategy` is Webhook. */
export type ConverterFactory = (crd: CustomResourceDefinition) => ObjectConverter;

const CRDS: ResourceRef = { group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions' };
const RECHECK_MS = 250;

function now(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Sets one condition, keeping lastTransitionTime when the status does not flip. */
function withCondition(conditions: readonly CrdCondition[], next: Omit<CrdCondition, 'lastTransitionTime'>): CrdCondition[] {
  const previous = conditions.find((c) => c.type === next.type);
  const lastTransitionTime = previous !== undefined && previous.status === next.status ? previous.lastTransitionTime : now();
  return [...conditions.filter((c) => c.type !== next.type), { ...next, lastTransitionTime }];
}

/**
 * The apiextensions server's controllers in one loop (naming, establishing, finalizing): accepts a CRD's names
 * unless another CRD of the group holds them, marks it Established and serves its versions at once, and when it
 * is deleted removes every instance before dropping the cleanup finalizer and the served resources.
 */
export class CrdController {
  private readonly client: ApiClient;
  private readonly registry: Registry;
  private readonly informer: SharedInformer;
  private readonly queue: Queue<string> = createQueue<string>();
  /** CRD name → the resources it currently serves, and the spec they were built from. */
  private readonly served = new Map<string, ResourceInfo[]>();
  private readonly specs = new Map<string, string>();
  private readonly terminating = new Set<string>();
  /** Names accepted per CRD, kept here so two CRDs created together cannot both win a name. */
  private readonly acceptedNames = new Map<string, NameHolder>();
  private readonly log: (message: string) => void;
  private worker: Promise<void> | undefined;
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();

  private readonly converterFor: ConverterFactory;

  constructor(client: ApiClient, registry: Registry, converterFor: ConverterFactory, log: (message: string) => void = () => {}) {
    this.client = client;
    this.registry = registry;
    this.log = log;
    this.converterFor = converterFor;
    this.informer = createSharedInformer(client, CRDS, undefined);
    const enqueue = (crd: KubeObject): void => this.queue.add(crd.metadata.name ?? '');
    this.informer.addEventHandler({
      onAdd: enqueue,
      onUpdate: (_old, crd) => enqueue(crd),
      onDelete: (crd) => {
        this.stopServing(crd.metadata.name ?? '');
        // Another CRD may have been waiting for the names this one held.
        for (const other of this.informer.store.list()) enqueue(other);
      },
    });
  }

  async start(): Promise<void> {
    this.informer.start();
    await this.informer.whenSynced();
    this.worker = this.run();
  }

  private async run(): Promise<void> {
    for (;;) {
      const name = await this.queue.get();
      if (name === undefined) return;
      try {
        await this.sync(name);
      } catch (err) {
        this.log(`crd controller: ${name}: ${err instanceof Error ? err.message : String(err)}`);
        this.later(name);
      } finally {
        this.queue.done(name);
      }
    }
  }

  private later(name: string): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.queue.add(name);
    }, RECHECK_MS);
    timer.unref();
    this.timers.add(timer);
  }

  private async sync(name: string): Promise<void> {
    let crd: CustomResourceDefinition;
    try {
      crd = (await this.client.get(CRDS, undefined, name)) as CustomResourceDefinition;
    } catch (err) {
      if (err instanceof StatusError && err.code === 404) {
        this.stopServing(name);
        return;
      }
      throw err;
    }
    if (crd.metadata.deletionTimestamp !== undefined) {
      await this.finalize(crd);
      return;
    }
    const holders = [...this.acceptedNames].filter(([holder]) => holder !== name).map(([, held]) => held);
    const naming = acceptNames(crd, holders);
    if (naming.accepted !== undefined) this.acceptedNames.set(name, { group: crd.spec.group, names: naming.accepted });
    const status = crd.status ?? {};
    let conditions = status.conditions ?? [];
    conditions = withCondition(conditions, naming.condition);
    const established = naming.accepted !== undefined;
    conditions = withCondition(
      conditions,
      established
        ? { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' }
        : { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' },
    );
    const acceptedNames: CrdNames = naming.accepted ?? status.acceptedNames ?? { plural: '', kind: '' };
    const storage = crd.spec.versions.find((v) => v.storage)?.name;
    const storedVersions = [...new Set([...(status.storedVersions ?? []), ...(storage === undefined ? [] : [storage])])];
    if (naming.accepted !== undefined) this.serve(crd, naming.accepted);
    const next = { ...crd, status: { ...status, conditions, acceptedNames, storedVersions } };
    if (JSON.stringify(next.status) !== JSON.stringify(crd.status)) {
      try {
        await this.client.update(CRDS, undefined, next, 'status');
      } catch (err) {
        if (!(err instanceof StatusError && err.code === 409)) throw err;
        this.queue.add(name);
      }
    }
  }

  /** Registers one store per served version, replacing those of an earlier spec. */
  private serve(crd: CustomResourceDefinition, names: CrdNames): void {
    const name = crd.metadata.name ?? '';
    const wanted = customResourceInfos(crd, names);
    const key = (info: ResourceInfo): string => JSON.stringify(info);
    const current = this.served.get(name) ?? [];
    const unchanged =
      current.length === wanted.length &&
      wanted.every((w, i) => current[i] !== undefined && key(current[i] as ResourceInfo) === key(w.info)) &&
      !this.specChanged(name, crd);
    if (unchanged) return;
    for (const info of current) this.registry.remove(info);
    // One converter (and its HTTPS client settings) for all the CRD's versions.
    const converter = crd.spec.conversion?.strategy === 'Webhook' ? this.converterFor(crd) : undefined;
    for (const { info, custom } of wanted) {
      const definitions = customResourceDefinitions(info.group, info.version, names, custom.version.schema?.openAPIV3Schema);
      this.registry.add(
        info,
        customResourceStrategy(info, custom, () => this.terminating.has(name)),
        definitions,
        converter,
      );
    }
    this.served.set(
      name,
      wanted.map((w) => w.info),
    );
    this.specs.set(name, JSON.stringify(crd.spec));
  }

  private specChanged(name: string, crd: CustomResourceDefinition): boolean {
    return this.specs.get(name) !== JSON.stringify(crd.spec);
  }

  private stopServing(name: string): void {
    for (const info of this.served.get(name) ?? []) this.registry.remove(info);
    this.served.delete(name);
    this.specs.delete(name);
    this.acceptedNames.delete(name);
    this.terminating.delete(name);
  }

  /** The finalizing controller: delete every instance (their own finalizers honoured), then release the CRD. */
  private async finalize(crd: CustomResourceDefinition): Promise<void> {
    const name = crd.metadata.name ?? '';
    if (!(crd.metadata.finalizers ?? []).includes(CUSTOM_RESOURCE_CLEANUP_FINALIZER)) return;
    this.terminating.add(name);
    const info = this.served.get(name)?.[0];
    if (info !== undefined) {
      const ref: ResourceRef = { group: info.group, version: info.version, resource: info.plural };
      const list = await this.client.list(ref, undefined);
      for (const item of list.items) {
        if (item.metadata.deletionTimestamp !== undefined) continue;
        try {
          await this.client.delete(
            ref,
            item.metadata.namespace,
            item.metadata.name ?? '',
            { propagationPolicy: 'Background' },
            { reason: 'CRDRemoval', crd: name },
          );
        } catch (err) {
          if (!(err instanceof StatusError && err.code === 404)) throw err;
        }
      }
      const left = await this.client.list(ref, undefined, { limit: 1 });
      if (left.items.length > 0) {
        this.later(name);
        return;
      }
    }
    const finalizers = (crd.metadata.finalizers ?? []).filter((f) => f !== CUSTOM_RESOURCE_CLEANUP_FINALIZER);
    await this.client.patch(CRDS, undefined, name, 'merge', { metadata: { resourceVersion: crd.metadata.resourceVersion, finalizers } });
  }

  async stop(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await this.informer.stop();
    this.queue.shutDown();
    await this.worker;
  }
}
