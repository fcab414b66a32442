import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/test-server.js';

const PCS = '/apis/scheduling.k8s.io/v1/priorityclasses';

/** Lines of a kubectl table with runs of spaces collapsed and the Age column dropped (it moves with the clock). */
function rows(output: string): string[] {
  return output
    .trim()
    .split('\n')
    .map((line) => line.trim().replace(/\s+/g, ' '));
}

describe('scheduling.k8s.io/v1 PriorityClasses with kubectl (issue 31)', () => {
  let ts: TestServer;
  before(async () => {
    ts = await startTestServer();
  });
  after(async () => {
    await ts.stop();
  });

  it('the two system classes exist from the start, printed as kube-apiserver prints them', async () => {
    const table = rows(await ts.kubectlOk(['get', 'pc']));
    assert.equal(table[0], 'NAME VALUE GLOBAL-DEFAULT AGE PREEMPTIONPOLICY');
    assert.match(table[1] ?? '', /^system-cluster-critical 2000000000 false \S+ PreemptLowerPriority$/);
    assert.match(table[2] ?? '', /^system-node-critical 2000001000 false \S+ PreemptLowerPriority$/);
    const node = JSON.parse(await ts.kubectlOk(['get', 'priorityclass', 'system-node-critical', '-o', 'json']));
    assert.equal(node.description, 'Used for system critical pods that must not be moved from their current node.');
    assert.equal(node.metadata.generation, 1);
  });

  it('kubectl create priorityclass defaults preemptionPolicy; value and preemptionPolicy are immutable', async () => {
    await ts.kubectlOk(['create', 'priorityclass', 'high', '--value=1000', '--description=important']);
    const high = JSON.parse(await ts.kubectlOk(['get', 'pc', 'high', '-o', 'json']));
    assert.equal(high.value, 1000);
    assert.equal(high.preemptionPolicy, 'PreemptLowerPriority');
    assert.equal(high.description, 'important');
    const changed = await ts.request(
      'PATCH',
      `${PCS}/high`,
      { value: 5, preemptionPolicy: 'Never' },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    assert.equal(changed.status, 422);
    assert.equal(
      changed.json.message,
      'PriorityClass.scheduling.k8s.io "high" is invalid: [value: Forbidden: may not be changed in an update., preemptionPolicy: Invalid value: "Never": field is immutable]',
    );
    await ts.kubectlOk(['delete', 'pc', 'high']);
  });

  it('refuses reserved names, too high values and unknown preemption policies with Kubernetes messages', async () => {
    const create = async (body: Record<string, unknown>): Promise<{ status: number; message: string }> => {
      const res = await ts.request('POST', PCS, { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', ...body });
      return { status: res.status, message: res.json.message };
    };
    assert.deepEqual(await create({ metadata: { name: 'system-mine' }, value: 5 }), {
      status: 422,
      message:
        'PriorityClass.scheduling.k8s.io "system-mine" is invalid: metadata.name: Forbidden: priority class names with \'system-\' prefix are reserved for system use only. error: system-mine is not a known system priority class',
    });
    assert.deepEqual(await create({ metadata: { name: 'huge' }, value: 1000000001 }), {
      status: 422,
      message:
        'PriorityClass.scheduling.k8s.io "huge" is invalid: value: Forbidden: maximum allowed value of a user defined priority is 1000000000',
    });
    assert.deepEqual(await create({ metadata: { name: 'odd' }, value: 1, preemptionPolicy: 'Sometimes' }), {
      status: 422,
      message:
        'PriorityClass.scheduling.k8s.io "odd" is invalid: preemptionPolicy: Unsupported value: "Sometimes": supported values: "PreemptLowerPriority", "Never"',
    });
    const out = await ts.kubectl(['create', 'priorityclass', 'system-node-critical', '--value=1']);
    assert.notEqual(out.code, 0);
    assert.match(out.stderr, /value of system-node-critical PriorityClass must be 2000001000/);
  });

  it('a system class cannot be deleted', async () => {
    const out = await ts.kubectl(['delete', 'pc', 'system-cluster-critical']);
    assert.notEqual(out.code, 0);
    assert.match(
      out.stderr,
      /priorityclasses\.scheduling\.k8s\.io "system-cluster-critical" is forbidden: this is a system priority class and cannot be deleted/,
    );
    await ts.kubectlOk(['get', 'pc', 'system-cluster-critical']);
  });

  it('Priority admission: pods take the class value, the global default applies to pods without a class, one default only', async () => {
    await ts.kubectlOk(['create', 'priorityclass', 'batch-low', '--value=-10', '--global-default', '--preemption-policy=Never']);
    const second = await ts.kubectl(['create', 'priorityclass', 'other-default', '--value=3', '--global-default']);
    assert.notEqual(second.code, 0);
    assert.match(
      second.stderr,
      /priorityclasses\.scheduling\.k8s\.io "other-default" is forbidden: PriorityClass batch-low is already marked as default\. Only one default can exist/,
    );
    await ts.kubectlOk(['create', 'priorityclass', 'mid', '--value=50']);
    await ts.kubectlOk(['run', 'plain', '--image=nginx']);
    const plain = JSON.parse(await ts.kubectlOk(['get', 'pod', 'plain', '-o', 'json']));
    assert.equal(plain.spec.priorityClassName, 'batch-low');
    assert.equal(plain.spec.priority, -10);
    assert.equal(plain.spec.preemptionPolicy, 'Never');
    const mid = await ts.request('POST', '/api/v1/namespaces/default/pods', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'mid' },
      spec: { priorityClassName: 'mid', containers: [{ name: 'c', image: 'nginx' }] },
    });
    assert.equal(mid.status, 201, mid.text);
    assert.equal(mid.json.spec.priority, 50);
    assert.equal(mid.json.spec.preemptionPolicy, 'PreemptLowerPriority');
    const unknown = await ts.kubectl(['run', 'lost', '--image=nginx', '--overrides={"spec":{"priorityClassName":"nope"}}']);
    assert.match(unknown.stderr, /pods "lost" is forbidden: no PriorityClass with name nope was found/);
    await ts.kubectlOk(['delete', 'pod', 'plain', 'mid', '--wait=false']);
    await ts.kubectlOk(['delete', 'pc', 'batch-low', 'mid']);
  });

  it('kubectl explain and api-resources know the kind', async () => {
    const explain = await ts.kubectlOk(['explain', 'priorityclass']);
    assert.match(explain, /^KIND:\s+PriorityClass$/m);
    assert.match(explain, /^GROUP:\s+scheduling\.k8s\.io$/m);
    assert.match(explain, /^\s+value\s+<integer> -required-$/m);
    const resources = rows(await ts.kubectlOk(['api-resources', '--api-group=scheduling.k8s.io', '-o', 'wide']));
    assert.deepEqual(resources.slice(1), [
      'priorityclasses pc scheduling.k8s.io/v1 false PriorityClass create,delete,deletecollection,get,list,patch,update,watch',
    ]);
  });
});
