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
    // The create's answer: the disruption controller fills the status right after, as on a real cluster.
    const web = JSON.parse(await ts.kubectlOk(['create', 'pdb', 'web', '--selector=app=x', '--min-available=1', '-o', 'json']));
    await ts.kubectlOk(['create', 'pdb', 'api', '--selector=app=y', '--max-unavailable=25%']);
    assert.deepEqual(web.spec, { minAvailable: 1, selector: { matchLabels: { app: 'x' } } });
    assert.deepEqual(web.status, { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 });
    assert.equal(web.metadata.generation, 1);
    const table = rows(await ts.kubectlOk(['get', 'pdb']));
    assert.equal(table[0], 'NAME MIN AVAILABLE MAX UNAVAILABLE ALLOWED DISRUPTIONS AGE');
    assert.match(table[1] ?? '', /^api N\/A 25% 0 \S+$/);
    assert.match(table[2] ?? '', /^web 1 N\/A 0 \S+$/);
    const bumped = await ts.request(
      'PATCH',
      `${PDBS}/web`,
      { spec: { minAvailable: 2 } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    assert.equal(bumped.json.metadata.generation, 2);
    const status = await ts.request(
      'PATCH',
      `${PDBS}/web/status`,
      { status: { disruptionsAllowed: 3 } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
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

  it('kubectl create cronjob: defaults in -o yaml, the printer columns with -o wide, in the all category', async () => {
    await ts.kubectlOk(['create', 'cronjob', 'tick', '--image=busybox', '--schedule=*/1 * * * *']);
    const cj = JSON.parse(await ts.kubectlOk(['get', 'cj', 'tick', '-o', 'json']));
    assert.equal(cj.spec.concurrencyPolicy, 'Allow');
    assert.equal(cj.spec.suspend, false);
    assert.equal(cj.spec.successfulJobsHistoryLimit, 3);
    assert.equal(cj.spec.failedJobsHistoryLimit, 1);
    assert.deepEqual(cj.status, {});
    assert.equal(cj.metadata.generation, 1);
    const pod = cj.spec.jobTemplate.spec.template.spec;
    assert.equal(pod.restartPolicy, 'OnFailure');
    assert.equal(pod.dnsPolicy, 'ClusterFirst');
    assert.equal(pod.terminationGracePeriodSeconds, 30);
    assert.equal(pod.containers[0].imagePullPolicy, 'Always');
    // Job's own defaults are for Jobs: the template's job spec keeps only what was sent.
    assert.equal(cj.spec.jobTemplate.spec.backoffLimit, undefined);
    const yaml = await ts.kubectlOk(['get', 'cronjob', 'tick', '-o', 'yaml']);
    assert.match(yaml, /^ {2}concurrencyPolicy: Allow$/m);
    const wide = rows(await ts.kubectlOk(['get', 'cj', '-o', 'wide']));
    assert.equal(wide[0], 'NAME SCHEDULE TIMEZONE SUSPEND ACTIVE LAST SCHEDULE AGE CONTAINERS IMAGES SELECTOR');
    assert.match(wide[1] ?? '', /^tick \*\/1 \* \* \* \* <none> False 0 <none> \S+ tick busybox <none>$/);
    const all = await ts.kubectlOk(['get', 'all', '-o', 'name']);
    assert.match(all, /^cronjob\.batch\/tick$/m);
    const explain = await ts.kubectlOk(['explain', 'cronjob.spec']);
    assert.match(explain, /^\s+schedule\s+<string> -required-$/m);
    assert.match(explain, /^\s+jobTemplate\s+<JobTemplateSpec> -required-$/m);
    await ts.kubectlOk(['delete', 'cj', 'tick']);
  });

  it('refuses bad schedules, time zones and policies with Kubernetes messages', async () => {
    const create = async (name: string, spec: Record<string, unknown>): Promise<string> => {
      const res = await ts.request('POST', '/apis/batch/v1/namespaces/default/cronjobs', {
        apiVersion: 'batch/v1',
        kind: 'CronJob',
        metadata: { name },
        spec: {
          jobTemplate: { spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } },
          ...spec,
        },
      });
      assert.equal(res.status, 422, res.text);
      return res.json.message;
    };
    assert.equal(
      await create('fields', { schedule: '* * *' }),
      'CronJob.batch "fields" is invalid: spec.schedule: Invalid value: "* * *": expected exactly 5 fields, found 3: [* * *]',
    );
    assert.equal(
      await create('minute', { schedule: '61 * * * *' }),
      'CronJob.batch "minute" is invalid: spec.schedule: Invalid value: "61 * * * *": end of range (61) above maximum (59): 61',
    );
    assert.equal(
      await create('word', { schedule: 'x * * * *' }),
      'CronJob.batch "word" is invalid: spec.schedule: Invalid value: "x * * * *": failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax',
    );
    assert.equal(
      await create('tz', { schedule: 'TZ=UTC 0 * * * *' }),
      'CronJob.batch "tz" is invalid: spec.schedule: Invalid value: "TZ=UTC 0 * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead',
    );
    assert.equal(
      await create('zone', { schedule: '@hourly', timeZone: 'Mars/Olympus' }),
      'CronJob.batch "zone" is invalid: spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus',
    );
    assert.equal(
      await create('policy', { schedule: '@daily', concurrencyPolicy: 'Sometimes' }),
      'CronJob.batch "policy" is invalid: spec.concurrencyPolicy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"',
    );
    const kubectl = await ts.kubectl(['create', 'cronjob', 'bad', '--image=busybox', '--schedule=every minute']);
    assert.notEqual(kubectl.code, 0);
    assert.match(kubectl.stderr, /spec\.schedule: Invalid value: "every minute": expected exactly 5 fields, found 2: \[every minute\]/);
    const ok = await ts.request('POST', '/apis/batch/v1/namespaces/default/cronjobs', {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'berlin' },
      spec: {
        schedule: '0 9 * * mon-fri',
        timeZone: 'Europe/Berlin',
        jobTemplate: { spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } },
      },
    });
    assert.equal(ok.status, 201, ok.text);
    await ts.kubectlOk(['delete', 'cj', 'berlin']);
  });
});
