import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type WaitForOptions, waitFor } from '../../src/embed/wait-for.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** The Endpoints and EndpointSlice controllers driven with kubectl on simulated nodes (issue 23, R12.125–R12.134). */

const rows = (output: string): string[] =>
  output
    .trim()
    .split('\n')
    .map((line) => line.trim().replace(/\s+/g, ' '));

const labelled = (
  name: string,
  labels: Record<string, string>,
  extra: { annotations?: Record<string, string>; ports?: string } = {},
): string => `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
  labels: ${JSON.stringify(labels)}
  annotations: ${JSON.stringify(extra.annotations ?? {})}
spec:
  containers: [{name: main, image: nginx${extra.ports === undefined ? '' : `, ports: ${extra.ports}`}}]
`;

const wait = <T>(check: () => Promise<T | undefined | false>, options: WaitForOptions = {}): Promise<T> =>
  waitFor(check, { timeoutMs: 20_000, intervalMs: 50, ...options });

describe('Endpoints and EndpointSlices of Services with kubectl (issue 23)', () => {
  let ts: TestServer;
  const json = async (args: string[]): Promise<any> => JSON.parse(await ts.kubectlOk([...args, '-o', 'json']));
  const slicesOf = async (service: string): Promise<any[]> =>
    (await json(['get', 'endpointslices', '-l', `kubernetes.io/service-name=${service}`])).items;
  const endpointsOf = async (service: string): Promise<any | undefined> => {
    const res = await ts.request('GET', `/api/v1/namespaces/default/endpoints/${service}`);
    return res.status === 200 ? res.json : undefined;
  };
  const readyIPs = async (service: string): Promise<string[]> =>
    ((await endpointsOf(service))?.subsets ?? []).flatMap((s: any) => (s.addresses ?? []).map((a: any) => a.ip)).sort();
  const webPods = async (): Promise<any[]> =>
    (await json(['get', 'pods', '-l', 'app=web'])).items.filter(
      (p: any) => p.status.podIP !== undefined && p.metadata.deletionTimestamp === undefined,
    );

  before(async () => {
    ts = await startTestServer({ simulateNodes: 3 });
  });
  after(async () => {
    await ts.stop();
  });

  it('a Deployment exposed as a Service gets one EndpointSlice and an Endpoints object with its 3 Ready pod IPs (R12.125–R12.131)', async () => {
    await ts.kubectlOk(['create', 'deployment', 'web', '--image=nginx', '--replicas=3']);
    await ts.kubectlOk(['expose', 'deployment', 'web', '--port=80']);
    const ips = await wait(
      async () => {
        const pods = await webPods();
        const ready = await readyIPs('web');
        return pods.length === 3 && ready.length === 3 && ready;
      },
      { what: 'three ready addresses' },
    );
    const pods = await webPods();
    assert.deepEqual(ips, pods.map((p) => p.status.podIP).sort());

    const table = rows(await ts.kubectlOk(['get', 'endpoints', 'web']));
    assert.equal(table[0], 'NAME ENDPOINTS AGE');
    assert.match(table[1] ?? '', new RegExp(`^web ${ips.map((ip) => `${ip.replace(/\./g, '\\.')}:80`).join(',')} \\S+$`));
    const endpoints = await endpointsOf('web');
    assert.deepEqual(endpoints.metadata.labels, { app: 'web' });
    assert.equal(endpoints.metadata.ownerReferences, undefined);
    assert.match(endpoints.metadata.annotations['endpoints.kubernetes.io/last-change-trigger-time'], /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.equal(endpoints.subsets.length, 1);
    assert.deepEqual(endpoints.subsets[0].ports, [{ port: 80, protocol: 'TCP' }]);
    const first = endpoints.subsets[0].addresses[0];
    const owner = pods.find((p) => p.status.podIP === first.ip);
    assert.deepEqual(first, {
      ip: owner.status.podIP,
      nodeName: owner.spec.nodeName,
      targetRef: { kind: 'Pod', namespace: 'default', name: owner.metadata.name, uid: owner.metadata.uid },
    });

    const slices = await slicesOf('web');
    assert.equal(slices.length, 1);
    const [slice] = slices;
    const service = await json(['get', 'service', 'web']);
    assert.match(slice.metadata.name, /^web-[a-z0-9]{5}$/);
    assert.equal(slice.metadata.generateName, 'web-');
    assert.deepEqual(slice.metadata.labels, {
      app: 'web',
      'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
      'kubernetes.io/service-name': 'web',
    });
    assert.deepEqual(slice.metadata.ownerReferences, [
      { apiVersion: 'v1', kind: 'Service', name: 'web', uid: service.metadata.uid, controller: true, blockOwnerDeletion: true },
    ]);
    assert.equal(slice.addressType, 'IPv4');
    assert.deepEqual(slice.ports, [{ name: '', protocol: 'TCP', port: 80 }]);
    assert.deepEqual(slice.endpoints.map((e: any) => e.addresses[0]).sort(), ips);
    for (const endpoint of slice.endpoints) {
      const pod = pods.find((p) => p.status.podIP === endpoint.addresses[0]);
      assert.deepEqual(endpoint, {
        addresses: [pod.status.podIP],
        conditions: { ready: true, serving: true, terminating: false },
        targetRef: { kind: 'Pod', namespace: 'default', name: pod.metadata.name, uid: pod.metadata.uid },
        nodeName: pod.spec.nodeName,
      });
    }
    const sliceTable = rows(await ts.kubectlOk(['get', 'endpointslices', '-l', 'kubernetes.io/service-name=web']));
    assert.equal(sliceTable[0], 'NAME ADDRESSTYPE PORTS ENDPOINTS AGE');
    assert.match(sliceTable[1] ?? '', new RegExp(`^${slice.metadata.name} IPv4 80 [0-9.,]+ \\S+$`));
  });

  it('scaling down and up changes the addresses in place: the same slice is updated (R12.132)', async () => {
    const [before] = await slicesOf('web');
    await ts.kubectlOk(['scale', 'deployment', 'web', '--replicas=1']);
    await wait(async () => (await readyIPs('web')).length === 1 && (await slicesOf('web'))[0]?.endpoints?.length === 1, {
      what: 'one address after scaling down',
    });
    await ts.kubectlOk(['scale', 'deployment', 'web', '--replicas=2']);
    await wait(async () => (await readyIPs('web')).length === 2, { what: 'two addresses after scaling up' });
    const after = await wait(async () => {
      const slices = await slicesOf('web');
      return slices.length === 1 && slices[0].endpoints?.length === 2 && slices;
    });
    assert.equal(after[0].metadata.name, before.metadata.name);
    assert.equal(after[0].metadata.uid, before.metadata.uid);
  });

  it('a pod that is not ready is a notReadyAddress and a not-ready, not-serving endpoint (R12.127, R12.131)', async () => {
    await ts.kubectlOk(['apply', '-f', '-'], {
      input: labelled('slow', { app: 'web' }, { annotations: { 'cascade.dev/simulate-ready-seconds': '3600' } }),
    });
    const slow = await wait(async () => {
      const pod = await json(['get', 'pod', 'slow']);
      return pod.status.podIP !== undefined && pod;
    });
    const notReady = await wait(async () => (await endpointsOf('web'))?.subsets?.[0]?.notReadyAddresses, { what: 'a notReadyAddress' });
    assert.deepEqual(
      notReady.map((a: any) => a.ip),
      [slow.status.podIP],
    );
    assert.equal((await readyIPs('web')).length, 2);
    const endpoint = await wait(async () => (await slicesOf('web'))[0]?.endpoints?.find((e: any) => e.targetRef.name === 'slow'));
    assert.deepEqual(endpoint.conditions, { ready: false, serving: false, terminating: false });
    await ts.kubectlOk(['delete', 'pod', 'slow', '--grace-period=0', '--force']);
    await wait(async () => (await endpointsOf('web'))?.subsets?.[0]?.notReadyAddresses === undefined, { what: 'slow gone' });
  });

  it('a terminating pod leaves Endpoints at once and stays in its slice as serving and terminating (R12.126, R12.131)', async () => {
    await ts.kubectlOk(['apply', '-f', '-'], {
      input: labelled('draining', { app: 'web' }, { annotations: { 'cascade.dev/simulate-termination-seconds': '30' } }),
    });
    await wait(async () => (await readyIPs('web')).length === 3, { what: 'draining ready' });
    await ts.kubectlOk(['delete', 'pod', 'draining', '--wait=false']);
    await wait(async () => (await readyIPs('web')).length === 2, { what: 'draining out of Endpoints' });
    const endpoint = await wait(async () => {
      const found = (await slicesOf('web'))[0]?.endpoints?.find((e: any) => e.targetRef.name === 'draining');
      return found?.conditions.terminating === true && found;
    });
    assert.deepEqual(endpoint.conditions, { ready: false, serving: true, terminating: true });
    await ts.kubectlOk(['delete', 'pod', 'draining', '--grace-period=0', '--force']);
  });

  it('a named targetPort resolves per pod; a pod without that port is left out of it (R12.128)', async () => {
    await ts.kubectlOk(['apply', '-f', '-'], {
      input: `${labelled('named-a', { app: 'named' }, { ports: '[{name: http, containerPort: 9376}]' })}---
${labelled('named-b', { app: 'named' }, { ports: '[{name: http, containerPort: 9377}]' })}---
${labelled('named-c', { app: 'named' })}---
apiVersion: v1
kind: Service
metadata: {name: named}
spec:
  selector: {app: named}
  ports: [{name: web, port: 8080, targetPort: http}]
`,
    });
    const subsets = await wait(
      async () => {
        const e = await endpointsOf('named');
        return e?.subsets?.length === 2 && e.subsets;
      },
      { what: 'two subsets' },
    );
    // One subset per resolved port, ordered by address; named-c has no `http` port and is in neither.
    assert.deepEqual(Object.fromEntries(subsets.map((s: any) => [s.addresses.map((a: any) => a.targetRef.name).join(), s.ports])), {
      'named-a': [{ name: 'web', port: 9376, protocol: 'TCP' }],
      'named-b': [{ name: 'web', port: 9377, protocol: 'TCP' }],
    });
    const firstIPs = subsets.map((s: any) => s.addresses[0].ip);
    assert.deepEqual(firstIPs, [...firstIPs].sort());
    const slices = await wait(
      async () => {
        const found = await slicesOf('named');
        return found.length === 3 && found.every((s) => s.endpoints?.length === 1) && found;
      },
      { what: 'one slice per port set' },
    );
    const byPod = Object.fromEntries(slices.map((s) => [s.endpoints[0].targetRef.name, s.ports]));
    assert.deepEqual(byPod, {
      'named-a': [{ name: 'web', protocol: 'TCP', port: 9376 }],
      'named-b': [{ name: 'web', protocol: 'TCP', port: 9377 }],
      'named-c': [],
    });
  });

  it('headless Services are labelled so; Services without a selector are left alone; an empty Service has a placeholder slice (R12.125, R12.133)', async () => {
    await ts.kubectlOk(['apply', '-f', '-'], {
      input: `apiVersion: v1
kind: Service
metadata: {name: headless}
spec: {clusterIP: None, selector: {app: web}}
---
apiVersion: v1
kind: Service
metadata: {name: manual}
spec: {ports: [{port: 80}]}
---
apiVersion: v1
kind: Service
metadata: {name: empty}
spec: {selector: {app: nothing}, ports: [{port: 80}]}
`,
    });
    const headless = await wait(
      async () => {
        const e = await endpointsOf('headless');
        return e?.subsets?.[0]?.addresses?.length === 2 && e;
      },
      { what: 'headless endpoints' },
    );
    assert.deepEqual(headless.metadata.labels, { 'service.kubernetes.io/headless': '' });
    assert.equal(headless.subsets[0].ports, undefined);
    const [headlessSlice] = await wait(async () => {
      const s = await slicesOf('headless');
      return s.length === 1 && s[0].endpoints?.length === 2 && s;
    });
    assert.equal(headlessSlice.metadata.labels['service.kubernetes.io/headless'], '');

    const [placeholder] = await wait(
      async () => {
        const s = await slicesOf('empty');
        return s.length === 1 && s;
      },
      { what: 'the placeholder slice' },
    );
    assert.equal(placeholder.endpoints?.length ?? 0, 0);
    assert.equal(placeholder.ports?.length ?? 0, 0);
    const empty = await wait(async () => endpointsOf('empty'), { what: 'an Endpoints object without subsets' });
    assert.equal(empty.subsets, undefined);

    assert.equal(await endpointsOf('manual'), undefined);
    assert.deepEqual(await slicesOf('manual'), []);
  });

  it('deleting the Service removes its Endpoints and, through the garbage collector, its slices (R12.125, R12.130)', async () => {
    await ts.kubectlOk(['delete', 'service', 'web']);
    await wait(async () => (await endpointsOf('web')) === undefined && (await slicesOf('web')).length === 0, {
      what: 'Endpoints and slices gone',
    });
    assert.equal(
      rows(await ts.kubectl(['get', 'endpoints', 'web']).then((r) => r.stderr))[0],
      'Error from server (NotFound): endpoints "web" not found',
    );
  });
});
