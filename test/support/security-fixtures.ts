import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { stringify } from 'yaml';
import { waitFor } from '../../src/embed/index.js';
import type { KubectlResult, TestServer } from './test-server.js';

// Shared by the issue 6 (security) end-to-end suites: other identities' kubeconfigs, grants, and waiting for RBAC.

type Json = Record<string, any>;

/** How a kubeconfig user authenticates: nothing, a bearer token, a client certificate, or basic auth. */
export type KubeconfigUser =
  | Record<string, never>
  | { readonly token: string }
  | { readonly cert: string; readonly key: string }
  | { readonly username: string; readonly password: string };

/**
 * Writes a kubeconfig next to the test server's that trusts the server's CA, or `caCert` (never
 * insecure-skip-tls-verify), and authenticates as `user`; returns its path for `--kubeconfig`.
 */
export async function writeUserKubeconfig(ts: TestServer, fileName: string, user: KubeconfigUser, caCert?: string): Promise<string> {
  assert.ok(ts.pki !== undefined, 'a secure test server');
  const credentials: Json =
    'token' in user
      ? { token: user.token }
      : 'cert' in user
        ? {
            'client-certificate-data': Buffer.from(user.cert).toString('base64'),
            'client-key-data': Buffer.from(user.key).toString('base64'),
          }
        : 'username' in user
          ? { username: user.username, password: user.password }
          : {};
  const path = join(dirname(ts.kubeconfigPath), fileName);
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: 'cascade',
        cluster: { server: ts.url, 'certificate-authority-data': Buffer.from(caCert ?? ts.pki.caCert).toString('base64') },
      },
    ],
    users: [{ name: 'someone', user: credentials }],
    contexts: [{ name: 'cascade', context: { cluster: 'cascade', user: 'someone', namespace: 'default' } }],
    'current-context': 'cascade',
  };
  await writeFile(path, stringify(config), { mode: 0o600 });
  return path;
}

/** kubectl with another kubeconfig (the flag wins over the KUBECONFIG the test server sets). */
export function kubectlAs(ts: TestServer, kubeconfig: string, args: readonly string[]): Promise<KubectlResult> {
  return ts.kubectl([`--kubeconfig=${kubeconfig}`, ...args]);
}

/** A request with a bearer token other than the admin's. */
export function requestAs(
  ts: TestServer,
  token: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  return ts.request(method, path, body, { ...headers, Authorization: `Bearer ${token}` });
}

/** Creates an object as the admin and returns it; fails the test on any other answer than 201. */
export async function createAsAdmin(ts: TestServer, path: string, body: Json): Promise<Json> {
  const res = await ts.request('POST', path, body);
  assert.equal(res.status, 201, `POST ${path}: ${res.text}`);
  return res.json;
}

export type Subject = { kind: 'User' | 'Group'; name: string } | { kind: 'ServiceAccount'; name: string; namespace: string };

function subjectJson(subject: Subject): Json {
  return subject.kind === 'ServiceAccount' ? { ...subject } : { ...subject, apiGroup: 'rbac.authorization.k8s.io' };
}

/** A RoleBinding of `roleRef` (ClusterRole or Role) to `subjects` in `namespace`. */
export function bindRole(
  ts: TestServer,
  namespace: string,
  name: string,
  roleRef: { kind: 'ClusterRole' | 'Role'; name: string },
  subjects: readonly Subject[],
): Promise<Json> {
  return createAsAdmin(ts, `/apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}/rolebindings`, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', ...roleRef },
    subjects: subjects.map(subjectJson),
  });
}

export function bindClusterRole(ts: TestServer, name: string, clusterRole: string, subjects: readonly Subject[]): Promise<Json> {
  return createAsAdmin(ts, '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: clusterRole },
    subjects: subjects.map(subjectJson),
  });
}

export function createClusterRole(ts: TestServer, name: string, rules: readonly Json[], labels?: Record<string, string>): Promise<Json> {
  return createAsAdmin(ts, '/apis/rbac.authorization.k8s.io/v1/clusterroles', {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: labels === undefined ? { name } : { name, labels },
    rules,
  });
}

export function createRole(ts: TestServer, namespace: string, name: string, rules: readonly Json[]): Promise<Json> {
  return createAsAdmin(ts, `/apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}/roles`, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: { name },
    rules,
  });
}

export async function createNamespace(ts: TestServer, name: string): Promise<void> {
  await createAsAdmin(ts, '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
}

export interface AccessQuestion {
  readonly user: string;
  readonly groups?: readonly string[];
  readonly resourceAttributes?: Json;
  readonly nonResourceAttributes?: Json;
}

/** The admin's SubjectAccessReview for `question`: whether the authorizer would allow it right now. */
export async function accessAllowed(ts: TestServer, question: AccessQuestion): Promise<boolean> {
  const { user, groups = ['system:authenticated'], ...attributes } = question;
  const res = await ts.request('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SubjectAccessReview',
    spec: { user, groups, ...attributes },
  });
  assert.equal(res.status, 201, res.text);
  return res.json.status.allowed === true;
}

/** RBAC changes reach the authorizer through its informers: waits until the authorizer answers `expected`. */
export async function waitForAccess(ts: TestServer, question: AccessQuestion, expected = true): Promise<void> {
  await waitFor(async () => ((await accessAllowed(ts, question)) === expected ? true : undefined), {
    timeoutMs: 5000,
    what: `the authorizer to ${expected ? 'allow' : 'refuse'} ${JSON.stringify(question)}`,
  });
}
