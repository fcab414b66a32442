import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * kubectl against the storage, quota and policy validation of issues 30 and 31: the messages are kube-apiserver
 * 1.32's (ValidatePersistentVolumeClaim*, ValidatePersistentVolume*, ValidatePodDisruptionBudgetSpec).
 */

const VALID = `apiVersion: v1
kind: PersistentVolume
metadata:
  name: pv-ok
spec:
  capacity:
    storage: 1Gi
  accessModes: [ReadWriteOnce]
  hostPath:
    path: /data/pv-ok
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: data
  namespace: default
spec:
  accessModes: [ReadWriteOnce]
  storageClassName: ""
  resources:
    requests:
      storage: 1Gi
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: web
  namespace: default
spec:
  minAvailable: 1
  selector:
    matchLabels:
      app: web
`;

const INVALID = `apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: negative
  namespace: default
spec:
  accessModes: [ReadWriteOnce]
  resources:
    requests:
      storage: -1Gi
---
apiVersion: v1
kind: PersistentVolume
metadata:
  name: no-capacity
spec:
  accessModes: [ReadWriteOnce]
  hostPath:
    path: /data/x
---
apiVersion: v1
kind: PersistentVolume
metadata:
  name: two-sources
spec:
  capacity:
    storage: 1Gi
  accessModes: [ReadWriteOnce]
  hostPath:
    path: /data/y
  nfs:
    server: nfs.example.com
    path: /exports
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: bad-selector
  namespace: default
spec:
  maxUnavailable: 1
  selector:
    matchExpressions:
    - key: app
      operator: In
---
apiVersion: v1
kind: ResourceQuota
metadata:
  name: conflicting
  namespace: default
spec:
  hard:
    pods: "10"
  scopes: [Terminating, NotTerminating]
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: bad-peer
  namespace: default
spec:
  podSelector: {}
  ingress:
  - from:
    - namespaceSelector:
        matchLabels:
          team: "a b"
`;

describe('storage and policy validation with kubectl (issues 30, 31)', () => {
  let ts: TestServer;
  before(async () => {
    ts = await startTestServer();
  });
  after(async () => {
    await ts.stop();
  });

  it('accepts a valid PersistentVolume, PersistentVolumeClaim and PodDisruptionBudget', async () => {
    const out = await ts.kubectlOk(['apply', '-f', '-'], { input: VALID });
    assert.match(out, /^persistentvolume\/pv-ok created$/m);
    assert.match(out, /^persistentvolumeclaim\/data created$/m);
    assert.match(out, /^poddisruptionbudget\.policy\/web created$/m);
  });

  it("prints Kubernetes' Invalid messages for a -1Gi claim, a volume without capacity or with two sources, a bad PDB or peer selector, conflicting quota scopes", async () => {
    const r = await ts.kubectl(['apply', '-f', '-'], { input: INVALID });
    assert.notEqual(r.code, 0);
    assert.match(
      r.stderr,
      /Error from server \(Invalid\): error when creating "STDIN": PersistentVolumeClaim "negative" is invalid: spec\.resources\[storage\]: Invalid value: "-1Gi": must be greater than zero/,
    );
    assert.match(
      r.stderr,
      /error when creating "STDIN": PersistentVolume "no-capacity" is invalid: \[spec\.capacity: Required value, spec\.capacity: Unsupported value: core\.ResourceList\(nil\): supported values: "storage"\]/,
    );
    assert.match(
      r.stderr,
      /error when creating "STDIN": PersistentVolume "two-sources" is invalid: spec\.nfs: Forbidden: may not specify more than 1 volume type/,
    );
    assert.match(
      r.stderr,
      /error when creating "STDIN": PodDisruptionBudget\.policy "bad-selector" is invalid: spec\.selector\.matchExpressions\[0\]\.values: Required value: must be specified when `operator` is 'In' or 'NotIn'/,
    );
    assert.match(
      r.stderr,
      /ResourceQuota "conflicting" is invalid: spec\.scopes: Invalid value: \[\]core\.ResourceQuotaScope\{"Terminating", "NotTerminating"\}: conflicting scopes/,
    );
    assert.match(
      r.stderr,
      /NetworkPolicy\.networking\.k8s\.io "bad-peer" is invalid: spec\.ingress\[0\]\.from\[0\]\.namespaceSelector\.matchLabels: Invalid value: "a b": a valid label must be/,
    );
  });

  it('refuses a change of the claim spec', async () => {
    const r = await ts.kubectl(['patch', 'pvc', 'data', '--type=merge', '-p', '{"spec":{"accessModes":["ReadWriteMany"]}}']);
    assert.notEqual(r.code, 0);
    assert.match(
      r.stderr,
      /The PersistentVolumeClaim "data" is invalid: spec: Forbidden: spec is immutable after creation except resources\.requests and volumeAttributesClassName for bound claims\n {2}core\.PersistentVolumeClaimSpec\{/,
    );
  });
});
