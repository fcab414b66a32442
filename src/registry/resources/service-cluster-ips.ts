import { randomInt } from 'node:crypto';
import { fieldError, invalid } from '../../api/errors.js';
import { isObject, type KubeObject } from '../../api/types.js';
import type { Backend } from '../../storage/backend.js';
import { KeyExistsError, KeyNotFoundError } from '../../storage/errors.js';
import type { FinishWrite, WriteHooks } from '../write-hooks.js';

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

function needsClusterIp(spec: Record<string, unknown>): boolean {
  return spec.type !== 'ExternalName' && spec.clusterIP !== 'None';
}

/**
 * Reservations are held by the Service's uid: a generated name is drawn after the reservation, and a Service
 * recreated under the same name must not have its address freed by the removal of the one before it.
 */
const ownerOf = (obj: KubeObject): string => obj.metadata.uid ?? '';
const NOTHING_TO_SETTLE: FinishWrite = async () => {};

/**
 * ClusterIP allocation of the Service REST storage (pkg/registry/core/service/storage's allocation transaction): a
 * free address of the service range, or the one the client asked for if it is free, is reserved before the
 * Service is validated and stored, with a create-if-absent write so concurrent creates and several API servers never
 * hand out one address twice. The reservation is kept only if the Service is stored, and the address is released
 * whenever the Service leaves storage or becomes ExternalName (a Service that stops being one gets an address). A
 * dry run reserves nothing but fails as the real create would.
 */
export function serviceClusterIps(backend: Backend): WriteHooks {
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const refuse = (obj: KubeObject, value: unknown, message: string) =>
    invalid('Service', '', 'Service', obj.metadata.name ?? '', [fieldError.invalid('spec.clusterIPs', value, message)]);
  /** Whether `ip` is now held for `owner`; a dry run only asks whether it is free. */
  const take = async (ip: string, owner: string, dryRun: boolean): Promise<boolean> => {
    if (dryRun) return (await backend.get(`${KEY_PREFIX}${ip}`)).kv === undefined;
    try {
      await backend.create(`${KEY_PREFIX}${ip}`, encoder.encode(owner));
      return true;
    } catch (err) {
      if (err instanceof KeyExistsError) return false;
      throw err;
    }
  };
  /** Frees `ip` if `owner` holds it: an address another Service was given since is left alone. */
  const release = async (ip: string, owner: string): Promise<void> => {
    const key = `${KEY_PREFIX}${ip}`;
    const { kv } = await backend.get(key);
    if (kv === undefined || decoder.decode(kv.value) !== owner) return;
    try {
      await backend.delete(key, kv.modRevision);
    } catch (err) {
      // Released or re-taken meanwhile: either way no longer ours to free.
      if (!(err instanceof KeyNotFoundError)) throw err;
    }
  };
  const settle = (ip: string, owner: string, dryRun: boolean): FinishWrite =>
    dryRun ? NOTHING_TO_SETTLE : async (stored) => (stored ? undefined : release(ip, owner));

  /** Reserves the address `obj` asks for, or a free one, and fills it in; the result settles the reservation. */
  const allocate = async (obj: KubeObject, dryRun: boolean): Promise<FinishWrite> => {
    const spec = obj.spec;
    if (!isObject(spec) || !needsClusterIp(spec)) return NOTHING_TO_SETTLE;
    const owner = ownerOf(obj);
    const requested = typeof spec.clusterIP === 'string' && spec.clusterIP !== '' ? spec.clusterIP : undefined;
    if (requested !== undefined) {
      if (!inRange(requested)) {
        throw refuse(
          obj,
          [requested],
          `failed to allocate IP ${requested}: provided IP is not in the valid range. The range of valid IPs is 10.96.0.0/12`,
        );
      }
      if (!(await take(requested, owner, dryRun)))
        throw refuse(obj, [requested], `failed to allocate IP ${requested}: provided IP is already allocated`);
      spec.clusterIPs = [requested];
      return settle(requested, owner, dryRun);
    }
    for (let attempt = 0; attempt < ALLOCATION_ATTEMPTS; attempt++) {
      // Skip the network address and .1, which is the `kubernetes` Service's.
      const ip = toIp(RANGE_BASE + 2 + randomInt(RANGE_SIZE - 3));
      if (await take(ip, owner, dryRun)) {
        spec.clusterIP = ip;
        spec.clusterIPs = [ip];
        return settle(ip, owner, dryRun);
      }
    }
    throw refuse(obj, [], 'failed to allocate a service IP: range is full');
  };
  /** The address a stored Service holds, if it holds one of the range. */
  const held = (obj: KubeObject): string | undefined => {
    const spec = obj.spec;
    return isObject(spec) && needsClusterIp(spec) && typeof spec.clusterIP === 'string' && inRange(spec.clusterIP)
      ? spec.clusterIP
      : undefined;
  };

  return {
    beginCreate: allocate,
    // A change of type to ExternalName gives the address back once written; one from ExternalName allocates.
    beginUpdate: async (next, old, dryRun) => {
      const address = held(old);
      const wantsAddress = isObject(next.spec) && needsClusterIp(next.spec);
      if (address !== undefined && !wantsAddress) {
        return dryRun ? NOTHING_TO_SETTLE : async (stored) => (stored ? release(address, ownerOf(old)) : undefined);
      }
      if (isObject(old.spec) && old.spec.type === 'ExternalName' && wantsAddress) return allocate(next, dryRun);
      return NOTHING_TO_SETTLE;
    },
    afterRemove: async (obj) => {
      const spec = obj.spec;
      if (!isObject(spec) || typeof spec.clusterIP !== 'string' || !inRange(spec.clusterIP)) return;
      await release(spec.clusterIP, ownerOf(obj));
    },
  };
}

/** The address of the `kubernetes` Service in the default namespace (the first usable address of the range). */
export const KUBERNETES_SERVICE_IP = toIp(RANGE_BASE + 1);
