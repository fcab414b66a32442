import assert from 'node:assert/strict';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '../../src/embed/index.js';
import { compactManagedFields } from '../../src/registry/stored-managed-fields.js';
import { bindClusterRole, bindRole, createClusterRole, waitForAccess } from '../support/security-fixtures.js';
import { startTestServer, type TestServer, WITHOUT_WORKLOAD_CONTROLLERS } from '../support/test-server.js';

// Issue 28: what leaves storage is archived (archivedobjects, clusterarchivedobjects) and restored by rolling
// forward with `kubectl cascade restore`. One server; the size-pruning case runs last, as it prunes the others'
// entries.

const KUBECTL_CASCADE = fileURLToPath(new URL('../../src/cli/kubectl-cascade.js', import.meta.url));
const MAX_BYTES = 256 * 1024;
const NS = 'app';

let ts: TestServer;
let pluginDir: string;

const get = async (path: string): Promise<any> => {
  const res = await ts.request('GET', path);
  return res.status === 200 ? res.json : undefined;
};
const post = async (path: string, body: unknown): Promise<any> => {
  const res = await ts.request('POST', path, body);
  assert.equal(res.status, 201, res.text);
  return res.json;
};
const gone = (path: string, what: string): Promise<true> =>
  waitFor(async () => ((await ts.request('GET', path)).status === 404 ? true : undefined), { timeoutMs: 10_000, what });
const ownerRef = (o: any, controller = true) => ({
  apiVersion: o.apiVersion,
  kind: o.kind,
  name: o.metadata.name,
  uid: o.metadata.uid,
  controller,
  blockOwnerDeletion: true,
});
/** The user-visible content of an object: everything but the metadata the server sets and the owner references. */
const content = (o: any) => {
  const {
    uid: _u,
    resourceVersion: _r,
    creationTimestamp: _c,
    managedFields: _m,
    generation: _g,
    ownerReferences: _o,
    ...meta
  } = o.metadata;
  const { status: _s, ...rest } = o;
  return { ...rest, metadata: meta };
};

/** `kubectl cascade …` through kubectl's plugin lookup (kubectl-cascade on PATH). */
const cascade = (args: readonly string[]) => ts.kubectl(['cascade', ...args]);

before(async () => {
  pluginDir = await mkdtemp(join(tmpdir(), 'cascade-plugin-'));
  const plugin = join(pluginDir, 'kubectl-cascade');
  await writeFile(plugin, `#!/bin/sh\nexec "${process.execPath}" "${KUBECTL_CASCADE}" "$@"\n`);
  await chmod(plugin, 0o755);
  process.env.PATH = `${pluginDir}${delimiter}${process.env.PATH ?? ''}`;
  ts = await startTestServer({
    archive: { retentionMs: 3_600_000, maxBytes: MAX_BYTES, pruneIntervalMs: 100 },
    controllers: WITHOUT_WORKLOAD_CONTROLLERS,
  });
  await ts.kubectlOk(['create', 'namespace', NS]);
});

after(async () => {
  await ts?.stop();
  await rm(pluginDir, { recursive: true, force: true });
});

describe('archive and restore with kubectl (issue 28)', () => {
  const labels = { app: 'web' };
  const podSpec = { containers: [{ name: 'web', image: 'nginx:1.27', env: [{ name: 'MODE', value: 'prod' }] }] };

  it('restores a three-level tree deleted by accident with the same data and an owner graph the collector leaves alone', async () => {
    const apps = `/apis/apps/v1/namespaces/${NS}`;
    const deployment = await post(`${apps}/deployments`, {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', labels, annotations: { note: 'keep me' } },
      spec: { replicas: 2, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: podSpec } },
    });
    const rs = await post(`${apps}/replicasets`, {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'web-5d4f8', labels, ownerReferences: [ownerRef(deployment)] },
      spec: { replicas: 2, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: podSpec } },
    });
    const pods = [];
    for (const name of ['web-5d4f8-a', 'web-5d4f8-b']) {
      pods.push(
        await post(`/api/v1/namespaces/${NS}/pods`, {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name, labels, ownerReferences: [ownerRef(rs)] },
          spec: podSpec,
        }),
      );
    }
    const before = [await get(`${apps}/deployments/web`), await get(`${apps}/replicasets/web-5d4f8`), ...pods];

    await ts.kubectlOk(['delete', 'deployment', 'web', '-n', NS]);
    for (const pod of pods) await gone(`/api/v1/namespaces/${NS}/pods/${pod.metadata.name}`, `${pod.metadata.name} to be collected`);

    const table = await ts.kubectlOk(['get', 'archivedobjects', '-n', NS]);
    const lines = table.trimEnd().split('\n');
    assert.match(lines[0] ?? '', /^KIND\s+NAME\s+DELETED\s+REASON$/);
    const row = (kind: string, name: string) => lines.find((l) => l.startsWith(`${kind} `) && l.split(/\s+/)[1] === name);
    assert.match(row('Deployment', 'web') ?? '', /^Deployment\s+web\s+\d+s\s+Delete$/);
    assert.match(
      row('ReplicaSet', 'web-5d4f8') ?? '',
      new RegExp(`^ReplicaSet\\s+web-5d4f8\\s+\\d+s\\s+Cascade\\(owner=${deployment.metadata.uid}\\)$`),
    );
    assert.match(row('Pod', 'web-5d4f8-a') ?? '', new RegExp(`^Pod\\s+web-5d4f8-a\\s+\\d+s\\s+Cascade\\(owner=${rs.metadata.uid}\\)$`));

    // Field selectors: by original kind, and by the cascade that removed them.
    const podEntries = await ts.kubectlOk(['get', 'archivedobjects', '-n', NS, '--field-selector', 'original.kind=Pod', '-o', 'name']);
    assert.deepEqual(podEntries.trim().split('\n').sort(), pods.map((p) => `archivedobject.cascade.dev/${p.metadata.uid}`).sort());
    const ofRs = await ts.kubectlOk([
      'get',
      'archivedobjects',
      '-n',
      NS,
      '--field-selector',
      `deletion.ownerUID=${rs.metadata.uid}`,
      '-o',
      'name',
    ]);
    assert.equal(ofRs.trim().split('\n').length, 2);

    const restored = await cascade(['restore', 'deployment/web', '-n', NS, '--with-dependents']);
    assert.equal(restored.code, 0, restored.stderr);
    const out = restored.stdout.split('\n');
    assert.match(out[0] ?? '', /^restore\.cascade\.dev\/deployment-web-\w+: Complete \(restored 4 objects\)$/);
    assert.match(out[1] ?? '', /^RESOURCE\s+NAMESPACE\s+NAME\s+OLD UID\s+NEW UID$/);
    // Owners first.
    assert.deepEqual(
      out.slice(2, 6).map((l) => l.split(/\s+/).slice(0, 3).join(' ')),
      ['deployments.apps app web', 'replicasets.apps app web-5d4f8', 'pods app web-5d4f8-a', 'pods app web-5d4f8-b'],
    );

    const after = [await get(`${apps}/deployments/web`), await get(`${apps}/replicasets/web-5d4f8`)];
    for (const pod of pods) after.push(await get(`/api/v1/namespaces/${NS}/pods/${pod.metadata.name}`));
    for (const [i, obj] of after.entries()) {
      assert.ok(obj !== undefined, `${before[i].metadata.name} restored`);
      assert.notEqual(obj.metadata.uid, before[i].metadata.uid, 'rolled forward: a new uid');
      assert.deepEqual(content(obj), content(before[i]), `${obj.metadata.name} keeps its data`);
    }
    const [newDeployment, newRs, ...newPods] = after;
    assert.deepEqual(newRs.metadata.ownerReferences, [ownerRef(newDeployment)]);
    for (const pod of newPods) assert.deepEqual(pod.metadata.ownerReferences, [ownerRef(newRs)]);

    // The collector leaves the restored graph alone: once it has collected an object created after it, it has
    // seen the restored ones too.
    await post(`/api/v1/namespaces/${NS}/configmaps`, {
      metadata: {
        name: 'sentinel',
        ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'gone', uid: '00000000-0000-0000-0000-000000000001' }],
      },
    });
    await gone(`/api/v1/namespaces/${NS}/configmaps/sentinel`, 'the collector to remove the sentinel');
    for (const obj of after) {
      const path =
        obj.kind === 'Pod'
          ? `/api/v1/namespaces/${NS}/pods/${obj.metadata.name}`
          : `${apps}/${obj.kind.toLowerCase()}s/${obj.metadata.name}`;
      assert.equal((await get(path))?.metadata.uid, obj.metadata.uid, `${obj.metadata.name} is still there`);
    }
  });

  it('refuses to overwrite a live object with the same name and writes nothing', async () => {
    const podsBefore = (await get(`/api/v1/namespaces/${NS}/pods`)).items.map((p: any) => p.metadata.uid);
    const refused = await cascade(['restore', 'deployment/web', '-n', NS, '--with-dependents']);
    assert.equal(refused.code, 1);
    const out = refused.stdout.split('\n');
    assert.match(out[0] ?? '', /^restore\.cascade\.dev\/deployment-web-\w+: Failed \(4 of 4 objects cannot be restored\)$/);
    assert.match(out[1] ?? '', /^RESOURCE\s+NAMESPACE\s+NAME\s+OLD UID\s+WHY NOT$/);
    assert.match(out[2] ?? '', /^deployments\.apps\s+app\s+web\s+\S+\s+deployments\.apps "web" already exists$/);
    const name = /restore\.cascade\.dev\/(\S+):/.exec(out[0] ?? '')?.[1] ?? '';
    assert.equal(refused.stderr, `error: restore ${name} failed\n`);
    assert.deepEqual(
      (await get(`/api/v1/namespaces/${NS}/pods`)).items.map((p: any) => p.metadata.uid),
      podsBefore,
    );
  });

  it('restores a namespace and its content', async () => {
    await ts.kubectlOk(['create', 'namespace', 'team']);
    await ts.kubectlOk(['create', 'configmap', 'settings', '-n', 'team', '--from-literal=color=blue']);
    await ts.kubectlOk(['create', 'secret', 'generic', 'token', '-n', 'team', '--from-literal=key=s3cr3t']);
    await ts.kubectlOk(['delete', 'namespace', 'team']);
    await gone('/api/v1/namespaces/team', 'the namespace to be removed');

    const entry = await ts.kubectlOk(['get', 'clusterarchivedobjects', '--field-selector', 'original.name=team']);
    assert.match(entry.trimEnd().split('\n')[1] ?? '', /^Namespace\s+team\s+\d+s\s+Finalized$/);
    const content = await ts.kubectlOk([
      'get',
      'archivedobjects',
      '-n',
      'team',
      '--field-selector',
      'deletion.reason=NamespaceTerminating',
    ]);
    assert.match(content, /\nConfigMap\s+settings\s+\d+s\s+NamespaceTerminating\(team\)\n/);
    assert.match(content, /\nSecret\s+token\s+\d+s\s+NamespaceTerminating\(team\)\n/);

    const restored = await cascade(['restore', 'namespace/team', '--with-dependents']);
    assert.equal(restored.code, 0, restored.stdout + restored.stderr);
    assert.match(restored.stdout, /^restore\.cascade\.dev\/namespace-team-\w+: Complete \(restored \d+ objects/);
    assert.match(restored.stdout, /\nnamespaces\s+<none>\s+team\s/);
    assert.equal(await ts.kubectlOk(['get', 'namespace', 'team', '-o', 'jsonpath={.status.phase}']), 'Active');
    assert.equal(await ts.kubectlOk(['get', 'configmap', 'settings', '-n', 'team', '-o', 'jsonpath={.data.color}']), 'blue');
    assert.equal(
      await ts.kubectlOk(['get', 'secret', 'token', '-n', 'team', '-o', 'jsonpath={.data.key}']),
      Buffer.from('s3cr3t').toString('base64'),
    );
  });

  it("restores a CRD deletion's instances after the CRD is re-created", async () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } },
            },
          },
        ],
      },
    };
    const manifest = JSON.stringify(crd);
    await ts.kubectlOk(['apply', '-f', '-'], { input: manifest });
    await ts.kubectlOk(['wait', '--for=condition=Established', 'crd/widgets.example.com', '--timeout=10s']);
    await ts.kubectlOk(['apply', '-n', NS, '-f', '-'], {
      input: JSON.stringify({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1' }, spec: { size: 3 } }),
    });
    await ts.kubectlOk(['delete', 'crd', 'widgets.example.com']);
    await gone('/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com', 'the CRD to be removed');
    const entries = await ts.kubectlOk(['get', 'archivedobjects', '-n', NS, '--field-selector', 'deletion.crd=widgets.example.com']);
    assert.match(entries, /\nWidget\s+w1\s+\d+s\s+CRDRemoval\(widgets\.example\.com\)\n/);

    await ts.kubectlOk(['apply', '-f', '-'], { input: manifest });
    await ts.kubectlOk(['wait', '--for=condition=Established', 'crd/widgets.example.com', '--timeout=10s']);
    const restored = await cascade(['restore', 'crd/widgets.example.com', '--dependents-only']);
    assert.equal(restored.code, 0, restored.stdout + restored.stderr);
    assert.match(restored.stdout, /: Complete \(restored 1 objects\)\n/);
    assert.equal(await ts.kubectlOk(['get', 'widgets', 'w1', '-n', NS, '-o', 'jsonpath={.spec.size}']), '3');
  });

  it('lets only who may get the original read an archive entry (an archived Secret stays a Secret)', async () => {
    const cm = await post(`/api/v1/namespaces/${NS}/configmaps`, { metadata: { name: 'visible' }, data: { a: '1' } });
    const secret = await post(`/api/v1/namespaces/${NS}/secrets`, { metadata: { name: 'hidden' }, stringData: { a: '1' } });
    await ts.kubectlOk(['delete', 'configmap/visible', 'secret/hidden', '-n', NS]);
    await createClusterRole(ts, 'archive-reader', [
      { apiGroups: ['cascade.dev'], resources: ['archivedobjects'], verbs: ['get', 'list', 'watch'] },
    ]);
    await bindClusterRole(ts, 'bob-archive-reader', 'archive-reader', [{ kind: 'User', name: 'bob' }]);
    await bindClusterRole(ts, 'bob-view', 'view', [{ kind: 'User', name: 'bob' }]);
    await waitForAccess(ts, {
      user: 'bob',
      resourceAttributes: { namespace: NS, verb: 'get', group: 'cascade.dev', resource: 'archivedobjects' },
    });
    await waitForAccess(ts, { user: 'bob', resourceAttributes: { namespace: NS, verb: 'get', resource: 'configmaps' } });

    const listed = await ts.kubectlOk(['get', 'archivedobjects', '-n', NS, '--as=bob', '-o', 'name']);
    assert.ok(listed.includes(`archivedobject.cascade.dev/${cm.metadata.uid}\n`));
    assert.ok(!listed.includes(secret.metadata.uid), 'the archived secret is left out of the list');
    const denied = await ts.kubectl(['get', 'archivedobject', secret.metadata.uid, '-n', NS, '--as=bob']);
    assert.equal(denied.code, 1);
    assert.equal(
      denied.stderr,
      `Error from server (Forbidden): secrets "hidden" is forbidden: User "bob" cannot get resource "secrets" in API group "" in the namespace "${NS}"\n`,
    );
    assert.equal(
      (await ts.kubectl(['get', 'archivedobject', cm.metadata.uid, '-n', NS, '--as=bob', '-o', 'name'])).stdout,
      `archivedobject.cascade.dev/${cm.metadata.uid}\n`,
    );
    // Read-only: create, update and delete are not served.
    const del = await ts.kubectl(['delete', 'archivedobject', cm.metadata.uid, '-n', NS]);
    assert.equal(del.stderr, 'Error from server (MethodNotAllowed): the server does not allow this method on the requested resource\n');
  });

  it('restores only what the requester may create, checked before anything is written', async () => {
    await post(`/api/v1/namespaces/${NS}/configmaps`, { metadata: { name: 'carols' }, data: { a: '1' } });
    await ts.kubectlOk(['delete', 'configmap', 'carols', '-n', NS]);
    await createClusterRole(ts, 'restore-creator', [
      { apiGroups: ['cascade.dev'], resources: ['restores'], verbs: ['create', 'get', 'list'] },
    ]);
    await bindClusterRole(ts, 'carol-restore-creator', 'restore-creator', [{ kind: 'User', name: 'carol' }]);
    await waitForAccess(ts, { user: 'carol', resourceAttributes: { verb: 'create', group: 'cascade.dev', resource: 'restores' } });
    const restore = (name: string) =>
      JSON.stringify({
        apiVersion: 'cascade.dev/v1alpha1',
        kind: 'Restore',
        metadata: { name },
        spec: { target: { resource: 'configmaps', namespace: NS, name: 'carols' } },
      });
    const ended = (name: string) =>
      waitFor(
        async () => {
          const r = await get(`/apis/cascade.dev/v1alpha1/restores/${name}`);
          return r?.status?.conditions?.length > 0 ? r : undefined;
        },
        { timeoutMs: 10_000, what: `restore ${name} to end` },
      );

    await ts.kubectlOk(['create', '-f', '-', '--as=carol'], { input: restore('carol-1') });
    const refused = await ended('carol-1');
    assert.equal(refused.spec.requester.username, 'carol');
    assert.equal(refused.status.conditions[0].type, 'Failed');
    assert.equal(
      refused.status.notRestored[0].message,
      `configmaps is forbidden: User "carol" cannot create resource "configmaps" in API group "" in the namespace "${NS}"`,
    );
    assert.equal((await ts.request('GET', `/api/v1/namespaces/${NS}/configmaps/carols`)).status, 404);

    await bindRole(ts, NS, 'carol-edit', { kind: 'ClusterRole', name: 'edit' }, [{ kind: 'User', name: 'carol' }]);
    await waitForAccess(ts, { user: 'carol', resourceAttributes: { namespace: NS, verb: 'create', resource: 'configmaps' } });
    await ts.kubectlOk(['create', '-f', '-', '--as=carol'], { input: restore('carol-2') });
    assert.equal((await ended('carol-2')).status.conditions[0].type, 'Complete');
    assert.equal(await ts.kubectlOk(['get', 'configmap', 'carols', '-n', NS, '-o', 'jsonpath={.data.a}']), '1');
  });

  it('prunes the oldest entries once the archive outgrows --archive-max-bytes', async () => {
    const flood = 'flood';
    await ts.kubectlOk(['create', 'namespace', flood]);
    const names = Array.from({ length: 120 }, (_, i) => `blob-${i}`);
    for (const name of names) {
      await post(`/api/v1/namespaces/${flood}/configmaps`, { metadata: { name }, data: { blob: 'x'.repeat(4096) } });
      assert.equal((await ts.request('DELETE', `/api/v1/namespaces/${flood}/configmaps/${name}`)).status, 200);
    }
    // Served entries carry a resourceVersion the stored ones lack: a little slack over the stored bound. Storage
    // keeps the archived object's managedFields compact (issue 20), so they are counted in that form.
    const storedForm = (e: any) => {
      const object = e.object;
      const managedFields = compactManagedFields(object.metadata.managedFields, object.apiVersion);
      return { ...e, object: { ...object, metadata: { ...object.metadata, managedFields } } };
    };
    const kept = await waitFor(
      async () => {
        const items = (await get('/apis/cascade.dev/v1alpha1/archivedobjects')).items as any[];
        const bytes = items.reduce((sum, e) => sum + JSON.stringify(storedForm(e)).length, 0);
        const left = new Set(items.map((e) => `${e.original.namespace}/${e.original.name}`));
        return left.has(`${flood}/blob-0`) || bytes > MAX_BYTES + 4096 ? undefined : left;
      },
      { timeoutMs: 10_000, what: 'the oldest entries to be pruned down to --archive-max-bytes' },
    );
    assert.ok(kept.has(`${flood}/blob-119`), 'the newest entry is kept');
    assert.ok(!kept.has(`${NS}/web`), 'older entries went first');
  });
});
