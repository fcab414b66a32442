import type { DiscoveryFailure } from '../../client/http-discovery.js';
import type { KubeList, KubeObject } from '../../api/types.js';
import type { ApiClient, ListOptions, ResourceRef, WatchOptions, WatchStream } from '../../client/interface.js';
import type { ObjectEvent } from '../../api/types.js';

/** A watch stream a test feeds by hand: `push` events, then `end` it (a normal server-side close). */
export class ScriptedWatch implements WatchStream {
  readonly options: WatchOptions;
  stopped = false;
  private readonly pending: ObjectEvent[] = [];
  private ended = false;
  private wake: (() => void) | undefined;

  constructor(options: WatchOptions) {
    this.options = options;
  }

  push(...events: ObjectEvent[]): void {
    this.pending.push(...events);
    this.notify();
  }

  end(): void {
    this.ended = true;
    this.notify();
  }

  stop(): void {
    this.stopped = true;
    this.notify();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<ObjectEvent> {
    for (;;) {
      const event = this.pending.shift();
      if (event !== undefined && !this.stopped) {
        yield event;
        continue;
      }
      if (this.ended || this.stopped) return;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}

/**
 * An ApiClient for reflector tests: list answers are scripted up front (a KubeList or an Error to throw), and every
 * watch call either throws the next scripted watch error or opens a ScriptedWatch the test drives. Calls are
 * recorded as strings, like client-go's fake client actions.
 */
export class ScriptedClient implements ApiClient {
  readonly actions: string[] = [];
  readonly listResults: Array<KubeList | Error> = [];
  readonly watchErrors: Error[] = [];
  readonly watches: ScriptedWatch[] = [];
  private watchWaiters: Array<() => void> = [];

  async list(ref: ResourceRef, namespace: string | undefined, opts: ListOptions = {}): Promise<KubeList> {
    this.actions.push(`list ${ref.resource} ns=${namespace ?? ''} limit=${opts.limit ?? ''} continue=${opts.continue ?? ''}`);
    const next = this.listResults.shift();
    if (next === undefined) throw new Error('unscripted list call');
    if (next instanceof Error) throw next;
    return structuredClone(next);
  }

  async watch(ref: ResourceRef, namespace: string | undefined, opts: WatchOptions = {}): Promise<WatchStream> {
    this.actions.push(
      `watch ${ref.resource} ns=${namespace ?? ''} rv=${opts.resourceVersion ?? ''} bookmarks=${opts.allowWatchBookmarks === true}`,
    );
    const error = this.watchErrors.shift();
    if (error !== undefined) throw error;
    const watch = new ScriptedWatch(opts);
    this.watches.push(watch);
    const waiters = this.watchWaiters;
    this.watchWaiters = [];
    for (const check of waiters) check();
    return watch;
  }

  /** The `count`-th watch opened (1-based), waiting for it to be opened. */
  watchNumber(count: number): Promise<ScriptedWatch> {
    return new Promise((resolve) => {
      const check = (): void => {
        const watch = this.watches[count - 1];
        if (watch !== undefined) resolve(watch);
        else this.watchWaiters.push(check);
      };
      check();
    });
  }

  readonly lastDiscoveryErrors: readonly DiscoveryFailure[] = [];

  discover(): never {
    throw new Error('not scripted');
  }
  get(): never {
    throw new Error('not scripted');
  }
  create(): never {
    throw new Error('not scripted');
  }
  update(): never {
    throw new Error('not scripted');
  }
  patch(): never {
    throw new Error('not scripted');
  }
  apply(): never {
    throw new Error('not scripted');
  }
  delete(): never {
    throw new Error('not scripted');
  }
  deleteCollection(): never {
    throw new Error('not scripted');
  }
}

export function configMap(namespace: string, name: string, resourceVersion: string, data: Record<string, string> = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace, name, resourceVersion, uid: `uid-${namespace}-${name}` }, data };
}

export function configMapList(resourceVersion: string, items: KubeObject[], cont?: string): KubeList {
  // Items of a typed list come without apiVersion/kind, as the server sends them.
  const bare = items.map(({ apiVersion: _a, kind: _k, ...rest }) => rest as KubeObject);
  const metadata = cont === undefined ? { resourceVersion } : { resourceVersion, continue: cont };
  return { apiVersion: 'v1', kind: 'ConfigMapList', metadata, items: bare };
}

export const CONFIGMAPS: ResourceRef = { group: '', version: 'v1', resource: 'configmaps' };

/** Lets pending promise callbacks and immediate callbacks run, so asynchronous loops catch up. */
export async function settle(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((resolve) => setImmediate(resolve));
}
