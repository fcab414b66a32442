import { badRequest } from '../../api/errors.js';
import { isObject, type KubeObject } from '../../api/types.js';
import { READY_SECONDS_ANNOTATION } from './pod-lifecycle.js';

/** One line a simulated container wrote, and when (ms). */
export interface LogLine {
  readonly atMs: number;
  readonly text: string;
}

/** The run of a container whose log is read: the lines so far, and whether the container has stopped writing. */
export interface ContainerRun {
  readonly containerID: string;
  readonly lines: readonly LogLine[];
  readonly finished: boolean;
}

const objects = (value: unknown): Record<string, unknown>[] => (Array.isArray(value) ? value.filter(isObject) : []);
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** Every container of the pod, in podutil.VisitContainers' order: init containers, containers, ephemeral ones. */
function containerNames(pod: KubeObject): string[] {
  const spec = isObject(pod.spec) ? pod.spec : {};
  return ['initContainers', 'containers', 'ephemeralContainers'].flatMap((field) => objects(spec[field]).map((c) => text(c.name)));
}

/**
 * validateContainer of the pod registry's LogLocation: without a name the only container is meant, several are an
 * error listing them all; a named one must exist.
 */
export function logContainer(pod: KubeObject, requested: string): string {
  const podName = pod.metadata.name ?? '';
  if (requested !== '') {
    if (!containerNames(pod).includes(requested)) throw badRequest(`container ${requested} is not valid for pod ${podName}`);
    return requested;
  }
  const spec = isObject(pod.spec) ? pod.spec : {};
  const containers = objects(spec.containers);
  if (containers.length === 1) return text(containers[0]?.name);
  if (containers.length === 0) throw badRequest(`a container name must be specified for pod ${podName}`);
  throw badRequest(`a container name must be specified for pod ${podName}, choose one of: [${containerNames(pod).join(' ')}]`);
}

function statusOf(pod: KubeObject, container: string): Record<string, unknown> | undefined {
  const status = isObject(pod.status) ? pod.status : {};
  for (const field of ['containerStatuses', 'initContainerStatuses', 'ephemeralContainerStatuses']) {
    const found = objects(status[field]).find((s) => s.name === container);
    if (found !== undefined) return found;
  }
  return undefined;
}

const timeOf = (value: unknown): number | undefined => {
  const ms = Date.parse(text(value));
  return Number.isNaN(ms) ? undefined : ms;
};

/** The lines of one run: started, ready after the pod's readiness delay (if it got that far), exited. */
function runLines(
  pod: KubeObject,
  container: string,
  image: string,
  state: Record<string, unknown>,
  running: boolean,
  nowMs: number,
): LogLine[] {
  const started = timeOf(state.startedAt);
  if (started === undefined) return [];
  const finished = running ? undefined : timeOf(state.finishedAt);
  const lines: LogLine[] = [{ atMs: started, text: `[simulated] container ${container} started from image ${image}` }];
  const readyMs = started + Number(pod.metadata.annotations?.[READY_SECONDS_ANNOTATION] ?? '0') * 1000;
  const readyBy = running ? nowMs : finished;
  if (Number.isFinite(readyMs) && readyBy !== undefined && readyMs <= readyBy && text(state.reason) !== 'ContainerStatusUnknown') {
    lines.push({ atMs: readyMs, text: `[simulated] container ${container} is ready` });
  }
  if (!running && finished !== undefined) {
    const reason = text(state.reason);
    lines.push({
      atMs: finished,
      text: `[simulated] container ${container} exited with code ${String(state.exitCode ?? 0)}${reason === '' ? '' : ` (${reason})`}`,
    });
  }
  return lines;
}

/**
 * The kubelet's validateContainerLogStatus on what the simulated kubelet recorded: the run a log request reads
 * (the current one, or with `previous` the last terminated one), or Kubernetes' error when there is none.
 */
export function containerRun(pod: KubeObject, container: string, previous: boolean, nowMs: number): ContainerRun {
  const podName = pod.metadata.name ?? '';
  const cStatus = statusOf(pod, container);
  const where = `container "${container}" in pod "${podName}"`;
  // The kubelet reports a container it has not created yet as waiting in ContainerCreating.
  if (cStatus === undefined) throw badRequest(`${where} is waiting to start: ContainerCreating`);
  const image = text(cStatus.image);
  const state = isObject(cStatus.state) ? cStatus.state : {};
  const last = isObject(cStatus.lastState) && isObject(cStatus.lastState.terminated) ? cStatus.lastState.terminated : undefined;
  const fromLast = (): ContainerRun => {
    if (last === undefined || text(last.containerID) === '') throw badRequest(`${where} is terminated`);
    return { containerID: text(last.containerID), lines: runLines(pod, container, image, last, false, nowMs), finished: true };
  };
  if (previous) {
    if (last === undefined || text(last.containerID) === '') throw badRequest(`previous terminated ${where} not found`);
    return fromLast();
  }
  if (isObject(state.running)) {
    return { containerID: text(cStatus.containerID), lines: runLines(pod, container, image, state.running, true, nowMs), finished: false };
  }
  if (isObject(state.terminated)) {
    const id = text(state.terminated.containerID);
    if (id === '') return fromLast();
    return { containerID: id, lines: runLines(pod, container, image, state.terminated, false, nowMs), finished: true };
  }
  if (last !== undefined) return fromLast();
  if (isObject(state.waiting)) {
    const reason = text(state.waiting.reason);
    if (reason === 'ErrImagePull') throw badRequest(`${where} is waiting to start: image can't be pulled`);
    if (reason === 'ImagePullBackOff') throw badRequest(`${where} is waiting to start: trying and failing to pull image`);
    throw badRequest(`${where} is waiting to start: ${reason}`);
  }
  throw badRequest(`${where} is waiting to start - no logs yet`);
}

/** PodLogOptions as the log handler reads them from the query. */
export interface LogOptions {
  readonly timestamps: boolean;
  readonly tailLines?: number;
  readonly limitBytes?: number;
  /** Lines written before this (ms) are left out (sinceSeconds or sinceTime). */
  readonly sinceMs?: number;
}

/** The kubelet's timestamp prefix: RFC 3339 with nine fractional digits. */
function timestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000000Z');
}

/** The log text of `lines` under the options: since, then the tail, timestamps, and the byte limit last. */
export function renderLog(lines: readonly LogLine[], opts: LogOptions): string {
  let kept = opts.sinceMs === undefined ? [...lines] : lines.filter((l) => l.atMs >= (opts.sinceMs as number));
  if (opts.tailLines !== undefined) kept = opts.tailLines === 0 ? [] : kept.slice(-opts.tailLines);
  const out = kept.map((l) => `${opts.timestamps ? `${timestamp(l.atMs)} ` : ''}${l.text}\n`).join('');
  if (opts.limitBytes === undefined) return out;
  return Buffer.from(out).subarray(0, opts.limitBytes).toString();
}
