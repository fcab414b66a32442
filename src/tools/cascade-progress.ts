import { qualifiedResource } from '../api/resource-info.js';
import type { ApiClient } from '../client/interface.js';
import type { Entry, ObjectRef } from './object-ref.js';
import { resourceRefOf } from './snapshot.js';

export interface WaitOptions {
  readonly timeoutMs: number;
  readonly intervalMs?: number;
  /** Called with what is left whenever that changes (and once at the start). */
  readonly onProgress: (remaining: readonly ObjectRef[], total: number) => void;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly now?: () => number;
}

const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Which of the objects still exist (same uid), reading each collection involved once. */
async function stillPresent(client: ApiClient, objects: readonly Entry[]): Promise<Set<string>> {
  const collections = new Map<string, { entry: Entry; uids: Set<string> }>();
  for (const entry of objects) {
    const key = `${qualifiedResource(entry.info)}\u0000${entry.ref.namespace ?? ''}`;
    const found = collections.get(key);
    if (found === undefined) collections.set(key, { entry, uids: new Set([entry.ref.uid]) });
    else found.uids.add(entry.ref.uid);
  }
  const present = new Set<string>();
  await Promise.all(
    [...collections.values()].map(async ({ entry, uids }) => {
      let token: string | undefined;
      do {
        const page = await client.list(resourceRefOf(entry.info), entry.ref.namespace, { limit: 500, ...(token === undefined ? {} : { continue: token }) });
        for (const item of page.items) if (uids.has(item.metadata.uid ?? '')) present.add(item.metadata.uid ?? '');
        token = page.metadata.continue === '' ? undefined : page.metadata.continue;
      } while (token !== undefined);
    }),
  );
  return present;
}

/** Polls until every object is gone or the time is up; returns those still there (empty when the cascade completed). */
export async function waitForObjectsGone(client: ApiClient, objects: readonly Entry[], options: WaitOptions): Promise<ObjectRef[]> {
  const sleep = options.sleep ?? defaultSleep;
  const now = options.now ?? Date.now;
  const deadline = now() + options.timeoutMs;
  let last = -1;
  for (;;) {
    const present = await stillPresent(client, objects);
    const remaining = objects.filter((e) => present.has(e.ref.uid)).map((e) => e.ref);
    if (remaining.length !== last) {
      options.onProgress(remaining, objects.length);
      last = remaining.length;
    }
    if (remaining.length === 0 || now() >= deadline) return remaining;
    await sleep(Math.min(options.intervalMs ?? 200, Math.max(0, deadline - now())));
  }
}

/** "[##########··········] 12/40 remaining" */
export function progressBar(remaining: number, total: number, width = 30): string {
  const done = total === 0 ? width : Math.round(((total - remaining) / total) * width);
  return `[${'#'.repeat(done)}${'·'.repeat(width - done)}] ${remaining}/${total} remaining`;
}
