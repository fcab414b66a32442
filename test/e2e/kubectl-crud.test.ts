import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '../../src/embed/index.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const NS = 'crud';

function configMapYaml(name: string, data: Record<string, string>, labels: Record<string, string> = {}): string {
  const labelLines = Object.entries(labels).map(([k, v]) => `    ${k}: "${v}"`);
  return [
    'apiVersion: v1',
    'kind: ConfigMap',
    'metadata:',
    `  name: ${name}`,
    ...(labelLines.length > 0 ? ['  labels:', ...labelLines] : []),
    'data:',
    ...Object.entries(data).map(([k, v]) => `  ${k}: "${v}"`),
    '',
  ].join('\n');
}

function deployment(name: string, replicas: number, image = 'nginx:1.27'): object {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, labels: { app: name } },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'main', image }] },
      },
    },
  };
}

describe('kubectl CRUD against Cascade', () => {
  let ts: TestServer;
  const k = (...args: string[]): Promise<string> => ts.kubectlOk([...args, '-n', NS]);
  const kIn = (input: string, ...args: string[]): Promise<string> => ts.kubectlOk([...args, '-n', NS], { input });
  const getJson = async (resource: string, name: string): Promise<any> => JSON.parse(await k('get', resource, name, '-o', 'json'));
  const assertGone = async (resource: string, name: string): Promise<void> => {
    const r = await ts.kubectl(['get', resource, name, '-n', NS]);
    assert.notEqual(r.code, 0, `${resource}/${name} still exists`);
    assert.match(r.stderr, /NotFound|not found/);
  };

  before(async () => {
    ts = await startTestServer();
    await ts.kubectlOk(['create', '-f', '-'], { input: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } }) });
  });
  after(async () => {
    await ts.stop();
  });

  describe('configmaps', () => {
    it('create -f, get in every output format, describe, delete', async () => {
      assert.equal(
        await kIn(configMapYaml('cm-basic', { color: 'blue', size: 'xl' }, { app: 'shop' }), 'create', '-f', '-'),
        'configmap/cm-basic created\n',
      );

      const obj = await getJson('configmap', 'cm-basic');
      assert.equal(obj.kind, 'ConfigMap');
      assert.equal(obj.apiVersion, 'v1');
      assert.equal(obj.metadata.namespace, NS);
      assert.deepEqual(obj.data, { color: 'blue', size: 'xl' });
      assert.match(obj.metadata.uid, /^[0-9a-f-]{36}$/);
      assert.match(obj.metadata.resourceVersion, /^\d+$/);

      const yamlOut = await k('get', 'cm', 'cm-basic', '-o', 'yaml');
      assert.match(yamlOut, /^apiVersion: v1$/m);
      assert.match(yamlOut, /^kind: ConfigMap$/m);
      assert.match(yamlOut, /^ {2}color: blue$/m);
      assert.match(yamlOut, /^ {2}name: cm-basic$/m);

      assert.equal(await k('get', 'cm', 'cm-basic', '-o', 'jsonpath={.data.color}/{.metadata.labels.app}'), 'blue/shop');
      assert.equal(await k('get', 'cm', 'cm-basic', '-o', 'name'), 'configmap/cm-basic\n');

      const table = (await k('get', 'cm', 'cm-basic')).trim().split('\n');
      assert.deepEqual(table[0]?.split(/\s+/), ['NAME', 'DATA', 'AGE']);
      assert.deepEqual(table[1]?.split(/\s+/).slice(0, 2), ['cm-basic', '2']);
      const wide = (await k('get', 'cm', 'cm-basic', '-o', 'wide', '--show-labels')).trim().split('\n');
      assert.deepEqual(wide[0]?.split(/\s+/), ['NAME', 'DATA', 'AGE', 'LABELS']);
      assert.equal(wide[1]?.split(/\s+/)[3], 'app=shop');

      const described = await k('describe', 'configmap', 'cm-basic');
      assert.match(described, /^Name:\s+cm-basic$/m);
      assert.match(described, /^Namespace:\s+crud$/m);
      assert.match(described, /^Labels:\s+app=shop$/m);
      assert.match(described, /^color:\n----\nblue$/m);

      assert.equal(await k('delete', 'cm', 'cm-basic'), 'configmap "cm-basic" deleted\n');
      await assertGone('cm', 'cm-basic');
    });

    it('apply creates, then updates a changed field', async () => {
      assert.equal(await kIn(configMapYaml('cm-apply', { mode: 'one' }), 'apply', '-f', '-'), 'configmap/cm-apply created\n');
      const first = await getJson('cm', 'cm-apply');
      assert.ok(
        first.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'],
        'apply records its last-applied configuration',
      );

      assert.equal(
        await kIn(configMapYaml('cm-apply', { mode: 'two', extra: 'x' }), 'apply', '-f', '-'),
        'configmap/cm-apply configured\n',
      );
      const second = await getJson('cm', 'cm-apply');
      assert.deepEqual(second.data, { mode: 'two', extra: 'x' });
      assert.notEqual(second.metadata.resourceVersion, first.metadata.resourceVersion);
      assert.equal(second.metadata.uid, first.metadata.uid);

      // Re-applying the same manifest changes nothing (R1.5: identical writes are no-ops).
      assert.equal(await kIn(configMapYaml('cm-apply', { mode: 'two', extra: 'x' }), 'apply', '-f', '-'), 'configmap/cm-apply unchanged\n');
      assert.equal((await getJson('cm', 'cm-apply')).metadata.resourceVersion, second.metadata.resourceVersion);

      // A key dropped from the manifest is removed because it is in last-applied.
      await kIn(configMapYaml('cm-apply', { mode: 'two' }), 'apply', '-f', '-');
      assert.deepEqual((await getJson('cm', 'cm-apply')).data, { mode: 'two' });

      await k('delete', 'cm', 'cm-apply');
    });

    it('replace -f swaps the whole object', async () => {
      await kIn(configMapYaml('cm-replace', { a: '1', b: '2' }), 'create', '-f', '-');
      assert.equal(await kIn(configMapYaml('cm-replace', { c: '3' }), 'replace', '-f', '-'), 'configmap/cm-replace replaced\n');
      assert.deepEqual((await getJson('cm', 'cm-replace')).data, { c: '3' });
      await k('delete', 'cm', 'cm-replace');
    });

    it('patch --type=json, --type=merge and the default strategic merge patch', async () => {
      await kIn(configMapYaml('cm-patch', { a: '1', b: '2' }), 'create', '-f', '-');

      assert.equal(
        await k(
          'patch',
          'cm',
          'cm-patch',
          '--type=json',
          '-p',
          '[{"op":"replace","path":"/data/a","value":"10"},{"op":"remove","path":"/data/b"}]',
        ),
        'configmap/cm-patch patched\n',
      );
      assert.deepEqual((await getJson('cm', 'cm-patch')).data, { a: '10' });

      await k('patch', 'cm', 'cm-patch', '--type=merge', '-p', '{"data":{"c":"3","a":null}}');
      assert.deepEqual((await getJson('cm', 'cm-patch')).data, { c: '3' });

      await k('patch', 'cm', 'cm-patch', '-p', '{"data":{"d":"4"}}');
      assert.deepEqual((await getJson('cm', 'cm-patch')).data, { c: '3', d: '4' });

      // A patch that changes nothing reports so.
      assert.equal(
        await k('patch', 'cm', 'cm-patch', '--type=merge', '-p', '{"data":{"d":"4"}}'),
        'configmap/cm-patch patched (no change)\n',
      );

      const failed = await ts.kubectl([
        'patch',
        'cm',
        'cm-patch',
        '-n',
        NS,
        '--type=json',
        '-p',
        '[{"op":"test","path":"/data/c","value":"nope"}]',
      ]);
      assert.notEqual(failed.code, 0);
      assert.deepEqual((await getJson('cm', 'cm-patch')).data, { c: '3', d: '4' });

      await k('delete', 'cm', 'cm-patch');
    });

    it('label and annotate add and remove keys', async () => {
      await kIn(configMapYaml('cm-meta', { a: '1' }), 'create', '-f', '-');

      assert.equal(await k('label', 'cm', 'cm-meta', 'foo=bar', 'tier=web'), 'configmap/cm-meta labeled\n');
      assert.deepEqual((await getJson('cm', 'cm-meta')).metadata.labels, { foo: 'bar', tier: 'web' });
      const overwrite = await ts.kubectl(['label', 'cm', 'cm-meta', 'foo=baz', '-n', NS]);
      assert.notEqual(overwrite.code, 0, 'changing a label needs --overwrite');
      await k('label', 'cm', 'cm-meta', 'foo=baz', '--overwrite');
      assert.equal((await getJson('cm', 'cm-meta')).metadata.labels.foo, 'baz');
      assert.equal(await k('label', 'cm', 'cm-meta', 'foo-'), 'configmap/cm-meta unlabeled\n');
      assert.deepEqual((await getJson('cm', 'cm-meta')).metadata.labels, { tier: 'web' });

      assert.equal(await k('annotate', 'cm', 'cm-meta', 'note=hello world'), 'configmap/cm-meta annotated\n');
      assert.equal((await getJson('cm', 'cm-meta')).metadata.annotations.note, 'hello world');
      await k('annotate', 'cm', 'cm-meta', 'note-');
      assert.equal((await getJson('cm', 'cm-meta')).metadata.annotations?.note, undefined);

      await k('delete', 'cm', 'cm-meta');
    });

    it('selects by label and by field', async () => {
      await kIn(configMapYaml('sel-a', { n: '1' }, { app: 'x' }), 'create', '-f', '-');
      await kIn(configMapYaml('sel-b', { n: '2' }, { app: 'x' }), 'create', '-f', '-');
      await kIn(configMapYaml('sel-c', { n: '3' }, { app: 'y' }), 'create', '-f', '-');

      assert.equal(await k('get', 'cm', '-l', 'app=x', '-o', 'name'), 'configmap/sel-a\nconfigmap/sel-b\n');
      assert.equal(await k('get', 'cm', '-l', 'app!=x,app', '-o', 'name'), 'configmap/sel-c\n');
      assert.equal(await k('get', 'cm', '-l', 'app in (x,y)', '-o', 'name'), 'configmap/sel-a\nconfigmap/sel-b\nconfigmap/sel-c\n');
      assert.equal(await k('get', 'cm', '--field-selector', 'metadata.name=sel-b', '-o', 'name'), 'configmap/sel-b\n');
      assert.equal(
        await k('get', 'cm', '--field-selector', 'metadata.name!=sel-b', '-l', 'app', '-o', 'name'),
        'configmap/sel-a\nconfigmap/sel-c\n',
      );
      const none = await ts.kubectl(['get', 'cm', '-l', 'app=z', '-n', NS]);
      assert.equal(none.code, 0);
      assert.equal(none.stdout, '');
      assert.match(none.stderr, /No resources found in crud namespace\./);

      await k('delete', 'cm', '-l', 'app in (x,y)');
      assert.equal(await k('get', 'cm', '-l', 'app', '-o', 'name'), '');
    });

    it('--dry-run=server validates but persists nothing', async () => {
      assert.equal(
        await kIn(configMapYaml('cm-dry', { a: '1' }), 'create', '-f', '-', '--dry-run=server'),
        'configmap/cm-dry created (server dry run)\n',
      );
      await assertGone('cm', 'cm-dry');
      const out = JSON.parse(await kIn(configMapYaml('cm-dry', { a: '1' }), 'apply', '-f', '-', '--dry-run=server', '-o', 'json'));
      assert.equal(out.metadata.name, 'cm-dry');
      assert.ok(out.metadata.uid, 'the dry-run response is the object as it would be stored');
      await assertGone('cm', 'cm-dry');

      await kIn(configMapYaml('cm-dry', { a: '1' }), 'create', '-f', '-');
      await k('patch', 'cm', 'cm-dry', '--type=merge', '-p', '{"data":{"a":"2"}}', '--dry-run=server');
      await k('delete', 'cm', 'cm-dry', '--dry-run=server');
      assert.deepEqual((await getJson('cm', 'cm-dry')).data, { a: '1' });
      await k('delete', 'cm', 'cm-dry');
    });

    it('creating in a missing namespace fails with NotFound for the namespace', async () => {
      const r = await ts.kubectl(['create', '-f', '-', '-n', 'nope'], { input: configMapYaml('orphan', { a: '1' }) });
      assert.notEqual(r.code, 0);
      assert.match(r.stderr, /namespaces "nope" not found/);
    });
  });

  describe('secrets', () => {
    it('create -f, get, describe hides values, apply, patch, delete', async () => {
      const secret = {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'creds' },
        type: 'Opaque',
        data: { user: Buffer.from('admin').toString('base64') },
      };
      assert.equal(await kIn(JSON.stringify(secret), 'create', '-f', '-'), 'secret/creds created\n');
      const table = (await k('get', 'secret', 'creds')).trim().split('\n');
      assert.deepEqual(table[0]?.split(/\s+/), ['NAME', 'TYPE', 'DATA', 'AGE']);
      assert.deepEqual(table[1]?.split(/\s+/).slice(0, 3), ['creds', 'Opaque', '1']);
      assert.equal(Buffer.from(await k('get', 'secret', 'creds', '-o', 'jsonpath={.data.user}'), 'base64').toString(), 'admin');

      const described = await k('describe', 'secret', 'creds');
      assert.match(described, /^Type:\s+Opaque$/m);
      assert.match(described, /^user:\s+5 bytes$/m);
      assert.doesNotMatch(described, /admin/);

      await k(
        'patch',
        'secret',
        'creds',
        '--type=merge',
        '-p',
        JSON.stringify({ data: { pass: Buffer.from('s3cret').toString('base64') } }),
      );
      assert.deepEqual(Object.keys((await getJson('secret', 'creds')).data).sort(), ['pass', 'user']);

      await k('delete', 'secret', 'creds');
      await assertGone('secret', 'creds');
    });

    it('stringData is merged into data on write', async () => {
      const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'strdata' }, stringData: { token: 'abc' } };
      try {
        await kIn(JSON.stringify(secret), 'apply', '-f', '-');
        const stored = await getJson('secret', 'strdata');
        assert.equal(stored.type, 'Opaque', 'type defaults to Opaque');
        assert.deepEqual(stored.data, { token: Buffer.from('abc').toString('base64') });
        assert.equal(stored.stringData, undefined, 'stringData is write-only');
      } finally {
        await k('delete', 'secret', 'strdata', '--ignore-not-found');
      }
    });

    it('an invalid data value is rejected', async () => {
      const bad = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'bad' }, data: { 'not a key!': 'YQ==' } };
      try {
        const r = await ts.kubectl(['create', '-f', '-', '-n', NS], { input: JSON.stringify(bad) });
        assert.notEqual(r.code, 0);
        assert.match(
          r.stderr,
          /Secret "bad" is invalid: data\[not a key!\]: Invalid value: "not a key!": a valid config key must consist of alphanumeric characters/,
        );
        await assertGone('secret', 'bad');
      } finally {
        await k('delete', 'secret', 'bad', '--ignore-not-found');
      }
    });
  });

  describe('deployments', () => {
    it('create -f, get -o wide, describe, apply bumps generation on spec changes only', async () => {
      assert.equal(await kIn(JSON.stringify(deployment('web', 2)), 'create', '-f', '-'), 'deployment.apps/web created\n');
      const created = await getJson('deploy', 'web');
      assert.equal(created.metadata.generation, 1);
      assert.equal(created.spec.replicas, 2);

      const wide = (await k('get', 'deploy', 'web', '-o', 'wide')).trim().split('\n');
      assert.deepEqual(wide[0]?.split(/\s{2,}/), ['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE', 'CONTAINERS', 'IMAGES', 'SELECTOR']);
      const row = wide[1]?.split(/\s+/) ?? [];
      assert.deepEqual([row[0], row[1], row[5], row[6], row[7]], ['web', '0/2', 'main', 'nginx:1.27', 'app=web']);

      // The Deployment controller reports its ReplicaSet's two pods, which never become ready without a kubelet.
      await waitFor(async () => (await getJson('deploy', 'web')).status?.updatedReplicas === 2);
      const described = await k('describe', 'deployment', 'web');
      assert.match(described, /^Name:\s+web$/m);
      assert.match(described, /^Selector:\s+app=web$/m);
      assert.match(described, /^Replicas:\s+2 desired \| 2 updated \| 2 total \| 0 available \| 2 unavailable$/m);
      assert.match(described, /^\s+Image:\s+nginx:1\.27$/m);

      // `apply` over an object created without last-applied still works (kubectl warns and patches).
      assert.equal(await kIn(JSON.stringify(deployment('web', 3)), 'apply', '-f', '-'), 'deployment.apps/web configured\n');
      const applied = await getJson('deploy', 'web');
      assert.equal(applied.spec.replicas, 3);
      assert.equal(applied.metadata.generation, 2, 'a spec change bumps generation (R1.9)');

      await k('label', 'deploy', 'web', 'team=a');
      assert.equal((await getJson('deploy', 'web')).metadata.generation, 2, 'a metadata-only change leaves generation alone');

      await k('delete', 'deployment', 'web');
      await assertGone('deploy', 'web');
    });

    it('strategic merge patch adds a container by name and keeps the existing one', async () => {
      await kIn(JSON.stringify(deployment('sidecar', 1)), 'apply', '-f', '-');
      assert.equal(
        await k(
          'patch',
          'deploy',
          'sidecar',
          '-p',
          '{"spec":{"template":{"spec":{"containers":[{"name":"proxy","image":"envoy:1.30"}]}}}}',
        ),
        'deployment.apps/sidecar patched\n',
      );
      const patched = await getJson('deploy', 'sidecar');
      assert.deepEqual(
        patched.spec.template.spec.containers.map((c: { name: string; image: string }) => [c.name, c.image]),
        [
          ['proxy', 'envoy:1.30'],
          ['main', 'nginx:1.27'],
        ],
      );
      assert.equal(patched.metadata.generation, 2);

      // Patching an existing container by name changes only that entry.
      await k('patch', 'deploy', 'sidecar', '-p', '{"spec":{"template":{"spec":{"containers":[{"name":"main","image":"nginx:1.28"}]}}}}');
      const images = (
        await k('get', 'deploy', 'sidecar', '-o', 'jsonpath={range .spec.template.spec.containers[*]}{.name}={.image} {end}')
      ).trim();
      assert.equal(images, 'proxy=envoy:1.30 main=nginx:1.28');

      await k('patch', 'deploy', 'sidecar', '--type=json', '-p', '[{"op":"replace","path":"/spec/replicas","value":5}]');
      assert.equal((await getJson('deploy', 'sidecar')).spec.replicas, 5);

      await k('delete', 'deploy', 'sidecar');
    });

    it('replace -f with a changed template', async () => {
      await kIn(JSON.stringify(deployment('rep', 1)), 'create', '-f', '-');
      assert.equal(await kIn(JSON.stringify(deployment('rep', 1, 'httpd:2.4')), 'replace', '-f', '-'), 'deployment.apps/rep replaced\n');
      const replaced = await getJson('deploy', 'rep');
      assert.equal(replaced.spec.template.spec.containers[0].image, 'httpd:2.4');
      assert.equal(replaced.metadata.generation, 2);
      await k('delete', 'deploy', 'rep');
    });

    it('kubectl get all shows deployments', async () => {
      await kIn(JSON.stringify(deployment('everything', 1)), 'create', '-f', '-');
      const out = await k('get', 'all');
      assert.match(out, /^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE$/m);
      assert.match(out, /^deployment\.apps\/everything\s+0\/1\s+/m);
      // As on a cluster, the Deployment's ReplicaSet and pod are part of "all" (selected by the app label, so the
      // dependents of the previous test, still being collected, are left out).
      const names = await waitFor(async () => {
        const out = await k('get', 'all', '-l', 'app=everything', '-o', 'name');
        return out.split('\n').length === 4 && out;
      });
      assert.match(
        names,
        /^pod\/everything-[a-z0-9]+-[a-z0-9]{5}\ndeployment\.apps\/everything\nreplicaset\.apps\/everything-[a-z0-9]+\n$/,
      );
      await k('delete', 'deploy', 'everything');
    });
  });

  describe('short names', () => {
    it('cm, deploy, rs and sa resolve to their resources', async () => {
      await kIn(configMapYaml('short', { a: '1' }), 'create', '-f', '-');
      await kIn(JSON.stringify(deployment('short', 1)), 'create', '-f', '-');
      await kIn(JSON.stringify({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'short' } }), 'create', '-f', '-');
      const rs = {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: { name: 'short' },
        spec: {
          replicas: 0,
          selector: { matchLabels: { app: 'rs' } },
          template: { metadata: { labels: { app: 'rs' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } },
        },
      };
      await kIn(JSON.stringify(rs), 'create', '-f', '-');

      assert.equal(await k('get', 'cm/short', '-o', 'name'), 'configmap/short\n');
      assert.equal(await k('get', 'deploy/short', '-o', 'name'), 'deployment.apps/short\n');
      assert.equal(await k('get', 'rs', 'short', '-o', 'name'), 'replicaset.apps/short\n');
      assert.equal(await k('get', 'sa', 'short', '-o', 'name'), 'serviceaccount/short\n');
      assert.equal(
        await k('get', 'cm,deploy,rs,sa', '-o', 'name', '--field-selector', 'metadata.name=short'),
        'configmap/short\ndeployment.apps/short\nreplicaset.apps/short\nserviceaccount/short\n',
      );

      assert.equal(
        await k('delete', 'cm/short', 'deploy/short', 'rs/short', 'sa/short'),
        'configmap "short" deleted\ndeployment.apps "short" deleted\nreplicaset.apps "short" deleted\nserviceaccount "short" deleted\n',
      );
      await assertGone('sa', 'short');
    });
  });
});
