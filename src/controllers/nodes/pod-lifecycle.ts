import { createHash } from 'node:crypto';
import { isObject, type KubeObject } from '../../api/types.js';

/** Pod annotations that steer the simulated kubelet (documented in README). */
export const RUN_SECONDS_ANNOTATION = 'cascade.dev/simulate-run-seconds';
export const EXIT_CODE_ANNOTATION = 'cascade.dev/simulate-exit-code';
export const READY_SECONDS_ANNOTATION = 'cascade.dev/simulate-ready-seconds';
export const TERMINATION_SECONDS_ANNOTATION = 'cascade.dev/simulate-termination-seconds';
/** Without a run annotation a Job's pods finish after this long (R12.149). */
const JOB_RUN_MS = 1000;
const KUBELET_CONDITIONS = new Set(['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled']);

/** What the kubelet knows beyond the pod itself. */
export interface PodContext {
  readonly hostIP: string;
  readonly podIP: string;
  /** When this kubelet first started the pod's containers (ms), kept in memory across writes. */
  readonly startedMs: number;
  /** When it first saw the pod's deletionTimestamp (ms), if it has. */
  readonly deletionSeenMs?: number;
}

/** The status to write (undefined: nothing changed), when to look again, and whether the pod may now be removed. */
export interface PodStep {
  readonly status?: Record<string, unknown>;
  readonly wakeAtMs?: number;
  readonly remove?: boolean;
}

const rfc3339 = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const objects = (value: unknown): Record<string, unknown>[] => (Array.isArray(value) ? value.filter(isObject) : []);

function secondsAnnotation(pod: KubeObject, name: string): number | undefined {
  const raw = pod.metadata.annotations?.[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = Number(raw);
  return Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** How long each run of the containers lasts (ms), or undefined when they run until deleted. */
export function runMs(pod: KubeObject): number | undefined {
  const seconds = secondsAnnotation(pod, RUN_SECONDS_ANNOTATION);
  if (seconds !== undefined) return seconds * 1000;
  const ownedByJob = (pod.metadata.ownerReferences ?? []).some((o) => o.kind === 'Job' && o.controller === true);
  return ownedByJob ? JOB_RUN_MS : undefined;
}

function exitCode(pod: KubeObject): number {
  const code = Number(pod.metadata.annotations?.[EXIT_CODE_ANNOTATION] ?? '0');
  return Number.isInteger(code) ? code : 1;
}

function idOf(kind: string, ...parts: string[]): string {
  return `${kind}${createHash('sha256').update(parts.join('/')).digest('hex')}`;
}

interface ContainerPlan {
  readonly name: string;
  readonly image: string;
}

function containersOf(pod: KubeObject, field: 'containers' | 'initContainers'): (ContainerPlan & { sidecar: boolean })[] {
  const spec = isObject(pod.spec) ? pod.spec : {};
  return objects(spec[field]).map((c) => ({
    name: String(c.name ?? ''),
    image: String(c.image ?? ''),
    sidecar: c.restartPolicy === 'Always',
  }));
}

/**
 * Where the containers are at `nowMs` given that they started at `startedMs`: each run lasts `run` ms (if finite),
 * then the restart policy decides whether another begins at once (the simulation has no CrashLoopBackOff delay).
 */
function lifecycle(pod: KubeObject, ctx: PodContext, nowMs: number) {
  const run = runMs(pod);
  const code = exitCode(pod);
  const policy = isObject(pod.spec) && typeof pod.spec.restartPolicy === 'string' ? pod.spec.restartPolicy : 'Always';
  const restarts = run === undefined ? false : policy === 'Always' || (policy === 'OnFailure' && code !== 0);
  if (run === undefined || nowMs < ctx.startedMs + run) {
    return {
      restartCount: 0,
      runStartMs: ctx.startedMs,
      finishedMs: undefined,
      code,
      nextChangeMs: run === undefined ? undefined : ctx.startedMs + run,
    };
  }
  if (!restarts) return { restartCount: 0, runStartMs: ctx.startedMs, finishedMs: ctx.startedMs + run, code, nextChangeMs: undefined };
  const period = Math.max(run, 1);
  const restartCount = Math.floor((nowMs - ctx.startedMs) / period);
  const runStartMs = ctx.startedMs + restartCount * period;
  return { restartCount, runStartMs, finishedMs: undefined, code, nextChangeMs: runStartMs + period, lastFinishedMs: runStartMs };
}

function condition(old: Record<string, unknown>[], type: string, status: string, nowMs: number, reason?: string, message?: string) {
  const prev = old.find((c) => c.type === type);
  const since = prev?.status === status && typeof prev.lastTransitionTime === 'string' ? prev.lastTransitionTime : rfc3339(nowMs);
  const c: Record<string, unknown> = { type, status, lastProbeTime: null, lastTransitionTime: since };
  if (reason !== undefined) c.reason = reason;
  if (message !== undefined) c.message = message;
  return c;
}

/**
 * The status a kubelet would post for `pod` at `nowMs` (generateAPIPodStatus and getPhase, R12.146–R12.152): the
 * containers started at ctx.startedMs, readiness after the ready delay, finished runs by the restart policy.
 */
export function runningStatus(pod: KubeObject, ctx: PodContext, nowMs: number): { status: Record<string, unknown>; wakeAtMs?: number } {
  const old = isObject(pod.status) ? pod.status : {};
  const oldConditions = objects(old.conditions);
  const uid = pod.metadata.uid ?? '';
  const life = lifecycle(pod, ctx, nowMs);
  const readyMs = life.runStartMs + (secondsAnnotation(pod, READY_SECONDS_ANNOTATION) ?? 0) * 1000;
  const terminal = life.finishedMs !== undefined;
  const ready = !terminal && nowMs >= readyMs;
  const containers = containersOf(pod, 'containers');
  const containerStatuses = containers.map((c) => {
    const s: Record<string, unknown> = {
      name: c.name,
      state: terminal
        ? {
            terminated: {
              exitCode: life.code,
              reason: life.code === 0 ? 'Completed' : 'Error',
              startedAt: rfc3339(life.runStartMs),
              finishedAt: rfc3339(life.finishedMs ?? nowMs),
              containerID: idOf('containerd://', uid, c.name, String(life.restartCount)),
            },
          }
        : { running: { startedAt: rfc3339(life.runStartMs) } },
      lastState: {},
      ready,
      restartCount: life.restartCount,
      image: c.image,
      imageID: idOf('sha256:', c.image),
      containerID: idOf('containerd://', uid, c.name, String(life.restartCount)),
      started: !terminal,
    };
    if (life.restartCount > 0 && life.lastFinishedMs !== undefined) {
      s.lastState = {
        terminated: {
          exitCode: life.code,
          reason: life.code === 0 ? 'Completed' : 'Error',
          startedAt: rfc3339(life.lastFinishedMs - (runMs(pod) ?? 0)),
          finishedAt: rfc3339(life.lastFinishedMs),
          containerID: idOf('containerd://', uid, c.name, String(life.restartCount - 1)),
        },
      };
    }
    return s;
  });
  const initContainerStatuses = containersOf(pod, 'initContainers').map((c) => ({
    name: c.name,
    state: c.sidecar
      ? { running: { startedAt: rfc3339(ctx.startedMs) } }
      : {
          terminated: {
            exitCode: 0,
            reason: 'Completed',
            startedAt: rfc3339(ctx.startedMs),
            finishedAt: rfc3339(ctx.startedMs),
            containerID: idOf('containerd://', uid, c.name, '0'),
          },
        },
    lastState: {},
    ready: c.sidecar ? !terminal : true,
    restartCount: 0,
    image: c.image,
    imageID: idOf('sha256:', c.image),
    containerID: idOf('containerd://', uid, c.name, '0'),
    started: c.sidecar ? !terminal : false,
  }));
  const phase = terminal ? (life.code === 0 ? 'Succeeded' : 'Failed') : 'Running';
  const gates = objects(isObject(pod.spec) ? pod.spec.readinessGates : undefined).map((g) => String(g.conditionType ?? ''));
  const gateMissing = gates.find((g) => !oldConditions.some((c) => c.type === g && c.status === 'True'));
  const unready = `containers with unready status: [${containers.map((c) => c.name).join(' ')}]`;
  const notReady = terminal ? (['PodCompleted', undefined] as const) : (['ContainersNotReady', unready] as const);
  const conditions = [
    condition(oldConditions, 'PodReadyToStartContainers', terminal ? 'False' : 'True', nowMs),
    condition(oldConditions, 'Initialized', 'True', nowMs),
    ready && gateMissing === undefined
      ? condition(oldConditions, 'Ready', 'True', nowMs)
      : ready
        ? condition(
            oldConditions,
            'Ready',
            'False',
            nowMs,
            'ReadinessGatesNotReady',
            `corresponding condition of pod readiness gate "${gateMissing}" does not exist.`,
          )
        : condition(oldConditions, 'Ready', 'False', nowMs, notReady[0], notReady[1]),
    ready
      ? condition(oldConditions, 'ContainersReady', 'True', nowMs)
      : condition(oldConditions, 'ContainersReady', 'False', nowMs, notReady[0], notReady[1]),
    condition(oldConditions, 'PodScheduled', 'True', nowMs),
    ...oldConditions.filter((c) => !KUBELET_CONDITIONS.has(String(c.type))),
  ];
  const status: Record<string, unknown> = {
    ...old,
    phase,
    conditions,
    hostIP: ctx.hostIP,
    hostIPs: [{ ip: ctx.hostIP }],
    podIP: ctx.podIP,
    podIPs: [{ ip: ctx.podIP }],
    startTime: typeof old.startTime === 'string' ? old.startTime : rfc3339(ctx.startedMs),
    containerStatuses,
  };
  if (initContainerStatuses.length > 0) status.initContainerStatuses = initContainerStatuses;
  const wakes = [life.nextChangeMs, ready ? undefined : readyMs].filter((t): t is number => t !== undefined && t > nowMs);
  return { status, wakeAtMs: wakes.length === 0 ? undefined : Math.min(...wakes) };
}

/** When the containers of a terminating pod stop: after the termination delay, at the end of the grace period at the latest. */
export function stopAtMs(pod: KubeObject, deletionSeenMs: number): { atMs: number; graceRanOut: boolean } {
  const deadline = Date.parse(pod.metadata.deletionTimestamp ?? '') || deletionSeenMs;
  const stop = deletionSeenMs + (secondsAnnotation(pod, TERMINATION_SECONDS_ANNOTATION) ?? 0) * 1000;
  return stop < deadline ? { atMs: stop, graceRanOut: false } : { atMs: deadline, graceRanOut: true };
}

/**
 * The terminal status after SIGTERM (R12.155): running containers end with 143, or 137 when the grace period ran out;
 * containers that had already finished keep their result.
 */
export function terminatedStatus(pod: KubeObject, nowMs: number, graceRanOut: boolean): Record<string, unknown> {
  const old = isObject(pod.status) ? pod.status : {};
  const oldConditions = objects(old.conditions);
  const code = graceRanOut ? 137 : 143;
  const statuses = objects(old.containerStatuses);
  let allZero = true;
  const containerStatuses = containersOf(pod, 'containers').map((c) => {
    const prev = statuses.find((s) => s.name === c.name);
    const state = isObject(prev?.state) ? prev.state : {};
    if (isObject(state.terminated)) {
      if (state.terminated.exitCode !== 0) allZero = false;
      return { ...prev, ready: false, started: false };
    }
    allZero = false;
    const running = isObject(state.running) ? state.running : undefined;
    const terminated =
      running === undefined
        ? { exitCode: 137, reason: 'ContainerStatusUnknown', message: 'The container could not be located when the pod was terminated' }
        : { exitCode: code, reason: 'Error', startedAt: running.startedAt, finishedAt: rfc3339(nowMs), containerID: prev?.containerID };
    return {
      name: c.name,
      state: { terminated },
      lastState: prev?.lastState ?? {},
      ready: false,
      restartCount: prev?.restartCount ?? 0,
      image: c.image,
      imageID: prev?.imageID ?? '',
      containerID: prev?.containerID,
      started: false,
    };
  });
  const reason = allZero ? 'PodCompleted' : 'PodFailed';
  const conditions = [
    condition(oldConditions, 'PodReadyToStartContainers', 'False', nowMs),
    ...oldConditions.filter((c) => c.type === 'Initialized'),
    condition(oldConditions, 'Ready', 'False', nowMs, reason),
    condition(oldConditions, 'ContainersReady', 'False', nowMs, reason),
    ...oldConditions.filter(
      (c) => c.type !== 'PodReadyToStartContainers' && c.type !== 'Ready' && c.type !== 'ContainersReady' && c.type !== 'Initialized',
    ),
  ];
  return { ...old, phase: allZero ? 'Succeeded' : 'Failed', conditions, containerStatuses };
}

/** The status of a pod the kubelet refuses to run (lifecycle admit handlers): Failed with the rejection's reason. */
export function rejectedStatus(pod: KubeObject, reason: string, message: string, nowMs: number, hostIP: string): Record<string, unknown> {
  const old = isObject(pod.status) ? pod.status : {};
  return {
    ...old,
    phase: 'Failed',
    reason,
    message: `Pod was rejected: ${message}`,
    hostIP,
    hostIPs: [{ ip: hostIP }],
    startTime: typeof old.startTime === 'string' ? old.startTime : rfc3339(nowMs),
  };
}
