import type { KubeObject } from '../api/types.js';
import type { Backend } from '../storage/backend.js';
import { ETCD_CHECK_TIMEOUT_MS } from './health.js';

/** A probe's verdict, as pkg/probe reports it: Success, Failure, or Unknown when the probe itself failed. */
export interface ProbeResult {
  readonly result: 'Success' | 'Failure' | 'Unknown';
  readonly message: string;
  readonly error: string;
}

/** One control-plane component `kubectl get componentstatuses` reports on. */
export interface ComponentProbe {
  readonly name: string;
  probe(): Promise<ProbeResult>;
}

/** What the probes look at in this process. */
export interface ComponentProbeSources {
  /** Whether this process runs the scheduler now (it runs with --simulate-nodes, on the leader with --leader-elect). */
  readonly schedulerRunning: () => boolean;
  /** The storage backend; only a store outside the process (etcd) has a health check to fail. */
  readonly backend: Backend | undefined;
}

const OK: ProbeResult = { result: 'Success', message: 'ok', error: '' };

/**
 * The components kube-apiserver probes for ComponentStatus, in the order kubeadm clusters usually print them:
 * the scheduler, the controller manager and the storage (`etcd-0`, the first etcd server). Cascade embeds the
 * controller manager, so it is healthy while this server answers; the scheduler is healthy only where it runs; the
 * storage answers the same check as /healthz's `etcd`.
 */
export function componentProbes(sources: ComponentProbeSources): ComponentProbe[] {
  return [
    {
      name: 'scheduler',
      probe: async () =>
        sources.schedulerRunning()
          ? OK
          : {
              result: 'Unknown',
              message: '',
              error: 'no scheduler runs in this server: Cascade schedules pods only with --simulate-nodes',
            },
    },
    { name: 'controller-manager', probe: async () => OK },
    {
      name: 'etcd-0',
      probe: async () => {
        try {
          await sources.backend?.checkHealth?.(ETCD_CHECK_TIMEOUT_MS);
          return OK;
        } catch (err) {
          return { result: 'Failure', message: '', error: err instanceof Error ? err.message : String(err) };
        }
      },
    },
  ];
}

/** getComponentStatus: one Healthy condition whose status follows the probe's result; empty fields are omitted. */
export function componentStatus(name: string, probe: ProbeResult): KubeObject {
  const status = probe.result === 'Success' ? 'True' : probe.result === 'Failure' ? 'False' : 'Unknown';
  return {
    kind: 'ComponentStatus',
    apiVersion: 'v1',
    metadata: { name },
    conditions: [
      {
        type: 'Healthy',
        status,
        ...(probe.message === '' ? {} : { message: probe.message }),
        ...(probe.error === '' ? {} : { error: probe.error }),
      },
    ],
  };
}
