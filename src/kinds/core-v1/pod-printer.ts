import { isObject, type KubeObject } from '../../api/types.js';
import { age } from '../../tables/cell-format.js';
import { AGE_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import { humanDuration } from '../../tables/human-duration.js';
import { get, integer, list, text, timestamp } from '../../tables/object-fields.js';
import { column, type Printer } from '../../tables/printer.js';
import type { TableRowCondition } from '../../tables/table-types.js';

/** Column descriptions: the swagger docs of the fields, as the Go printers report them. */
const podSpecNodeName =
  'NodeName indicates in which node this pod is scheduled. If empty, this pod is a candidate for scheduling by the scheduler defined in schedulerName. Once this field is set, the kubelet for this node becomes responsible for the lifecycle of this pod. This field should not be used to express a desire for the pod to be scheduled on a specific node. https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/#nodename';
const podSpecReadinessGates =
  'If specified, all readiness gates will be evaluated for pod readiness. A pod is ready when all its containers are ready AND all conditions specified in the readiness gates have status equal to "True" More info: https://git.k8s.io/enhancements/keps/sig-network/580-pod-readiness-gates';
const podStatusNominatedNodeName =
  'nominatedNodeName is set only when this pod preempts other pods on the node, but it cannot be scheduled right away as preemption victims receive their graceful termination periods. This field does not guarantee that the pod will be scheduled on this node. Scheduler may decide to place the pod elsewhere if other nodes become available sooner. Scheduler may also decide to give the resources on this node to a higher priority pod that is created after preemption. As a result, this field may be different than PodSpec.nodeName when the pod is scheduled.';
const podStatusPodIP = 'podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.';

export interface PodSummary {
  /** "ready/total" containers, counting restartable (sidecar) init containers. */
  readonly ready: string;
  /** The STATUS column: phase, or the most telling container/init reason. */
  readonly status: string;
  /** "N" or "N (AGE ago)" when the last restart time is known. */
  readonly restarts: string;
}

const isRestartableInit = (container: unknown): boolean => text(get(container, 'restartPolicy')) === 'Always';

function conditionIs(pod: KubeObject, type: string, status: string): boolean {
  const condition = list(get(pod, 'status', 'conditions')).find((entry) => text(get(entry, 'type')) === type);
  return condition !== undefined && text(get(condition, 'status')) === status;
}

const finishedAt = (status: unknown): number | undefined => timestamp(get(status, 'lastState', 'terminated', 'finishedAt'));

/** Mirrors printPod's column logic (k/k pkg/printers/internalversion/printers.go) on a v1 Pod. */
export function summarizePod(pod: KubeObject, now: Date): PodSummary {
  const phase = text(get(pod, 'status', 'phase'));
  const podReason = text(get(pod, 'status', 'reason'));
  const initContainers = list(get(pod, 'spec', 'initContainers'));
  const total = list(get(pod, 'spec', 'containers')).length + initContainers.filter(isRestartableInit).length;
  let ready = 0;
  let restarts = 0;
  let sidecarRestarts = 0;
  let lastRestart: number | undefined;
  let lastSidecarRestart: number | undefined;
  const later = (a: number | undefined, b: number | undefined): number | undefined =>
    b !== undefined && (a === undefined || b > a) ? b : a;

  let reason = podReason === '' ? phase : podReason;
  for (const condition of list(get(pod, 'status', 'conditions'))) {
    if (text(get(condition, 'type')) === 'PodScheduled' && text(get(condition, 'reason')) === 'SchedulingGated') {
      reason = 'SchedulingGated';
    }
  }

  const initSpecs = new Map(initContainers.map((container) => [text(get(container, 'name')), container]));
  let initializing = false;
  const initStatuses = list(get(pod, 'status', 'initContainerStatuses'));
  for (const [index, status] of initStatuses.entries()) {
    restarts += integer(get(status, 'restartCount'));
    lastRestart = later(lastRestart, finishedAt(status));
    const restartable = isRestartableInit(initSpecs.get(text(get(status, 'name'))));
    if (restartable) {
      sidecarRestarts += integer(get(status, 'restartCount'));
      lastSidecarRestart = later(lastSidecarRestart, finishedAt(status));
    }
    const terminated = get(status, 'state', 'terminated');
    const waitingReason = text(get(status, 'state', 'waiting', 'reason'));
    if (isObject(terminated) && integer(get(terminated, 'exitCode')) === 0) continue;
    if (restartable && get(status, 'started') === true) {
      if (get(status, 'ready') === true) ready++;
      continue;
    }
    if (isObject(terminated)) {
      const terminatedReason = text(get(terminated, 'reason'));
      const signal = integer(get(terminated, 'signal'));
      if (terminatedReason !== '') reason = `Init:${terminatedReason}`;
      else if (signal !== 0) reason = `Init:Signal:${signal}`;
      else reason = `Init:ExitCode:${integer(get(terminated, 'exitCode'))}`;
    } else if (waitingReason !== '' && waitingReason !== 'PodInitializing') {
      reason = `Init:${waitingReason}`;
    } else {
      reason = `Init:${index}/${initContainers.length}`;
    }
    initializing = true;
    break;
  }

  if (!initializing || conditionIs(pod, 'Initialized', 'True')) {
    restarts = sidecarRestarts;
    lastRestart = lastSidecarRestart;
    let hasRunning = false;
    const statuses = list(get(pod, 'status', 'containerStatuses'));
    // Reverse order so the first container's reason wins, as upstream iterates.
    for (const status of [...statuses].reverse()) {
      restarts += integer(get(status, 'restartCount'));
      lastRestart = later(lastRestart, finishedAt(status));
      const waitingReason = text(get(status, 'state', 'waiting', 'reason'));
      const terminated = get(status, 'state', 'terminated');
      const terminatedReason = text(get(terminated, 'reason'));
      if (waitingReason !== '') {
        reason = waitingReason;
      } else if (isObject(terminated) && terminatedReason !== '') {
        reason = terminatedReason;
      } else if (isObject(terminated)) {
        const signal = integer(get(terminated, 'signal'));
        reason = signal !== 0 ? `Signal:${signal}` : `ExitCode:${integer(get(terminated, 'exitCode'))}`;
      } else if (get(status, 'ready') === true && isObject(get(status, 'state', 'running'))) {
        hasRunning = true;
        ready++;
      }
    }
    if (reason === 'Completed' && hasRunning) reason = conditionIs(pod, 'Ready', 'True') ? 'Running' : 'NotReady';
  }

  const deleting = typeof pod.metadata.deletionTimestamp === 'string';
  if (deleting && podReason === 'NodeLost') reason = 'Unknown';
  else if (deleting && phase !== 'Failed' && phase !== 'Succeeded') reason = 'Terminating';

  const restartText =
    restarts !== 0 && lastRestart !== undefined ? `${restarts} (${humanDuration(now.getTime() - lastRestart)} ago)` : String(restarts);
  return { ready: `${ready}/${total}`, status: reason, restarts: restartText };
}

function readinessGates(pod: KubeObject): string {
  const gates = list(get(pod, 'spec', 'readinessGates'));
  if (gates.length === 0) return '<none>';
  const conditions = list(get(pod, 'status', 'conditions'));
  const trueCount = gates.filter((gate) => {
    const condition = conditions.find((entry) => text(get(entry, 'type')) === text(get(gate, 'conditionType')));
    return condition !== undefined && text(get(condition, 'status')) === 'True';
  }).length;
  return `${trueCount}/${gates.length}`;
}

function podIP(pod: KubeObject): string {
  const ips = list(get(pod, 'status', 'podIPs'));
  const ip = ips.length > 0 ? text(get(ips[0], 'ip')) : text(get(pod, 'status', 'podIP'));
  return ip === '' ? '<none>' : ip;
}

const orNone = (value: string): string => (value === '' ? '<none>' : value);

const SUCCEEDED: TableRowCondition = {
  type: 'Completed',
  status: 'True',
  reason: 'Succeeded',
  message: 'The pod has completed successfully.',
};
const FAILED: TableRowCondition = { type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' };

export const POD_PRINTER: Printer = {
  style: 'printer',
  columns: [
    NAME_COLUMN,
    column('Ready', 'string', 'The aggregate readiness state of this pod for accepting traffic.'),
    column('Status', 'string', 'The aggregate status of the containers in this pod.'),
    column(
      'Restarts',
      'string',
      'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.',
    ),
    AGE_COLUMN,
    column('IP', 'string', podStatusPodIP, { wide: true }),
    column('Node', 'string', podSpecNodeName, { wide: true }),
    column('Nominated Node', 'string', podStatusNominatedNodeName, { wide: true }),
    column('Readiness Gates', 'string', podSpecReadinessGates, { wide: true }),
  ],
  row(pod, now) {
    const summary = summarizePod(pod, now);
    return [
      pod.metadata.name ?? '',
      summary.ready,
      summary.status,
      summary.restarts,
      age(pod.metadata.creationTimestamp, now),
      podIP(pod),
      orNone(text(get(pod, 'spec', 'nodeName'))),
      orNone(text(get(pod, 'status', 'nominatedNodeName'))),
      readinessGates(pod),
    ];
  },
  conditions(pod) {
    const phase = text(get(pod, 'status', 'phase'));
    if (phase === 'Succeeded') return [SUCCEEDED];
    if (phase === 'Failed') return [FAILED];
    return undefined;
  },
};
