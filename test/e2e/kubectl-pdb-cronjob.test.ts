import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/test-server.js';

const PDBS = '/apis/policy/v1/namespaces/default/poddisruptionbudgets';

function rows(output: string): string[] {
  return output
    .trim()
    .split('\n')
    .map((line) => line.trim().replace(/\s+/g, ' '));
}

describe('policy/v1 PodDisruptionBudgets and batch/v1 CronJobs with kubectl (issue 31)', () => {
  let ts: TestServer;
  before(async () => {
    ts = await startTestServer();
  });
  after(async () => {
    await ts.stop();
  });

  it('kubectl create pdb: no defaults, a zero-valued status, the printer columns', async () => {
    await ts.kubectlOk(['create', 'pdb', 'web', '--selector=app=x', '--min-available=1']);
    await ts.kubectlOk(['create', 'pdb', 'api', '--selector=app=y', '--max-unavailable=25%']);
    const web = JSON.parse(await ts.kubectlOk(['get', 'pdb', 'web', '-o', 'json']));
    assert.deepEqual(web.spec, { minAvailable: 1, selector: { matchLabels: { app: 'x' } } });
    assert.deepEqual(web.status, { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 });
    assert.equal(web.metadata.generation, 1);
    const table = rows(await ts.kubectlOk(['get', 'pdb']));
    assert.equal(table[0], 'NAME MIN AVAILABLE MAX UNAVAILABLE ALLOWED DISRUPTIONS AGE');
    assert.match(table[1] ?? '', /^api N\/A 25% 0 \S+$/);
    assert.match(table[2] ?? '', /^web 1 N\/A 0 \S+$/);
    const bumped = await ts.request('PATCH', `${PDBS}/web`, { spec: { minAvailable: 2 } }, { 'Content-Type': 'application/merge-patch+json' });
    assert.equal(bumped.json.metadata.generation, 2);
    const status = await ts.request('PATCH', `${PDBS}/web/status`, { status: { disruptionsAllowed: 3 } }, { 'Content-Type': 'application/merge-patch+json' });
    assert.equal(status.status, 200, status.text);
    assert.equal(status.json.status.disruptionsAllowed, 3);
    assert.equal(status.json.spec.minAvailable, 2);
    await ts.kubectlOk(['delete', 'pdb', 'web', 'api']);
  });

  it('refuses minAvailable with maxUnavailable, negative and bad percentages with Kubernetes messages', async () => {
    const create = async (name: string, spec: Record<string, unknown>): Promise<string> => {
      const res = await ts.request('POST', PDBS, { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name }, spec });
      assert.equal(res.status, 422, res.text);
      return res.json.message;
    };
    assert.equal(
      await create('both', { minAvailable: 1, maxUnavailable: 1, selector: {} }),
      'PodDisruptionBudget.policy "both" is invalid: spec: Invalid value: policy.PodDisruptionBudgetSpec{MinAvailable:(*intstr.IntOrString)(0xc000a1e000), Selector:(*v1.LabelSelector)(0xc000a1e020), MaxUnavailable:(*intstr.IntOrString)(0xc000a1e040), UnhealthyPodEvictionPolicy:(*policy.UnhealthyPodEvictionPolicyType)(nil)}: minAvailable and maxUnavailable cannot be both set',
    );
    assert.equal(
      await create('negative', { minAvailable: -1 }),
      'PodDisruptionBudget.policy "negative" is invalid: spec.minAvailable: Invalid value: -1: must be greater than or equal to 0',
    );
    assert.equal(
      await create('pct', { maxUnavailable: '150%' }),
      'PodDisruptionBudget.policy "pct" is invalid: spec.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"150%"}: must not be greater than 100%',
    );
    assert.equal(
      await create('policy', { unhealthyPodEvictionPolicy: 'Sometimes' }),
      'PodDisruptionBudget.policy "policy" is invalid: spec.unhealthyPodEvictionPolicy: Unsupported value: "Sometimes": supported values: "AlwaysAllow", "IfHealthyBudget"',
    );
  });
});
