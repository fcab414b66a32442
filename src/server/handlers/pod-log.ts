import { setTimeout as delay } from 'node:timers/promises';
import { fieldError, type FieldError, invalid, StatusError } from '../../api/errors.js';
import { isObject, type KubeObject } from '../../api/types.js';
import { type ContainerRun, containerRun, type LogOptions, logContainer, renderLog } from '../../controllers/nodes/container-log.js';
import type { ResourceRequest } from '../api-context.js';
import { sendText } from '../respond.js';

/** How often a followed log looks for new lines (the simulated kubelet writes status at most this often anyway). */
const FOLLOW_POLL_MS = 200;
const CONTENT_TYPE = 'text/plain';

/** ValidatePodLogOptions, then the options the log is cut by. */
function logOptions(r: ResourceRequest, name: string, nowMs: number): LogOptions & { follow: boolean; previous: boolean } {
  const tailLines = r.query.int('tailLines');
  const limitBytes = r.query.int('limitBytes');
  const sinceSeconds = r.query.int('sinceSeconds');
  const sinceTime = r.query.string('sinceTime');
  const errs: FieldError[] = [];
  if (tailLines !== undefined && tailLines < 0) errs.push(fieldError.invalid('tailLines', tailLines, 'must be greater than or equal to 0'));
  if (limitBytes !== undefined && limitBytes < 1) errs.push(fieldError.invalid('limitBytes', limitBytes, 'must be greater than 0'));
  if (sinceSeconds !== undefined && sinceTime !== undefined) {
    errs.push(fieldError.forbidden('', 'at most one of `sinceTime` or `sinceSeconds` may be specified'));
  } else if (sinceSeconds !== undefined && sinceSeconds < 1) {
    errs.push(fieldError.invalid('sinceSeconds', sinceSeconds, 'must be greater than 0'));
  }
  if (errs.length > 0) throw invalid('PodLogOptions', '', 'PodLogOptions', name, errs);
  const sinceTimeMs = sinceTime === undefined ? undefined : Date.parse(sinceTime);
  const sinceMs = sinceSeconds !== undefined ? nowMs - sinceSeconds * 1000 : Number.isNaN(sinceTimeMs) ? undefined : sinceTimeMs;
  return {
    timestamps: r.query.bool('timestamps'),
    follow: r.query.bool('follow'),
    previous: r.query.bool('previous'),
    ...(tailLines === undefined ? {} : { tailLines }),
    ...(limitBytes === undefined ? {} : { limitBytes }),
    ...(sinceMs === undefined ? {} : { sinceMs }),
  };
}

const nodeNameOf = (pod: KubeObject): string => (isObject(pod.spec) && typeof pod.spec.nodeName === 'string' ? pod.spec.nodeName : '');

/**
 * GET .../pods/{name}/log (LogREST): the container is resolved as LogLocation does; a pod on no node has no log
 * location and answers an empty stream; otherwise the simulated kubelet's lines for the container's run
 * (controllers/nodes/container-log.ts). With follow the stream stays open until that run ends, the pod goes away,
 * the client leaves, the server stops, or the minimum request timeout passes.
 */
export async function handlePodLog(r: ResourceRequest, name: string): Promise<void> {
  const nowMs = r.ctx.clock().getTime();
  const opts = logOptions(r, name, nowMs);
  const pod = await r.store.get(r.namespace, name);
  const container = logContainer(pod, r.query.string('container') ?? '');
  if (nodeNameOf(pod) === '') {
    sendText(r.res, 200, '', CONTENT_TYPE);
    return;
  }
  const run = containerRun(pod, container, opts.previous, nowMs);
  if (!opts.follow || run.finished) {
    sendText(r.res, 200, renderLog(run.lines, opts), CONTENT_TYPE);
    return;
  }
  await follow(r, name, container, opts, run.containerID, run.lines.length, renderLog(run.lines, opts));
}

/**
 * The run being followed, in the pod as it is now: still the current one, or (restarted since) the last terminated
 * one, whose exit is the end of the stream; undefined once it can no longer be found.
 */
function followedRun(pod: KubeObject, container: string, containerID: string, nowMs: number): ContainerRun | undefined {
  for (const previous of [false, true]) {
    try {
      const run = containerRun(pod, container, previous, nowMs);
      if (run.containerID === containerID) return run;
    } catch (err) {
      if (!(err instanceof StatusError)) throw err;
    }
  }
  return undefined;
}

async function follow(
  r: ResourceRequest,
  name: string,
  container: string,
  opts: LogOptions,
  containerID: string,
  seen: number,
  first: string,
): Promise<void> {
  const res = r.res;
  res.writeHead(200, { 'Content-Type': CONTENT_TYPE, 'Transfer-Encoding': 'chunked' });
  let budget = opts.limitBytes ?? Number.POSITIVE_INFINITY;
  const write = (chunk: string): boolean => {
    const bytes = Buffer.from(chunk).subarray(0, budget);
    budget -= bytes.length;
    if (bytes.length > 0) res.write(bytes);
    return budget > 0;
  };
  const closed = new AbortController();
  res.on('close', () => closed.abort());
  const signal = AbortSignal.any([closed.signal, r.ctx.shutdown, AbortSignal.timeout(r.ctx.minRequestTimeoutSeconds * 1000)]);
  let more = write(first);
  while (more && !signal.aborted) {
    try {
      await delay(FOLLOW_POLL_MS, undefined, { signal });
    } catch {
      break;
    }
    let pod: KubeObject;
    try {
      pod = await r.store.get(r.namespace, name);
    } catch {
      // The pod is gone (or unreadable): its containers' streams have ended, and the headers are long sent.
      break;
    }
    const run = followedRun(pod, container, containerID, r.ctx.clock().getTime());
    if (run === undefined) break;
    const fresh = run.lines.slice(seen);
    seen = run.lines.length;
    more = write(renderLog(fresh, { timestamps: opts.timestamps }));
    if (run.finished) break;
  }
  res.end();
}
