import { forbidden } from '../api/errors.js';
import type { ResourceInfo } from '../api/resource-info.js';
import { isObject, type KubeObject } from '../api/types.js';

/**
 * The PriorityClasses every 1.32 cluster has (kube-apiserver creates them at start). Cascade does not serve
 * scheduling.k8s.io yet, so these are the only classes a pod can name; any other name is refused as a real cluster
 * refuses a class that does not exist.
 */
const SYSTEM_PRIORITY_CLASSES: Readonly<Record<string, number>> = {
  'system-node-critical': 2000001000,
  'system-cluster-critical': 2000000000,
};

/** With no globalDefault class, a pod without a class gets priority 0 and the default preemption policy. */
const NO_CLASS_PRIORITY = 0;
const PODS = { group: '', resource: 'pods' };
const DEFAULT_PREEMPTION_POLICY = 'PreemptLowerPriority';

function isPod(info: ResourceInfo): boolean {
  return info.group === '' && info.plural === 'pods';
}

/**
 * The Priority admission plugin, on pod creation: resolves `priorityClassName` into `priority` and
 * `preemptionPolicy`, refusing (403) an unknown class and values the pod sets that differ from its class's.
 */
export async function podPriority(operation: 'CREATE' | 'UPDATE' | 'DELETE', info: ResourceInfo, obj: KubeObject): Promise<void> {
  if (operation !== 'CREATE' || !isPod(info) || !isObject(obj.spec)) return;
  const spec = obj.spec;
  const name = obj.metadata.name ?? '';
  const className = typeof spec.priorityClassName === 'string' ? spec.priorityClassName : '';
  let priority = NO_CLASS_PRIORITY;
  if (className !== '') {
    const value = SYSTEM_PRIORITY_CLASSES[className];
    if (value === undefined) throw forbidden(PODS, name, `no PriorityClass with name ${className} was found`);
    priority = value;
  }
  if (spec.priority !== undefined && spec.priority !== null && spec.priority !== priority) {
    throw forbidden(
      PODS,
      name,
      `the integer value of priority (${String(spec.priority)}) must not be provided in pod spec; priority admission controller computed ${priority} from the given PriorityClass name`,
    );
  }
  spec.priority = priority;
  if (spec.preemptionPolicy !== undefined && spec.preemptionPolicy !== null && spec.preemptionPolicy !== DEFAULT_PREEMPTION_POLICY) {
    throw forbidden(
      PODS,
      name,
      `the string value of PreemptionPolicy (${String(spec.preemptionPolicy)}) must not be provided in pod spec; priority admission controller computed ${DEFAULT_PREEMPTION_POLICY} from the given PriorityClass name`,
    );
  }
  spec.preemptionPolicy = DEFAULT_PREEMPTION_POLICY;
}
