import { conflict, forbidden, StatusError } from '../api/errors.js';
import type { DeleteOptions } from '../api/delete-options.js';
import { isObject, type KubeObject } from '../api/types.js';
import type { UserInfo } from '../api/user.js';
import { asLabelSelectorObject, labelSelectorAsSelector } from '../selectors/label-selector-object.js';
import type { ResourceStore } from './store.js';

/**
 * The pods/eviction subresource (pkg/registry/core/pod/storage/eviction.go). Pods that are not running, or already
 * terminating, are deleted without asking a budget. Otherwise the one PodDisruptionBudget selecting the pod decides:
 * an unready pod goes when the budget's unhealthyPodEvictionPolicy is AlwaysAllow, or (IfHealthyBudget, the
 * default) while the budget is healthy; any other pod only while the budget allows a disruption, which the eviction
 * takes (decrementing `disruptionsAllowed`, recording the pod in `disruptedPods`) before the delete; otherwise 429.
 * Every delete is preceded by the pod's DisruptionTarget condition, and guarded by the pod's resourceVersion where
 * a race with the pod becoming ready could break the budget.
 */

/** EvictionsRetry's steps: conflicting writers are retried this many times. */
const UPDATE_ATTEMPTS = 20;
/** MaxDisruptedPodSize: evictions the disruption controller has not yet confirmed. */
const MAX_DISRUPTED_PODS = 2000;
const VIOLATION = "Cannot evict pod as it would violate the pod's disruption budget.";
const PDB_REF = { group: 'policy', resource: 'poddisruptionbudget' };
/** The resource eviction's own precondition conflicts name (a GroupResource with the kind's name). */
const POD_REF = { group: '', resource: 'Pod' };

const record = (value: unknown): Record<string, unknown> => (isObject(value) ? value : {});
const rfc3339 = (d: Date): string => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

function tooManyRequests(cause: string, retryAfterSeconds: number): StatusError {
  const details = { causes: [{ reason: 'DisruptionBudget', message: cause }], ...(retryAfterSeconds > 0 ? { retryAfterSeconds } : {}) };
  return new StatusError(
    429,
    'TooManyRequests',
    VIOLATION,
    details,
    retryAfterSeconds > 0 ? { 'Retry-After': String(retryAfterSeconds) } : {},
  );
}

/** createTooManyRequestsError: the budget's status is behind its spec, or the pod changed under a guarded delete. */
const stillProcessing = (pdbName: string): StatusError =>
  tooManyRequests(`The disruption budget ${pdbName} is still being processed by the server.`, 10);

/** A budget with a nil, empty or invalid selector selects nothing. */
function selects(pdb: KubeObject, pod: KubeObject): boolean {
  try {
    const selector = labelSelectorAsSelector(asLabelSelectorObject(record(pdb.spec).selector));
    return !selector.empty && selector.matches(pod.metadata.labels);
  } catch {
    return false;
  }
}

const phaseOf = (pod: KubeObject): unknown => record(pod.status).phase;
const terminal = (pod: KubeObject): boolean => phaseOf(pod) === 'Succeeded' || phaseOf(pod) === 'Failed';
/** canIgnorePDB: the pod already caused its disruption, or is not running yet. */
const ignoresBudgets = (pod: KubeObject): boolean =>
  terminal(pod) || phaseOf(pod) === 'Pending' || pod.metadata.deletionTimestamp !== undefined;
const isReady = (pod: KubeObject): boolean =>
  Array.isArray(record(pod.status).conditions) &&
  (record(pod.status).conditions as unknown[]).some((c) => isObject(c) && c.type === 'Ready' && c.status === 'True');
const rvUnset = (options: DeleteOptions): boolean => options.preconditions?.resourceVersion === undefined;
const withRv = (options: DeleteOptions, resourceVersion: string | undefined): DeleteOptions => ({
  ...options,
  preconditions: { ...options.preconditions, ...(resourceVersion === undefined ? {} : { resourceVersion }) },
});

/** UpdateDisruptionAllowedCondition (component-helpers), for the status the eviction writes. */
function disruptionAllowedCondition(status: Record<string, unknown>, now: Date): void {
  const allowed = typeof status.disruptionsAllowed === 'number' && status.disruptionsAllowed > 0;
  const conditions = Array.isArray(status.conditions) ? status.conditions.filter(isObject) : [];
  const next = {
    type: 'DisruptionAllowed',
    status: allowed ? 'True' : 'False',
    reason: allowed ? 'SufficientPods' : 'InsufficientPods',
    message: '',
    observedGeneration: status.observedGeneration,
  };
  const at = conditions.findIndex((c) => c.type === 'DisruptionAllowed');
  const prev = conditions[at];
  const lastTransitionTime = prev !== undefined && prev.status === next.status ? prev.lastTransitionTime : rfc3339(now);
  const merged = { ...(prev ?? {}), ...next, lastTransitionTime, message: prev?.message ?? '' };
  if (at < 0) conditions.push(merged);
  else conditions[at] = merged;
  status.conditions = conditions;
}

/** checkAndDecrement: takes one disruption from the budget; throws when it has none to give. */
async function takeDisruption(budgets: ResourceStore, pdb: KubeObject, podName: string, dryRun: boolean): Promise<void> {
  const status = record(pdb.status);
  const name = pdb.metadata.name ?? '';
  const observed = typeof status.observedGeneration === 'number' ? status.observedGeneration : 0;
  if (observed < (pdb.metadata.generation ?? 0)) throw stillProcessing(name);
  const allowed = typeof status.disruptionsAllowed === 'number' ? status.disruptionsAllowed : 0;
  if (allowed < 0) throw forbidden(PDB_REF, name, 'pdb disruptions allowed is negative');
  const disrupted = record(status.disruptedPods);
  if (Object.keys(disrupted).length > MAX_DISRUPTED_PODS) {
    throw forbidden(PDB_REF, name, 'DisruptedPods map too big - too many evictions not confirmed by PDB controller');
  }
  if (allowed === 0) {
    throw tooManyRequests(
      `The disruption budget ${name} needs ${String(status.desiredHealthy ?? 0)} healthy pods and has ${String(status.currentHealthy ?? 0)} currently`,
      0,
    );
  }
  if (dryRun) return;
  const now = budgets.clock();
  const next: Record<string, unknown> = {
    ...status,
    disruptionsAllowed: allowed - 1,
    disruptedPods: { ...disrupted, [podName]: rfc3339(now) },
  };
  if (allowed - 1 === 0) disruptionAllowedCondition(next, now);
  await budgets.update(pdb.metadata.namespace, name, { ...pdb, status: next }, { subresource: 'status' });
}

/** Retries `attempt` on conflicts, as retry.OnError with EvictionsRetry does, unless `retry` is false. */
async function onConflict<T>(retry: boolean, attempt: () => Promise<T>): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (err) {
      if (!(retry && err instanceof StatusError && err.code === 409 && n < UPDATE_ATTEMPTS)) throw err;
    }
  }
}

interface Requester {
  readonly user?: UserInfo;
  readonly dryRun: boolean;
}

/**
 * addConditionAndDeletePod: the pod gets DisruptionTarget=True (through its status, checking the eviction's
 * preconditions against the pod as stored), then is deleted; a resourceVersion precondition follows that write.
 */
async function markAndDelete(
  pods: ResourceStore,
  namespace: string,
  name: string,
  options: DeleteOptions,
  requester: Requester,
): Promise<void> {
  let deleteOptions = options;
  if (!requester.dryRun) {
    const marked = await pods.guaranteedUpdate(namespace, name, { user: requester.user, subresource: 'status' }, (pod) => {
      const uid = options.preconditions?.uid;
      if (uid !== undefined && uid !== '' && uid !== pod.metadata.uid) {
        throw conflict(
          POD_REF,
          name,
          `the UID in the precondition (${uid}) does not match the UID in record (${pod.metadata.uid ?? ''}). The object might have been deleted and then recreated`,
        );
      }
      const rv = options.preconditions?.resourceVersion;
      if (rv !== undefined && rv !== '' && rv !== pod.metadata.resourceVersion) {
        throw conflict(
          POD_REF,
          name,
          `the ResourceVersion in the precondition (${rv}) does not match the ResourceVersion in record (${pod.metadata.resourceVersion ?? ''}). The object might have been modified`,
        );
      }
      const status = record(pod.status);
      const conditions = Array.isArray(status.conditions) ? status.conditions.filter(isObject) : [];
      const at = conditions.findIndex((c) => c.type === 'DisruptionTarget');
      const prev = conditions[at];
      const condition = {
        type: 'DisruptionTarget',
        status: 'True',
        lastProbeTime: null,
        lastTransitionTime: prev?.status === 'True' ? prev.lastTransitionTime : rfc3339(pods.clock()),
        reason: 'EvictionByEvictionAPI',
        message: 'Eviction API: evicting',
      };
      if (at < 0) conditions.push(condition);
      else conditions[at] = condition;
      pod.status = { ...status, conditions };
      return pod;
    });
    if (!rvUnset(options)) deleteOptions = withRv(options, marked.metadata.resourceVersion);
  }
  const dryRunOptions: DeleteOptions = requester.dryRun ? { ...deleteOptions, dryRun: ['All'] } : deleteOptions;
  await pods.delete(namespace, name, dryRunOptions, { user: requester.user });
}

/** The eviction of one pod, as EvictionREST.Create after the request was decoded and its name checked. */
export async function evictPod(
  pods: ResourceStore,
  budgets: ResourceStore | undefined,
  namespace: string,
  name: string,
  deleteOptions: DeleteOptions,
  requester: Requester,
): Promise<void> {
  // A resourceVersion the client set is its own guard: a conflict is its answer, not something to retry.
  const retry = rvUnset(deleteOptions);
  const pod = await onConflict(retry, async (): Promise<KubeObject | undefined> => {
    const current = await pods.get(namespace, name);
    if (!ignoresBudgets(current)) return current;
    // A pending pod could become ready meanwhile: its delete is guarded unless the client guarded it already.
    const guard = !terminal(current) && current.metadata.deletionTimestamp === undefined && retry;
    await markAndDelete(pods, namespace, name, guard ? withRv(deleteOptions, current.metadata.resourceVersion) : deleteOptions, requester);
    return undefined;
  });
  if (pod === undefined) return;
  const matching = budgets === undefined ? [] : (await budgets.list(namespace)).items.filter((pdb) => selects(pdb, pod));
  if (matching.length > 1) {
    // Kubernetes answers this with a Failure Status of code 500 and no reason.
    throw new StatusError(500, '', 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.');
  }
  const pdb = matching[0];
  let guarded = false;
  if (pdb !== undefined && budgets !== undefined) {
    const status = record(pdb.status);
    const policy = record(pdb.spec).unhealthyPodEvictionPolicy;
    const healthy = Number(status.currentHealthy ?? 0) >= Number(status.desiredHealthy ?? 0) && Number(status.desiredHealthy ?? 0) > 0;
    if (!isReady(pod) && (policy === 'AlwaysAllow' || healthy)) {
      guarded = true;
    } else {
      let current = pdb;
      await onConflict(true, async () => {
        try {
          await takeDisruption(budgets, current, name, requester.dryRun);
        } catch (err) {
          if (err instanceof StatusError && err.code === 409) current = await budgets.get(namespace, pdb.metadata.name ?? '');
          throw err;
        }
      });
    }
  }
  try {
    await markAndDelete(pods, namespace, name, guarded ? withRv(deleteOptions, pod.metadata.resourceVersion) : deleteOptions, requester);
  } catch (err) {
    // The unready pod changed (it may have become ready): the client is told to come back.
    if (err instanceof StatusError && err.code === 409 && guarded && retry) throw stillProcessing(pdb?.metadata.name ?? '');
    throw err;
  }
}
