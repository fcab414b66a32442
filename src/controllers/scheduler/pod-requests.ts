import { isObject, type KubeObject } from '../../api/types.js';
import { quantityValue } from '../../validation/quantity-value.js';

/** What a pod asks of a node: cpu in cores, memory in bytes, and the non-zero variants scoring uses. */
export interface PodRequests {
  readonly cpu: number;
  readonly memory: number;
  /** With the scheduler's defaults for containers that request nothing (100m cpu, 200Mi memory). */
  readonly nonZeroCpu: number;
  readonly nonZeroMemory: number;
}

const DEFAULT_CPU = 0.1;
const DEFAULT_MEMORY = 200 * 2 ** 20;

function containerRequests(container: unknown): { cpu: number; memory: number; hasCpu: boolean; hasMemory: boolean } {
  const c = isObject(container) ? container : {};
  const resources = isObject(c.resources) ? c.resources : {};
  const requests = isObject(resources.requests) ? resources.requests : {};
  return {
    cpu: quantityValue(requests.cpu),
    memory: quantityValue(requests.memory),
    hasCpu: requests.cpu !== undefined,
    hasMemory: requests.memory !== undefined,
  };
}

/**
 * The pod's effective request (resource helpers' PodRequests): the sum over containers and restartable init
 * containers, or the largest plain init container while it runs alone if that is more, plus the pod overhead.
 */
export function podRequests(pod: KubeObject): PodRequests {
  const spec = isObject(pod.spec) ? pod.spec : {};
  const containers = Array.isArray(spec.containers) ? spec.containers : [];
  const inits = Array.isArray(spec.initContainers) ? spec.initContainers : [];
  let cpu = 0;
  let memory = 0;
  let nonZeroCpu = 0;
  let nonZeroMemory = 0;
  for (const c of containers) {
    const r = containerRequests(c);
    cpu += r.cpu;
    memory += r.memory;
    nonZeroCpu += r.hasCpu ? r.cpu : DEFAULT_CPU;
    nonZeroMemory += r.hasMemory ? r.memory : DEFAULT_MEMORY;
  }
  let sidecarCpu = 0;
  let sidecarMemory = 0;
  let initCpu = 0;
  let initMemory = 0;
  for (const c of inits) {
    const r = containerRequests(c);
    if (isObject(c) && c.restartPolicy === 'Always') {
      sidecarCpu += r.cpu;
      sidecarMemory += r.memory;
      continue;
    }
    // A plain init container runs alone, next to the sidecars started before it.
    initCpu = Math.max(initCpu, r.cpu + sidecarCpu);
    initMemory = Math.max(initMemory, r.memory + sidecarMemory);
  }
  cpu = Math.max(cpu + sidecarCpu, initCpu);
  memory = Math.max(memory + sidecarMemory, initMemory);
  const overhead = isObject(spec.overhead) ? spec.overhead : {};
  cpu += quantityValue(overhead.cpu);
  memory += quantityValue(overhead.memory);
  return { cpu, memory, nonZeroCpu: Math.max(nonZeroCpu, cpu), nonZeroMemory: Math.max(nonZeroMemory, memory) };
}
