import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '../../src/embed/index.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const NS = 'quotas';

/** Lines of a kubectl table with runs of spaces collapsed. */
function rows(output: string): string[] {
  return output
    .trim()
    .split('\n')
    .map((line) => line.trim().replace(/\s+/g, ' '));
}

describe('core/v1 podtemplates, limitranges, resourcequotas and node.k8s.io/v1 runtimeclasses with kubectl (issue 31)', () => {
  let ts: TestServer;
  const k = (...args: string[]): Promise<string> => ts.kubectlOk([...args, '-n', NS]);
  const kIn = (input: unknown, ...args: string[]): Promise<string> => ts.kubectlOk([...args, '-n', NS], { input: JSON.stringify(input) });
  /** Runs kubectl expecting a refusal, and returns its stderr. */
  const refused = async (input: unknown, ...args: string[]): Promise<string> => {
    const r = await ts.kubectl([...args, '-n', NS], { input: JSON.stringify(input) });
    assert.notEqual(r.code, 0, r.stdout);
    return r.stderr;
  };

  before(async () => {
    ts = await startTestServer();
    await ts.kubectlOk(['create', 'namespace', NS]);
  });
  after(async () => {
    await ts.stop();
  });

  it('kubectl create quota; get quota prints Age, Request and Limit as "<resource>: <used>/<hard>"', async () => {
    assert.equal(await k('create', 'quota', 'q1', '--hard=pods=2,limits.cpu=2,requests.memory=1Gi'), 'resourcequota/q1 created\n');
    const table = rows(await k('get', 'quota'));
    assert.equal(table[0], 'NAME AGE REQUEST LIMIT');
    assert.match(table[1] ?? '', /^q1 \S+ pods: 0\/2, requests\.memory: 0\/1Gi limits\.cpu: 0\/2$/);
    const stored = JSON.parse(await k('get', 'resourcequota', 'q1', '-o', 'json'));
    assert.deepEqual(stored.spec, { hard: { 'limits.cpu': '2', pods: '2', 'requests.memory': '1Gi' } });
    // The resourcequota controller fills the status from the spec and what the namespace holds.
    const status = await waitFor(async () => JSON.parse(await k('get', 'resourcequota', 'q1', '-o', 'json')).status, { intervalMs: 100 });
    assert.deepEqual(status, {
      hard: { 'limits.cpu': '2', pods: '2', 'requests.memory': '1Gi' },
      used: { 'limits.cpu': '0', pods: '0', 'requests.memory': '0' },
    });
  });

  it('a quota with a negative or fractional count, or a malformed quantity, is refused with Kubernetes messages', async () => {
    const quota = (hard: Record<string, unknown>) => ({
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'bad' },
      spec: { hard },
    });
    const both = await refused(quota({ pods: '1500m', cpu: '-1' }), 'create', '-f', '-');
    assert.match(both, /The ResourceQuota "bad" is invalid: \n/);
    assert.match(both, /\* spec\.hard\[pods\]: Invalid value: "1500m": must be an integer\n/);
    assert.match(both, /\* spec\.hard\[cpu\]: Invalid value: "-1": must be greater than or equal to 0\n/);
    assert.match(await refused(quota({ cpu: 'lots' }), 'create', '-f', '-'), /quantities must match the regular expression/);
    assert.match(
      await refused(quota({ widgets: '1' }), 'create', '-f', '-'),
      /spec\.hard\[widgets\]: Invalid value: "widgets": must be a standard resource for quota/,
    );
    assert.equal(
      await k('create', 'quota', 'counts', '--hard=count/deployments.apps=3,requests.hugepages-2Mi=1Gi'),
      'resourcequota/counts created\n',
    );
  });

  it('kubectl apply of a LimitRange fills a Container item’s default and defaultRequest from max and min', async () => {
    const lr = {
      apiVersion: 'v1',
      kind: 'LimitRange',
      metadata: { name: 'lr' },
      spec: { limits: [{ type: 'Container', max: { cpu: '2', memory: '1Gi' }, min: { cpu: '100m' }, default: { memory: '512Mi' } }] },
    };
    assert.equal(await kIn(lr, 'apply', '-f', '-'), 'limitrange/lr created\n');
    const yaml = await k('get', 'limits', 'lr', '-o', 'yaml');
    assert.match(yaml, /default:\n\s+cpu: "2"\n\s+memory: 512Mi\n\s+defaultRequest:\n\s+cpu: "2"\n\s+memory: 512Mi\n/);
    const table = rows(await k('get', 'limitranges'));
    assert.equal(table[0], 'NAME CREATED AT');
    assert.match(await k('describe', 'limitrange', 'lr'), /Container\s+cpu\s+100m\s+2\s+2\s+2\s+-/);
    assert.match(table[1] ?? '', /^lr \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('a LimitRange whose bounds are out of order, or a Pod item with defaults, is refused', async () => {
    const lr = (item: Record<string, unknown>) => ({
      apiVersion: 'v1',
      kind: 'LimitRange',
      metadata: { name: 'bad' },
      spec: { limits: [item] },
    });
    assert.match(
      await refused(lr({ type: 'Container', min: { cpu: '500m' }, max: { cpu: '200m' } }), 'create', '-f', '-'),
      /spec\.limits\[0\]\.min\[cpu\]: Invalid value: "500m": min value 500m is greater than max value 200m/,
    );
    assert.match(
      await refused(lr({ type: 'Container', default: { cpu: '200m' }, defaultRequest: { cpu: '400m' } }), 'create', '-f', '-'),
      /spec\.limits\[0\]\.defaultRequest\[cpu\]: Invalid value: "400m": default request value 400m is greater than default limit value 200m/,
    );
    assert.match(
      await refused(lr({ type: 'Pod', default: { cpu: '1' } }), 'create', '-f', '-'),
      /spec\.limits\[0\]\.default: Forbidden: may not be specified when `type` is 'Pod'/,
    );
  });

  it('a PodTemplate gets the pod defaults and prints Containers, Images and Pod Labels', async () => {
    const pt = {
      apiVersion: 'v1',
      kind: 'PodTemplate',
      metadata: { name: 'web' },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          containers: [
            { name: 'c', image: 'nginx' },
            { name: 'd', image: 'busybox:1' },
          ],
        },
      },
    };
    assert.equal(await kIn(pt, 'apply', '-f', '-'), 'podtemplate/web created\n');
    assert.deepEqual(rows(await k('get', 'podtemplates')), ['NAME CONTAINERS IMAGES POD LABELS', 'web c,d nginx,busybox:1 app=web']);
    const stored = JSON.parse(await k('get', 'podtemplate', 'web', '-o', 'json'));
    assert.equal(stored.template.spec.restartPolicy, 'Always');
    assert.equal(stored.template.spec.containers[0].imagePullPolicy, 'Always');
    assert.equal(stored.template.spec.containers[1].imagePullPolicy, 'IfNotPresent');
    assert.equal(stored.metadata.generation, 1);
    await k('label', 'podtemplate', 'web', 'tier=front');
    assert.equal(JSON.parse(await k('get', 'podtemplate', 'web', '-o', 'json')).metadata.generation, 1);
    await kIn({ ...pt, template: { ...pt.template, metadata: { labels: { app: 'web2' } } } }, 'apply', '-f', '-');
    assert.equal(JSON.parse(await k('get', 'podtemplate', 'web', '-o', 'json')).metadata.generation, 2);
  });

  it('a RuntimeClass needs a DNS-label handler that never changes; get runtimeclass prints Handler', async () => {
    const rc = { apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: 'gvisor' }, handler: 'runsc' };
    assert.equal(await ts.kubectlOk(['apply', '-f', '-'], { input: JSON.stringify(rc) }), 'runtimeclass.node.k8s.io/gvisor created\n');
    const table = rows(await ts.kubectlOk(['get', 'runtimeclasses']));
    assert.equal(table[0], 'NAME HANDLER AGE');
    assert.match(table[1] ?? '', /^gvisor runsc \S+$/);
    const changed = await ts.kubectl(['apply', '-f', '-'], { input: JSON.stringify({ ...rc, handler: 'kata' }) });
    assert.match(changed.stderr, /The RuntimeClass "gvisor" is invalid: handler: Invalid value: "kata": field is immutable/);
    const bad = await ts.kubectl(['create', '-f', '-'], {
      input: JSON.stringify({ ...rc, metadata: { name: 'bad' }, handler: 'Not_A_Label' }),
    });
    assert.match(
      bad.stderr,
      /The RuntimeClass "bad" is invalid: handler: Invalid value: "Not_A_Label": a lowercase RFC 1123 label must consist of/,
    );
    const badSelector = await ts.kubectl(['create', '-f', '-'], {
      input: JSON.stringify({ ...rc, metadata: { name: 'sel' }, scheduling: { nodeSelector: { 'bad key!': 'x' } } }),
    });
    assert.match(
      badSelector.stderr,
      /scheduling\.nodeSelector: Invalid value: "bad key!": name part must consist of alphanumeric characters/,
    );
    await ts.kubectlOk(['delete', 'runtimeclass', 'gvisor']);
  });

  it('kubectl explain describes the new kinds from OpenAPI', async () => {
    assert.match(await ts.kubectlOk(['explain', 'resourcequota.spec']), /hard\t<map\[string\]Quantity>/);
    assert.match(await ts.kubectlOk(['explain', 'limitrange.spec.limits']), /defaultRequest\t<map\[string\]Quantity>/);
    assert.match(await ts.kubectlOk(['explain', 'runtimeclass.scheduling']), /tolerations\t<\[\]Toleration>/);
    assert.match(await ts.kubectlOk(['explain', 'podtemplate.template.spec.containers']), /image\t<string>/);
  });
});
