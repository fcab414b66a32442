import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '../../src/embed/wait-for.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const NAME = 'kube-root-ca.crt';
const DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.';

/** kube-controller-manager's root-ca-cert-publisher, as kubectl sees its work (issue 31). */
describe('kube-root-ca.crt in every namespace', () => {
  let ts: TestServer;
  let ca = '';
  const get = async (ns: string): Promise<any> => {
    const r = await ts.kubectl(['get', 'configmap', NAME, '-n', ns, '-o', 'json']);
    return r.code === 0 ? JSON.parse(r.stdout) : undefined;
  };
  /** Polls (bounded) until the ConfigMap is there and holds `check`'s expectation. */
  const eventually = async (ns: string, check: (cm: any) => boolean, what: string): Promise<any> => {
    let last: any;
    await waitFor(
      async () => {
        last = await get(ns);
        return last !== undefined && check(last);
      },
      { timeoutMs: 10_000, intervalMs: 50, what },
    );
    return last;
  };
  const published = (cm: any): boolean =>
    JSON.stringify(cm.data) === JSON.stringify({ 'ca.crt': ca }) && cm.metadata.annotations?.['kubernetes.io/description'] === DESCRIPTION;

  before(async () => {
    ts = await startTestServer({ secure: {} });
    ca = ts.pki?.caCert ?? assert.fail('a secure server has a CA');
  });
  after(async () => {
    await ts.stop();
  });

  it('is published in the namespaces that exist at start, holding the cluster CA with Kubernetes’ description', async () => {
    for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) await eventually(ns, published, `${NAME} in ${ns}`);
  });

  it('appears in a new namespace, comes back after deletion and is put back after a change, keeping added labels', async () => {
    await ts.kubectlOk(['create', 'namespace', 'fresh']);
    const first = await eventually('fresh', published, `${NAME} in a new namespace`);
    await ts.kubectlOk(['delete', 'configmap', NAME, '-n', 'fresh']);
    const again = await eventually('fresh', (cm) => published(cm) && cm.metadata.uid !== first.metadata.uid, `${NAME} recreated`);
    assert.notEqual(again.metadata.uid, first.metadata.uid);

    await ts.kubectlOk(['label', 'configmap', NAME, '-n', 'fresh', 'team=blue']);
    await ts.kubectlOk(['patch', 'configmap', NAME, '-n', 'fresh', '--type=merge', '-p', '{"data":{"ca.crt":"forged","extra":"x"}}']);
    const restored = await eventually('fresh', published, `${NAME} restored`);
    assert.equal(restored.metadata.labels.team, 'blue');
    await ts.kubectlOk(['annotate', 'configmap', NAME, '-n', 'fresh', '--overwrite', 'kubernetes.io/description=mine']);
    await eventually('fresh', published, 'the description annotation restored');
  });

  it('a pod can read it with its service account token, as in-cluster clients do', async () => {
    await ts.kubectlOk(['create', 'namespace', 'apps']);
    await eventually('apps', published, `${NAME} in apps`);
    await ts.kubectlOk(['create', 'serviceaccount', 'reader', '-n', 'apps']);
    await ts.kubectlOk(['create', 'role', 'ca-reader', '-n', 'apps', '--verb=get', '--resource=configmaps', `--resource-name=${NAME}`]);
    await ts.kubectlOk(['create', 'rolebinding', 'ca-reader', '-n', 'apps', '--role=ca-reader', '--serviceaccount=apps:reader']);
    const token = (await ts.kubectlOk(['create', 'token', 'reader', '-n', 'apps'])).trim();
    const read = await ts.kubectlOk(['get', 'configmap', NAME, '-n', 'apps', `--token=${token}`, '-o', 'jsonpath={.data.ca\\.crt}']);
    assert.equal(read, ca);
  });
});
