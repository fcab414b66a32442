import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** Workload validation as kubectl shows it (issue 30): the messages are kube-apiserver 1.32's, byte for byte. */

const container = { name: 'c', image: 'nginx' };

function deployment(name: string, selector: Record<string, string>, labels: Record<string, string>): string {
  return JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: { selector: { matchLabels: selector }, template: { metadata: { labels }, spec: { containers: [container] } } },
  });
}

function statefulSet(serviceName: string): string {
  return JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'db' },
    spec: {
      serviceName,
      selector: { matchLabels: { app: 'db' } },
      template: { metadata: { labels: { app: 'db' } }, spec: { containers: [container] } },
    },
  });
}

describe('kubectl and the workload validation (issue 30)', () => {
  let ts: TestServer;
  before(async () => {
    ts = await startTestServer();
  });
  after(async () => {
    await ts.stop();
  });

  it('applies a valid Deployment and refuses a change of its selector', async () => {
    assert.match(
      await ts.kubectlOk(['apply', '-f', '-'], { input: deployment('web', { app: 'web' }, { app: 'web' }) }),
      /deployment.apps\/web created/,
    );
    const changed = await ts.kubectl(['apply', '-f', '-'], { input: deployment('web', { app: 'web2' }, { app: 'web2' }) });
    assert.notEqual(changed.code, 0);
    assert.equal(
      changed.stderr.trim(),
      'The Deployment "web" is invalid: spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"web2"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
    );
  });

  it('refuses a Deployment whose selector does not match its template', async () => {
    const r = await ts.kubectl(['create', '-f', '-'], { input: deployment('mismatch', { app: 'other' }, { app: 'web' }) });
    assert.notEqual(r.code, 0);
    assert.equal(
      r.stderr.trim(),
      'The Deployment "mismatch" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`',
    );
  });

  it('refuses a Job whose pods restart Always, and accepts kubectl create job', async () => {
    const job = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'always' },
      spec: { template: { spec: { restartPolicy: 'Always', containers: [container] } } },
    };
    const r = await ts.kubectl(['create', '-f', '-'], { input: JSON.stringify(job) });
    assert.notEqual(r.code, 0);
    assert.equal(
      r.stderr.trim(),
      'The Job "always" is invalid: spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"',
    );
    assert.match(await ts.kubectlOk(['create', 'job', 'pi', '--image=perl']), /job.batch\/pi created/);
  });

  it('refuses a StatefulSet update outside the mutable fields', async () => {
    await ts.kubectlOk(['apply', '-f', '-'], { input: statefulSet('db') });
    const r = await ts.kubectl(['apply', '-f', '-'], { input: statefulSet('db-headless') });
    assert.notEqual(r.code, 0);
    assert.equal(
      r.stderr.trim(),
      "The StatefulSet \"db\" is invalid: spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    );
  });
});
