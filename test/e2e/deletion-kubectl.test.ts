import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '../../src/embed/index.js';
import { type KubectlResult, startTestServer, type TestServer } from '../support/test-server.js';

const NS = 'kdelete';
const CMS = `/api/v1/namespaces/${NS}/configmaps`;
const PODS = `/api/v1/namespaces/${NS}/pods`;
const USER_FINALIZER = 'example.com/x';
const MERGE = { 'Content-Type': 'application/merge-patch+json' };

type Json = Record<string, any>;

function configMap(name: string, meta: Json = {}): Json {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...meta }, data: { k: 'v' } };
}

function boundPod(name: string): Json {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { nodeName: 'node-a', containers: [{ name: 'c', image: 'nginx' }] } };
}

/** A kubectl running in the background: its request log so far (stderr at -v=6) and, once it exits, its result. */
interface Running {
  readonly result: Promise<KubectlResult>;
  log(): string;
  done(): boolean;
}

/**
 * Starts kubectl at -v=6 so its stderr logs each request as the response arrives: seeing the watch request
 * there tells that kubectl is waiting. (test/support's startKubectl exposes no exit code, which these tests need.)
 */
function startKubectl(ts: TestServer, args: readonly string[]): Running {
  const home = dirname(ts.kubeconfigPath);
  const env = { ...process.env, KUBECONFIG: ts.kubeconfigPath, KUBECACHEDIR: join(home, 'cache'), HOME: home };
  const child = spawn('kubectl', [...args, '-v=6'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let finished = false;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const timer = setTimeout(() => child.kill('SIGTERM'), 20_000);
  const result = new Promise<KubectlResult>((resolve) => {
    child.once('close', (code) => {
      clearTimeout(timer);
      finished = true;
      resolve({ code: code ?? 1, stdout, stderr });
    });
  });
  return { result, log: () => stderr, done: () => finished };
}

/** kubectl logs `GET <url> 200 OK` for the watch once the server has answered it. */
const WATCHING = /GET \S*watch=true\S* 200 OK/;

describe('kubectl delete and wait against the deletion state machine (R2.41)', () => {
  let ts: TestServer;
  const k = (...args: string[]): Promise<string> => ts.kubectlOk([...args, '-n', NS]);
  const create = async (path: string, body: Json): Promise<Json> => {
    const res = await ts.request('POST', path, body);
    assert.equal(res.status, 201, res.text);
    return res.json;
  };
  const stored = async (path: string): Promise<Json | undefined> => {
    const res = await ts.request('GET', path);
    if (res.status === 404) return undefined;
    assert.equal(res.status, 200, res.text);
    return res.json;
  };
  const waiting = async (run: Running): Promise<void> => {
    await waitFor(() => WATCHING.test(run.log()) || run.done(), { timeoutMs: 5000, what: 'kubectl to watch' });
    assert.equal(run.done(), false, `kubectl returned while the object still exists:\n${run.log()}`);
  };
  /** Waits until the object carries a deletionTimestamp, i.e. the DELETE has been processed. */
  const marked = (path: string): Promise<Json> =>
    waitFor(
      async () => {
        const obj = await stored(path);
        return obj?.metadata.deletionTimestamp !== undefined ? obj : undefined;
      },
      { timeoutMs: 5000, what: `${path} to be marked for deletion` },
    );
  const dropFinalizers = async (path: string): Promise<void> => {
    const res = await ts.request('PATCH', path, { metadata: { finalizers: null } }, MERGE);
    assert.equal(res.status, 200, res.text);
  };

  before(async () => {
    // These suites pin the registry's own deletion behaviour: with no controllers, GC and namespace finalizers stay (R2.30).
    ts = await startTestServer({ controllers: { garbageCollector: false, namespaceController: false } });
    await create('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  });
  after(async () => {
    await ts.stop();
  });

  it('kubectl delete cm removes it at once (background default, R2.29)', async () => {
    await create(CMS, configMap('plain'));
    assert.equal(await k('delete', 'cm', 'plain'), 'configmap "plain" deleted\n');
    assert.equal(await stored(`${CMS}/plain`), undefined);
  });

  for (const [cascade, finalizer] of [
    ['orphan', 'orphan'],
    ['foreground', 'foregroundDeletion'],
  ] as const) {
    it(`--cascade=${cascade} leaves the object terminating with the ${finalizer} finalizer (R2.30)`, async () => {
      const name = `cascade-${cascade}`;
      await create(CMS, configMap(name));
      assert.equal(await k('delete', 'cm', name, `--cascade=${cascade}`, '--wait=false'), `configmap "${name}" deleted\n`);
      const obj = await stored(`${CMS}/${name}`);
      assert.ok(obj, 'no garbage collector runs, so the object stays');
      assert.deepEqual(obj.metadata.finalizers, [finalizer]);
      assert.equal(typeof obj.metadata.deletionTimestamp, 'string');
      assert.equal(obj.metadata.deletionGracePeriodSeconds, 0);
      await dropFinalizers(`${CMS}/${name}`);
      assert.equal(await stored(`${CMS}/${name}`), undefined);
    });
  }

  it('--grace-period=0 --force removes a bound pod at once (R2.19)', async () => {
    await create(PODS, boundPod('forced'));
    const r = await ts.kubectl(['delete', 'pod', 'forced', '--grace-period=0', '--force', '-n', NS]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'pod "forced" force deleted\n');
    assert.match(r.stderr, /Immediate deletion does not wait for confirmation that the running resource has been terminated/);
    assert.equal(await stored(`${PODS}/forced`), undefined);
  });

  it('--grace-period=5 leaves a bound pod terminating with deletionGracePeriodSeconds 5 (R2.18)', async () => {
    await create(PODS, boundPod('graceful'));
    assert.equal(await k('delete', 'pod', 'graceful', '--grace-period=5', '--wait=false'), 'pod "graceful" deleted\n');
    const obj = await stored(`${PODS}/graceful`);
    assert.ok(obj);
    assert.equal(obj.metadata.deletionGracePeriodSeconds, 5);
    const deadline = Date.parse(obj.metadata.deletionTimestamp);
    assert.ok(Math.abs(deadline - (Date.now() + 5000)) < 3000, `deletionTimestamp ${obj.metadata.deletionTimestamp} is about now + 5s`);
    const row = (await k('get', 'pod', 'graceful', '--no-headers')).trim().split(/\s+/);
    assert.equal(row[2], 'Terminating', `STATUS column of ${row.join(' ')}`);
  });

  it('--now means a grace period of 1 (R2.41)', async () => {
    await create(PODS, boundPod('now'));
    assert.equal(await k('delete', 'pod', 'now', '--now', '--wait=false'), 'pod "now" deleted\n');
    assert.equal((await stored(`${PODS}/now`))?.metadata.deletionGracePeriodSeconds, 1);
  });

  it('kubectl delete --wait blocks until another client removes the last finalizer (R2.35)', async () => {
    const path = `${CMS}/held`;
    await create(CMS, configMap('held', { finalizers: [USER_FINALIZER] }));
    const run = startKubectl(ts, ['delete', 'cm', 'held', '--timeout=15s', '-n', NS]);
    await waiting(run);
    await marked(path);
    await dropFinalizers(path);
    const r = await run.result;
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'configmap "held" deleted\n');
    assert.equal(await stored(path), undefined);
  });

  it('kubectl wait --for=delete returns once the object is gone', async () => {
    const path = `${CMS}/awaited`;
    await create(CMS, configMap('awaited', { finalizers: [USER_FINALIZER] }));
    await k('delete', 'cm', 'awaited', '--wait=false');
    const run = startKubectl(ts, ['wait', '--for=delete', 'cm/awaited', '--timeout=10s', '-n', NS]);
    await waiting(run);
    await dropFinalizers(path);
    const r = await run.result;
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'configmap/awaited condition met\n');
  });

  it('kubectl wait --for=delete times out while a finalizer holds the object', async () => {
    await create(CMS, configMap('stuck', { finalizers: [USER_FINALIZER] }));
    await k('delete', 'cm', 'stuck', '--wait=false');
    const r = await ts.kubectl(['wait', '--for=delete', 'cm/stuck', '--timeout=1s', '-n', NS]);
    assert.notEqual(r.code, 0);
    // client-go may also log its own reflector giving up at the deadline; the verdict is the last line.
    assert.match(r.stderr, /^error: timed out waiting for the condition on configmaps\/stuck\n$/m);
    assert.ok(await stored(`${CMS}/stuck`));
    await dropFinalizers(`${CMS}/stuck`);
  });

  it('kubectl delete -l deletes exactly the labelled set', async () => {
    for (const name of ['sel-a', 'sel-b']) await create(CMS, configMap(name, { labels: { app: 'x' } }));
    await create(CMS, configMap('sel-other', { labels: { app: 'y' } }));
    assert.equal(await k('delete', 'cm', '-l', 'app=x'), 'configmap "sel-a" deleted\nconfigmap "sel-b" deleted\n');
    assert.equal(await stored(`${CMS}/sel-a`), undefined);
    assert.equal(await stored(`${CMS}/sel-b`), undefined);
    assert.ok(await stored(`${CMS}/sel-other`));
  });

  it('kubectl delete ns leaves the namespace Terminating with the kubernetes spec finalizer (R5.5)', async () => {
    await create('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'doomed' } });
    assert.equal(await ts.kubectlOk(['delete', 'ns', 'doomed', '--wait=false']), 'namespace "doomed" deleted\n');
    const ns = await stored('/api/v1/namespaces/doomed');
    assert.ok(ns, 'no namespace controller runs, so the namespace stays');
    assert.equal(ns.status.phase, 'Terminating');
    assert.deepEqual(ns.spec.finalizers, ['kubernetes']);
    assert.equal(typeof ns.metadata.deletionTimestamp, 'string');
    assert.equal(ns.metadata.finalizers, undefined, 'kubectl asks for Background, which adds no GC finalizer (R5.6)');
    const row = (await ts.kubectlOk(['get', 'ns', 'doomed', '--no-headers'])).trim().split(/\s+/);
    assert.equal(row[1], 'Terminating');
  });
});
