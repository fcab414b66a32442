import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AuditPolicy } from '../../src/audit/policy.js';
import { waitFor } from '../../src/embed/index.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

// The audit log (--audit-log-path, --audit-policy-file) through the real kubectl over HTTPS, with the annotations
// ValidatingAdmissionPolicies add: issue 22, R11.169 (Audit action), R11.170 (auditAnnotations).

const POLICY = `
apiVersion: audit.k8s.io/v1
kind: Policy
rules:
  - level: None
    nonResourceURLs: ["/api*", "/apis*", "/openapi*", "/version"]
  - level: RequestResponse
    resources: [{ group: "", resources: ["secrets"] }]
  - level: Metadata
    omitStages: ["RequestReceived"]
`;

type AuditEvent = Record<string, unknown> & {
  stage: string;
  verb: string;
  objectRef?: Record<string, unknown>;
  annotations?: Record<string, string>;
};

describe('kubectl: audit log', () => {
  let ts: TestServer;
  let dir: string;
  let logPath: string;

  async function events(): Promise<AuditEvent[]> {
    const text = await readFile(logPath, 'utf8').catch(() => '');
    return text
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as AuditEvent);
  }

  /**
   * The events of the request on one object, once its ResponseComplete is written: found by its name there (a
   * create's RequestReceived cannot know it yet), then all of them by the request's auditID.
   */
  async function eventsOf(verb: string, resource: string, name: string): Promise<AuditEvent[]> {
    return waitFor(
      async () => {
        const all = await events();
        const complete = all.find(
          (e) => e.stage === 'ResponseComplete' && e.verb === verb && e.objectRef?.resource === resource && e.objectRef?.name === name,
        );
        return complete === undefined ? undefined : all.filter((e) => e.auditID === complete.auditID);
      },
      { timeoutMs: 10_000, what: `the audit events of ${verb} ${resource}/${name}` },
    );
  }

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cascade-audit-'));
    logPath = join(dir, 'audit.log');
    ts = await startTestServer({ secure: {}, audit: { logPath, policy: AuditPolicy.parse(POLICY) } });
    await ts.kubectlOk(['create', 'namespace', 'audit']);
  });
  after(async () => {
    await ts?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('writes one Metadata event at ResponseComplete for a create, with objectRef, status and the authorization decision', async () => {
    await ts.kubectlOk(['create', 'configmap', 'plain', '-n', 'audit', '--from-literal=k=v']);
    const [event, ...rest] = await eventsOf('create', 'configmaps', 'plain');
    assert.equal(rest.length, 0, 'RequestReceived is omitted by the rule');
    assert.equal(event?.kind, 'Event');
    assert.equal(event?.apiVersion, 'audit.k8s.io/v1');
    assert.equal(event?.level, 'Metadata');
    assert.equal(event?.stage, 'ResponseComplete');
    assert.match(String(event?.auditID), /^[0-9a-f-]{36}$/);
    assert.match(String(event?.requestURI), /^\/api\/v1\/namespaces\/audit\/configmaps\?fieldManager=kubectl-create/);
    assert.deepEqual(event?.objectRef, { resource: 'configmaps', namespace: 'audit', name: 'plain', apiVersion: 'v1' });
    assert.deepEqual(event?.responseStatus, { metadata: {}, code: 201 });
    assert.equal((event?.user as { username?: string } | undefined)?.username, 'cascade-admin');
    assert.deepEqual(event?.sourceIPs, ['127.0.0.1']);
    assert.match(String(event?.userAgent), /^kubectl\//);
    assert.equal(event?.annotations?.['authorization.k8s.io/decision'], 'allow');
    assert.equal(event?.requestObject, undefined);
    assert.match(String(event?.requestReceivedTimestamp), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    assert.match(String(event?.stageTimestamp), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  });

  it('logs both stages with the request and response objects at RequestResponse, and the failure Status', async () => {
    await ts.kubectlOk(['create', 'secret', 'generic', 'kept', '-n', 'audit', '--from-literal=k=v']);
    const created = await eventsOf('create', 'secrets', 'kept');
    assert.deepEqual(
      created.map((e) => e.stage),
      ['RequestReceived', 'ResponseComplete'],
    );
    const complete = created[1] as AuditEvent;
    assert.equal((complete.requestObject as { kind?: string }).kind, 'Secret');
    assert.equal((complete.responseObject as { metadata?: { name?: string } }).metadata?.name, 'kept');
    const missing = await ts.kubectl(['get', 'secret', 'absent', '-n', 'audit']);
    assert.notEqual(missing.code, 0);
    const got = (await eventsOf('get', 'secrets', 'absent')).find((e) => e.stage === 'ResponseComplete');
    assert.deepEqual(got?.responseStatus, {
      metadata: {},
      status: 'Failure',
      message: 'secrets "absent" not found',
      reason: 'NotFound',
      details: { name: 'absent', kind: 'secrets' },
      code: 404,
    });
  });

  it("records a policy's Audit action and auditAnnotations as Kubernetes annotates the event (R11.169, R11.170)", async () => {
    const policy = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'audited' },
      spec: {
        matchConstraints: {
          resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }],
          objectSelector: { matchLabels: { audited: 'yes' } },
        },
        validations: [{ expression: '!has(object.data)', message: 'no data allowed' }],
        auditAnnotations: [{ key: 'keys', valueExpression: 'string(size(object.data))' }],
      },
    };
    const binding = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: 'audited' },
      spec: { policyName: 'audited', validationActions: ['Audit'] },
    };
    const created = await ts.kubectl(['create', '-f', '-'], { input: JSON.stringify(policy) });
    assert.equal(created.stderr, '');
    await ts.kubectlOk(['create', '-f', '-'], { input: JSON.stringify(binding) });
    const probe = (name: string) =>
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name, namespace: 'audit', labels: { audited: 'yes' } },
        data: { a: '1' },
      });
    // The binding is live once a server-side dry run is annotated.
    let n = 0;
    const annotations = await waitFor(
      async () => {
        const name = `probe-${n++}`;
        await ts.kubectlOk(['create', '--dry-run=server', '-f', '-'], { input: probe(name) });
        const [event] = await eventsOf('create', 'configmaps', name);
        return event?.annotations?.['audited/keys'] === undefined ? undefined : event.annotations;
      },
      { timeoutMs: 10_000, what: 'the policy binding to take effect' },
    );
    assert.equal(annotations['audited/keys'], '1');
    assert.equal(
      annotations['validation.policy.admission.k8s.io/validation_failure'],
      '[{"message":"no data allowed","policy":"audited","binding":"audited","expressionIndex":0,"validationActions":["Audit"]}]',
    );
  });
});
