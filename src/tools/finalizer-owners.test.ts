import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { finalizerOwner } from './finalizer-owners.js';

describe('finalizerOwner', () => {
  const cases: [string, string | undefined, boolean][] = [
    ['kubernetes', 'namespace controller', true],
    ['orphan', 'garbage collector', true],
    ['foregroundDeletion', 'garbage collector', true],
    ['customresourcecleanup.apiextensions.k8s.io', 'apiextensions server (CRD finalizer)', true],
    ['kubernetes.io/pvc-protection', 'PVC protection controller', false],
    ['kubernetes.io/pv-protection', 'PV protection controller', false],
    ['batch.kubernetes.io/job-tracking', 'Job controller', false],
    ['external-attacher/csi-hostpath', 'CSI external-attacher', false],
    ['resources-finalizer.argocd.argoproj.io', 'Argo CD application controller', false],
    ['machine.cluster.x-k8s.io', 'Cluster API controllers', false],
    ['kubeadm.controlplane.cluster.x-k8s.io', 'Cluster API controllers', false],
    ['example.com/hold', undefined, false],
    ['notcluster.x-k8s.io', undefined, false],
  ];
  for (const [finalizer, component, inCascade] of cases) {
    it(`${finalizer} → ${component ?? 'unknown'}`, () => {
      const owner = finalizerOwner(finalizer);
      assert.equal(owner?.component, component);
      assert.equal(owner?.inCascade ?? false, inCascade);
    });
  }
});
