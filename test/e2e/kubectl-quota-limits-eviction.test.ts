import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '../../src/embed/index.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** A pod manifest with one container and the given resources. */
function pod(name: string, resources: Record<string, unknown> = {}): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: { containers: [{ name: 'app', image: 'nginx', resources }] },
  });
}

describe('ResourceQuota and LimitRanger admission, the resourcequota controller, eviction and the disruption controller with kubectl (issue 31)', () => {
  let ts: TestServer;
  const k = (ns: string, ...args: string[]): Promise<string> => ts.kubectlOk([...args, '-n', ns]);
  /** Runs kubectl expecting a refusal; returns its stderr without the trailing newline. */
  const refused = async (ns: string, input: string | undefined, ...args: string[]): Promise<string> => {
    const r = await ts.kubectl([...args, '-n', ns], input === undefined ? {} : { input });
    assert.notEqual(r.code, 0, r.stdout);
    return r.stderr.trim();
  };
  const used = async (ns: string, name: string): Promise<Record<string, string> | undefined> =>
    JSON.parse(await k(ns, 'get', 'resourcequota', name, '-o', 'json')).status?.used;

  before(async () => {
    // Two simulated nodes: pods become Ready (a budget counts ready pods) and `kubectl drain` has a node to empty.
    ts = await startTestServer({ simulateNodes: 2 });
    for (const ns of ['quota', 'counts', 'limits']) await ts.kubectlOk(['create', 'namespace', ns]);
  });
  after(async () => {
    await ts.stop();
  });

  it('refuses pods without the requests and limits a quota tracks, then pods beyond it, with exact messages; status.used follows', async () => {
    await k('quota', 'create', 'quota', 'compute', '--hard=pods=2,requests.cpu=1,requests.memory=1Gi,limits.cpu=2,limits.memory=2Gi');
    await waitFor(() => used('quota', 'compute'), { intervalMs: 100 });
    assert.equal(
      await refused('quota', pod('bare'), 'create', '-f', '-'),
      'Error from server (Forbidden): error when creating "STDIN": pods "bare" is forbidden: failed quota: compute: must specify ' +
        'limits.cpu for: app; limits.memory for: app; requests.cpu for: app; requests.memory for: app',
    );
    const sized = (cpu: string) => ({ requests: { cpu, memory: '256Mi' }, limits: { cpu, memory: '512Mi' } });
    await ts.kubectlOk(['create', '-f', '-', '-n', 'quota'], { input: pod('a', sized('600m')) });
    assert.deepEqual(await used('quota', 'compute'), {
      'limits.cpu': '600m',
      'limits.memory': '512Mi',
      pods: '1',
      'requests.cpu': '600m',
      'requests.memory': '256Mi',
    });
    assert.equal(
      await refused('quota', pod('b', sized('500m')), 'create', '-f', '-'),
      'Error from server (Forbidden): error when creating "STDIN": pods "b" is forbidden: exceeded quota: compute, ' +
        'requested: requests.cpu=500m, used: requests.cpu=600m, limited: requests.cpu=1',
    );
    // Deleting the pod gives its usage back (the controller recomputes on the deletion).
    await k('quota', 'delete', 'pod', 'a', '--grace-period=0', '--force');
    await waitFor(async () => (await used('quota', 'compute'))?.pods === '0', { intervalMs: 100 });
    await ts.kubectlOk(['create', '-f', '-', '-n', 'quota'], { input: pod('b', sized('500m')) });
    const table = (await k('quota', 'get', 'quota', 'compute')).trim().split('\n')[1]?.replace(/\s+/g, ' ');
    assert.match(
      table ?? '',
      /^compute \S+ pods: 1\/2, requests\.cpu: 500m\/1, requests\.memory: 256Mi\/1Gi limits\.cpu: 500m\/2, limits\.memory: 512Mi\/2Gi$/,
    );
  });

  it('charges concurrent creates one by one: exactly the quota’s count gets in', async () => {
    await k('counts', 'create', 'quota', 'objects', '--hard=configmaps=3,count/secrets=1');
    await waitFor(() => used('counts', 'objects'), { intervalMs: 100 });
    const creates = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        ts.request('POST', '/api/v1/namespaces/counts/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}` } }),
      ),
    );
    assert.deepEqual(creates.map((r) => r.status).sort(), [201, 201, 201, 403, 403, 403]);
    const refusal = creates.find((r) => r.status === 403);
    assert.match(
      refusal?.json.message,
      /^configmaps "cm-\d" is forbidden: exceeded quota: objects, requested: configmaps=1, used: configmaps=3, limited: configmaps=3$/,
    );
    assert.equal((await used('counts', 'objects'))?.configmaps, '3');
    await k('counts', 'create', 'secret', 'generic', 'one');
    assert.equal(
      await refused('counts', undefined, 'create', 'secret', 'generic', 'two'),
      'error: failed to create secret secrets "two" is forbidden: exceeded quota: objects, requested: count/secrets=1, used: count/secrets=1, limited: count/secrets=1',
    );
  });

  it('LimitRange defaults show on a created pod, and its bounds refuse with Kubernetes’ messages', async () => {
    const limitRange = {
      apiVersion: 'v1',
      kind: 'LimitRange',
      metadata: { name: 'bounds' },
      spec: {
        limits: [
          {
            type: 'Container',
            max: { cpu: '1' },
            default: { cpu: '500m', memory: '256Mi' },
            defaultRequest: { cpu: '200m', memory: '128Mi' },
          },
          { type: 'PersistentVolumeClaim', max: { storage: '2Gi' } },
        ],
      },
    };
    await ts.kubectlOk(['apply', '-f', '-', '-n', 'limits'], { input: JSON.stringify(limitRange) });
    await waitFor(async () => (await ts.kubectl(['run', 'defaulted', '--image=nginx', '-n', 'limits'])).code === 0, { intervalMs: 100 });
    const created = JSON.parse(await k('limits', 'get', 'pod', 'defaulted', '-o', 'json'));
    assert.deepEqual(created.spec.containers[0].resources, {
      limits: { cpu: '500m', memory: '256Mi' },
      requests: { cpu: '200m', memory: '128Mi' },
    });
    assert.equal(
      created.metadata.annotations['kubernetes.io/limit-ranger'],
      'LimitRanger plugin set: cpu, memory request for container defaulted; cpu, memory limit for container defaulted',
    );
    assert.equal(
      await refused('limits', pod('big', { limits: { cpu: '2' } }), 'create', '-f', '-'),
      'Error from server (Forbidden): error when creating "STDIN": pods "big" is forbidden: maximum cpu usage per Container is 1, but limit is 2',
    );
    const claim = {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'data' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '5Gi' } } },
    };
    assert.equal(
      await refused('limits', JSON.stringify(claim), 'create', '-f', '-'),
      'Error from server (Forbidden): error when creating "STDIN": persistentvolumeclaims "data" is forbidden: maximum storage usage per PersistentVolumeClaim is 2Gi, but request is 5Gi',
    );
  });

  it('evictions honour a PodDisruptionBudget: 429 while it allows none, then kubectl drain evicts within it', async () => {
    await ts.kubectlOk(['create', 'deployment', 'web', '--image=nginx', '--replicas=2']);
    await ts.kubectlOk(['create', 'pdb', 'web', '--selector=app=web', '--min-available=2']);
    const status = async (): Promise<Record<string, unknown>> =>
      JSON.parse(await ts.kubectlOk(['get', 'pdb', 'web', '-o', 'jsonpath={.status}']));
    await waitFor(async () => (await status()).currentHealthy === 2, { intervalMs: 100, timeoutMs: 10_000 });
    assert.deepEqual(await status(), {
      conditions: [
        {
          type: 'DisruptionAllowed',
          status: 'False',
          observedGeneration: 1,
          lastTransitionTime: ((await status()).conditions as { lastTransitionTime: string }[])[0]?.lastTransitionTime,
          reason: 'InsufficientPods',
          message: '',
        },
      ],
      currentHealthy: 2,
      desiredHealthy: 2,
      disruptionsAllowed: 0,
      expectedPods: 2,
      observedGeneration: 1,
    });
    const pods = JSON.parse(await ts.kubectlOk(['get', 'pods', '-l', 'app=web', '-o', 'json'])).items as { metadata: { name: string } }[];
    const victim = pods[0]?.metadata.name ?? '';
    const eviction = { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: victim, namespace: 'default' } };
    const refused = await ts.request('POST', `/api/v1/namespaces/default/pods/${victim}/eviction`, eviction);
    assert.equal(refused.status, 429);
    assert.deepEqual(refused.json, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: "Cannot evict pod as it would violate the pod's disruption budget.",
      reason: 'TooManyRequests',
      details: { causes: [{ reason: 'DisruptionBudget', message: 'The disruption budget web needs 2 healthy pods and has 2 currently' }] },
      code: 429,
    });
    // With one disruption allowed, the eviction takes it (recorded in disruptedPods) and deletes the pod.
    await ts.kubectlOk(['patch', 'pdb', 'web', '--type=merge', '-p', '{"spec":{"minAvailable":1}}']);
    await waitFor(async () => (await status()).disruptionsAllowed === 1, { intervalMs: 100 });
    const allowed = await ts.request('POST', `/api/v1/namespaces/default/pods/${victim}/eviction`, eviction);
    assert.equal(allowed.status, 201, allowed.text);
    await waitFor(async () => (await ts.kubectl(['get', 'pod', victim])).code !== 0, { intervalMs: 100 });
    // Once the replacement is Ready again, drain empties a node one eviction at a time.
    await waitFor(async () => (await status()).disruptionsAllowed === 1, { intervalMs: 100, timeoutMs: 10_000 });
    const node = JSON.parse(await ts.kubectlOk(['get', 'pods', '-l', 'app=web', '-o', 'json'])).items[0].spec.nodeName as string;
    const drain = await ts.kubectl(['drain', node, '--ignore-daemonsets', '--pod-selector=app=web', '--timeout=20s'], {
      timeoutMs: 30_000,
    });
    assert.equal(drain.code, 0, drain.stderr);
    const drained = drain.stdout;
    assert.match(drained, new RegExp(`^node/${node} cordoned\n`));
    assert.match(drained, /pod\/web-\S+ evicted\n/);
    assert.match(drained, new RegExp(`node/${node} drained\n$`));
    await ts.kubectlOk(['delete', 'deployment', 'web']);
    await ts.kubectlOk(['delete', 'pdb', 'web']);
  });
});
