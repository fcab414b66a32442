import type { ServerResponse } from 'node:http';
import { StatusError, toStatusError } from '../api/errors.js';
import type { ResourceInfo } from '../api/resource-info.js';
import type { KubeObject } from '../api/types.js';
import { createInformerFactory, type InformerFactory } from '../cache/index.js';
import type { ApiClient } from '../client/interface.js';
import { preferredResources, resourceKey } from '../tools/preferred-resources.js';
import { resourceRefOf } from '../tools/snapshot.js';
import { writeStatus } from './api-proxy.js';
import type { ForbiddenResource, StreamBatch, StreamEvent, StreamResource } from './model/stream-protocol.js';

/** A browser that reads slower than the cluster changes is dropped past this much unsent data; EventSource reconnects. */
const MAX_BUFFERED_BYTES = 64 * 1024 * 1024;
const MAX_STREAMS = 16;
const FLUSH_MS = 50;
const SYNC_TIMEOUT_MS = 15_000;

/**
 * What the page needs of an object: managedFields (often half its bytes) and the content of ConfigMaps and
 * Secrets are never shown, and a Secret's values have no business in a browser.
 */
function forThePage(object: KubeObject): KubeObject {
  const { managedFields: _, ...metadata } = object.metadata;
  const { data: _data, binaryData: _binary, stringData: _string, ...rest } = object as KubeObject & Record<string, unknown>;
  return { ...(rest as KubeObject), metadata };
}

export function describeResource(info: ResourceInfo): StreamResource {
  return {
    key: resourceKey(info),
    group: info.group,
    version: info.version,
    resource: info.plural,
    kind: info.kind,
    namespaced: info.namespaced,
  };
}

/**
 * Splits the resources into those the client may list and watch cluster-wide and those it may not, with the
 * server's own 403 message: an informer on a forbidden resource would retry forever and never sync. Only the list
 * is tried (one object): the bootstrap roles grant list and watch together.
 */
async function readable(
  client: ApiClient,
  infos: readonly ResourceInfo[],
): Promise<{ allowed: ResourceInfo[]; forbidden: ForbiddenResource[] }> {
  const allowed: ResourceInfo[] = [];
  const forbidden: ForbiddenResource[] = [];
  await Promise.all(
    infos.map(async (info) => {
      try {
        await client.list(resourceRefOf(info), undefined, { limit: 1 });
      } catch (err) {
        // A bad credential fails the whole stream; any other failure is the informer's to retry, as before.
        if (err instanceof StatusError && err.code === 401) throw err;
        if (err instanceof StatusError && err.code === 403) {
          forbidden.push({ resource: describeResource(info), message: err.message });
          return;
        }
      }
      allowed.push(info);
    }),
  );
  const order = new Map(infos.map((info, i) => [info, i]));
  allowed.sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
  forbidden.sort((a, b) => a.resource.key.localeCompare(b.resource.key));
  return { allowed, forbidden };
}

/**
 * Every listable, watchable resource of the cluster in one informer cache, streamed to each open page as
 * server-sent events: a browser holds only six HTTP/1.1 connections per host, too few for one watch per resource,
 * so the watches run here and share one connection per page.
 */
export class ClusterStream {
  private readonly client: ApiClient;
  private factory: InformerFactory | undefined;
  private resources: StreamResource[] = [];
  private forbidden: ForbiddenResource[] = [];
  private starting: Promise<void> | undefined;
  private readonly open = new Set<ServerResponse>();

  constructor(client: ApiClient) {
    this.client = client;
  }

  private start(): Promise<void> {
    this.starting ??= (async () => {
      const { allowed, forbidden } = await readable(this.client, preferredResources(await this.client.discover(), ['list', 'watch']));
      const factory = createInformerFactory(this.client, { onError: () => undefined });
      for (const info of allowed) factory.informerFor(resourceRefOf(info));
      factory.start();
      await factory.waitForSync(SYNC_TIMEOUT_MS);
      this.factory = factory;
      this.resources = allowed.map(describeResource);
      this.forbidden = forbidden;
    })();
    // A failed discovery is retried by the next page's (or the reconnecting page's) request.
    this.starting.catch(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  /** Pages reading the stream now. */
  get openStreams(): number {
    return this.open.size;
  }

  /**
   * Serves one page's stream: the resources (and those it may not read), every cached object, a "synced" marker,
   * then each change. A failure to start (401 for a bad token) is answered as the API's Status, before any event.
   */
  async serve(res: ServerResponse): Promise<void> {
    if (this.open.size >= MAX_STREAMS) {
      writeStatus(res, new StatusError(429, 'TooManyRequests', 'too many open pages', { retryAfterSeconds: 5 }));
      return;
    }
    this.open.add(res);
    res.once('close', () => this.open.delete(res));
    try {
      await this.start();
    } catch (err) {
      this.open.delete(res);
      writeStatus(res, toStatusError(err));
      return;
    }
    if (res.destroyed || this.factory === undefined) return;
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
    let pending: StreamEvent[] = [];
    let timer: NodeJS.Timeout | undefined;
    const flush = (): void => {
      timer = undefined;
      if (pending.length === 0) return;
      const batch: StreamBatch = { events: pending };
      pending = [];
      if (res.writableLength > MAX_BUFFERED_BYTES) {
        res.destroy();
        return;
      }
      res.write(`data: ${JSON.stringify(batch)}\n\n`);
    };
    const push = (event: StreamEvent): void => {
      pending.push(event);
      timer ??= setTimeout(flush, FLUSH_MS);
    };
    res.write(`event: resources\ndata: ${JSON.stringify(this.resources)}\n\n`);
    res.write(`event: forbidden\ndata: ${JSON.stringify(this.forbidden)}\n\n`);
    const registrations = this.resources.map((r) => {
      const informer = this.factory?.informerFor({ group: r.group, version: r.version, resource: r.resource });
      const send = (type: StreamEvent['type'], object: KubeObject): void => push({ type, resource: r.key, object: forThePage(object) });
      return informer?.addEventHandler({
        onAdd: (o) => send('ADDED', o),
        onUpdate: (_old, o) => send('MODIFIED', o),
        onDelete: (o) => send('DELETED', o),
      });
    });
    flush();
    res.write('event: synced\ndata: {}\n\n');
    res.once('close', () => {
      if (timer !== undefined) clearTimeout(timer);
      for (const r of registrations) r?.remove();
    });
  }

  async close(): Promise<void> {
    for (const res of this.open) res.destroy();
    await this.factory?.stop();
  }
}
