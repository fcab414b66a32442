import { bindClusterRole, bindRole, createClusterRole, createNamespace, createRole, waitForAccess } from '../support/security-fixtures.js';
import { waitFor } from '../../src/embed/index.js';
import type { TestServer } from '../support/test-server.js';
import { EDITOR_GROUPS, EDITOR_RESOURCES, NS_A, NS_B, NS_CANARY, NS_PROBE } from './actors.js';
import { type Kind, validObject } from './bodies.js';
import { PROBE_NAMES, SEEDS } from './generate-context.js';
import { CONFIGMAPS, DEPLOYMENTS, resourcePath, SECRETS, type Target } from './targets.js';

// The objects the fuzz run works on: namespaces, grants, the seeds fuzz requests address, and the canaries only the
// admin wrote before the run, compared after it.

type Json = Record<string, any>;

const BY_RESOURCE: Readonly<Record<string, Target>> = { configmaps: CONFIGMAPS, secrets: SECRETS, deployments: DEPLOYMENTS };
/** What is listed in the canary namespace before and after: everything a fuzz request could write there. */
const CANARY_LISTS = [
  '/api/v1/namespaces/fz-canary/configmaps',
  '/api/v1/namespaces/fz-canary/secrets',
  '/apis/apps/v1/namespaces/fz-canary/deployments',
  '/api/v1/namespaces/fz-canary/serviceaccounts',
  '/api/v1/namespaces/fz-canary/pods',
  '/apis/rbac.authorization.k8s.io/v1/namespaces/fz-canary/rolebindings',
  '/apis/coordination.k8s.io/v1/namespaces/fz-canary/leases',
  '/api/v1/namespaces/fz-canary',
];

export async function prepareWorld(ts: TestServer, users: { editor: string; reader: string }): Promise<void> {
  for (const ns of [NS_A, NS_B, NS_PROBE, NS_CANARY]) await createNamespace(ts, ns);
  await createRole(ts, NS_A, 'fz-edit', [{ apiGroups: EDITOR_GROUPS, resources: EDITOR_RESOURCES, verbs: ['*'] }]);
  await bindRole(ts, NS_A, 'fz-edit', { kind: 'Role', name: 'fz-edit' }, [{ kind: 'User', name: users.editor }]);
  await createClusterRole(ts, 'fz-read-configmaps', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch'] }]);
  await bindClusterRole(ts, 'fz-read-configmaps', 'fz-read-configmaps', [{ kind: 'User', name: users.reader }]);
  await waitForAccess(ts, { user: users.editor, resourceAttributes: { namespace: NS_A, verb: 'delete', resource: 'secrets' } });
  await waitForAccess(ts, { user: users.reader, resourceAttributes: { namespace: NS_CANARY, verb: 'list', resource: 'configmaps' } });
  await restoreSeeds(ts);
  for (const name of PROBE_NAMES)
    for (const t of [CONFIGMAPS, SECRETS, DEPLOYMENTS]) await freshProbe(ts, resourcePath(t, NS_PROBE, name), t.kind as Kind, name);
  for (const [t, name] of [
    [CONFIGMAPS, 'canary-0'],
    [CONFIGMAPS, 'canary-1'],
    [SECRETS, 'canary-s'],
    [DEPLOYMENTS, 'canary-d'],
  ] as const) {
    await create(ts, t, NS_CANARY, { ...validObject(t.kind as Kind, name), metadata: { name, labels: { canary: 'yes' } } });
  }
}

async function create(ts: TestServer, t: Target, namespace: string, body: Json): Promise<void> {
  const res = await ts.request('POST', resourcePath(t, namespace), body);
  if (res.status !== 201 && res.status !== 409)
    throw new Error(`creating ${body.metadata?.name} in ${namespace}: ${res.status} ${res.text}`);
}

/**
 * Puts back the seeds fuzz requests delete, so later requests still meet objects to patch and update. A seed held
 * by a fuzzed finalizer is released first. No fuzz request names namespaces A or B for deletion: if one is gone or
 * going, a request was acted on as another path. That is returned, and the namespace is made again.
 */
export async function restoreSeeds(ts: TestServer): Promise<string[]> {
  const lost: string[] = [];
  for (const ns of [NS_A, NS_B]) {
    const res = await ts.request('GET', `/api/v1/namespaces/${ns}`);
    if (res.status !== 200 || res.json.metadata?.deletionTimestamp !== undefined) {
      lost.push(`namespace ${ns} ${res.status === 200 ? 'is being deleted' : `answers ${res.status}`}`);
      await waitFor(async () => ((await ts.request('GET', `/api/v1/namespaces/${ns}`)).status === 404 ? true : undefined), {
        timeoutMs: 30_000,
        what: `namespace ${ns} gone`,
      });
      await createNamespace(ts, ns);
    }
    for (const [resource, names] of Object.entries(SEEDS)) {
      const t = BY_RESOURCE[resource] as Target;
      for (const name of names) await freshProbe(ts, resourcePath(t, ns, name), t.kind as Kind, name);
    }
  }
  return lost;
}

/**
 * Makes the object at `path` exist without finalizers, owner references or a deletion under way (which the
 * controllers would act on while the harness compares it), and returns it as read.
 */
export async function freshProbe(ts: TestServer, path: string, kind: Kind, name: string): Promise<{ status: number; text: string }> {
  let res = await ts.request('GET', path);
  if (res.status === 200) {
    const meta = res.json.metadata as Json;
    const unsettled = (meta.finalizers?.length ?? 0) > 0 || (meta.ownerReferences?.length ?? 0) > 0 || meta.deletionTimestamp !== undefined;
    if (!unsettled) return res;
    await ts.request(
      'PATCH',
      path,
      { metadata: { finalizers: null, ownerReferences: null } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    if (meta.deletionTimestamp !== undefined)
      await waitFor(async () => ((await ts.request('GET', path)).status === 404 ? true : undefined), {
        timeoutMs: 10_000,
        what: `${path} gone`,
      });
    res = await ts.request('GET', path);
    if (res.status === 200) return res;
  }
  if (res.status !== 404) throw new Error(`GET ${path}: ${res.status} ${res.text}`);
  const collection = path.slice(0, path.lastIndexOf('/'));
  const namespace = decodeURIComponent(collection.split('/namespaces/')[1]?.split('/')[0] ?? '');
  const created = await ts.request('POST', collection, validObject(kind, name, namespace));
  if (created.status !== 201) throw new Error(`POST ${collection}: ${created.status} ${created.text}`);
  return ts.request('GET', path);
}

/** Everything in the canary namespace, as the admin reads it. */
export async function canarySnapshot(ts: TestServer): Promise<Map<string, string>> {
  const snapshot = new Map<string, string>();
  for (const path of CANARY_LISTS) {
    const res = await ts.request('GET', path);
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${res.text}`);
    const items: Json[] = Array.isArray(res.json.items) ? res.json.items : [res.json];
    for (const item of items) snapshot.set(`${path} ${item.metadata?.name}`, JSON.stringify(item));
  }
  return snapshot;
}

/** What differs between two canary snapshots. */
export function canaryChanges(before: Map<string, string>, after: Map<string, string>): string[] {
  const changes: string[] = [];
  for (const [key, value] of before) {
    const now = after.get(key);
    if (now === undefined) changes.push(`${key}: gone`);
    else if (now !== value) changes.push(`${key}: changed\n    before ${value.slice(0, 400)}\n    after  ${now.slice(0, 400)}`);
  }
  for (const [key, value] of after) if (!before.has(key)) changes.push(`${key}: appeared ${value.slice(0, 400)}`);
  return changes;
}
