import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ActorName } from './actors.js';
import { checkOutcome } from './invariants.js';
import type { FuzzRequest } from './request.js';
import type { WireOutcome } from './wire-client.js';

function request(actor: ActorName, method: string, path: string, intent?: FuzzRequest['intent']): FuzzRequest {
  return { index: 0, category: 'rbac', variant: 'x', actor, method, path, headers: {}, intent, probe: undefined, dryRun: false };
}

function answer(status: number, body: unknown, contentType = 'application/json'): WireOutcome {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return { kind: 'response', status, headers: { 'content-type': contentType }, body: Buffer.from(text), cut: false };
}

function status(code: number, reason: string): Record<string, unknown> {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'm', reason, code };
}

const invariants = (req: FuzzRequest, outcome: WireOutcome): string[] => checkOutcome(req, outcome).map((v) => v.invariant);
const configMap = (namespace: string) => ({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'c', namespace } });
const secret = (namespace: string) => ({ kind: 'Secret', apiVersion: 'v1', metadata: { name: 's', namespace } });

describe('fuzz invariants', () => {
  it('accepts a Status for a 4xx in JSON and in YAML, and refuses other bodies', () => {
    const get = request('admin', 'GET', '/api/v1/namespaces/fz-a/configmaps/x');
    assert.deepEqual(invariants(get, answer(404, status(404, 'NotFound'))), []);
    assert.deepEqual(
      invariants(
        get,
        answer(404, 'kind: Status\napiVersion: v1\nmetadata: {}\nstatus: Failure\nmessage: m\ncode: 404\n', 'application/yaml'),
      ),
      [],
    );
    assert.deepEqual(invariants(get, answer(404, '404 page not found', 'text/plain')), ['error-is-status']);
    assert.deepEqual(invariants(get, answer(400, status(422, 'Invalid'))), ['error-is-status']);
  });

  it('lets the HTTP layer refuse unparsable requests as Go does, before authentication and without a Status', () => {
    const badTarget = request('bad-token', 'GET', '\\/api/v1');
    assert.deepEqual(invariants(badTarget, answer(400, '400 Bad Request', 'text/plain; charset=utf-8')), []);
    assert.deepEqual(
      invariants(request('nobody', 'GET', '/api'), answer(431, '431 Request Header Fields Too Large', 'text/plain; charset=utf-8')),
      [],
    );
    const badEscape = request('anonymous', 'GET', '/api/v1/namespaces/fz-a/configmaps/%zz');
    assert.deepEqual(invariants(badEscape, answer(400, status(400, 'BadRequest'))), []);
    // Any other plain-text 400 is still not a Status, and a refused user still gets the refusal code.
    assert.deepEqual(invariants(request('admin', 'GET', '/api'), answer(400, 'bad', 'text/plain; charset=utf-8')), ['error-is-status']);
    assert.deepEqual(invariants(request('bad-token', 'GET', '/api'), answer(400, status(400, 'BadRequest'))), ['rbac-refusal-code']);
  });

  it('accepts a 504 only for a resourceVersion the server has not reached', () => {
    const get = request('admin', 'GET', '/api/v1/namespaces?resourceVersion=9223372036854775807');
    const tooLarge = {
      ...status(504, 'Timeout'),
      details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }] },
    };
    assert.deepEqual(invariants(get, answer(504, tooLarge)), []);
    assert.deepEqual(invariants(get, answer(504, status(504, 'Timeout'))), ['no-5xx']);
  });

  it('reports every 5xx, reset and hang', () => {
    const get = request('admin', 'GET', '/api');
    assert.deepEqual(invariants(get, answer(500, status(500, 'InternalError'))), ['no-5xx']);
    assert.deepEqual(invariants(get, { kind: 'socket-error', code: 'ECONNRESET', message: 'socket hang up' }), ['no-reset']);
    assert.deepEqual(invariants(get, { kind: 'timeout', afterMs: 20_000 }), ['no-hang']);
  });

  it('requires the exact refusal for what RBAC denies, and never a success', () => {
    const intent = { verb: 'get', group: '', resource: 'secrets', subresource: '', namespace: 'fz-canary' };
    const get = request('editor', 'GET', '/api/v1/namespaces/fz-canary/secrets/s', intent);
    assert.deepEqual(invariants(get, answer(403, status(403, 'Forbidden'))), []);
    assert.deepEqual(invariants(get, answer(404, status(404, 'NotFound'))), ['rbac-refusal-code']);
    assert.deepEqual(invariants(get, answer(200, secret('fz-canary'))), ['rbac', 'rbac']);
    const allowedRead = request('editor', 'GET', '/api/v1/namespaces/fz-a/secrets/s', { ...intent, namespace: 'fz-a' });
    assert.deepEqual(invariants(allowedRead, answer(200, secret('fz-a'))), []);
  });

  it('finds objects a user may not see in successful answers whatever the path looked like', () => {
    const tricky = request('editor', 'GET', '/api/v1/namespaces/fz-a/configmaps/%2e%2e/%2e%2e/fz-canary/secrets/s');
    assert.deepEqual(invariants(tricky, answer(200, secret('fz-canary'))), ['rbac']);
    assert.deepEqual(invariants(tricky, answer(200, { kind: 'SecretList', items: [{ metadata: { name: 's', namespace: 'fz-b' } }] })), [
      'rbac',
    ]);
    const watch = `${JSON.stringify({ type: 'ADDED', object: secret('kube-system') })}\n`;
    assert.deepEqual(invariants(tricky, answer(200, watch)), ['rbac']);
    // The reader may read ConfigMaps anywhere, but write nothing.
    assert.deepEqual(invariants(request('reader', 'GET', '/x'), answer(200, configMap('fz-canary'))), []);
    assert.deepEqual(invariants(request('reader', 'PATCH', '/x'), answer(200, configMap('fz-canary'))), ['rbac']);
  });

  it('lets anonymous users reach only the public paths, and unknown tokens nothing', () => {
    assert.deepEqual(invariants(request('anonymous', 'GET', '/readyz'), answer(200, 'ok', 'text/plain')), []);
    assert.deepEqual(invariants(request('anonymous', 'GET', '/api'), answer(200, { kind: 'APIVersions' })), ['rbac', 'rbac']);
    assert.deepEqual(invariants(request('anonymous', 'GET', '/api'), answer(401, status(401, 'Unauthorized'))), []);
    assert.deepEqual(invariants(request('bad-token', 'GET', '/readyz'), answer(200, 'ok', 'text/plain')), ['rbac']);
    assert.deepEqual(invariants(request('bad-token', 'GET', '/readyz'), answer(401, status(401, 'Unauthorized'))), []);
  });
});
