import { randomInt } from 'node:crypto';
import { fieldError, invalid } from '../api/errors.js';
import type { ResourceInfo } from '../api/resource-info.js';
import { isObject, type KubeObject } from '../api/types.js';
import type { Backend } from '../storage/backend.js';
import { KeyExistsError, KeyNotFoundError } from '../storage/errors.js';

/** The default service range of kube-apiserver (--service-cluster-ip-range=10.96.0.0/12). */
const RANGE_BASE = (10 << 24) | (96 << 16);
const RANGE_SIZE = 1 << 20;
const ALLOCATION_ATTEMPTS = 64;
/** One key per allocated address, as the IPAddress objects of Kubernetes 1.31+: create-if-absent makes allocation atomic. */
const KEY_PREFIX = '/registry/ipaddresses/';

function toIp(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

function inRange(ip: string): boolean {
  const parts = ip.split('.').map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) return false;
  const n = ((parts[0] ?? 0) << 24) | ((parts[1] ?? 0) << 16) | ((parts[2] ?? 0) << 8) | (parts[3] ?? 0);
  return n - RANGE_BASE >= 0 && n - RANGE_BASE < RANGE_SIZE;
}

function isService(info: ResourceInfo): boolean {
  return info.group === '' && info.plural === 'services';
}

function needsClusterIp(spec: Record<string, unknown>): boolean {
  return spec.type !== 'ExternalName' && spec.clusterIP !== 'None';
}

/**
 * ClusterIP allocation for Services (the service REST storage's allocator): a free address from the service range,
 * or the one the client asked for if it is free, reserved with a create-if-absent write so concurrent creates and
 * several API servers never hand out one address twice; released when the Service goes.
 */
export function serviceClusterIpAllocation(backend: () => Backend) {
  const reserve = async (ip: string, owner: string): Promise<boolean> => {
    try {
      await backend().create(`${KEY_PREFIX}${ip}`, new TextEncoder().encode(owner));
      return true;
    } catch (err) {
      if (err instanceof KeyExistsError) return false;
      throw err;
    }
  };
  return async (
    operation: 'CREATE' | 'UPDATE' | 'DELETE',
    info: ResourceInfo,
    obj: KubeObject,
    _old?: KubeObject,
    options?: { readonly dryRun: boolean },
  ): Promise<void> => {
    if (!isService(info) || !isObject(obj.spec)) return;
    // A dry run reserves nothing: it reports an address that looks like a real allocation.
    const dryRun = options?.dryRun === true;
    const spec = obj.spec;
    const owner = `${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`;
    if (operation === 'DELETE') {
      if (dryRun) return;
      // A Service has no grace period; without finalizers this DELETE removes it, so its address is free again.
      if ((obj.metadata.finalizers ?? []).length > 0 || typeof spec.clusterIP !== 'string' || !inRange(spec.clusterIP)) return;
      try {
        await backend().delete(`${KEY_PREFIX}${spec.clusterIP}`);
      } catch (err) {
        if (!(err instanceof KeyNotFoundError)) throw err;
      }
      return;
    }
    if (operation !== 'CREATE' || !needsClusterIp(spec)) return;
    const requested = typeof spec.clusterIP === 'string' && spec.clusterIP !== '' ? spec.clusterIP : undefined;
    if (requested !== undefined) {
      if (!inRange(requested)) {
        throw invalid('Service', '', 'Service', obj.metadata.name ?? '', [
          fieldError.invalid('spec.clusterIPs', [requested], `failed to allocate IP ${requested}: provided IP is not in the valid range. The range of valid IPs is 10.96.0.0/12`),
        ]);
      }
      if (!dryRun && !(await reserve(requested, owner))) {
        throw invalid('Service', '', 'Service', obj.metadata.name ?? '', [
          fieldError.invalid('spec.clusterIPs', [requested], `failed to allocate IP ${requested}: provided IP is already allocated`),
        ]);
      }
      spec.clusterIPs = [requested];
      return;
    }
    for (let attempt = 0; attempt < ALLOCATION_ATTEMPTS; attempt++) {
      // Skip the network address and .1, which is the `kubernetes` Service's.
      const ip = toIp(RANGE_BASE + 2 + randomInt(RANGE_SIZE - 3));
      if (dryRun || (await reserve(ip, owner))) {
        spec.clusterIP = ip;
        spec.clusterIPs = [ip];
        return;
      }
    }
    throw invalid('Service', '', 'Service', obj.metadata.name ?? '', [fieldError.invalid('spec.clusterIPs', [], 'failed to allocate a service IP: range is full')]);
  };
}

/** The address of the `kubernetes` Service in the default namespace (the first usable address of the range). */
export const KUBERNETES_SERVICE_IP = toIp(RANGE_BASE + 1);
