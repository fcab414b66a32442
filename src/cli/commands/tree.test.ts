import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createHttpClient } from '../../client/http-client.js';
import { captureIo, objects, REFS, startToolServer, type ToolServer } from '../../tools/testing/harness.js';
import { deleteCommand } from './delete.js';
import { explainCommand } from './explain.js';
import { treeCommand } from './tree.js';

// Issue 10, item 5: bad input gives one clear line on stderr and a non-zero exit code (2 for usage errors).
describe('cascade explain/tree/delete: bad input', () => {
  let ts: ToolServer;

  before(async () => {
    ts = await startToolServer({ garbageCollector: false, namespaceController: false });
    await ts.client.create(REFS.configmaps, 'default', objects.configMap('default', 'present'));
  });
  after(async () => {
    await ts.stop();
  });

  const cases: [string, readonly string[], number, string][] = [
    ['R7.19 unknown type', ['deploymentz/web'], 1, 'error: the server doesn\'t have a resource type "deploymentz"\n'],
    ['missing object', ['deploy/nope', '-n', 'default'], 1, 'Error from server (NotFound): deployments.apps "nope" not found\n'],
    ['missing namespace of the object', ['cm/present', '-n', 'nowhere'], 1, 'Error from server (NotFound): configmaps "present" not found\n'],
    ['no argument', [], 2, 'error: you must specify the object as TYPE/NAME (e.g. deployment/web)\n'],
    ['a type without a name', ['configmap'], 2, 'error: you must specify the name of the configmap (TYPE/NAME or TYPE NAME)\n'],
    ['two slashes', ['cm/a/b'], 2, 'error: arguments in resource/name form must have a single resource and name, got "cm/a/b"\n'],
    ['an unknown flag', ['cm/present', '--bogus'], 2, "error: Unknown option '--bogus'. To specify a positional argument starting with a '-', place it at the end of the command after '--', as in '-- \"--bogus\"\n"],
    ['an unknown output format', ['cm/present', '-o', 'wide'], 2, 'error: unable to match a printer suitable for the output format "wide", allowed formats are: json,yaml\n'],
  ];
  for (const [what, args, code, stderr] of cases) {
    it(`${what}: explain and tree agree`, async () => {
      for (const command of [explainCommand, treeCommand]) {
        const io = captureIo();
        assert.equal(await command(ts.client, args, io), code);
        assert.equal(io.err(), stderr);
        assert.equal(io.out(), '');
      }
    });
  }

  it('delete rejects an unknown --cascade and a bad --timeout as usage errors', async () => {
    let io = captureIo();
    assert.equal(await deleteCommand(ts.client, ['cm/present', '--cascade=sideways'], io), 2);
    assert.equal(io.err(), 'error: invalid cascade value (sideways). Must be "background", "foreground", or "orphan".\n');
    io = captureIo();
    assert.equal(await deleteCommand(ts.client, ['cm/present', '--timeout=soon'], io), 2);
    assert.match(io.err(), /^error: invalid argument "soon" for "--timeout" flag/);
    io = captureIo();
    assert.equal(await deleteCommand(ts.client, ['cm/present', '-o', 'json'], io), 2);
    assert.equal(io.err(), 'error: --output is only supported with --preview\n');
    assert.ok((await ts.client.list(REFS.configmaps, 'default')).items.some((c) => c.metadata.name === 'present'), 'nothing was deleted');
  });

  it('an unreachable server is one line naming it', async () => {
    // Port 9 (discard) on loopback has no listener in the test environment: the connection is refused.
    const client = createHttpClient({ server: 'http://127.0.0.1:9' });
    try {
      const io = captureIo();
      assert.equal(await explainCommand(client, ['cm/present'], io), 1);
      assert.match(io.err(), /^error: cannot reach the Kubernetes API server at http:\/\/127\.0\.0\.1:9: connect ECONNREFUSED 127\.0\.0\.1:9\n$/);
    } finally {
      client.close();
    }
  });

  it('delete without --preview on an object without dependents deletes it and reports completion', async () => {
    await ts.client.create(REFS.configmaps, 'default', objects.configMap('default', 'lonely'));
    const io = captureIo();
    assert.equal(await deleteCommand(ts.client, ['cm', 'lonely'], io, { namespace: 'default' }, { intervalMs: 10 }), 0, io.err());
    assert.equal(io.out(), 'configmap "lonely" deleted (cascade=background, 1 object to go)\ncascade complete: 1 object deleted\n');
    assert.equal(io.err(), '[##############################] 0/1 remaining\n');
  });

  it('delete times out with the objects that remain', async () => {
    await ts.client.create(REFS.configmaps, 'default', objects.configMap('default', 'clingy', { finalizers: ['example.com/hold'] }));
    const io = captureIo();
    assert.equal(await deleteCommand(ts.client, ['cm/clingy', '--timeout=100ms'], io, { namespace: 'default' }, { intervalMs: 10 }), 1);
    assert.equal(io.err().split('\n').at(-2), 'error: timed out after 100ms waiting for the cascade: 1 object remains (ConfigMap/clingy); see cascade explain');
  });
});
