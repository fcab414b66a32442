import { forbidden, StatusError } from '../api/errors.js';
import type { DeleteOptions } from '../api/delete-options.js';
import { isObject, type KubeObject } from '../api/types.js';
import type { UserInfo } from '../api/user.js';
import { asLabelSelectorObject, labelSelectorAsSelector } from '../selectors/label-selector-object.js';
import type { ResourceStore } from './store.js';

/**
 * The pods/eviction subresource (pkg/registry/core/pod/storage/eviction.go): a pod selected by one
 * PodDisruptionBudget is deleted only while the budget allows a disruption, which the eviction takes (decrementing
 * `disruptionsAllowed` and recording the pod in `disruptedPods`, guarded by the budget's resourceVersion) before the
 * delete; otherwise 429. Pods that are not running, or already terminating, are deleted without asking a budget.
 */

const UPDATE_ATTEMPTS = 10;
/** MaxDisruptedPodSize: evictions the disruption controller has not yet confirmed. */
const MAX_DISRUPTED_PODS = 2000;
const VIOLATION = "Cannot evict pod as it would violate the pod's disruption budget.";

const record = (value: unknown): Record<string, unknown> => (isObject(value) ? value : {});

function tooManyRequests(cause: string): StatusError {
  return new StatusError(429, 'TooManyRequests', VIOLATION, { causes: [{ reason: 'DisruptionBudget', message: cause }] });
}

function selects(pdb: KubeObject, pod: KubeObject): boolean {
  try {
    return labelSelectorAsSelector(asLabelSelectorObject(record(pdb.spec).selector)).matches(pod.metadata.labels);
  } catch {
    return false;
  }
}

/** Takes one disruption from the budget; throws when it has none to give. */
async function takeDisruption(budgets: ResourceStore, pdb: KubeObject, podName: string, dryRun: boolean, now: () => Date): Promise<void> {
  const status = record(pdb.status);
  const name = pdb.metadata.name ?? '';
  if (typeof status.observedGeneration !== 'number' || status.observedGeneration < (pdb.metadata.generation ?? 0)) {
    throw tooManyRequests(`The disruption budget ${name} is still being processed by the server.`);
  }
  const allowed = typeof status.disruptionsAllowed === 'number' ? status.disruptionsAllowed : 0;
  if (allowed < 0) throw forbidden({ group: 'policy', resource: 'poddisruptionbudgets' }, name, 'pdb disruptions allowed is negative');
  const disrupted = record(status.disruptedPods);
  if (Object.keys(disrupted).length > MAX_DISRUPTED_PODS) {
    throw forbidden(
      { group: 'policy', resource: 'poddisruptionbudgets' },
      name,
      'DisruptedPods map too big - too many evictions not confirmed by PDB controller',
    );
  }
  if (allowed === 0) {
    throw tooManyRequests(
      `The disruption budget ${name} needs ${String(status.desiredHealthy ?? 0)} healthy pods and has ${String(status.currentHealthy ?? 0)} currently`,
    );
  }
  if (dryRun) return;
  const stamp = now()
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z');
  const next = { ...pdb, status: { ...status, disruptionsAllowed: allowed - 1, disruptedPods: { ...disrupted, [podName]: stamp } } };
  await budgets.update(pdb.metadata.namespace, name, next, { subresource: 'status' });
}

export async function evictPod(
  pods: ResourceStore,
  budgets: ResourceStore | undefined,
  namespace: string,
  name: string,
  deleteOptions: DeleteOptions,
  requester: { user?: UserInfo; dryRun: boolean },
): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const pod = await pods.get(namespace, name);
    const phase = record(pod.status).phase;
    const ignoresBudgets =
      phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || pod.metadata.deletionTimestamp !== undefined;
    if (!ignoresBudgets && budgets !== undefined) {
      const matching = (await budgets.list(namespace)).items.filter((pdb) => selects(pdb, pod));
      if (matching.length > 1) {
        throw new StatusError(
          500,
          'InternalError',
          'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
        );
      }
      const pdb = matching[0];
      if (pdb !== undefined) {
        try {
          await takeDisruption(budgets, pdb, name, requester.dryRun, budgets.clock);
        } catch (err) {
          if (err instanceof StatusError && err.code === 409 && attempt + 1 < UPDATE_ATTEMPTS) continue;
          throw err;
        }
      }
    }
    const options: DeleteOptions = { ...deleteOptions, ...(requester.dryRun ? { dryRun: ['All'] } : {}) };
    await pods.delete(namespace, name, options, { user: requester.user });
    return;
  }
}
