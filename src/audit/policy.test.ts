import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AuditPolicy, AuditPolicyError } from './policy.js';

const user = { name: 'alice', groups: ['devs', 'system:authenticated'] };
const resource = (over: Record<string, string> = {}) => ({
  user,
  resourceRequest: true as const,
  verb: 'get',
  apiGroup: '',
  apiVersion: 'v1',
  resource: 'pods',
  subresource: '',
  namespace: 'ns',
  name: 'p',
  ...over,
});

const POLICY = AuditPolicy.parse(`
apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
  - level: None
    users: [bob]
  - level: RequestResponse
    resources: [{ group: "", resources: ["pods/log", "*/status"] }]
  - level: Request
    verbs: [create]
    namespaces: [ns]
    resources: [{ group: "", resources: ["configmaps"], resourceNames: ["cm"] }]
  - level: Metadata
    nonResourceURLs: ["/healthz*"]
    omitStages: [ResponseStarted]
  - level: Metadata
    userGroups: [devs]
    resources: [{ group: "" }]
`);

test('the first matching rule sets the level; none matching is None; omitStages add up', () => {
  assert.deepEqual(POLICY.decide(resource({ subresource: 'log' })), { level: 'RequestResponse', omitStages: new Set(['RequestReceived']) });
  assert.equal(POLICY.decide(resource({ resource: 'nodes', subresource: 'status' })).level, 'RequestResponse');
  assert.equal(POLICY.decide(resource({ verb: 'create', resource: 'configmaps', name: 'cm' })).level, 'Request');
  assert.equal(POLICY.decide(resource({ verb: 'create', resource: 'configmaps', name: 'other' })).level, 'Metadata');
  assert.equal(POLICY.decide(resource({ apiGroup: 'apps', resource: 'deployments' })).level, 'None');
  assert.equal(POLICY.decide({ ...resource(), user: { name: 'bob', groups: ['devs'] } }).level, 'None');
  assert.deepEqual(POLICY.decide({ user, resourceRequest: false, verb: 'get', path: '/healthz/ready' }), {
    level: 'Metadata',
    omitStages: new Set(['RequestReceived', 'ResponseStarted']),
  });
  assert.equal(POLICY.decide({ user, resourceRequest: false, verb: 'get', path: '/metrics' }).level, 'None');
});

test('bad policies are refused with what is wrong', () => {
  assert.throws(() => AuditPolicy.parse('kind: Policy\napiVersion: v1\nrules: []'), AuditPolicyError);
  assert.throws(
    () => AuditPolicy.parse('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{ level: Everything }]'),
    /rules\[0\]\.level: unknown level "Everything"/,
  );
  assert.throws(
    () => AuditPolicy.parse('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{ level: None, omitStages: [Later] }]'),
    /unknown stage "Later"/,
  );
});
