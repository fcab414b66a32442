import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '../../src/embed/wait-for.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { jsonPatch, startWebhookServer, type WebhookServer } from '../support/webhook-server.js';

// Admission webhooks driven with kubectl against a real HTTPS webhook server (issue 21, spec R11.*): configurations
// applied with url + caBundle, denials, mutations, warnings, selectors, failure policies, timeouts and dry runs.

const PROD = 'wh-prod';
const OTHER = 'wh-other';

describe('admission webhooks with kubectl (issue 21)', () => {
  let ts: TestServer;
  let hooks: WebhookServer;

  const webhook = (name: string, path: string, resources: string[], extra: Record<string, unknown> = {}) => ({
    name,
    clientConfig: { url: `${hooks.url}${path}`, caBundle: hooks.caBundle },
    rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources }],
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    ...extra,
  });
  const apply = (kind: 'ValidatingWebhookConfiguration' | 'MutatingWebhookConfiguration', name: string, webhooks: unknown[]) =>
    ts.kubectlOk(['apply', '-f', '-'], {
      input: JSON.stringify({ apiVersion: 'admissionregistration.k8s.io/v1', kind, metadata: { name }, webhooks }),
    });
  const configMap = (name: string, namespace: string, labels: Record<string, string> = {}) =>
    JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, labels }, data: { k: 'v' } });
  /** Creates until the webhook answers (R11.83's marker pattern): the configuration reaches admission through an informer. */
  const createOnceEffective = async (input: () => string, done: (r: { code: number; stderr: string }) => boolean, what: string) =>
    waitFor(
      async () => {
        const result = await ts.kubectl(['create', '-f', '-'], { input: input() });
        return done(result) ? result : false;
      },
      { timeoutMs: 5000, intervalMs: 50, what },
    );

  before(async () => {
    hooks = await startWebhookServer([`hook.${OTHER}.svc`]);
    ts = await startTestServer();
    await ts.kubectlOk(['create', 'namespace', OTHER]);
    await ts.kubectlOk(['create', '-f', '-'], {
      input: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: PROD, labels: { env: 'prod' } } }),
    });
  });
  after(async () => {
    await ts.stop();
    await hooks.stop();
  });

  it('prints a denial as kubectl prints it, and skips objects its objectSelector does not select (R11.75, R11.45)', async () => {
    hooks.handle('/deny', () => ({ allowed: false, status: { code: 403, reason: 'Forbidden', message: 'nope' } }));
    await apply('ValidatingWebhookConfiguration', 'deny-cfg', [
      webhook('deny.example.com', '/deny', ['configmaps'], { objectSelector: { matchLabels: { deny: 'yes' } } }),
    ]);
    let n = 0;
    const denied = await createOnceEffective(
      () => configMap(`denied-${n++}`, OTHER, { deny: 'yes' }),
      (r) => r.code !== 0,
      'the validating webhook to deny',
    );
    assert.match(
      denied.stderr,
      /^Error from server \(Forbidden\): error when creating "STDIN": admission webhook "deny\.example\.com" denied the request: nope\n$/,
    );
    const allowed = await ts.kubectl(['create', '-f', '-'], { input: configMap('not-selected', OTHER) });
    assert.equal(allowed.stdout, 'configmap/not-selected created\n');
    const review = hooks.received.find((r) => r.path === '/deny')?.request;
    assert.equal(review?.operation, 'CREATE');
    assert.deepEqual(review?.kind, { group: '', version: 'v1', kind: 'ConfigMap' });
    assert.deepEqual(review?.resource, { group: '', version: 'v1', resource: 'configmaps' });
    assert.equal(review?.namespace, OTHER);
    assert.equal(review?.dryRun, false);
    assert.deepEqual(review?.options, { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1', fieldManager: 'kubectl-create' });
    assert.equal(review?.userInfo.username, 'cascade-admin');
    await ts.kubectlOk(['delete', 'validatingwebhookconfiguration', 'deny-cfg']);
  });

  it('applies a mutating webhook’s patch, prints its warning, and skips namespaces its namespaceSelector does not select (R11.71, R11.80, R11.44)', async () => {
    hooks.handle('/label', () => ({
      ...jsonPatch([{ op: 'add', path: '/metadata/labels/mutated', value: 'yes' }]),
      warnings: ['labelled by the test webhook'],
    }));
    await apply('MutatingWebhookConfiguration', 'label-cfg', [
      webhook('label.example.com', '/label', ['configmaps'], { namespaceSelector: { matchLabels: { env: 'prod' } } }),
    ]);
    let n = 0;
    const created = await createOnceEffective(
      () => configMap(`m-${n++}`, PROD, { own: 'x' }),
      (r) => r.stderr.includes('Warning'),
      'the mutating webhook to answer',
    );
    assert.equal(created.stderr, 'Warning: labelled by the test webhook\n');
    const name = created.stdout.replace(/^configmap\/(\S+) created\n$/, '$1');
    const yaml = await ts.kubectlOk(['get', 'configmap', name, '-n', PROD, '-o', 'jsonpath={.metadata.labels}']);
    assert.equal(yaml, '{"mutated":"yes","own":"x"}');
    const elsewhere = await ts.kubectl(['create', '-f', '-'], { input: configMap('plain', OTHER) });
    assert.equal(elsewhere.stderr, '');
    assert.equal(await ts.kubectlOk(['get', 'configmap', 'plain', '-n', OTHER, '-o', 'jsonpath={.metadata.labels}']), '');
    await ts.kubectlOk(['delete', 'mutatingwebhookconfiguration', 'label-cfg']);
  });

  it('a patch the object’s validation refuses is refused with the object’s own 422 (R11.79)', async () => {
    hooks.handle('/bad-patch', () => jsonPatch([{ op: 'add', path: '/metadata/labels', value: { 'bad key!': 'x' } }]));
    await apply('MutatingWebhookConfiguration', 'bad-patch-cfg', [webhook('bad-patch.example.com', '/bad-patch', ['serviceaccounts'])]);
    let n = 0;
    const refused = await createOnceEffective(
      () => JSON.stringify({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: `sa-${n++}`, namespace: OTHER } }),
      (r) => r.code !== 0,
      'the patch to be refused',
    );
    assert.match(
      refused.stderr,
      /^The ServiceAccount "sa-\d+" is invalid: metadata\.labels: Invalid value: "bad key!": name part must consist of/,
    );
    await ts.kubectlOk(['delete', 'mutatingwebhookconfiguration', 'bad-patch-cfg']);
  });

  it('failurePolicy Fail refuses with Kubernetes’ InternalError when the webhook is unreachable, Ignore lets the write through (R11.57, R11.76)', async () => {
    const dead = 'https://127.0.0.1:1/dead';
    const deadHook = (failurePolicy: string) => ({
      ...webhook('dead.example.com', '/dead', ['secrets'], { failurePolicy }),
      clientConfig: { url: dead },
    });
    await apply('ValidatingWebhookConfiguration', 'dead-cfg', [deadHook('Fail')]);
    let n = 0;
    const secret = () => JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: `s-${n++}`, namespace: OTHER } });
    const failed = await createOnceEffective(secret, (r) => r.code !== 0, 'the dead webhook to fail the write');
    assert.equal(
      failed.stderr,
      'Error from server (InternalError): error when creating "STDIN": Internal error occurred: failed calling webhook "dead.example.com": ' +
        'failed to call webhook: Post "https://127.0.0.1:1/dead?timeout=10s": dial tcp 127.0.0.1:1: connect: connection refused\n',
    );
    await apply('ValidatingWebhookConfiguration', 'dead-cfg', [deadHook('Ignore')]);
    await createOnceEffective(secret, (r) => r.code === 0, 'Ignore to let the write through');
    await ts.kubectlOk(['delete', 'validatingwebhookconfiguration', 'dead-cfg']);
  });

  it('a webhook slower than timeoutSeconds fails the write with context deadline exceeded, and is told ?timeout=1s (R11.24, R11.77)', async () => {
    hooks.handle('/slow', () => new Promise((resolve) => setTimeout(() => resolve({ allowed: true }), 1500)));
    await apply('ValidatingWebhookConfiguration', 'slow-cfg', [webhook('slow.example.com', '/slow', ['endpoints'], { timeoutSeconds: 1 })]);
    let n = 0;
    const failed = await createOnceEffective(
      () => JSON.stringify({ apiVersion: 'v1', kind: 'Endpoints', metadata: { name: `ep-${n++}`, namespace: OTHER } }),
      (r) => r.code !== 0,
      'the slow webhook to time out',
    );
    assert.match(
      failed.stderr,
      /^Error from server \(InternalError\): error when creating "STDIN": Internal error occurred: failed calling webhook "slow\.example\.com": failed to call webhook: Post "https:\/\/127\.0\.0\.1:\d+\/slow\?timeout=1s": context deadline exceeded\n$/,
    );
    assert.equal(hooks.received.find((r) => r.path === '/slow')?.query, 'timeout=1s');
    await ts.kubectlOk(['delete', 'validatingwebhookconfiguration', 'slow-cfg']);
  });

  it('a dry run reaches a side-effect-free webhook with dryRun true and stores nothing (R11.36)', async () => {
    hooks.handle('/dry', () => ({ allowed: true }));
    await apply('ValidatingWebhookConfiguration', 'dry-cfg', [
      webhook('dry.example.com', '/dry', ['podtemplates'], { sideEffects: 'NoneOnDryRun' }),
    ]);
    const template = (name: string) =>
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'PodTemplate',
        metadata: { name, namespace: OTHER },
        template: { spec: { containers: [{ name: 'c', image: 'busybox' }] } },
      });
    await waitFor(
      () =>
        hooks.received.some((r) => r.path === '/dry') ||
        ts.kubectl(['create', '-f', '-', '--dry-run=server'], { input: template('probe') }).then(() => false),
      {
        what: 'the dry-run webhook to be called',
      },
    );
    const call = hooks.received.find((r) => r.path === '/dry')?.request;
    assert.equal(call?.dryRun, true);
    assert.deepEqual(call?.options.dryRun, ['All']);
    assert.equal(
      (await ts.kubectl(['get', 'podtemplate', 'probe', '-n', OTHER])).stderr,
      'Error from server (NotFound): podtemplates "probe" not found\n',
    );
    await ts.kubectlOk(['delete', 'validatingwebhookconfiguration', 'dry-cfg']);
  });

  it('sends the warnings of a webhook that refuses a create or a delete along with the refusal (R11.70, R11.80)', async () => {
    hooks.handle('/warn-deny', (request) => ({
      allowed: false,
      status: { code: 403, reason: 'Forbidden', message: `no ${request.operation.toLowerCase()}` },
      warnings: [`careful with ${request.name}`],
    }));
    await ts.kubectlOk(['create', 'serviceaccount', 'kept', '-n', OTHER]);
    await apply('ValidatingWebhookConfiguration', 'warn-deny-cfg', [
      webhook('warn-deny.example.com', '/warn-deny', ['serviceaccounts'], {
        rules: [{ operations: ['CREATE', 'DELETE'], apiGroups: [''], apiVersions: ['v1'], resources: ['serviceaccounts'] }],
      }),
    ]);
    let n = 0;
    const refused = await createOnceEffective(
      () => JSON.stringify({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: `w-${n++}`, namespace: OTHER } }),
      (r) => r.code !== 0,
      'the refusing webhook',
    );
    assert.match(
      refused.stderr,
      /^Warning: careful with w-\d+\nError from server \(Forbidden\): error when creating "STDIN": admission webhook "warn-deny\.example\.com" denied the request: no create\n$/,
    );
    const deleted = await ts.kubectl(['delete', 'serviceaccount', 'kept', '-n', OTHER]);
    assert.equal(
      deleted.stderr,
      'Warning: careful with kept\nError from server (Forbidden): admission webhook "warn-deny.example.com" denied the request: no delete\n',
    );
    await ts.kubectlOk(['delete', 'validatingwebhookconfiguration', 'warn-deny-cfg']);
    await ts.kubectlOk(['delete', 'serviceaccount', 'kept', '-n', OTHER]);
  });

  it('admits a generateName create and each deletecollection item with an empty request name (R11.63, R11.33, quirk Q1)', async () => {
    hooks.handle('/names', () => ({ allowed: true }));
    await apply('ValidatingWebhookConfiguration', 'names-cfg', [
      webhook('names.example.com', '/names', ['secrets'], {
        rules: [{ operations: ['CREATE', 'DELETE'], apiGroups: [''], apiVersions: ['v1'], resources: ['secrets'] }],
        objectSelector: { matchLabels: { suite: 'names' } },
      }),
    ]);
    const secret = (meta: Record<string, unknown>) =>
      JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { namespace: OTHER, labels: { suite: 'names' }, ...meta } });
    const calls = () => hooks.received.filter((r) => r.path === '/names').map((r) => r.request);
    await createOnceEffective(
      () => secret({ generateName: 'gen-' }),
      () => calls().length > 0,
      'the names webhook',
    );
    const created = calls()[0];
    assert.equal(created?.name, undefined, 'no request name for a generateName create');
    assert.match(created?.object.metadata.name, /^gen-[a-z0-9]{5}$/, 'the validating phase sees the generated name');
    await ts.kubectlOk(['create', '-f', '-'], { input: secret({ name: 'named' }) });
    assert.equal(calls().at(-1)?.name, 'named');
    const listed = JSON.parse(await ts.kubectlOk(['get', 'secrets', '-n', OTHER, '-l', 'suite=names', '-o', 'json'])).items.length;
    const before = calls().length;
    const res = await ts.request('DELETE', `/api/v1/namespaces/${OTHER}/secrets?labelSelector=suite%3Dnames`);
    assert.equal(res.status, 200, res.text);
    const deletes = calls().slice(before);
    assert.equal(deletes.length, listed, 'one DELETE per item');
    for (const d of deletes) {
      assert.equal(d.operation, 'DELETE');
      assert.equal(d.name, undefined);
      assert.match(d.oldObject.metadata.name, /^(gen-|named$)/);
    }
    await ts.kubectlOk(['delete', 'validatingwebhookconfiguration', 'names-cfg']);
  });

  it('reaches a service-backed webhook through its endpoints and checks the certificate for <service>.<namespace>.svc (R11.23, R11.25)', async () => {
    hooks.handle('/svc', (request) => ({ allowed: request.name !== 'refused-by-service' }));
    const service = (name: string) => ({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name, namespace: OTHER },
      spec: { ports: [{ port: 443 }] },
    });
    const endpoints = (name: string) => ({
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name, namespace: OTHER },
      subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ port: hooks.port }] }],
    });
    await ts.kubectlOk(['create', '-f', '-'], {
      input: [service('hook'), endpoints('hook'), service('hook2'), endpoints('hook2')].map((o) => JSON.stringify(o)).join('\n'),
    });
    const viaService = (name: string, serviceName: string) => ({
      ...webhook(name, '', ['limitranges']),
      clientConfig: { service: { namespace: OTHER, name: serviceName, path: '/svc' }, caBundle: hooks.caBundle },
    });
    await apply('ValidatingWebhookConfiguration', 'svc-cfg', [viaService('svc.example.com', 'hook')]);
    const limitRange = (name: string) =>
      JSON.stringify({ apiVersion: 'v1', kind: 'LimitRange', metadata: { name, namespace: OTHER }, spec: { limits: [] } });
    const denied = await createOnceEffective(
      () => limitRange('refused-by-service'),
      (r) => r.code !== 0,
      'the service-backed webhook',
    );
    assert.equal(
      denied.stderr,
      'Error from server: error when creating "STDIN": admission webhook "svc.example.com" denied the request without explanation\n',
    );
    assert.equal((await ts.kubectl(['create', '-f', '-'], { input: limitRange('allowed-by-service') })).code, 0);
    await apply('ValidatingWebhookConfiguration', 'svc-cfg', [viaService('svc.example.com', 'hook2')]);
    let n = 0;
    const wrongName = await createOnceEffective(
      () => limitRange(`lr-${n++}`),
      (r) => r.stderr.includes('hook2'),
      'the certificate check for hook2',
    );
    assert.equal(
      wrongName.stderr,
      'Error from server (InternalError): error when creating "STDIN": Internal error occurred: failed calling webhook "svc.example.com": ' +
        `failed to call webhook: Post "https://hook2.${OTHER}.svc:443/svc?timeout=10s": tls: failed to verify certificate: x509: certificate is not valid for hook2.${OTHER}.svc\n`,
    );
    await ts.kubectlOk(['delete', 'validatingwebhookconfiguration', 'svc-cfg']);
  });

  it('lists configurations with NAME, WEBHOOKS, AGE, and never sends webhook configurations to webhooks (R11.34)', async () => {
    hooks.handle('/deny-all', () => ({ allowed: false }));
    await apply('ValidatingWebhookConfiguration', 'deny-all', [
      {
        ...webhook('deny-all.example.com', '/deny-all', ['*/*']),
        rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'] }],
      },
    ]);
    let n = 0;
    const denied = await createOnceEffective(
      () => configMap(`any-${n++}`, OTHER),
      (r) => r.code !== 0,
      'the deny-all webhook',
    );
    assert.match(denied.stderr, /admission webhook "deny-all\.example\.com" denied the request without explanation\n$/);
    const listed = await ts.kubectlOk(['get', 'validatingwebhookconfigurations']);
    assert.match(listed, /^NAME\s+WEBHOOKS\s+AGE\ndeny-all\s+1\s+\d+s\n$/);
    assert.equal(
      await ts.kubectlOk(['delete', 'validatingwebhookconfiguration', 'deny-all']),
      'validatingwebhookconfiguration.admissionregistration.k8s.io "deny-all" deleted\n',
    );
  });
});
