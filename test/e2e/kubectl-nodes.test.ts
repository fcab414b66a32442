import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '../../src/embed/wait-for.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

function rows(output: string): string[] {
  return output
    .trim()
    .split('\n')
    .map((line) => line.trim().replace(/\s+/g, ' '));
}

const pod = (name: string, extra: { annotations?: Record<string, string>; spec?: string } = {}): string => `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
  annotations: ${JSON.stringify(extra.annotations ?? {})}
spec:
${extra.spec ?? ''}
  containers: [{name: main, image: nginx}]
`;

describe('simulated nodes, the scheduler and simulated kubelets with kubectl (issue 24)', () => {
  let ts: TestServer;
  const getPod = async (name: string): Promise<any> => (await ts.request('GET', `/api/v1/namespaces/default/pods/${name}`)).json;
  before(async () => {
    ts = await startTestServer({ simulateNodes: 3 });
  });
  after(async () => {
    await ts.stop();
  });

  it('kubectl get nodes shows Ready kwok nodes, each with its Lease in kube-node-lease', async () => {
    await waitFor(
      async () =>
        !(await ts.kubectlOk(['get', 'nodes'])).includes('NotReady') && (await ts.kubectlOk(['get', 'nodes'])).split('Ready').length === 4,
      {
        what: 'three Ready nodes',
      },
    );
    const table = rows(await ts.kubectlOk(['get', 'nodes']));
    assert.equal(table[0], 'NAME STATUS ROLES AGE VERSION');
    assert.match(table[1] ?? '', /^kwok-node-0 Ready agent \S+ v1\.32\.0$/);
    const node = JSON.parse(await ts.kubectlOk(['get', 'node', 'kwok-node-1', '-o', 'json']));
    assert.deepEqual(node.status.allocatable, { cpu: '32', memory: '256Gi', pods: '110' });
    assert.equal(node.metadata.labels['kubernetes.io/hostname'], 'kwok-node-1');
    assert.equal(node.metadata.annotations['kwok.x-k8s.io/node'], 'fake');
    const lease = await waitFor(async () => {
      const res = await ts.request('GET', '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/kwok-node-1');
      return res.status === 200 && res.json;
    });
    assert.equal(lease.spec.holderIdentity, 'kwok-node-1');
    assert.equal(lease.spec.leaseDurationSeconds, 40);
    assert.deepEqual(lease.metadata.ownerReferences, [{ apiVersion: 'v1', kind: 'Node', name: 'kwok-node-1', uid: node.metadata.uid }]);
  });

  it('a pod is scheduled, started and becomes Ready; kubectl wait sees it', async () => {
    await ts.kubectlOk(['run', 'web', '--image=nginx']);
    await ts.kubectlOk(['wait', '--for=condition=Ready', 'pod/web', '--timeout=10s']);
    const web = await getPod('web');
    assert.match(web.spec.nodeName, /^kwok-node-\d$/);
    assert.equal(web.status.phase, 'Running');
    assert.deepEqual(
      web.status.conditions.map((c: any) => `${c.type}=${c.status}`),
      ['PodReadyToStartContainers=True', 'Initialized=True', 'Ready=True', 'ContainersReady=True', 'PodScheduled=True'],
    );
    assert.match(web.status.podIP, /^10\.244\.\d\.2$/);
    assert.equal(web.status.containerStatuses[0].state.running.startedAt, web.status.startTime);
    const events = await ts.kubectlOk(['get', 'events', '--field-selector=involvedObject.name=web', '-o', 'jsonpath={.items[*].message}']);
    assert.equal(events, `Successfully assigned default/web to ${web.spec.nodeName}`);
  });

  it("an unschedulable pod gets PodScheduled=False with kube-scheduler's message and a FailedScheduling event", async () => {
    await ts.kubectlOk(['apply', '-f', '-'], { input: pod('stuck', { spec: '  nodeSelector: {disk: ssd}' }) });
    const message =
      "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.";
    const condition = await waitFor(async () => (await getPod('stuck')).status.conditions?.find((c: any) => c.type === 'PodScheduled'));
    assert.deepEqual([condition.status, condition.reason, condition.message], ['False', 'Unschedulable', message]);
    const events = await ts.kubectlOk(['get', 'events', '--field-selector=reason=FailedScheduling', '-o', 'jsonpath={.items[0].message}']);
    assert.equal(events, message);
    // Labelling a node is a cluster change: the pod is retried and lands there.
    await ts.kubectlOk(['label', 'node', 'kwok-node-2', 'disk=ssd']);
    await ts.kubectlOk(['wait', '--for=condition=Ready', 'pod/stuck', '--timeout=10s']);
    assert.equal((await getPod('stuck')).spec.nodeName, 'kwok-node-2');
  });

  it('POST pods/binding binds once, then answers 409 as BindingREST does', async () => {
    await ts.kubectlOk(['apply', '-f', '-'], { input: pod('manual', { spec: '  schedulerName: my-scheduler' }) });
    const path = '/api/v1/namespaces/default/pods/manual/binding';
    const binding = { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'manual' }, target: { kind: 'Node', name: 'kwok-node-1' } };
    const bound = await ts.request('POST', path, binding);
    assert.equal(bound.status, 201, bound.text);
    assert.deepEqual(bound.json, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
    const again = await ts.request('POST', path, binding);
    assert.equal(again.status, 409);
    assert.equal(
      again.json.message,
      'Operation cannot be fulfilled on pods/binding "manual": pod manual is already assigned to node "kwok-node-1"',
    );
    const mismatch = await ts.request('POST', path, { ...binding, metadata: { name: 'other' } });
    assert.equal(mismatch.json.message, 'name in URL does not match name in Binding object');
    await ts.kubectlOk(['wait', '--for=condition=Ready', 'pod/manual', '--timeout=10s']);
  });

  it('the kubelet rejects a pod bound past the scheduler to a node it does not match (NodeAffinity)', async () => {
    await ts.kubectlOk(['apply', '-f', '-'], { input: pod('forced', { spec: '  nodeName: kwok-node-1\n  nodeSelector: {disk: hdd}' }) });
    await ts.kubectlOk(['wait', '--for=jsonpath={.status.phase}=Failed', 'pod/forced', '--timeout=10s']);
    const forced = await getPod('forced');
    assert.deepEqual([forced.status.reason, forced.status.message], ['NodeAffinity', 'Pod was rejected: Predicate NodeAffinity failed']);
  });

  it('cascade.dev/simulate-run-seconds makes a restartPolicy Never pod complete', async () => {
    await ts.kubectlOk(['apply', '-f', '-'], {
      input: pod('short', { annotations: { 'cascade.dev/simulate-run-seconds': '0.2' }, spec: '  restartPolicy: Never' }),
    });
    await ts.kubectlOk(['wait', '--for=jsonpath={.status.phase}=Succeeded', 'pod/short', '--timeout=10s']);
    const short = await getPod('short');
    assert.equal(short.status.containerStatuses[0].state.terminated.reason, 'Completed');
    assert.equal(short.status.conditions.find((c: any) => c.type === 'Ready').reason, 'PodCompleted');
  });

  it('a deleted pod stays Terminating for simulate-termination-seconds, then the kubelet removes it', async () => {
    await ts.kubectlOk(['apply', '-f', '-'], { input: pod('slow', { annotations: { 'cascade.dev/simulate-termination-seconds': '1' } }) });
    await ts.kubectlOk(['wait', '--for=condition=Ready', 'pod/slow', '--timeout=10s']);
    const start = performance.now();
    await ts.kubectlOk(['delete', 'pod', 'slow', '--wait=false']);
    const terminating = await getPod('slow');
    assert.equal(terminating.metadata.deletionGracePeriodSeconds, 30);
    await waitFor(async () => (await ts.request('GET', '/api/v1/namespaces/default/pods/slow')).status === 404, { what: 'slow gone' });
    const elapsed = performance.now() - start;
    assert.ok(elapsed >= 900 && elapsed < 3000, `removed after ${elapsed} ms`);
  });

  it('deleting a Node removes its pods (pod GC) and its Lease (garbage collector)', async () => {
    await ts.kubectlOk(['apply', '-f', '-'], { input: pod('pinned', { spec: '  nodeSelector: {kubernetes.io/hostname: kwok-node-0}' }) });
    await ts.kubectlOk(['wait', '--for=condition=Ready', 'pod/pinned', '--timeout=10s']);
    await ts.kubectlOk(['delete', 'node', 'kwok-node-0']);
    await waitFor(async () => (await ts.request('GET', '/api/v1/namespaces/default/pods/pinned')).status === 404, { what: 'pinned gone' });
    await waitFor(
      async () => (await ts.request('GET', '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/kwok-node-0')).status === 404,
      {
        what: 'the Lease gone',
      },
    );
  });
});
