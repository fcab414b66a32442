import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '../../src/embed/index.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** Lines of a kubectl table with runs of spaces collapsed. */
const rows = (output: string): string[] =>
  output
    .trim()
    .split('\n')
    .map((line) => line.trim().replace(/\s+/g, ' '));

/** The cells of a row but AGE (it moves with the clock). */
const withoutAge = (row: string, ageIndex: number): string =>
  row
    .split(' ')
    .filter((_, i) => i !== ageIndex)
    .join(' ');

const FS = '/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas';

describe('flowcontrol.apiserver.k8s.io/v1 and apps/v1 controllerrevisions with kubectl (issue 31)', () => {
  let ts: TestServer;
  before(async () => {
    ts = await startTestServer();
  });
  after(async () => {
    await ts.stop();
  });

  it('lists the bootstrap FlowSchemas in matching order, with their priority levels found', async () => {
    await waitFor(async () => !(await ts.kubectlOk(['get', 'flowschemas'])).includes(' ?'), { timeoutMs: 5000 });
    const table = rows(await ts.kubectlOk(['get', 'flowschemas'])).map((r, i) => (i === 0 ? r : withoutAge(r, 4)));
    assert.deepEqual(table, [
      'NAME PRIORITYLEVEL MATCHINGPRECEDENCE DISTINGUISHERMETHOD AGE MISSINGPL',
      'exempt exempt 1 <none> False',
      'probes exempt 2 <none> False',
      'system-leader-election leader-election 100 ByUser False',
      'endpoint-controller workload-high 150 ByUser False',
      'workload-leader-election leader-election 200 ByUser False',
      'system-node-high node-high 400 ByUser False',
      'system-nodes system 500 ByUser False',
      'kube-controller-manager workload-high 800 ByNamespace False',
      'kube-scheduler workload-high 800 ByNamespace False',
      'kube-system-service-accounts workload-high 900 ByNamespace False',
      'service-accounts workload-low 9000 ByUser False',
      'global-default global-default 9900 ByUser False',
      'catch-all catch-all 10000 ByUser False',
    ]);
  });

  it('lists the bootstrap priority levels with their shares and queues', async () => {
    const table = rows(await ts.kubectlOk(['get', 'prioritylevelconfigurations'])).map((r, i) => (i === 0 ? r : withoutAge(r, 6)));
    assert.deepEqual(table, [
      'NAME TYPE NOMINALCONCURRENCYSHARES QUEUES HANDSIZE QUEUELENGTHLIMIT AGE',
      'catch-all Limited 5 <none> <none> <none>',
      'exempt Exempt <none> <none> <none> <none>',
      'global-default Limited 20 128 6 50',
      'leader-election Limited 10 16 4 50',
      'node-high Limited 40 64 6 50',
      'system Limited 30 64 6 50',
      'workload-high Limited 40 128 6 50',
      'workload-low Limited 100 128 6 50',
    ]);
  });

  it('puts a deleted mandatory FlowSchema back, and refuses a changed mandatory spec', async () => {
    const before = JSON.parse(await ts.kubectlOk(['get', 'flowschema', 'catch-all', '-o', 'json']));
    assert.equal(before.metadata.annotations['apf.kubernetes.io/autoupdate-spec'], 'true');
    await ts.kubectlOk(['delete', 'flowschema', 'catch-all']);
    await waitFor(async () => (await ts.request('GET', `${FS}/catch-all`)).json.metadata?.uid !== undefined, { timeoutMs: 5000 });
    const after = (await ts.request('GET', `${FS}/catch-all`)).json;
    assert.notEqual(after.metadata.uid, before.metadata.uid);
    assert.deepEqual(after.spec, before.spec);
    const res = await ts.kubectl(['patch', 'flowschema', 'catch-all', '--type=merge', '-p', '{"spec":{"matchingPrecedence":9000}}']);
    assert.notEqual(res.code, 0);
    assert.match(
      res.stderr,
      /^The FlowSchema "catch-all" is invalid: spec: Invalid value: .*: spec of 'catch-all' must equal the fixed value$/m,
    );
  });

  it('defaults and validates a user FlowSchema and PriorityLevelConfiguration', async () => {
    const level = {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
      kind: 'PriorityLevelConfiguration',
      metadata: { name: 'tenant' },
      spec: { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: {} } } },
    };
    await ts.kubectlOk(['apply', '-f', '-'], { input: JSON.stringify(level) });
    const stored = JSON.parse(await ts.kubectlOk(['get', 'prioritylevelconfiguration', 'tenant', '-o', 'json']));
    assert.deepEqual(stored.spec.limited, {
      nominalConcurrencyShares: 30,
      lendablePercent: 0,
      limitResponse: { type: 'Queue', queuing: { queues: 64, handSize: 8, queueLengthLimit: 50 } },
    });
    const schema = {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
      kind: 'FlowSchema',
      metadata: { name: 'tenant' },
      spec: {
        priorityLevelConfiguration: { name: 'tenant' },
        rules: [{ subjects: [{ kind: 'User' }], resourceRules: [{ verbs: ['get', 'fly'], apiGroups: ['*'], resources: ['pods'] }] }],
      },
    };
    const refused = await ts.kubectl(['apply', '-f', '-'], { input: JSON.stringify(schema) });
    assert.equal(
      refused.stderr.trim(),
      'The FlowSchema "tenant" is invalid: \n' +
        "* spec.rules[0].subjects[0].user: Required value: user is required when subject kind is 'User'\n" +
        '* spec.rules[0].resourceRules[0].verbs: Unsupported value: []string{"get", "fly"}: supported values: "create", "delete", "deletecollection", "get", "list", "patch", "proxy", "update", "watch"\n' +
        '* spec.rules[0].resourceRules[0].namespaces: Required value: resource rules that are not cluster scoped must supply at least one namespace',
    );
    const subjects = [{ kind: 'User', user: { name: 'alice' } }];
    const rules = [{ subjects, resourceRules: [{ verbs: ['get'], apiGroups: ['*'], resources: ['pods'], namespaces: ['*'] }] }];
    await ts.kubectlOk(['apply', '-f', '-'], { input: JSON.stringify({ ...schema, spec: { ...schema.spec, rules } }) });
    const created = JSON.parse(await ts.kubectlOk(['get', 'flowschema', 'tenant', '-o', 'json']));
    assert.equal(created.spec.matchingPrecedence, 1000);
    // A schema naming a level that does not exist is marked Dangling, which the MISSINGPL column shows.
    const orphan = { ...schema, metadata: { name: 'orphan' }, spec: { priorityLevelConfiguration: { name: 'nowhere' }, rules } };
    await ts.kubectlOk(['apply', '-f', '-'], { input: JSON.stringify(orphan) });
    await waitFor(async () => (await ts.request('GET', `${FS}/orphan`)).json.status?.conditions?.[0]?.status === 'True', {
      timeoutMs: 5000,
    });
    assert.match(await ts.kubectlOk(['get', 'flowschema', 'orphan']), /^orphan\s+nowhere\s+1000\s+<none>\s+\S+\s+True$/m);
  });

  it('serves ControllerRevisions: printed with their controller, data immutable, revision not negative', async () => {
    // A real owner, or the garbage collector removes the revision (as Kubernetes' would).
    await ts.kubectlOk(['create', 'configmap', 'web']);
    const owner = JSON.parse(await ts.kubectlOk(['get', 'configmap', 'web', '-o', 'json']));
    const revision = {
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: {
        name: 'web-1',
        namespace: 'default',
        ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'web', uid: owner.metadata.uid, controller: true }],
      },
      data: { spec: { template: { metadata: { labels: { app: 'web' } } } } },
      revision: 1,
    };
    await ts.kubectlOk(['create', '-f', '-'], { input: JSON.stringify(revision) });
    const table = rows(await ts.kubectlOk(['get', 'controllerrevisions']));
    assert.equal(table[0], 'NAME CONTROLLER REVISION AGE');
    assert.match(table[1] ?? '', /^web-1 configmap\/web 1 \S+$/);
    const negative = await ts.kubectl(['create', '-f', '-'], {
      input: JSON.stringify({ ...revision, metadata: { name: 'web-0' }, data: null, revision: -1 }),
    });
    assert.equal(
      negative.stderr.trim(),
      'The ControllerRevision "web-0" is invalid: \n* data: Required value: data is mandatory\n* revision: Invalid value: -1: must be greater than or equal to 0',
    );
    const changed = await ts.kubectl(['patch', 'controllerrevision', 'web-1', '--type=merge', '-p', '{"data":{"x":1},"revision":2}']);
    assert.match(
      changed.stderr,
      /^The ControllerRevision "web-1" is invalid: data: Invalid value: runtime\.Unknown\{.*\}: field is immutable$/m,
    );
  });
});
