import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { writeEnvelope } from '../../src/protobuf/envelope.js';
import { differencesFrom132 } from '../support/k8s-1.32-schemas.js';
import { type Json, NS, startWireServer } from '../support/wire-fixtures.js';
import type { TestServer } from '../support/test-server.js';

/**
 * Issue 19, wire fidelity: the served OpenAPI documents carry Kubernetes 1.32's schemas, and legacy volume sources
 * pass strict validation in JSON and protobuf.
 */

/** The served definitions that are Kubernetes' own (the ProtectionRule CRD's are Cascade's). */
function kubernetesDefinitions(definitions: Json): Json {
  return Object.fromEntries(Object.entries(definitions).filter(([name]) => !name.startsWith('dev.cascade.')));
}

/** Length-delimited protobuf field, for bodies built by hand from generated.proto's numbers (not Cascade's tables). */
function field(tag: number, payload: Uint8Array | string): Buffer {
  const bytes = typeof payload === 'string' ? Buffer.from(payload) : Buffer.from(payload);
  const varint = (n: number): number[] => {
    const out: number[] = [];
    let v = n;
    while (v > 0x7f) {
      out.push((v & 0x7f) | 0x80);
      v >>>= 7;
    }
    out.push(v);
    return out;
  };
  return Buffer.concat([Buffer.from(varint((tag << 3) | 2)), Buffer.from(varint(bytes.length)), bytes]);
}

describe('wire fidelity: schemas, create defaults and replicationcontrollers (issue 19)', () => {
  let ts: TestServer;

  before(async () => {
    ts = await startWireServer();
  });
  after(async () => {
    await ts.stop();
  });

  describe('served OpenAPI against Kubernetes 1.32', () => {
    it('every /openapi/v2 definition has 1.32’s fields, types, formats and required fields, both ways', async () => {
      const res = await ts.request('GET', '/openapi/v2');
      assert.equal(res.status, 200);
      const definitions = kubernetesDefinitions(res.json.definitions);
      assert.ok(Object.keys(definitions).length > 300, 'the whole built-in catalogue is served');
      assert.deepEqual(differencesFrom132(definitions), []);
      assert.ok(definitions['io.k8s.api.core.v1.Volume'].properties.gitRepo, 'the legacy volume sources are served');
    });

    it('every /openapi/v3 group-version document agrees with 1.32 too', async () => {
      const index = await ts.request('GET', '/openapi/v3');
      assert.equal(index.status, 200);
      const paths = Object.entries(index.json.paths as Record<string, { serverRelativeURL: string }>);
      assert.ok(paths.some(([path]) => path === 'api/v1'));
      let compared = 0;
      for (const [, { serverRelativeURL }] of paths) {
        const doc = await ts.request('GET', serverRelativeURL);
        assert.equal(doc.status, 200, serverRelativeURL);
        const schemas = kubernetesDefinitions(doc.json.components?.schemas ?? {});
        assert.deepEqual(differencesFrom132(schemas), [], serverRelativeURL);
        compared += Object.keys(schemas).length;
      }
      assert.ok(compared > 300, `only ${compared} schemas compared`);
    });

    it('kubectl apply accepts legacy volume sources under strict validation and the server defaults them', async () => {
      const manifest = `
apiVersion: v1
kind: Pod
metadata: {name: legacy, namespace: ${NS}}
spec:
  containers: [{name: c, image: busybox:1.36}]
  volumes:
  - {name: repo, gitRepo: {repository: "https://example.invalid/r.git"}}
  - {name: disk, azureDisk: {diskName: d, diskURI: "https://example.invalid/d.vhd"}}
  - {name: block, iscsi: {targetPortal: "10.0.0.1:3260", iqn: "iqn.2001-04.com.example:storage", lun: 0}}
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: wire-legacy-pv}
spec:
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteOnce]
  scaleIO: {gateway: "https://gw", system: s, secretRef: {name: creds}}
`;
      const out = await ts.kubectlOk(['apply', '--validate=strict', '-f', '-'], { input: manifest });
      assert.match(out, /pod\/legacy created/);
      assert.match(out, /persistentvolume\/wire-legacy-pv created/);
      const pod = (await ts.request('GET', `/api/v1/namespaces/${NS}/pods/legacy`)).json;
      assert.deepEqual(pod.spec.volumes, [
        { name: 'repo', gitRepo: { repository: 'https://example.invalid/r.git' } },
        {
          name: 'disk',
          azureDisk: {
            diskName: 'd',
            diskURI: 'https://example.invalid/d.vhd',
            cachingMode: 'ReadWrite',
            fsType: 'ext4',
            readOnly: false,
            kind: 'Shared',
          },
        },
        {
          name: 'block',
          iscsi: { targetPortal: '10.0.0.1:3260', iqn: 'iqn.2001-04.com.example:storage', lun: 0, iscsiInterface: 'default' },
        },
      ]);
      const pv = (await ts.request('GET', '/api/v1/persistentvolumes/wire-legacy-pv')).json;
      assert.deepEqual(pv.spec.scaleIO, {
        gateway: 'https://gw',
        system: 's',
        secretRef: { name: 'creds' },
        storageMode: 'ThinProvisioned',
        fsType: 'xfs',
      });
      // An unknown field next to them is still refused.
      const bad = await ts.kubectl(['apply', '--validate=strict', '-f', '-'], {
        input: manifest.replace('gitRepo: {', 'gitRepo: {bogus: 1, '),
      });
      assert.notEqual(bad.code, 0);
      assert.match(bad.stderr, /unknown field "spec\.volumes\[0\]\.gitRepo\.bogus"/);
    });

    it('a protobuf body carrying a legacy volume source decodes (numbers of 1.32’s generated.proto)', async () => {
      // Pod{metadata(1){name(1)}, spec(2){volumes(1){name(1), volumeSource(2){gitRepo(5){repository(1)}}},
      // containers(2){name(1), image(2)}}}
      const pod = Buffer.concat([
        field(1, field(1, 'proto-legacy')),
        field(
          2,
          Buffer.concat([
            field(1, Buffer.concat([field(1, 'repo'), field(2, field(5, field(1, 'https://example.invalid/p.git')))])),
            field(2, Buffer.concat([field(1, 'c'), field(2, 'busybox:1.36')])),
          ]),
        ),
      ]);
      const res = await fetch(`${ts.url}/api/v1/namespaces/${NS}/pods`, {
        method: 'POST',
        headers: { 'content-type': 'application/vnd.kubernetes.protobuf', accept: 'application/json' },
        body: Buffer.from(writeEnvelope('v1', 'Pod', pod)),
      });
      const created = (await res.json()) as Json;
      assert.equal(res.status, 201, JSON.stringify(created));
      assert.deepEqual(created.spec.volumes, [{ name: 'repo', gitRepo: { repository: 'https://example.invalid/p.git' } }]);
    });
  });
});
