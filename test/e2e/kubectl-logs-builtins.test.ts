import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '../../src/embed/wait-for.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const WIDGET_CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {replicas: {type: integer}}}
          status: {type: object, properties: {replicas: {type: integer}, selector: {type: string}}}
    subresources:
      status: {}
      scale: {specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas, labelSelectorPath: .status.selector}
`;

const DEPRECATED = 'Warning: v1 ComponentStatus is deprecated in v1.19+';

/** A pod manifest for `kubectl apply -f -`. */
const pod = (name: string, spec: string, annotations: Record<string, string> = {}): string => `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
  annotations: ${JSON.stringify(annotations)}
spec:
${spec}
`;

const rows = (output: string): string[] =>
  output
    .trim()
    .split('\n')
    .map((line) => line.trim().replace(/\s+/g, ' '));

describe('componentstatuses, bindings and pods/log with simulated nodes (issue 31)', () => {
  let ts: TestServer;
  const getPod = async (name: string): Promise<any> => (await ts.request('GET', `/api/v1/namespaces/default/pods/${name}`)).json;
  const running = (name: string) =>
    waitFor(async () => (await getPod(name)).status?.containerStatuses?.every((c: any) => c.ready === true), {
      what: `${name} ready`,
    });
  before(async () => {
    ts = await startTestServer({ simulateNodes: 1 });
  });
  after(async () => {
    await ts.stop();
  });

  it('kubectl get cs reports the scheduler, the controller manager and the storage with the deprecation warning', async () => {
    const res = await ts.kubectl(['get', 'cs']);
    assert.equal(res.code, 0, res.stderr);
    assert.deepEqual(rows(res.stdout), [
      'NAME STATUS MESSAGE ERROR',
      'scheduler Healthy ok',
      'controller-manager Healthy ok',
      'etcd-0 Healthy ok',
    ]);
    assert.equal(res.stderr.trim(), DEPRECATED);
    const one = JSON.parse(await ts.kubectlOk(['get', 'componentstatuses', 'etcd-0', '-o', 'json']));
    assert.deepEqual(one, {
      kind: 'ComponentStatus',
      apiVersion: 'v1',
      metadata: { name: 'etcd-0' },
      conditions: [{ type: 'Healthy', status: 'True', message: 'ok' }],
    });
    const missing = await ts.kubectl(['get', 'cs', 'kube-proxy']);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /Error from server \(NotFound\): componentstatus "kube-proxy" not found/);
    const byName = await ts.kubectlOk(['get', 'cs', '--field-selector=metadata.name=scheduler', '-o', 'name']);
    assert.equal(byName.trim(), 'componentstatus/scheduler');
  });

  it('POST bindings binds the pod the Binding names, as pods/binding does; a second binding is a conflict', async () => {
    await ts.kubectlOk(['apply', '-f', '-'], {
      input: pod('unscheduled', '  schedulerName: nobody\n  containers: [{name: main, image: nginx}]'),
    });
    const binding = JSON.stringify({
      apiVersion: 'v1',
      kind: 'Binding',
      metadata: { name: 'unscheduled' },
      target: { name: 'kwok-node-0' },
    });
    const created = await ts.request('POST', '/api/v1/namespaces/default/bindings', binding);
    assert.equal(created.status, 201);
    assert.deepEqual(created.json, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
    assert.equal((await getPod('unscheduled')).spec.nodeName, 'kwok-node-0');
    const again = await ts.request('POST', '/api/v1/namespaces/default/bindings', binding);
    assert.equal(again.status, 409);
    assert.equal(
      again.json.message,
      'Operation cannot be fulfilled on pods/binding "unscheduled": pod unscheduled is already assigned to node "kwok-node-0"',
    );
    const unnamed = await ts.request(
      'POST',
      '/api/v1/namespaces/default/bindings',
      JSON.stringify({ apiVersion: 'v1', kind: 'Binding', target: { name: 'x' } }),
    );
    assert.equal(unnamed.status, 400);
    // kubectl create -f of a Binding posts to the same resource; kubectl prints the Success Status BindingREST answers.
    await ts.kubectlOk(['apply', '-f', '-'], {
      input: pod('parked', '  schedulerName: nobody\n  containers: [{name: main, image: nginx}]'),
    });
    const viaKubectl = JSON.stringify({ apiVersion: 'v1', kind: 'Binding', metadata: { name: 'parked' }, target: { name: 'kwok-node-0' } });
    assert.match(await ts.kubectlOk(['create', '-f', '-'], { input: viaKubectl }), /^status\/<unknown> created\n$/);
    assert.equal((await getPod('parked')).spec.nodeName, 'kwok-node-0');
    await ts.kubectlOk(['delete', 'pod', 'unscheduled', 'parked', '--grace-period=0', '--force']);
  });

  it('kubectl logs prints what the simulated container wrote; --timestamps, --tail and --limit-bytes cut it', async () => {
    await ts.kubectlOk(['run', 'web', '--image=nginx']);
    await running('web');
    assert.equal(
      await ts.kubectlOk(['logs', 'web']),
      '[simulated] container web started from image nginx\n[simulated] container web is ready\n',
    );
    const stamped = (await ts.kubectlOk(['logs', 'web', '--timestamps'])).split('\n');
    assert.match(stamped[0] ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000000000Z \[simulated\] container web started from image nginx$/);
    assert.equal(await ts.kubectlOk(['logs', 'web', '--tail=1']), '[simulated] container web is ready\n');
    assert.equal(await ts.kubectlOk(['logs', 'web', '--limit-bytes=11']), '[simulated]');
    assert.equal(
      await ts.kubectlOk(['logs', 'web', '--since=1h']),
      '[simulated] container web started from image nginx\n[simulated] container web is ready\n',
    );
    const invalid = await ts.request('GET', '/api/v1/namespaces/default/pods/web/log?tailLines=-1');
    assert.equal(invalid.status, 422);
    assert.equal(invalid.json.message, 'PodLogOptions "web" is invalid: tailLines: Invalid value: -1: must be greater than or equal to 0');
    const noPrevious = await ts.kubectl(['logs', 'web', '--previous']);
    assert.match(noPrevious.stderr, /Error from server \(BadRequest\): previous terminated container "web" in pod "web" not found/);
  });

  it('a pod with several containers needs a container name; an unknown one is refused', async () => {
    await ts.kubectlOk(['apply', '-f', '-'], { input: pod('multi', '  containers: [{name: a, image: nginx}, {name: b, image: busybox}]') });
    await running('multi');
    const unnamed = await ts.request('GET', '/api/v1/namespaces/default/pods/multi/log');
    assert.equal(unnamed.status, 400);
    assert.equal(unnamed.json.message, 'a container name must be specified for pod multi, choose one of: [a b]');
    assert.equal(await ts.kubectlOk(['logs', 'multi', '-c', 'b', '--tail=1']), '[simulated] container b is ready\n');
    // kubectl checks the name against the pod it fetched before asking, with the server's words.
    const unknown = await ts.kubectl(['logs', 'multi', '-c', 'c']);
    assert.equal(unknown.code, 1);
    assert.equal(unknown.stderr.trim(), 'error: container c is not valid for pod multi');
    const asked = await ts.request('GET', '/api/v1/namespaces/default/pods/multi/log?container=c');
    assert.deepEqual([asked.status, asked.json.message], [400, 'container c is not valid for pod multi']);
  });

  it('kubectl logs -f streams until the container exits; -p reads the run before a restart', async () => {
    await ts.kubectlOk(['run', 'once', '--image=busybox', '--restart=Never', '--annotations=cascade.dev/simulate-run-seconds=2']);
    await waitFor(async () => (await getPod('once')).status?.containerStatuses?.[0]?.state?.running, { what: 'once running' });
    const followed = await ts.kubectlOk(['logs', '-f', 'once']);
    assert.deepEqual(followed.trim().split('\n'), [
      '[simulated] container once started from image busybox',
      '[simulated] container once is ready',
      '[simulated] container once exited with code 0 (Completed)',
    ]);
    await ts.kubectlOk([
      'run',
      'again',
      '--image=busybox',
      '--annotations=cascade.dev/simulate-run-seconds=1',
      '--annotations=cascade.dev/simulate-exit-code=3',
    ]);
    await waitFor(async () => (await getPod('again')).status?.containerStatuses?.[0]?.restartCount >= 1, {
      what: 'a restart',
      timeoutMs: 10_000,
    });
    const previous = await ts.kubectlOk(['logs', 'again', '-p']);
    assert.match(previous, /\[simulated\] container again exited with code 3 \(Error\)\n$/);
  });

  it('kubectl logs deployment/web picks one of its pods', async () => {
    await ts.kubectlOk(['create', 'deployment', 'site', '--image=nginx']);
    await waitFor(
      async () => (await ts.request('GET', '/apis/apps/v1/namespaces/default/deployments/site')).json.status?.readyReplicas === 1,
      {
        what: 'site ready',
        timeoutMs: 10_000,
      },
    );
    assert.equal(await ts.kubectlOk(['logs', 'deployment/site', '--tail=1']), '[simulated] container nginx is ready\n');
  });

  it('a pod bound to a node without a kubelet is waiting to start; an unscheduled pod has an empty log', async () => {
    await ts.kubectlOk(['apply', '-f', '-'], { input: 'apiVersion: v1\nkind: Node\nmetadata:\n  name: bare\n' });
    await ts.kubectlOk(['apply', '-f', '-'], { input: pod('stranded', '  nodeName: bare\n  containers: [{name: app, image: nginx}]') });
    const waiting = await ts.kubectl(['logs', 'stranded']);
    assert.equal(waiting.code, 1);
    assert.equal(
      waiting.stderr.trim(),
      'Error from server (BadRequest): container "app" in pod "stranded" is waiting to start: ContainerCreating',
    );
    await ts.kubectlOk(['apply', '-f', '-'], {
      input: pod('nowhere', '  schedulerName: nobody\n  containers: [{name: app, image: nginx}]'),
    });
    assert.equal(await ts.kubectlOk(['logs', 'nowhere']), '');
  });

  it('evictions: preconditions, unhealthyPodEvictionPolicy AlwaysAllow for an unready pod, and the DisruptionTarget condition', async () => {
    const annotations = { 'cascade.dev/simulate-ready-seconds': '600', 'cascade.dev/simulate-termination-seconds': '60' };
    const manifest = pod('unready', '  containers: [{name: app, image: nginx}]', annotations).replace(
      'metadata:\n',
      'metadata:\n  labels: {app: ev}\n',
    );
    await ts.kubectlOk(['apply', '-f', '-'], { input: manifest });
    await waitFor(async () => (await getPod('unready')).status?.phase === 'Running', { what: 'unready running' });
    const evict = (deleteOptions?: object) =>
      ts.request('POST', '/api/v1/namespaces/default/pods/unready/eviction', {
        apiVersion: 'policy/v1',
        kind: 'Eviction',
        metadata: { name: 'unready' },
        ...(deleteOptions === undefined ? {} : { deleteOptions }),
      });
    const misnamed = await ts.request('POST', '/api/v1/namespaces/default/pods/unready/eviction', {
      apiVersion: 'policy/v1',
      kind: 'Eviction',
      metadata: { name: 'other' },
    });
    assert.deepEqual([misnamed.status, misnamed.json.message], [400, 'name in URL does not match name in Eviction object']);
    const uid = (await getPod('unready')).metadata.uid;
    const wrongUid = await evict({ preconditions: { uid: 'bogus' } });
    assert.equal(wrongUid.status, 409);
    assert.equal(
      wrongUid.json.message,
      `Operation cannot be fulfilled on Pod "unready": the UID in the precondition (bogus) does not match the UID in record (${uid}). The object might have been deleted and then recreated`,
    );
    await ts.kubectlOk(['create', 'pdb', 'ev', '--selector=app=ev', '--min-available=1']);
    const budget = async (): Promise<any> => (await ts.request('GET', '/apis/policy/v1/namespaces/default/poddisruptionbudgets/ev')).json;
    await waitFor(async () => (await budget()).status?.observedGeneration === 1, { what: 'budget observed' });
    // IfHealthyBudget (the default): the budget is not healthy, so the unready pod stays.
    const refused = await evict();
    assert.equal(refused.status, 429);
    assert.equal(refused.json.details.causes[0].message, 'The disruption budget ev needs 1 healthy pods and has 0 currently');
    await ts.kubectlOk(['patch', 'pdb', 'ev', '--type=merge', '-p', '{"spec":{"unhealthyPodEvictionPolicy":"AlwaysAllow"}}']);
    const allowed = await evict();
    assert.equal(allowed.status, 201, allowed.text);
    const evicted = await getPod('unready');
    assert.ok(evicted.metadata.deletionTimestamp);
    const target = evicted.status.conditions.find((c: any) => c.type === 'DisruptionTarget');
    assert.deepEqual([target.status, target.reason, target.message], ['True', 'EvictionByEvictionAPI', 'Eviction API: evicting']);
    await ts.kubectlOk(['delete', 'pod', 'unready', '--grace-period=0', '--force']);
    await ts.kubectlOk(['delete', 'pdb', 'ev']);
  });

  it('kubectl rollout status and rollout undo follow the deployment controller on simulated nodes', async () => {
    await ts.kubectlOk(['create', 'deployment', 'roll', '--image=nginx:1.27']);
    const done = await ts.kubectlOk(['rollout', 'status', 'deployment/roll', '--timeout=20s'], {});
    assert.match(done, /deployment "roll" successfully rolled out\n$/);
    await ts.kubectlOk(['set', 'image', 'deployment/roll', 'nginx=nginx:1.28']);
    assert.match(await ts.kubectlOk(['rollout', 'status', 'deployment/roll', '--timeout=20s']), /successfully rolled out\n$/);
    assert.equal(await ts.kubectlOk(['rollout', 'undo', 'deployment/roll']), 'deployment.apps/roll rolled back\n');
    assert.match(await ts.kubectlOk(['rollout', 'status', 'deployment/roll', '--timeout=20s']), /successfully rolled out\n$/);
    const image = await ts.kubectlOk(['get', 'deployment', 'roll', '-o', 'jsonpath={.spec.template.spec.containers[0].image}']);
    assert.equal(image, 'nginx:1.27');
  });

  it('kubectl drain with the default grace period waits for the simulated kubelet to stop the pods', async () => {
    const drain = await ts.kubectl(['drain', 'kwok-node-0', '--ignore-daemonsets', '--force', '--timeout=30s'], { timeoutMs: 40_000 });
    assert.equal(drain.code, 0, drain.stderr);
    assert.match(drain.stdout, /^node\/kwok-node-0 cordoned\n/);
    assert.match(drain.stdout, /pod\/web evicted\n/);
    assert.match(drain.stdout, /node\/kwok-node-0 drained\n$/);
    const left = JSON.parse(await ts.kubectlOk(['get', 'pods', '--field-selector=spec.nodeName=kwok-node-0', '-o', 'json'])).items;
    assert.deepEqual(left, []);
    await ts.kubectlOk(['uncordon', 'kwok-node-0']);
  });

  it('the HPA controller reads and writes its target through /scale, so a custom resource with a scale subresource is autoscaled', async () => {
    await ts.kubectlOk(['apply', '-f', '-'], { input: WIDGET_CRD });
    await waitFor(async () => (await ts.kubectl(['get', 'widgets'])).code === 0, { what: 'widgets served' });
    await ts.kubectlOk(['apply', '-f', '-'], {
      input: 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  replicas: 1\n',
    });
    const hpa = {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'w' },
      spec: { scaleTargetRef: { apiVersion: 'example.com/v1', kind: 'Widget', name: 'w' }, minReplicas: 3, maxReplicas: 4 },
    };
    await ts.kubectlOk(['apply', '-f', '-'], { input: JSON.stringify(hpa) });
    const replicas = await waitFor(
      async () => {
        const out = await ts.kubectlOk(['get', 'widget', 'w', '-o', 'jsonpath={.spec.replicas}']);
        return out === '3' ? out : undefined;
      },
      { what: 'the widget scaled to minReplicas', timeoutMs: 10_000, intervalMs: 100 },
    );
    assert.equal(replicas, '3');
    await ts.kubectlOk(['delete', 'hpa', 'w']);
    await ts.kubectlOk(['delete', 'crd', 'widgets.example.com']);
  });
});
