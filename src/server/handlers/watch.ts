import type { ServerResponse } from 'node:http';
import type { KubeObject } from '../../api/types.js';
import { bookmarkEvent, watchCollection } from '../../registry/watch.js';
import type { ObjectEvent } from '../../api/types.js';
import type { ResourceRequest } from '../api-context.js';
import { goJson } from '../respond.js';
import { badRequest } from '../../api/errors.js';
import { parseFieldSelector } from '../../selectors/field-selector.js';
import { decodeListOptions, type ListQuery } from './list-options.js';
import { renderObject } from './transform.js';

const PRE_DEADLINE_BOOKMARK_MS = 2000;

/** One event per line, as Go's encoder writes each (the object inside compacted, so the only newline ends it). */
function writeEvent(res: ServerResponse, event: unknown): boolean {
  return res.write(goJson(event));
}

/**
 * A watch as kube-apiserver streams it: chunked JSON lines of {type, object}, BOOKMARKs when allowed, and an end
 * after timeoutSeconds (or a randomised server bound) so clients re-watch from their last resourceVersion.
 */
export function handleWatch(r: ResourceRequest): Promise<void> {
  return serveWatch(r, decodeListOptions(r.query, true));
}

/**
 * A watch through the deprecated /watch/ paths (still routed in 1.32): a watch whatever ?watch says, although the
 * options are validated as ?watch makes them (a list's rules without it, as kube-apiserver does); a name in the
 * path selects that object, and a field selector may only repeat it.
 */
export function handleLegacyWatch(r: ResourceRequest, name: string | undefined): Promise<void> {
  const opts = decodeListOptions(r.query, r.query.bool('watch'));
  if (name === undefined) return serveWatch(r, opts);
  return serveWatch(r, { ...opts, fieldSelector: namedFieldSelector(opts.fieldSelector ?? '', name) });
}

/** Field selector values escape backslashes, commas and equal signs (fields.EscapeValue). */
function escapeFieldValue(value: string): string {
  return value.replace(/[\\,=]/g, (ch) => `\\${ch}`);
}

function namedFieldSelector(requested: string, name: string): string {
  let selector: ReturnType<typeof parseFieldSelector>;
  try {
    selector = parseFieldSelector(requested);
  } catch (err) {
    throw badRequest(err instanceof Error ? err.message : String(err));
  }
  if (selector.empty) return `metadata.name=${escapeFieldValue(name)}`;
  if (selector.requiresExactMatch('metadata.name') !== name) throw badRequest("fieldSelector metadata.name doesn't match requested name");
  return requested;
}

async function serveWatch(r: ResourceRequest, opts: ListQuery): Promise<void> {
  const watch = await watchCollection(r.store, r.namespace, opts);
  const allowBookmarks = opts.allowWatchBookmarks;
  const timeoutMs = watchTimeoutMs(opts.timeoutSeconds, r.ctx.minRequestTimeoutSeconds * (1 + Math.random()));

  const res = r.res;
  res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked', 'Cache-Control': 'no-cache, private' });
  res.flushHeaders();
  const finish = (): void => watch.stop();
  const timer = setTimeout(finish, timeoutMs);
  const sendBookmark = (): void => {
    writeEvent(res, format(r, bookmarkEvent(r.store, watch.progressRevision), false));
  };
  const bookmarks = allowBookmarks ? setInterval(sendBookmark, r.ctx.bookmarkIntervalMs) : undefined;
  // kube-apiserver also bookmarks 2 s before the watch's deadline, so the client's next watch resumes from a recent
  // revision even when the periodic bookmark (every minute) never came within a short timeoutSeconds.
  const lastBookmarkMs = timeoutMs - PRE_DEADLINE_BOOKMARK_MS;
  const lastBookmark = allowBookmarks && lastBookmarkMs > 0 ? setTimeout(sendBookmark, lastBookmarkMs) : undefined;
  r.req.on('close', finish);
  r.ctx.shutdown.addEventListener('abort', finish, { once: true });
  let first = true;
  const check = r.ctx.objectReadCheck?.(r.store.info, r.user);
  try {
    for await (const event of watch) {
      if (event.type === 'BOOKMARK' && !allowBookmarks) continue;
      if (check !== undefined && event.type !== 'BOOKMARK' && event.type !== 'ERROR' && check(event.object as KubeObject) !== undefined)
        continue;
      writeEvent(res, format(r, event, !first));
      first = false;
      if (event.type === 'ERROR') break;
    }
  } finally {
    clearTimeout(timer);
    if (bookmarks !== undefined) clearInterval(bookmarks);
    if (lastBookmark !== undefined) clearTimeout(lastBookmark);
    r.ctx.shutdown.removeEventListener('abort', finish);
    watch.stop();
    res.end();
  }
}

/**
 * How long a watch runs: timeoutSeconds when positive (within the server's bound), the randomised bound when
 * absent or 0; a negative one ends it at once, as kube-apiserver's already-expired timer does.
 */
export function watchTimeoutMs(timeoutSeconds: number | undefined, boundSeconds: number): number {
  if (timeoutSeconds === undefined || timeoutSeconds === 0) return boundSeconds * 1000;
  return Math.max(0, Math.min(timeoutSeconds, boundSeconds)) * 1000;
}

/** Watch events carry objects in the negotiated form; Tables after the first omit their column headers. */
function format(r: ResourceRequest, event: ObjectEvent, noHeaders: boolean): ObjectEvent {
  if (event.type === 'ERROR' || event.type === 'BOOKMARK' || r.format.as === 'object') return event;
  return { type: event.type, object: renderObject(r, event.object as KubeObject, noHeaders) as KubeObject };
}
