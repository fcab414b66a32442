import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/test-server.js';

// kubectl shows kube-apiserver 1.32's own messages for Services, RBAC and Endpoints (issue 30): the validation
// of pkg/apis/core/validation and pkg/apis/rbac/validation, reached through the real HTTP API.

const NS = 'svc-validation';
const RBAC = 'rbac.authorization.k8s.io';

describe('Service, Endpoints and RBAC validation with kubectl (issue 30)', () => {
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

  it('a Service without ports is refused; a valid one is created and its clusterIP cannot change', async () => {
    const svc = (name: string, spec: Record<string, unknown>) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name }, spec });
    assert.equal(
      await refused(svc('noports', { selector: { app: 'web' } }), 'create', '-f', '-'),
      'The Service "noports" is invalid: spec.ports: Required value\n',
    );
    assert.equal(
      await refused(svc('badports', { ports: [{ port: 70000 }, { name: 'b', port: 81, protocol: 'HTTP' }] }), 'create', '-f', '-'),
      'The Service "badports" is invalid: \n' +
        '* spec.ports[0].name: Required value\n' +
        '* spec.ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive\n' +
        '* spec.ports[0].targetPort: Invalid value: 70000: must be between 1 and 65535, inclusive\n' +
        '* spec.ports[1].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"\n',
    );
    assert.equal(await k('create', 'service', 'clusterip', 'web', '--tcp=80:8080'), 'service/web created\n');
    const created = JSON.parse(await k('get', 'service', 'web', '-o', 'json'));
    const ip: string = created.spec.clusterIP;
    const other = ip.endsWith('.7') ? ip.replace(/\.7$/, '.8') : ip.replace(/\.\d+$/, '.7');
    created.spec.clusterIP = other;
    assert.equal(
      await refused(created, 'replace', '-f', '-'),
      `The Service "web" is invalid: spec.clusterIPs[0]: Invalid value: []string{"${other}"}: may not change once set\n`,
    );
    // A change of type to ExternalName drops the addresses and families on the user's behalf.
    created.spec = { ...created.spec, clusterIP: ip, type: 'ExternalName', externalName: 'db.example.com' };
    assert.equal(await kIn(created, 'replace', '-f', '-'), 'service/web replaced\n');
    const external = JSON.parse(await k('get', 'service', 'web', '-o', 'json'));
    assert.equal(external.spec.clusterIP, undefined);
    assert.equal(external.spec.ipFamilies, undefined);
  });

  it('a Role rule without verbs is refused, a RoleBinding cannot change its roleRef', async () => {
    const role = {
      apiVersion: `${RBAC}/v1`,
      kind: 'Role',
      metadata: { name: 'noverbs' },
      rules: [{ apiGroups: [''], resources: ['pods'] }],
    };
    assert.equal(
      await refused(role, 'create', '-f', '-'),
      'The Role "noverbs" is invalid: rules[0].verbs: Required value: verbs must contain at least one value\n',
    );
    const binding = (roleName: string) => ({
      apiVersion: `${RBAC}/v1`,
      kind: 'RoleBinding',
      metadata: { name: 'readers' },
      roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: roleName },
      subjects: [{ kind: 'User', apiGroup: RBAC, name: 'alice' }],
    });
    assert.equal(await kIn(binding('view'), 'apply', '-f', '-'), 'rolebinding.rbac.authorization.k8s.io/readers created\n');
    assert.match(
      await refused(binding('edit'), 'apply', '-f', '-'),
      /The RoleBinding "readers" is invalid: roleRef: Invalid value: rbac\.RoleRef\{APIGroup:"rbac\.authorization\.k8s\.io", Kind:"ClusterRole", Name:"edit"\}: cannot change roleRef/,
    );
  });

  it('Endpoints may not point at link-local addresses', async () => {
    const endpoints = {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name: 'metadata' },
      subsets: [{ addresses: [{ ip: '169.254.169.254' }] }],
    };
    assert.equal(
      await refused(endpoints, 'create', '-f', '-'),
      'The Endpoints "metadata" is invalid: subsets[0].addresses[0].ip: Invalid value: "169.254.169.254": may not be in the link-local range (169.254.0.0/16, fe80::/10)\n',
    );
  });
});
