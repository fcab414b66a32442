import assert from 'node:assert/strict';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { waitFor } from '../../src/embed/index.js';

// Issue 27: the web UI of `cascade serve` on HTTPS, in a real browser: the page's files need no credentials, the page
// asks for a bearer token (from `kubectl create token`), and the API server's own answers decide what it sees:
// the graph for a token bound to `view`, the 403 message for a token without rights, the 401 for a wrong token.

const CHROMIUM = '/usr/bin/chromium';
const NS = 'shop';
const skip = existsSync(CHROMIUM)
  ? false
  : `${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium) to run the browser tests`;
const run = promisify(execFile);

describe('cascade serve /ui/ on HTTPS in a browser', { skip }, () => {
  let child: ChildProcess;
  let url: string;
  let dataDir: string;
  let browser: Browser;
  let context: BrowserContext;

  async function kubectl(...args: string[]): Promise<string> {
    const { stdout } = await run('kubectl', args, { env: { ...process.env, KUBECONFIG: join(dataDir, 'kubeconfig') } });
    return stdout.trim();
  }

  async function apply(manifest: unknown): Promise<void> {
    const applied = spawn('kubectl', ['apply', '-f', '-'], {
      env: { ...process.env, KUBECONFIG: join(dataDir, 'kubeconfig') },
      stdio: ['pipe', 'ignore', 'inherit'],
    });
    applied.stdin.end(JSON.stringify(manifest));
    const code = await new Promise((resolve) => applied.once('exit', resolve));
    assert.equal(code, 0);
  }

  /** A fresh tab (its own sessionStorage) signed in with `token`. */
  async function signIn(token: string, hash = ''): Promise<Page> {
    const page = await context.newPage();
    await page.goto(`${url}/ui/${hash}`);
    await page.getByRole('heading', { name: 'Sign in to the cluster' }).waitFor({ timeout: 10_000 });
    await page.getByLabel('Bearer token').fill(token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    return page;
  }

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cascade-ui-secure-'));
    child = spawn(process.execPath, ['dist/src/cli/main.js', 'serve', '--secure-port', '0', '--data-dir', dataDir], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /Web UI at (https:\/\/[0-9.]+:\d+)\/ui\//.exec(out);
        if (match?.[1] !== undefined) resolve(match[1]);
      });
      child.once('exit', (code) => reject(new Error(`cascade serve exited with ${code}: ${out}`)));
    });
    await kubectl('create', 'namespace', NS);
    await kubectl('create', 'configmap', 'owner', '-n', NS);
    const uid = await kubectl('get', 'configmap', 'owner', '-n', NS, '-o', 'jsonpath={.metadata.uid}');
    await apply({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'child', namespace: NS, ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid }] },
    });
    await kubectl('create', 'serviceaccount', 'viewer', '-n', NS);
    await kubectl('create', 'serviceaccount', 'nobody', '-n', NS);
    await kubectl('create', 'clusterrolebinding', 'ui-viewer', '--clusterrole=view', `--serviceaccount=${NS}:viewer`);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--headless=new'] });
    // The serving certificate is signed by the server's own generated CA, which this browser does not know.
    context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1280, height: 900 } });
  });

  after(async () => {
    await browser?.close();
    child?.kill('SIGTERM');
    await new Promise((resolve) => child?.once('exit', resolve));
    await rm(dataDir, { recursive: true, force: true });
  });

  it('serves the page without credentials while the API still answers 401', async () => {
    const page = await context.newPage();
    const answer = await page.goto(`${url}/ui/`);
    assert.equal(answer?.status(), 200);
    await page.getByRole('heading', { name: 'Sign in to the cluster' }).waitFor({ timeout: 10_000 });
    const api = await page.evaluate(async () => {
      const r = await fetch('/api/v1/namespaces');
      return { status: r.status, message: ((await r.json()) as { message: string }).message };
    });
    assert.deepEqual(api, { status: 401, message: 'Unauthorized' });
    await page.close();
  });

  it('signs in with a token from kubectl create token and shows who it is and the graph', async () => {
    const token = await kubectl('create', 'token', 'viewer', '-n', NS);
    const page = await signIn(token, `#/namespaces/${NS}/configmaps/owner`);
    await page.getByText(`signed in as system:serviceaccount:${NS}:viewer`).waitFor({ timeout: 10_000 });
    const child = page.getByLabel(`ConfigMap child in ${NS}: live`);
    await child.waitFor({ timeout: 15_000 });
    // The token lives in this tab's sessionStorage, never in the address.
    assert.equal(await page.evaluate(() => sessionStorage.getItem('cascade.token')), token);
    assert.ok(!page.url().includes(token));
    // `view` may not list Secrets: the page says so with the server's message instead of hiding it.
    const notShown = page.getByLabel('resources not readable');
    await notShown.locator('summary').click();
    assert.ok(
      (await notShown.textContent())?.includes(
        `secrets is forbidden: User "system:serviceaccount:${NS}:viewer" cannot list resource "secrets" in API group "" at the cluster scope`,
      ),
    );
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to the cluster' }).waitFor({ timeout: 5_000 });
    assert.equal(await page.evaluate(() => sessionStorage.getItem('cascade.token')), null);
    await page.close();
  });

  it("shows the API's 403 message to a token without rights", async () => {
    const token = await kubectl('create', 'token', 'nobody', '-n', NS);
    const page = await signIn(token, `#/namespaces/${NS}/configmaps/owner`);
    const denied = page.getByLabel('not allowed');
    await denied.waitFor({ timeout: 15_000 });
    assert.equal(
      await denied.textContent(),
      `configmaps is forbidden: User "system:serviceaccount:${NS}:nobody" cannot list resource "configmaps" in API group "" at the cluster scope`,
    );
    await page.close();
  });

  it("shows the API's 401 to a wrong token", async () => {
    const page = await signIn('not-a-token');
    const refused = page.getByLabel('sign-in refused');
    await refused.waitFor({ timeout: 10_000 });
    assert.equal(await refused.textContent(), 'Unauthorized (HTTP 401 Unauthorized)');
    await waitFor(async () => ((await page.getByLabel('Bearer token').isVisible()) ? true : undefined), {
      timeoutMs: 5_000,
      what: 'the form to ask again',
    });
    await page.close();
  });
});
