import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startUiCommand } from '../../src/cli/ui.js';
import type { UiServer } from '../../src/ui/ui-server.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

// Issue 27: how the web UI is served, without a browser: `cascade ui`'s read-only proxy and its explain/preview
// answers (the CLI's documents), and `cascade serve --insecure-http` mounting the same app at /ui/.

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

function get(url: string, options: { method?: string; host?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: options.method ?? 'GET', headers: options.host === undefined ? {} : { host: options.host } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          body += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('cascade ui: proxy and answers', () => {
  let ts: TestServer;
  let ui: UiServer | undefined;

  before(async () => {
    ts = await startTestServer();
    ui = await startUiCommand(['--kubeconfig', ts.kubeconfigPath, '--port', '0'], {
      stdout: { write: () => true },
      stderr: process.stderr,
    });
    await ts.kubectlOk(['create', 'configmap', 'settings', '-n', 'default']);
  });

  after(async () => {
    await ui?.close();
    await ts?.stop();
  });

  it('serves the app and proxies reads of /api and /apis with the kubeconfig credentials', async () => {
    const page = await get(`${ui?.url}`);
    assert.equal(page.status, 200);
    assert.match(page.body, /<script type="module" src="app\.js"><\/script>/);
    const cm = await get(`${ui?.url}api/v1/namespaces/default/configmaps/settings`);
    assert.equal(cm.status, 200);
    assert.equal(JSON.parse(cm.body).metadata.name, 'settings');
    const missing = await get(`${ui?.url}api/v1/namespaces/default/configmaps/nope`);
    assert.equal(missing.status, 404);
    assert.equal(JSON.parse(missing.body).message, 'configmaps "nope" not found');
  });

  it('refuses writes and other hosts (no open proxy, no DNS rebinding)', async () => {
    const del = await get(`${ui?.url}api/v1/namespaces/default/configmaps/settings`, { method: 'DELETE' });
    assert.equal(del.status, 405);
    assert.equal(JSON.parse(del.body).message, 'the cascade ui proxy only reads: DELETE is not allowed');
    const rebound = await get(`${ui?.url}api/v1/namespaces`, { host: 'evil.example.com' });
    assert.equal(rebound.status, 403);
    assert.equal((await get(`${ui?.url}../etc/passwd`)).status, 404);
  });

  it('answers explain and preview with the CLI documents', async () => {
    const explain = await get(`${ui?.url}ui-api/explain?resource=configmaps&namespace=default&name=settings`);
    assert.equal(explain.status, 200, explain.body);
    const doc = JSON.parse(explain.body);
    assert.equal(doc.document.kind, 'CascadeExplanation');
    assert.equal(doc.text, 'ConfigMap/settings (namespace default) is not being deleted\n');
    const preview = JSON.parse((await get(`${ui?.url}ui-api/preview?resource=configmaps&namespace=default&name=settings`)).body);
    assert.deepEqual(
      preview.previews.map((p: { policy: string }) => p.policy),
      ['Foreground', 'Background', 'Orphan'],
    );
    const bad = await get(`${ui?.url}ui-api/explain?resource=configmaps`);
    assert.equal(bad.status, 400);
    assert.equal(JSON.parse(bad.body).message, 'resource and name are required');
  });
});

describe('cascade serve --insecure-http mounts the app at /ui/', () => {
  let child: ChildProcess;
  let url: string;
  let dataDir: string;

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cascade-ui-serve-'));
    child = spawn(process.execPath, ['dist/src/cli/main.js', 'serve', '--insecure-http', '--secure-port', '0', '--data-dir', dataDir], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /Web UI at (http:\/\/[0-9.]+:\d+)\/ui\//.exec(out);
        if (match?.[1] !== undefined) resolve(match[1]);
      });
      child.once('exit', (code) => reject(new Error(`cascade serve exited with ${code}: ${out}`)));
    });
  });

  after(async () => {
    child?.kill('SIGTERM');
    await new Promise((resolve) => child?.once('exit', resolve));
    await rm(dataDir, { recursive: true, force: true });
  });

  it('serves the page, its answers, and leaves the API alone', async () => {
    const redirect = await get(`${url}/ui`);
    assert.equal(redirect.status, 302);
    assert.equal(redirect.headers.location, '/ui/');
    assert.match((await get(`${url}/ui/`)).body, /<div id="root"><\/div>/);
    const explain = await get(`${url}/ui/ui-api/explain?resource=namespaces&name=default`);
    assert.equal(explain.status, 200, explain.body);
    assert.equal(JSON.parse(explain.body).text.split('\n')[0], 'Namespace/default is not being deleted');
    assert.equal((await get(`${url}/api/v1/namespaces/default`)).status, 200);
  });
});
