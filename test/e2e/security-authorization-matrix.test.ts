import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createAsAdmin, createNamespace, requestAs } from '../support/security-fixtures.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

// Issue 6 acceptance: for every served resource and every verb discovery lists for it, a user without any grant is
// refused with Kubernetes' 403 — except the self reviews system:basic-user grants every authenticated user — and
// nothing is written.

type Json = Record<string, any>;

const TOKEN = 'nobody-token-5f1e2d';
const USER = 'nobody';
const NS = 'matrix';
const NAME = 'target';
/** What system:basic-user lets every authenticated user create: questions about itself. */
const SELF_REVIEWS: Readonly<Record<string, Json>> = {
  'authorization.k8s.io/selfsubjectaccessreviews': { spec: { resourceAttributes: { namespace: NS, verb: 'get', resource: 'secrets' } } },
  'authorization.k8s.io/selfsubjectrulesreviews': { spec: { namespace: NS } },
  'authentication.k8s.io/selfsubjectreviews': {},
};

/** One served resource or subresource, as discovery describes it. */
interface Served {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespaced: boolean;
  readonly verbs: readonly string[];
}

/** One request of the matrix and the refusal Kubernetes gives it. */
interface Probe {
  readonly label: string;
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
  readonly contentType: string | undefined;
  readonly verb: string;
  readonly served: Served;
  /** The object's name as RequestInfo sees it ("" for collections and creates). */
  readonly name: string;
  /** The namespace as RequestInfo sees it: a namespace's own name for namespaces/<name>[/sub]. */
  readonly namespace: string;
}

async function discover(ts: TestServer): Promise<Served[]> {
  const served: Served[] = [];
  const add = (group: string, version: string, list: Json): void => {
    for (const r of list.resources as Json[]) {
      const [resource = '', subresource = ''] = (r.name as string).split('/');
      served.push({ group, version, kind: r.kind, resource, subresource, namespaced: r.namespaced, verbs: r.verbs });
    }
  };
  const core = await ts.request('GET', '/api/v1');
  assert.equal(core.status, 200);
  add('', 'v1', core.json);
  const groups = await ts.request('GET', '/apis');
  assert.equal(groups.status, 200);
  for (const group of groups.json.groups as Json[]) {
    for (const v of group.versions as Json[]) {
      const doc = await ts.request('GET', `/apis/${v.groupVersion}`);
      assert.equal(doc.status, 200, v.groupVersion);
      add(group.name, v.version, doc.json);
    }
  }
  return served;
}

function collectionPath(s: Served): string {
  const prefix = s.group === '' ? `/api/${s.version}` : `/apis/${s.group}/${s.version}`;
  return s.namespaced ? `${prefix}/namespaces/${NS}/${s.resource}` : `${prefix}/${s.resource}`;
}

/** The object every name-addressed request aims at: seeded where the kind is easy to make, absent otherwise. */
function objectName(s: Served): string {
  return s.group === '' && s.resource === 'namespaces' ? NS : NAME;
}

function probesFor(s: Served): Probe[] {
  const collection = collectionPath(s);
  const name = objectName(s);
  const item = `${collection}/${name}${s.subresource === '' ? '' : `/${s.subresource}`}`;
  const apiVersion = s.group === '' ? s.version : `${s.group}/${s.version}`;
  const object = { apiVersion, kind: s.kind, metadata: s.namespaced ? { name, namespace: NS } : { name } };
  const isNamespaces = s.group === '' && s.resource === 'namespaces';
  const probe = (verb: string, method: string, path: string, requestName: string, body?: unknown, contentType?: string): Probe => ({
    label: `${verb} ${apiVersion} ${s.resource}${s.subresource === '' ? '' : `/${s.subresource}`}`,
    method,
    path,
    body,
    contentType,
    verb,
    served: s,
    name: requestName,
    // RequestInfo reads /api/v1/namespaces/<name>[/...] as being in namespace <name>; the collection is in none.
    namespace: s.namespaced ? NS : isNamespaces && path.startsWith(`${collection}/`) ? NS : '',
  });
  const reviewBody = SELF_REVIEWS[`${s.group}/${s.resource}`];
  return s.verbs.map((verb) => {
    switch (verb) {
      case 'get':
        return probe(verb, 'GET', item, name);
      case 'list':
        return probe(verb, 'GET', collection, '');
      case 'watch':
        // Bounded, in case the server wrongly lets it through.
        return probe(verb, 'GET', `${collection}?watch=true&timeoutSeconds=1`, '');
      case 'create':
        return s.subresource === ''
          ? probe(verb, 'POST', collection, '', reviewBody === undefined ? object : { apiVersion, kind: s.kind, ...reviewBody })
          : probe(verb, 'POST', item, name, object);
      case 'update':
        return probe(verb, 'PUT', item, name, object);
      case 'patch':
        return probe(verb, 'PATCH', item, name, { metadata: { labels: { written: 'yes' } } }, 'application/merge-patch+json');
      case 'delete':
        return probe(verb, 'DELETE', item, name);
      case 'deletecollection':
        return probe(verb, 'DELETE', collection, '');
      default:
        throw new Error(`discovery lists verb ${verb} for ${s.resource}`);
    }
  });
}

/** responsewriters.Forbidden for this request, as kube-apiserver words it. */
function expectedForbidden(p: Probe): Json {
  const { group, resource, subresource } = p.served;
  const qualified = group === '' ? resource : `${resource}.${group}`;
  const what = p.name === '' ? qualified : `${qualified} "${p.name}"`;
  const scope = p.namespace === '' ? 'at the cluster scope' : `in the namespace "${p.namespace}"`;
  const full = subresource === '' ? resource : `${resource}/${subresource}`;
  const details: Json = {};
  if (p.name !== '') details.name = p.name;
  if (group !== '') details.group = group;
  details.kind = resource;
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `${what} is forbidden: User "${USER}" cannot ${p.verb} resource "${full}" in API group "${group}" ${scope}`,
    reason: 'Forbidden',
    details,
    code: 403,
  };
}

/** Every stored object the admin can list: resource → sorted "namespace/name@resourceVersion". */
async function snapshot(ts: TestServer, served: readonly Served[]): Promise<Map<string, string[]>> {
  const result = new Map<string, string[]>();
  for (const s of served) {
    if (s.subresource !== '' || !s.verbs.includes('list')) continue;
    const prefix = s.group === '' ? `/api/${s.version}` : `/apis/${s.group}/${s.version}`;
    const res = await ts.request('GET', `${prefix}/${s.resource}`);
    assert.equal(res.status, 200, `${prefix}/${s.resource}: ${res.text}`);
    const items = (res.json.items as Json[])
      .map((o) => `${o.metadata.namespace ?? ''}/${o.metadata.name}@${o.metadata.resourceVersion}`)
      .sort();
    result.set(`${prefix}/${s.resource}`, items);
  }
  return result;
}

async function seed(ts: TestServer): Promise<void> {
  await createNamespace(ts, NS);
  const inNs = (kind: string, extra: Json = {}): Json => ({ apiVersion: 'v1', kind, metadata: { name: NAME, namespace: NS }, ...extra });
  await createAsAdmin(ts, `/api/v1/namespaces/${NS}/configmaps`, inNs('ConfigMap', { data: { k: 'v' } }));
  await createAsAdmin(ts, `/api/v1/namespaces/${NS}/secrets`, inNs('Secret', { stringData: { password: 'p' } }));
  await createAsAdmin(ts, `/api/v1/namespaces/${NS}/serviceaccounts`, inNs('ServiceAccount'));
  await createAsAdmin(ts, `/api/v1/namespaces/${NS}/pods`, inNs('Pod', { spec: { containers: [{ name: 'c', image: 'nginx' }] } }));
  await createAsAdmin(ts, '/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: NAME } });
  await createAsAdmin(ts, `/apis/apps/v1/namespaces/${NS}/deployments`, {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: NAME, namespace: NS },
    spec: {
      selector: { matchLabels: { app: NAME } },
      template: { metadata: { labels: { app: NAME } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    },
  });
  const rbac = '/apis/rbac.authorization.k8s.io/v1';
  const roleRef = (kind: string): Json => ({ apiGroup: 'rbac.authorization.k8s.io', kind, name: NAME });
  const someone = [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'someone-else' }];
  await createAsAdmin(ts, `${rbac}/namespaces/${NS}/roles`, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: { name: NAME },
    rules: [],
  });
  await createAsAdmin(ts, `${rbac}/namespaces/${NS}/rolebindings`, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: NAME },
    roleRef: roleRef('Role'),
    subjects: someone,
  });
  await createAsAdmin(ts, `${rbac}/clusterroles`, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: NAME },
    rules: [],
  });
  await createAsAdmin(ts, `${rbac}/clusterrolebindings`, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: NAME },
    roleRef: roleRef('ClusterRole'),
    subjects: someone,
  });
}

describe('authorization matrix: a user without grants (issue 6)', () => {
  let ts: TestServer;
  let served: Served[];

  before(async () => {
    ts = await startTestServer({ secure: { tokens: { [TOKEN]: { name: USER, groups: [] } } } });
    await seed(ts);
    served = await discover(ts);
  });
  after(async () => {
    await ts.stop();
  });

  it('discovery lists the resources the matrix must cover', () => {
    const names = new Set(served.map((s) => `${s.group}/${s.resource}${s.subresource === '' ? '' : `/${s.subresource}`}`));
    for (const expected of [
      '/configmaps',
      '/secrets',
      '/pods/status',
      '/namespaces/finalize',
      'apps/deployments/scale',
      'rbac.authorization.k8s.io/clusterroles',
      'authorization.k8s.io/subjectaccessreviews',
      'apiextensions.k8s.io/customresourcedefinitions',
    ]) {
      assert.ok(names.has(expected), `${expected} in ${[...names].join(' ')}`);
    }
  });

  it('every verb on every resource is refused with the exact 403, self reviews excepted, and nothing is written', async () => {
    const before = await snapshot(ts, served);
    const probes = served.flatMap(probesFor);
    assert.ok(probes.length > 150, `${probes.length} probes`);

    const answers = await Promise.all(
      probes.map((p) =>
        requestAs(ts, TOKEN, p.method, p.path, p.body, p.contentType === undefined ? {} : { 'Content-Type': p.contentType }),
      ),
    );
    const wrong: string[] = [];
    probes.forEach((p, i) => {
      const res = answers[i];
      if (res === undefined) return;
      const self = p.verb === 'create' && SELF_REVIEWS[`${p.served.group}/${p.served.resource}`] !== undefined;
      if (self) {
        if (res.status !== 201) wrong.push(`${p.label}: ${res.status} ${res.text}, expected 201`);
        return;
      }
      try {
        assert.equal(res.status, 403);
        assert.deepEqual(res.json, expectedForbidden(p));
      } catch {
        wrong.push(
          `${p.label} (${p.method} ${p.path}): ${res.status} ${res.text.trim()}\n    expected ${JSON.stringify(expectedForbidden(p))}`,
        );
      }
    });
    assert.deepEqual(wrong, []);

    assert.deepEqual(await snapshot(ts, served), before);
  });

  it('the self reviews answer about the user itself', async () => {
    const access = await requestAs(ts, TOKEN, 'POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      spec: { resourceAttributes: { namespace: NS, verb: 'get', resource: 'secrets' } },
    });
    assert.equal(access.status, 201);
    assert.deepEqual(access.json.status, { allowed: false });
    const who = await requestAs(ts, TOKEN, 'POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'SelfSubjectReview',
    });
    assert.equal(who.status, 201);
    assert.deepEqual(who.json.status.userInfo, { username: USER, groups: ['system:authenticated'] });
  });
});
