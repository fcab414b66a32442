import { isObject, type KubeObject } from '../../api/types.js';
import { type Obj, specOf, statusOf } from './job-pods.js';

export type FailurePolicyAction = 'FailJob' | 'FailIndex' | 'Ignore' | 'Count';

export interface FailurePolicyMatch {
  readonly action: FailurePolicyAction;
  /** The FailJob message naming the container or condition and the rule's index. */
  readonly message: string;
}

const objects = (value: unknown): Obj[] => (Array.isArray(value) ? value.filter(isObject) : []);

/** A container that terminated with a non-zero code the requirement selects (exit code 0 never matches). */
function matchingContainer(pod: KubeObject, requirement: Obj): { name: string; code: number } | undefined {
  const status = statusOf(pod);
  const values = Array.isArray(requirement.values) ? requirement.values : [];
  for (const s of [...objects(status.initContainerStatuses), ...objects(status.containerStatuses)]) {
    const state = isObject(s.state) ? s.state : {};
    const terminated = isObject(state.terminated) ? state.terminated : undefined;
    if (terminated === undefined || typeof terminated.exitCode !== 'number' || terminated.exitCode === 0) continue;
    if (typeof requirement.containerName === 'string' && requirement.containerName !== s.name) continue;
    const listed = values.includes(terminated.exitCode);
    if ((requirement.operator === 'In') === listed) return { name: String(s.name), code: terminated.exitCode };
  }
  return undefined;
}

/**
 * The first podFailurePolicy rule that a failed pod matches (matchPodFailurePolicy), with the message a FailJob
 * verdict carries; undefined when no rule matches (the pod then counts against backoffLimit).
 */
export function matchPodFailurePolicy(job: KubeObject, pod: KubeObject): FailurePolicyMatch | undefined {
  const policy = specOf(job).podFailurePolicy;
  if (!isObject(policy)) return undefined;
  const where = `${pod.metadata.namespace}/${pod.metadata.name}`;
  const conditions = objects(statusOf(pod).conditions);
  for (const [index, rule] of objects(policy.rules).entries()) {
    const action = rule.action as FailurePolicyAction;
    if (isObject(rule.onExitCodes)) {
      const container = matchingContainer(pod, rule.onExitCodes);
      if (container !== undefined) {
        const message = `Container ${container.name} for pod ${where} failed with exit code ${container.code} matching ${action} rule at index ${index}`;
        return { action, message };
      }
      continue;
    }
    for (const pattern of objects(rule.onPodConditions)) {
      const wanted = typeof pattern.status === 'string' ? pattern.status : 'True';
      if (conditions.some((c) => c.type === pattern.type && c.status === wanted)) {
        return { action, message: `Pod ${where} has condition ${String(pattern.type)} matching ${action} rule at index ${index}` };
      }
    }
  }
  return undefined;
}
