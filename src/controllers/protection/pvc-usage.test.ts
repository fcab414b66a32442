import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/types.js';
import { claimsToRecheck, isPodTerminated, podPVCIndexFunc, podUsesPVC } from './pvc-usage.js';

const pvc = (name: string, extra: Partial<KubeObject['metadata']> = {}): KubeObject => ({ metadata: { name, namespace: 'ns', ...extra } });

function pod(options: { nodeName?: string; phase?: string; volumes?: unknown[]; meta?: Partial<KubeObject['metadata']> } = {}): KubeObject {
  return {
    metadata: { name: 'web', namespace: 'ns', uid: 'pod-uid', ...options.meta },
    spec: { nodeName: options.nodeName, volumes: options.volumes ?? [{ name: 'data', persistentVolumeClaim: { claimName: 'claim' } }] },
    status: options.phase === undefined ? {} : { phase: options.phase },
  };
}

describe('R6.5 which pods use a PVC', () => {
  it('only a scheduled pod uses its claim', () => {
    assert.equal(podUsesPVC(pod(), pvc('claim'), true), false);
    assert.equal(podUsesPVC(pod({ nodeName: 'node-1' }), pvc('claim'), true), true);
    assert.equal(podUsesPVC(pod({ nodeName: 'node-1' }), pvc('other'), true), false);
  });

  it('D15: a finished pod still counts, unless finished pods are not counted', () => {
    for (const phase of ['Succeeded', 'Failed']) {
      assert.equal(podUsesPVC(pod({ nodeName: 'n', phase }), pvc('claim'), true), true);
      assert.equal(podUsesPVC(pod({ nodeName: 'n', phase }), pvc('claim'), false), false);
    }
    assert.equal(podUsesPVC(pod({ nodeName: 'n', phase: 'Running' }), pvc('claim'), false), true);
  });

  it('a generic ephemeral volume uses the claim "<pod>-<volume>" the pod owns, until the pod is shut down', () => {
    const eph = { volumes: [{ name: 'scratch', ephemeral: { volumeClaimTemplate: {} } }], nodeName: 'n' };
    const owned = pvc('web-scratch', {
      ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'web', uid: 'pod-uid', controller: true }],
    });
    assert.equal(podUsesPVC(pod(eph), owned, true), true);
    assert.equal(podUsesPVC(pod(eph), pvc('web-scratch'), true), false);
    const shutDown = pod({ ...eph, meta: { deletionTimestamp: '2024-01-01T00:00:00Z', deletionGracePeriodSeconds: 0 } });
    assert.equal(podUsesPVC(shutDown, owned, true), false);
    // A persistentVolumeClaim volume counts even on a shut-down pod, as in Kubernetes.
    const shutDownPvc = pod({ nodeName: 'n', meta: { deletionTimestamp: '2024-01-01T00:00:00Z', deletionGracePeriodSeconds: 0 } });
    assert.equal(podUsesPVC(shutDownPvc, pvc('claim'), true), true);
  });

  it('indexes pods by every claim they refer to', () => {
    const p = pod({
      volumes: [
        { name: 'a', persistentVolumeClaim: { claimName: 'c1' } },
        { name: 'b', ephemeral: {} },
        { name: 'c', emptyDir: {} },
      ],
    });
    assert.deepEqual(podPVCIndexFunc(p), ['ns/c1', 'ns/web-b']);
  });
});

describe('R6.6 which pod events re-check claims', () => {
  it('a running scheduled pod re-checks nothing; deleted, terminated or unscheduled pods re-check their claims', () => {
    assert.deepEqual(claimsToRecheck(pod({ nodeName: 'n', phase: 'Running' }), false), []);
    assert.deepEqual(claimsToRecheck(pod({ nodeName: 'n', phase: 'Running' }), true), ['ns/claim']);
    assert.deepEqual(claimsToRecheck(pod({ nodeName: 'n', phase: 'Succeeded' }), false), ['ns/claim']);
    assert.deepEqual(claimsToRecheck(pod(), false), ['ns/claim']);
  });

  it('a deleted pod is terminated once no container is running', () => {
    const deleting = { deletionTimestamp: '2024-01-01T00:00:00Z' };
    const running: KubeObject = { ...pod({ nodeName: 'n', meta: deleting }), status: { containerStatuses: [{ state: { running: {} } }] } };
    const stopped: KubeObject = {
      ...pod({ nodeName: 'n', meta: deleting }),
      status: { containerStatuses: [{ state: { terminated: { exitCode: 0 } } }] },
    };
    assert.equal(isPodTerminated(running), false);
    assert.equal(isPodTerminated(stopped), true);
  });
});
