import assert from 'node:assert/strict';
import { startTestServer, type TestServer, WITHOUT_WORKLOAD_CONTROLLERS } from './test-server.js';

/** Objects and helpers shared by the wire-fidelity suites on created objects (test/e2e/wire-*.test.ts, issue 19). */

export type Json = Record<string, any>;

export const NS = 'wire';

/** A server with the namespace the suites write into. */
export async function startWireServer(): Promise<TestServer> {
  // Wire fidelity is about what the server stores and prints, before any controller acts on it.
  const ts = await startTestServer({ controllers: WITHOUT_WORKLOAD_CONTROLLERS });
  await ts.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  return ts;
}

/** POSTs `body` and returns the created object, failing the test on any answer but 201. */
export async function createOk(ts: TestServer, path: string, body: Json): Promise<Json> {
  const res = await ts.request('POST', path, body);
  assert.equal(res.status, 201, res.text);
  return res.json;
}

/**
 * A created object with the values that differ per run replaced by placeholders; its managedFields (the creator's
 * one Update entry, R10.49, checked by the server-side apply suites) are left out.
 */
export function stable(obj: Json): Json {
  const copy = structuredClone(obj);
  if (copy.metadata?.managedFields !== undefined) {
    assert.deepEqual(
      copy.metadata.managedFields.map((e: Json) => e.operation),
      ['Update'],
    );
    delete copy.metadata.managedFields;
  }
  for (const field of ['uid', 'resourceVersion', 'creationTimestamp']) {
    if (copy.metadata?.[field] !== undefined) copy.metadata[field] = `<${field}>`;
  }
  if (copy.status?.lastPhaseTransitionTime !== undefined) {
    assert.equal(copy.status.lastPhaseTransitionTime, obj.metadata.creationTimestamp, 'the phase starts at creation');
    copy.status.lastPhaseTransitionTime = '<creationTimestamp>';
  }
  return copy;
}

export const META = (name: string, namespace?: string, extra: Json = {}): Json => ({
  name,
  ...(namespace === undefined ? {} : { namespace }),
  uid: '<uid>',
  resourceVersion: '<resourceVersion>',
  creationTimestamp: '<creationTimestamp>',
  ...extra,
});

export const TEMPLATE = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } };
export const DEFAULTED_TEMPLATE = {
  metadata: { labels: { app: 'web' } },
  spec: {
    containers: [
      {
        name: 'web',
        image: 'nginx:1.27',
        imagePullPolicy: 'IfNotPresent',
        resources: {},
        terminationMessagePath: '/dev/termination-log',
        terminationMessagePolicy: 'File',
      },
    ],
    dnsPolicy: 'ClusterFirst',
    restartPolicy: 'Always',
    schedulerName: 'default-scheduler',
    securityContext: {},
    terminationGracePeriodSeconds: 30,
  },
};
