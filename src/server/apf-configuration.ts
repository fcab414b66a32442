import { StatusError } from '../api/errors.js';
import { isObject, type KubeObject, objects } from '../api/types.js';
import { createSharedInformer, type SharedInformer } from '../cache/shared-informer.js';
import type { ApiClient, ResourceRef } from '../client/interface.js';
import {
  MANDATORY_FLOW_SCHEMAS,
  MANDATORY_PRIORITY_LEVELS,
  SUGGESTED_FLOW_SCHEMAS,
  SUGGESTED_PRIORITY_LEVELS,
} from '../kinds/flowcontrol-v1/bootstrap-configuration.js';
import { AUTO_UPDATE_ANNOTATION, semanticForm } from '../kinds/flowcontrol-v1/schema-parts.js';
import { goQuote } from '../util/go-quote.js';
import { isDeepStrictEqual } from 'node:util';
import { createRateLimitedQueue, type RateLimitedQueue } from '../workqueue/rate-limited-queue.js';

const FLOW_SCHEMAS: ResourceRef = { group: 'flowcontrol.apiserver.k8s.io', version: 'v1', resource: 'flowschemas' };
const PRIORITY_LEVELS: ResourceRef = { group: 'flowcontrol.apiserver.k8s.io', version: 'v1', resource: 'prioritylevelconfigurations' };

/** A unit of work: keep one bootstrap object as configured, or refresh one FlowSchema's Dangling condition. */
type Key = `${'fs' | 'pl'}/${string}` | `dangling/${string}`;

const BOOTSTRAP = new Map<Key, { readonly desired: KubeObject; readonly mandatory: boolean }>([
  ...MANDATORY_PRIORITY_LEVELS.map((o) => [`pl/${o.metadata.name}`, { desired: o, mandatory: true }] as const),
  ...SUGGESTED_PRIORITY_LEVELS.map((o) => [`pl/${o.metadata.name}`, { desired: o, mandatory: false }] as const),
  ...MANDATORY_FLOW_SCHEMAS.map((o) => [`fs/${o.metadata.name}`, { desired: o, mandatory: true }] as const),
  ...SUGGESTED_FLOW_SCHEMAS.map((o) => [`fs/${o.metadata.name}`, { desired: o, mandatory: false }] as const),
]);

/** The exempt level's own tunables are the administrator's; the rest of a bootstrap spec is the apiserver's. */
function specDiffers(current: KubeObject, desired: KubeObject, key: Key): boolean {
  const spec = isObject(current.spec) ? current.spec : {};
  const wanted = desired.spec as Record<string, unknown>;
  const compared = key === 'pl/exempt' ? { ...spec, exempt: wanted.exempt } : spec;
  return !isDeepStrictEqual(semanticForm(compared), semanticForm(wanted));
}

/**
 * kube-apiserver's API Priority and Fairness configuration upkeep: the bootstrap FlowSchemas and
 * PriorityLevelConfigurations are created at start and put back when deleted, a bootstrap object whose
 * `apf.kubernetes.io/autoupdate-spec` annotation is "true" (always, for the mandatory ones) gets its built-in spec
 * back, and every FlowSchema carries a Dangling condition saying whether its priority level exists (the MissingPL
 * column). Kubernetes does the upkeep once a minute; here it follows the watch, so a deletion is undone at once.
 */
export class ApfConfiguration {
  private readonly client: ApiClient;
  private readonly log: (message: string) => void;
  private readonly flowSchemas: SharedInformer;
  private readonly levels: SharedInformer;
  private readonly queue: RateLimitedQueue<Key> = createRateLimitedQueue<Key>();
  private worker: Promise<void> | undefined;

  constructor(client: ApiClient, log: (message: string) => void = () => {}) {
    this.client = client;
    this.log = log;
    this.flowSchemas = createSharedInformer(client, FLOW_SCHEMAS, undefined);
    this.levels = createSharedInformer(client, PRIORITY_LEVELS, undefined);
    const onSchema = (fs: KubeObject): void => {
      this.queue.add(`dangling/${fs.metadata.name ?? ''}`);
      this.upkeep(`fs/${fs.metadata.name ?? ''}`);
    };
    this.flowSchemas.addEventHandler({ onAdd: onSchema, onUpdate: (_old, fs) => onSchema(fs), onDelete: onSchema });
    // A level appearing or vanishing changes whether the schemas naming it dangle.
    const onLevel = (pl: KubeObject): void => {
      this.upkeep(`pl/${pl.metadata.name ?? ''}`);
      for (const fs of this.flowSchemas.store.list()) {
        if (this.priorityLevelOf(fs) === pl.metadata.name) this.queue.add(`dangling/${fs.metadata.name ?? ''}`);
      }
    };
    this.levels.addEventHandler({ onAdd: onLevel, onDelete: onLevel });
  }

  async start(): Promise<void> {
    this.flowSchemas.start();
    this.levels.start();
    await Promise.all([this.flowSchemas.whenSynced(), this.levels.whenSynced()]);
    // Levels first, so the schemas created next find theirs; each kind's objects at once, to keep start-up short.
    const keys = [...BOOTSTRAP.keys()];
    await Promise.all(keys.filter((key) => key.startsWith('pl/')).map((key) => this.sync(key)));
    await Promise.all(keys.filter((key) => key.startsWith('fs/')).map((key) => this.sync(key)));
    this.worker = this.run();
  }

  async stop(): Promise<void> {
    await Promise.all([this.flowSchemas.stop(), this.levels.stop()]);
    this.queue.shutDown();
    await this.worker;
  }

  private upkeep(key: Key): void {
    if (BOOTSTRAP.has(key)) this.queue.add(key);
  }

  private priorityLevelOf(fs: KubeObject): string {
    const spec = isObject(fs.spec) ? fs.spec : {};
    const ref = isObject(spec.priorityLevelConfiguration) ? spec.priorityLevelConfiguration.name : undefined;
    return typeof ref === 'string' ? ref : '';
  }

  private async run(): Promise<void> {
    for (;;) {
      const key = await this.queue.get();
      if (key === undefined) return;
      try {
        await this.sync(key);
        this.queue.forget(key);
      } catch (err) {
        this.log(`apf-configuration: ${key}: ${err instanceof Error ? err.message : String(err)}`);
        this.queue.addRateLimited(key);
      } finally {
        this.queue.done(key);
      }
    }
  }

  private async sync(key: Key): Promise<void> {
    try {
      if (key.startsWith('dangling/')) await this.syncDangling(key.slice('dangling/'.length));
      else await this.syncBootstrap(key);
    } catch (err) {
      // Raced with another writer or a deletion: the informer's next event brings the key back.
      if (err instanceof StatusError && [409, 404].includes(err.code)) return;
      throw err;
    }
  }

  private async syncBootstrap(key: Key): Promise<void> {
    const entry = BOOTSTRAP.get(key);
    if (entry === undefined) return;
    const ref = key.startsWith('pl/') ? PRIORITY_LEVELS : FLOW_SCHEMAS;
    const informer = key.startsWith('pl/') ? this.levels : this.flowSchemas;
    const name = entry.desired.metadata.name ?? '';
    const current = informer.store.get(undefined, name);
    if (current === undefined) {
      await this.client.create(ref, undefined, structuredClone(entry.desired)).catch((err: unknown) => {
        if (!(err instanceof StatusError && err.reason === 'AlreadyExists')) throw err;
      });
      return;
    }
    const annotations = current.metadata.annotations ?? {};
    const autoUpdate = entry.mandatory || annotations[AUTO_UPDATE_ANNOTATION] === 'true';
    const annotationMissing = entry.mandatory && annotations[AUTO_UPDATE_ANNOTATION] !== 'true';
    if (!autoUpdate || (!specDiffers(current, entry.desired, key) && !annotationMissing)) return;
    const spec =
      key === 'pl/exempt'
        ? { ...(entry.desired.spec as object), exempt: (current.spec as Record<string, unknown>)?.exempt }
        : entry.desired.spec;
    await this.client.update(ref, undefined, {
      ...current,
      metadata: { ...current.metadata, annotations: { ...annotations, [AUTO_UPDATE_ANNOTATION]: 'true' } },
      spec: structuredClone(spec),
    });
  }

  private async syncDangling(name: string): Promise<void> {
    const fs = this.flowSchemas.store.get(undefined, name);
    if (fs === undefined) return;
    const level = this.priorityLevelOf(fs);
    const exists = this.levels.store.get(undefined, level) !== undefined;
    const desired = exists
      ? {
          status: 'False',
          reason: 'Found',
          message: `This FlowSchema references the PriorityLevelConfiguration object named ${goQuote(level)} and it exists`,
        }
      : {
          status: 'True',
          reason: 'NotFound',
          message: `This FlowSchema references the PriorityLevelConfiguration object named ${goQuote(level)} but there is no such object`,
        };
    const conditions = objects(isObject(fs.status) ? fs.status.conditions : undefined);
    const current = conditions.find((c) => c.type === 'Dangling');
    if (
      current !== undefined &&
      current.status === desired.status &&
      current.reason === desired.reason &&
      current.message === desired.message
    )
      return;
    const condition = { type: 'Dangling', ...desired, lastTransitionTime: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z') };
    const next = current === undefined ? [...conditions, condition] : conditions.map((c) => (c.type === 'Dangling' ? condition : c));
    await this.client.update(
      FLOW_SCHEMAS,
      undefined,
      { ...fs, status: { ...(isObject(fs.status) ? fs.status : {}), conditions: next } },
      'status',
    );
  }
}
