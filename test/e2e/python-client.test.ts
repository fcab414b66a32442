import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/test-server.js';

// The Python suite is read from the source tree (this file runs compiled, from dist/test/e2e).
const SUITE_DIR = fileURLToPath(new URL('../../../test/python/', import.meta.url));
// Debian's python3-kubernetes lives in the system interpreter's dist-packages; .ci/run installs it.
const PYTHON = '/usr/bin/python3';
const MODULE_TIMEOUT_MS = 60_000;

interface PythonResult {
  readonly code: number;
  readonly output: string;
}

function python(args: readonly string[], env: NodeJS.ProcessEnv): Promise<PythonResult> {
  return new Promise((resolve) => {
    // Asynchronous, so the in-process server keeps serving the client.
    execFile(PYTHON, [...args], { cwd: SUITE_DIR, env, timeout: MODULE_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1;
      resolve({ code, output: `${stdout}${stderr}${err !== null && code === 1 && stderr === '' ? String(err) : ''}` });
    });
  });
}

const modules = readdirSync(SUITE_DIR)
  .filter((f) => /^test_.*\.py$/.test(f))
  .map((f) => f.slice(0, -'.py'.length))
  .sort();

// One unittest run per area against a secure server, configured from the kubeconfig it writes (CA data and token
// embedded), as a Python user would. The periodic bookmark interval is the CLI's minute, so what the watch tests see
// is what users see.
describe('Python client (python3-kubernetes) against Cascade', () => {
  let ts: TestServer;
  let env: NodeJS.ProcessEnv;

  before(async () => {
    const probe = await python(['-c', 'import kubernetes; print(kubernetes.__version__)'], process.env);
    if (probe.code !== 0) {
      throw new Error(
        `python3-kubernetes is not importable by ${PYTHON}: install it with \`apt-get install python3-kubernetes\` ` +
          `(.ci/run does).\n${probe.output}`,
      );
    }
    ts = await startTestServer({ secure: {}, bookmarkIntervalMs: 60_000 });
    const scratch = dirname(ts.kubeconfigPath);
    // TMPDIR keeps the dynamic client's discovery cache per server (ports are reused); no bytecode in the source tree.
    env = { ...process.env, KUBECONFIG: ts.kubeconfigPath, HOME: scratch, TMPDIR: scratch, PYTHONDONTWRITEBYTECODE: '1' };
  });
  after(async () => {
    await ts?.stop();
  });

  it('finds the Python suite', () => {
    assert.ok(modules.length >= 6, `expected the test_*.py modules in ${SUITE_DIR}, found ${modules.join(', ')}`);
  });

  for (const module of modules) {
    it(module, async () => {
      // urllib3 leaves pooled sockets to the garbage collector; its ResourceWarnings are noise here.
      const result = await python(['-W', 'ignore::ResourceWarning', '-m', 'unittest', '-v', module], env);
      assert.equal(result.code, 0, `python3 -m unittest ${module} failed:\n${result.output}`);
      assert.match(result.output, /\nOK\b/, result.output);
    });
  }
});
