import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** Pod validation as kubectl shows it (issue 30): the messages kube-apiserver 1.32 prints for the same manifests. */

const pod = (name: string, spec: Record<string, unknown>): string =>
  JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec });
const app = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({ name: 'app', image: 'nginx:1', ...extra });

describe('Pod validation with kubectl (issue 30)', () => {
  let ts: TestServer;
  before(async () => {
    ts = await startTestServer();
  });
  after(async () => {
    await ts.stop();
  });

  it("refuses the issue's invalid pods with Kubernetes' messages", async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['no-image', { containers: [{ name: 'app' }] }, 'The Pod "no-image" is invalid: spec.containers[0].image: Required value'],
      [
        'bad-port',
        { containers: [app({ ports: [{ containerPort: 70000 }] })] },
        'The Pod "bad-port" is invalid: spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
      ],
      ['twins', { containers: [app(), app()] }, 'The Pod "twins" is invalid: spec.containers[1].name: Duplicate value: "app"'],
      [
        'no-deadline',
        { containers: [app()], activeDeadlineSeconds: 0 },
        'The Pod "no-deadline" is invalid: spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive',
      ],
    ];
    for (const [name, spec, message] of cases) {
      const r = await ts.kubectl(['create', '-f', '-'], { input: pod(name, spec) });
      assert.equal(r.code, 1, name);
      assert.equal(r.stderr.trim(), message);
    }
  });

  it('lists several causes as kubectl lists them, and refuses a pod without containers', async () => {
    const r = await ts.kubectl(['apply', '-f', '-'], {
      input: pod('many', {
        containers: [
          app({ resources: { limits: { cpu: '1' }, requests: { cpu: '2' } }, volumeMounts: [{ name: 'nope', mountPath: '/x' }] }),
        ],
      }),
    });
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr.trim(),
      'The Pod "many" is invalid: \n' +
        '* spec.containers[0].volumeMounts[0].name: Not found: "nope"\n' +
        '* spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1',
    );
    const empty = await ts.request('POST', '/api/v1/namespaces/default/pods', JSON.parse(pod('empty', { containers: [] })));
    assert.equal(empty.status, 422);
    assert.equal(empty.json.message, 'Pod "empty" is invalid: spec.containers: Required value');
    assert.deepEqual(empty.json.details.causes, [{ reason: 'FieldValueRequired', message: 'Required value', field: 'spec.containers' }]);
  });

  it('accepts a valid pod (with its warnings), an image update, and refuses a container rename', async () => {
    const created = await ts.kubectl(['create', '-f', '-'], {
      input: pod('web', {
        containers: [
          app({
            env: [
              { name: 'A', value: '1' },
              { name: 'A', value: '2' },
            ],
          }),
        ],
      }),
    });
    assert.equal(created.code, 0, created.stderr);
    assert.match(
      created.stderr,
      /Warning: spec\.containers\[0\]\.env\[1\]: hides previous definition of "A", which may be dropped when using apply/,
    );
    await ts.kubectlOk(['set', 'image', 'pod/web', 'app=nginx:2']);
    const renamed = await ts.kubectl([
      'patch',
      'pod',
      'web',
      '--type=json',
      '-p',
      '[{"op":"replace","path":"/spec/containers/0/name","value":"other"}]',
    ]);
    assert.equal(renamed.code, 1);
    assert.ok(
      renamed.stderr.startsWith(
        'The Pod "web" is invalid: spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)\n',
      ),
      renamed.stderr,
    );
  });

  it('refuses a bad pod IP written through /status', async () => {
    const r = await ts.kubectl([
      'patch',
      'pod',
      'web',
      '--subresource=status',
      '--type=merge',
      '-p',
      '{"status":{"podIP":"bad","podIPs":[{"ip":"bad"}]}}',
    ]);
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr.trim(),
      'The Pod "web" is invalid: status.podIPs[0]: Invalid value: "bad": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    );
    await ts.kubectlOk([
      'patch',
      'pod',
      'web',
      '--subresource=status',
      '--type=merge',
      '-p',
      '{"status":{"podIP":"10.0.0.5","podIPs":[{"ip":"10.0.0.5"}]}}',
    ]);
  });
});
