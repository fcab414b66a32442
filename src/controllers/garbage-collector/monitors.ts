import type { ResourceInfo } from '../../api/resource-info.js';
import { apiVersionOf } from '../../api/types.js';
import { metadataOnly } from '../../cache/metadata-only.js';
import { createSharedInformer, type SharedInformer } from '../../cache/shared-informer.js';
import type { ApiClient } from '../../client/interface.js';
import type { Coordinates, GraphChange } from './graph-builder.js';

/** Resources the collector never watches (R4.5): events would only churn the graph. */
const IGNORED = new Set(['events', 'events.events.k8s.io']);

function resourceKey(info: ResourceInfo): string {
  return info.group === '' ? info.plural : `${info.plural}.${info.group}`;
}

/** R4.5: every resource that supports delete, list and watch, in its group's preferred (first served) version. */
export function deletableResources(resources: readonly ResourceInfo[]): ResourceInfo[] {
  const chosen = new Map<string, ResourceInfo>();
  for (const info of resources) {
    const key = resourceKey(info);
    if (IGNORED.has(key) || chosen.has(key)) continue;
    if (['delete', 'list', 'watch'].every((verb) => info.verbs.includes(verb as never))) chosen.set(key, info);
  }
  return [...chosen.values()];
}

/**
 * One informer per deletable resource, feeding the graph builder. Changes carry the resource's apiVersion/kind
 * (typed lists omit them per item), so the graph knows every node's coordinates.
 */
export class Monitors {
  private readonly client: ApiClient;
  private readonly onChange: (change: GraphChange) => void;
  private readonly monitors = new Map<string, { info: ResourceInfo; informer: SharedInformer }>();

  constructor(client: ApiClient, onChange: (change: GraphChange) => void) {
    this.client = client;
    this.onChange = onChange;
  }

  /** Starts monitors for new resources and stops those for resources no longer served. Returns whether anything changed. */
  sync(resources: readonly ResourceInfo[]): boolean {
    const wanted = new Map(deletableResources(resources).map((info) => [`${resourceKey(info)}/${info.version}`, info]));
    let changed = false;
    for (const [key, monitor] of this.monitors) {
      if (wanted.has(key)) continue;
      monitor.informer.stop();
      this.monitors.delete(key);
      changed = true;
    }
    for (const [key, info] of wanted) {
      if (this.monitors.has(key)) continue;
      this.monitors.set(key, { info, informer: this.startMonitor(info) });
      changed = true;
    }
    return changed;
  }

  private startMonitor(info: ResourceInfo): SharedInformer {
    const coordinates: Coordinates = { apiVersion: apiVersionOf(info.group, info.version), kind: info.kind };
    // Metadata alone, as Kubernetes' collector watches through metadata informers: the graph needs nothing else.
    const informer = createSharedInformer(this.client, { group: info.group, version: info.version, resource: info.plural }, undefined, {
      transform: metadataOnly,
    });
    informer.addEventHandler({
      onAdd: (obj) => this.onChange({ type: 'add', object: obj, coordinates }),
      onUpdate: (old, obj) => this.onChange({ type: 'update', object: obj, old, coordinates }),
      onDelete: (obj) => this.onChange({ type: 'delete', object: obj, coordinates }),
    });
    informer.start();
    return informer;
  }

  hasSynced(): boolean {
    for (const { informer } of this.monitors.values()) if (!informer.hasSynced()) return false;
    return true;
  }

  stop(): void {
    for (const { informer } of this.monitors.values()) informer.stop();
    this.monitors.clear();
  }

  get size(): number {
    return this.monitors.size;
  }
}
