import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { HOLD_FINALIZER, MERGE_PATCH, ownerRef } from '../support/gc-fixtures.js';
import {
  bindClusterRole,
  bindRole,
  createAsAdmin,
  createClusterRole,
  createNamespace,
  createRole,
  requestAs,
  waitForAccess,
} from '../support/security-fixtures.js';
import { waitFor } from '../../src/embed/index.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

// Issue 6 acceptance, items 4 and 5: OwnerReferencesPermissionEnforcement (spec R3.2–R3.7) and deletion that a user
// who may only update a dependent cannot stall.

type Json = Record<string, any>;

const TOKEN = 'ursula-token-93af';
const USER = 'ursula';
const NS = 'owners';
const CONFIGMAPS = `/api/v1/namespaces/${NS}/configmaps`;

function deployment(name: string, namespace = NS): Json {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace },
    spec: {
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    },
  };
}

function configMap(name: string, ownerReferences: Json[] = [], extra: Json = {}): Json {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: NS, ownerReferences, ...extra }, data: { k: 'v' } };
}

/** admission.NewForbidden over a ConfigMap, as the plugin words it (RBAC gives no reason, the error is nil). */
function forbiddenStatus(name: string, why: string): Json {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `configmaps "${name}" is forbidden: ${why}`,
    reason: 'Forbidden',
    details: { name, kind: 'configmaps' },
    code: 403,
  };
}
const NO_FINALIZERS = "cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set finalizers on: , <nil>";
const NO_DELETE = "cannot set an ownerRef on a resource you can't delete: , <nil>";

describe('owner references and authorization (issue 6)', () => {
  let ts: TestServer;
  let web: Json;

  const asUser = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    requestAs(ts, TOKEN, method, path, body, headers);
  const exists = async (path: string): Promise<boolean> => {
    const res = await ts.request('GET', path);
    assert.ok(res.status === 200 || res.status === 404, res.text);
    return res.status === 200;
  };

  before(async () => {
    ts = await startTestServer({ secure: { tokens: { [TOKEN]: { name: USER, groups: [] } } } });
    await createNamespace(ts, NS);
    // ursula writes ConfigMaps in the namespace, but may delete none and touches nothing else.
    await createRole(ts, NS, 'configmap-writer', [
      { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch', 'create', 'update', 'patch'] },
    ]);
    await bindRole(ts, NS, 'ursula-configmaps', { kind: 'Role', name: 'configmap-writer' }, [{ kind: 'User', name: USER }]);
    await waitForAccess(ts, { user: USER, resourceAttributes: { namespace: NS, verb: 'create', resource: 'configmaps' } });
    web = await createAsAdmin(ts, `/apis/apps/v1/namespaces/${NS}/deployments`, deployment('web'));
  });
  after(async () => {
    await ts.stop();
  });

  it('R3.5: blockOwnerDeletion on a Deployment needs update on deployments/finalizers; without it the reference is allowed', async () => {
    const blocked = await asUser('POST', CONFIGMAPS, configMap('blocking', [ownerRef(web, { blockOwnerDeletion: true })]));
    assert.equal(blocked.status, 403, blocked.text);
    assert.deepEqual(blocked.json, forbiddenStatus('blocking', NO_FINALIZERS));
    assert.equal(await exists(`${CONFIGMAPS}/blocking`), false);

    // The plugin validates after the store generated the name, so the refusal names the generated one.
    const generated = await asUser('POST', CONFIGMAPS, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { generateName: 'gen-', namespace: NS, ownerReferences: [ownerRef(web, { blockOwnerDeletion: true })] },
    });
    assert.equal(generated.status, 403, generated.text);
    const generatedName: string = generated.json.details?.name ?? '';
    assert.match(generatedName, /^gen-[a-z0-9]{5}$/);
    assert.deepEqual(generated.json, forbiddenStatus(generatedName, NO_FINALIZERS));

    for (const options of [{}, { blockOwnerDeletion: false }, { controller: true }]) {
      const name = `plain-${Object.keys(options).join('-').toLowerCase() || 'none'}`;
      const plain = await asUser('POST', CONFIGMAPS, configMap(name, [ownerRef(web, options)]));
      assert.equal(plain.status, 201, `${name}: ${plain.text}`);
    }

    await createRole(ts, NS, 'deployment-finalizers', [
      { apiGroups: ['apps'], resources: ['deployments/finalizers'], verbs: ['update'], resourceNames: ['web'] },
    ]);
    await bindRole(ts, NS, 'ursula-finalizers', { kind: 'Role', name: 'deployment-finalizers' }, [{ kind: 'User', name: USER }]);
    await waitForAccess(ts, {
      user: USER,
      resourceAttributes: { namespace: NS, verb: 'update', group: 'apps', resource: 'deployments', subresource: 'finalizers', name: 'web' },
    });
    const granted = await asUser('POST', CONFIGMAPS, configMap('blocking', [ownerRef(web, { blockOwnerDeletion: true })]));
    assert.equal(granted.status, 201, granted.text);
    assert.equal(granted.json.metadata.ownerReferences[0].blockOwnerDeletion, true);

    // The grant names web only: another Deployment is still out of reach.
    const other = await createAsAdmin(ts, `/apis/apps/v1/namespaces/${NS}/deployments`, deployment('api'));
    const elsewhere = await asUser('POST', CONFIGMAPS, configMap('blocks-api', [ownerRef(other, { blockOwnerDeletion: true })]));
    assert.equal(elsewhere.status, 403, elsewhere.text);
    assert.deepEqual(elsewhere.json, forbiddenStatus('blocks-api', NO_FINALIZERS));
  });

  it('R3.5: a cluster-scoped owner is checked at the cluster scope, so a namespaced grant does not help', async () => {
    const owner = await createClusterRole(ts, 'owning-role', []);
    await createRole(ts, NS, 'clusterrole-finalizers-here', [
      { apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles/finalizers'], verbs: ['update'] },
    ]);
    await bindRole(ts, NS, 'ursula-clusterrole-finalizers-here', { kind: 'Role', name: 'clusterrole-finalizers-here' }, [
      { kind: 'User', name: USER },
    ]);
    await waitForAccess(ts, {
      user: USER,
      resourceAttributes: {
        namespace: NS,
        verb: 'update',
        group: 'rbac.authorization.k8s.io',
        resource: 'clusterroles',
        subresource: 'finalizers',
        name: 'owning-role',
      },
    });
    const refused = await asUser('POST', CONFIGMAPS, configMap('blocks-role', [ownerRef(owner, { blockOwnerDeletion: true })]));
    assert.equal(refused.status, 403, refused.text);
    assert.deepEqual(refused.json, forbiddenStatus('blocks-role', NO_FINALIZERS));

    await createClusterRole(ts, 'clusterrole-finalizers', [
      {
        apiGroups: ['rbac.authorization.k8s.io'],
        resources: ['clusterroles/finalizers'],
        verbs: ['update'],
        resourceNames: ['owning-role'],
      },
    ]);
    await bindClusterRole(ts, 'ursula-clusterrole-finalizers', 'clusterrole-finalizers', [{ kind: 'User', name: USER }]);
    await waitForAccess(ts, {
      user: USER,
      resourceAttributes: {
        verb: 'update',
        group: 'rbac.authorization.k8s.io',
        resource: 'clusterroles',
        subresource: 'finalizers',
        name: 'owning-role',
      },
    });
    const allowed = await asUser('POST', CONFIGMAPS, configMap('blocks-role', [ownerRef(owner, { blockOwnerDeletion: true })]));
    assert.equal(allowed.status, 201, allowed.text);
  });

  it('R3.6: a blocking reference to a kind the REST mapper does not know is refused', async () => {
    const ref = {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      name: 'w',
      uid: '6d7c2a5e-0000-4000-8000-000000000001',
      blockOwnerDeletion: true,
    };
    const res = await asUser('POST', CONFIGMAPS, configMap('blocks-widget', [ref]));
    assert.equal(res.status, 403, res.text);
    assert.deepEqual(
      res.json,
      forbiddenStatus(
        'blocks-widget',
        'cannot set blockOwnerDeletion in this case because cannot find RESTMapping for APIVersion example.com/v1 Kind Widget: no matches for kind "Widget" in version "example.com/v1"',
      ),
    );
    const plain = await asUser('POST', CONFIGMAPS, configMap('refs-widget', [{ ...ref, blockOwnerDeletion: false }]));
    assert.equal(plain.status, 201, plain.text);
    // Its owner can never be found; the collector would keep reporting it.
    assert.equal((await ts.request('DELETE', `${CONFIGMAPS}/refs-widget`)).status, 200);
  });

  it('R3.4/R3.7: changing ownerReferences on update needs delete on the object; other updates do not', async () => {
    const owner = await createAsAdmin(ts, `/apis/apps/v1/namespaces/${NS}/deployments`, deployment('rewire-owner'));
    const stranger = await createAsAdmin(ts, `/apis/apps/v1/namespaces/${NS}/deployments`, deployment('rewire-stranger'));
    await createAsAdmin(ts, CONFIGMAPS, configMap('rewired', [ownerRef(owner)]));
    const path = `${CONFIGMAPS}/rewired`;
    const data = await asUser('PATCH', path, { data: { k: 'changed' } }, MERGE_PATCH);
    assert.equal(data.status, 200, data.text);

    const current = (await ts.request('GET', path)).json;
    const [ref] = current.metadata.ownerReferences;
    for (const [what, refs] of [
      ['removing the reference', []],
      ['adding a second reference', [ref, ownerRef(stranger)]],
      ['only marking it as the controller', [{ ...ref, controller: true }]],
    ] as const) {
      const res = await asUser('PUT', path, { ...current, metadata: { ...current.metadata, ownerReferences: refs } });
      assert.equal(res.status, 403, `${what}: ${res.text}`);
      assert.deepEqual(res.json, forbiddenStatus('rewired', NO_DELETE), what);
    }
    const patched = await asUser('PATCH', path, { metadata: { ownerReferences: null } }, MERGE_PATCH);
    assert.equal(patched.status, 403, patched.text);
    assert.deepEqual(patched.json, forbiddenStatus('rewired', NO_DELETE));
    assert.equal((await ts.request('GET', path)).json.metadata.ownerReferences.length, 1);

    await createRole(ts, NS, 'configmap-deleter', [
      { apiGroups: [''], resources: ['configmaps'], verbs: ['delete'], resourceNames: ['rewired'] },
    ]);
    await bindRole(ts, NS, 'ursula-deletes', { kind: 'Role', name: 'configmap-deleter' }, [{ kind: 'User', name: USER }]);
    await waitForAccess(ts, { user: USER, resourceAttributes: { namespace: NS, verb: 'delete', resource: 'configmaps', name: 'rewired' } });
    // R3.7: with delete, re-pointing or removing references needs nothing more.
    const repointed = await asUser('PATCH', path, { metadata: { ownerReferences: [ownerRef(stranger)] } }, MERGE_PATCH);
    assert.equal(repointed.status, 200, repointed.text);
    const cleared = await asUser('PATCH', path, { metadata: { ownerReferences: null } }, MERGE_PATCH);
    assert.equal(cleared.status, 200, cleared.text);
    assert.equal(cleared.json.metadata.ownerReferences, undefined);
    // Making a reference block is still the finalizers question (R3.5).
    const block = await asUser(
      'PATCH',
      path,
      { metadata: { ownerReferences: [ownerRef(owner, { blockOwnerDeletion: true })] } },
      MERGE_PATCH,
    );
    assert.equal(block.status, 403, block.text);
    assert.deepEqual(block.json, forbiddenStatus('rewired', NO_FINALIZERS));
    // Turning blockOwnerDeletion on for an existing reference (matched by uid) is newly blocking too.
    assert.equal((await asUser('PATCH', path, { metadata: { ownerReferences: [ownerRef(owner)] } }, MERGE_PATCH)).status, 200);
    const flip = await asUser(
      'PATCH',
      path,
      { metadata: { ownerReferences: [ownerRef(owner, { blockOwnerDeletion: true })] } },
      MERGE_PATCH,
    );
    assert.equal(flip.status, 403, flip.text);
    assert.deepEqual(flip.json, forbiddenStatus('rewired', NO_FINALIZERS));
  });

  it('item 5: a user who may update a dependent cannot stall its owner’s foreground deletion; the GC removes both', async () => {
    const owner = await createAsAdmin(ts, `/apis/apps/v1/namespaces/${NS}/deployments`, deployment('stalled'));
    await createAsAdmin(ts, CONFIGMAPS, configMap('dep-free', [ownerRef(owner)]));
    await createAsAdmin(ts, CONFIGMAPS, configMap('dep-held', [ownerRef(owner)]));
    // ursula may update and even delete dep-held: she holds it with her own finalizer, but cannot make it block
    // the owner.
    await createRole(ts, NS, 'dep-held-deleter', [
      { apiGroups: [''], resources: ['configmaps'], verbs: ['delete'], resourceNames: ['dep-held'] },
    ]);
    await bindRole(ts, NS, 'ursula-deletes-dep-held', { kind: 'Role', name: 'dep-held-deleter' }, [{ kind: 'User', name: USER }]);
    await waitForAccess(ts, {
      user: USER,
      resourceAttributes: { namespace: NS, verb: 'delete', resource: 'configmaps', name: 'dep-held' },
    });
    const held = await asUser('PATCH', `${CONFIGMAPS}/dep-held`, { metadata: { finalizers: [HOLD_FINALIZER] } }, MERGE_PATCH);
    assert.equal(held.status, 200, held.text);
    const block = await asUser(
      'PATCH',
      `${CONFIGMAPS}/dep-held`,
      { metadata: { ownerReferences: [ownerRef(owner, { blockOwnerDeletion: true })] } },
      MERGE_PATCH,
    );
    assert.equal(block.status, 403, block.text);
    assert.deepEqual(block.json, forbiddenStatus('dep-held', NO_FINALIZERS));

    const ownerPath = `/apis/apps/v1/namespaces/${NS}/deployments/stalled`;
    const del = await ts.request('DELETE', `${ownerPath}?propagationPolicy=Foreground`);
    assert.equal(del.status, 200, del.text);
    await waitFor(async () => ((await exists(ownerPath)) ? undefined : true), { timeoutMs: 10_000, what: 'the owner to be removed' });
    assert.equal(await exists(`${CONFIGMAPS}/dep-free`), false);
    // The held dependent was deleted by the collector, and waits only for ursula's finalizer, not blocking anyone.
    const remaining = await ts.request('GET', `${CONFIGMAPS}/dep-held`);
    assert.equal(remaining.status, 200);
    assert.ok(remaining.json.metadata.deletionTimestamp, JSON.stringify(remaining.json.metadata));
    const released = await asUser('PATCH', `${CONFIGMAPS}/dep-held`, { metadata: { finalizers: null } }, MERGE_PATCH);
    assert.equal(released.status, 200, released.text);
    await waitFor(async () => ((await exists(`${CONFIGMAPS}/dep-held`)) ? undefined : true), { timeoutMs: 5000, what: 'dep-held to go' });
  });

  it('item 5: the garbage collector acts as generic-garbage-collector, with exactly the rights its role gives', async () => {
    const gc = 'system:serviceaccount:kube-system:generic-garbage-collector';
    const groups = ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'];
    const can = async (verb: string, resource: string, group = '', subresource = ''): Promise<boolean> => {
      const res = await ts.request('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SubjectAccessReview',
        spec: { user: gc, groups, resourceAttributes: { namespace: NS, verb, group, resource, subresource } },
      });
      return res.json.status.allowed;
    };
    assert.equal(await can('delete', 'configmaps'), true);
    assert.equal(await can('update', 'deployments', 'apps', 'finalizers'), true);
    assert.equal(await can('create', 'configmaps'), false);

    // Without its binding the collector's deletes are refused, so a foreground deletion stays pending.
    const binding = (
      await ts.request('GET', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/system:controller:generic-garbage-collector')
    ).json;
    assert.ok(binding.metadata?.name, JSON.stringify(binding));
    assert.equal(
      (await ts.request('DELETE', `/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/${binding.metadata.name}`)).status,
      200,
    );
    await waitFor(async () => ((await can('delete', 'configmaps')) ? undefined : true), {
      timeoutMs: 5000,
      what: 'the collector to lose its rights',
    });

    const retries = async (): Promise<number> => {
      const text = (await ts.request('GET', '/metrics')).text;
      const match = /^workqueue_retries_total\{name="garbage_collector_attempt_to_delete"\} (\d+)$/m.exec(text);
      assert.ok(match?.[1] !== undefined, text);
      return Number(match[1]);
    };
    const retriesBefore = await retries();
    const owner = await createAsAdmin(ts, `/apis/apps/v1/namespaces/${NS}/deployments`, deployment('needs-gc'));
    await createAsAdmin(ts, CONFIGMAPS, configMap('needs-gc-dep', [ownerRef(owner, { blockOwnerDeletion: true })]));
    const ownerPath = `/apis/apps/v1/namespaces/${NS}/deployments/needs-gc`;
    assert.equal((await ts.request('DELETE', `${ownerPath}?propagationPolicy=Foreground`)).status, 200);
    await waitFor(async () => {
      const o = (await ts.request('GET', ownerPath)).json;
      return o.metadata?.deletionTimestamp ? true : undefined;
    });
    // The collector tried, was refused, and queued a retry.
    await waitFor(async () => ((await retries()) > retriesBefore ? true : undefined), {
      timeoutMs: 10_000,
      what: 'the collector to retry a refused delete',
    });
    assert.equal(await exists(`${CONFIGMAPS}/needs-gc-dep`), true);
    assert.equal(await exists(ownerPath), true);

    const { metadata, ...rest } = binding;
    await createAsAdmin(ts, '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
      ...rest,
      metadata: { name: metadata.name, labels: metadata.labels, annotations: metadata.annotations },
    });
    await waitFor(async () => ((await exists(ownerPath)) ? undefined : true), {
      timeoutMs: 15_000,
      what: 'the collector to finish once allowed',
    });
    assert.equal(await exists(`${CONFIGMAPS}/needs-gc-dep`), false);
  });

  it('item 5: namespace deletion completes under the namespace controller’s identity despite blocking references', async () => {
    const ns = 'doomed';
    await createNamespace(ts, ns);
    const owner = await createAsAdmin(ts, `/apis/apps/v1/namespaces/${ns}/deployments`, deployment('owner', ns));
    for (let i = 0; i < 3; i++) {
      await createAsAdmin(ts, `/api/v1/namespaces/${ns}/configmaps`, {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `dep-${i}`, namespace: ns, ownerReferences: [ownerRef(owner, { blockOwnerDeletion: true })] },
      });
    }
    await createAsAdmin(ts, `/api/v1/namespaces/${ns}/secrets`, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 's', namespace: ns },
    });
    assert.equal((await ts.request('DELETE', `/api/v1/namespaces/${ns}`)).status, 200);
    await waitFor(async () => ((await exists(`/api/v1/namespaces/${ns}`)) ? undefined : true), {
      timeoutMs: 15_000,
      what: `namespace ${ns} to be removed`,
    });
    assert.equal((await ts.request('GET', `/api/v1/namespaces/${ns}/configmaps`)).json.items.length, 0);
  });
});
