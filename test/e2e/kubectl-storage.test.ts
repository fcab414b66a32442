import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/test-server.js';

const SCS = '/apis/storage.k8s.io/v1/storageclasses';

/** Lines of a kubectl table with runs of spaces collapsed. */
function rows(output: string): string[] {
  return output
    .trim()
    .split('\n')
    .map((line) => line.trim().replace(/\s+/g, ' '));
}

const FAST = `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: fast
  annotations:
    storageclass.kubernetes.io/is-default-class: "true"
provisioner: example.com/ssd
parameters:
  type: pd-ssd
allowVolumeExpansion: true
`;

const SLOW = `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: slow
provisioner: example.com/hdd
reclaimPolicy: Retain
volumeBindingMode: WaitForFirstConsumer
`;

describe('storage.k8s.io/v1 with kubectl (issue 31)', () => {
  let ts: TestServer;
  before(async () => {
    ts = await startTestServer();
  });
  after(async () => {
    await ts.stop();
  });

  it('kubectl apply of StorageClasses: defaults, and "(default)" after the default class in kubectl get sc', async () => {
    await ts.kubectlOk(['apply', '-f', '-'], { input: FAST });
    await ts.kubectlOk(['apply', '-f', '-'], { input: SLOW });
    const table = rows(await ts.kubectlOk(['get', 'sc']));
    assert.equal(table[0], 'NAME PROVISIONER RECLAIMPOLICY VOLUMEBINDINGMODE ALLOWVOLUMEEXPANSION AGE');
    assert.match(table[1] ?? '', /^fast \(default\) example\.com\/ssd Delete Immediate true \S+$/);
    assert.match(table[2] ?? '', /^slow example\.com\/hdd Retain WaitForFirstConsumer false \S+$/);
    const yaml = await ts.kubectlOk(['get', 'storageclass', 'fast', '-o', 'yaml']);
    assert.match(yaml, /^reclaimPolicy: Delete$/m);
    assert.match(yaml, /^volumeBindingMode: Immediate$/m);
    assert.match(yaml, /^ {2}type: pd-ssd$/m);
    const described = await ts.kubectlOk(['describe', 'sc', 'fast']);
    assert.match(described, /^IsDefaultClass:\s+Yes$/m);
    assert.match(described, /^ReclaimPolicy:\s+Delete$/m);
  });

  it('refuses a class without provisioner, an unknown reclaim policy, and changes to immutable fields', async () => {
    const create = async (body: Record<string, unknown>): Promise<{ status: number; message: string }> => {
      const res = await ts.request('POST', SCS, { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', ...body });
      return { status: res.status, message: res.json.message };
    };
    assert.deepEqual(await create({ metadata: { name: 'none' } }), {
      status: 422,
      message: 'StorageClass.storage.k8s.io "none" is invalid: provisioner: Required value',
    });
    assert.deepEqual(
      await create({ metadata: { name: 'odd' }, provisioner: 'x.io/y', reclaimPolicy: 'Recycle', volumeBindingMode: 'Later' }),
      {
        status: 422,
        message:
          'StorageClass.storage.k8s.io "odd" is invalid: [reclaimPolicy: Unsupported value: "Recycle": supported values: "Delete", "Retain", volumeBindingMode: Unsupported value: "Later": supported values: "Immediate", "WaitForFirstConsumer"]',
      },
    );
    assert.deepEqual(await create({ metadata: { name: 'bad' }, provisioner: 'no/such/thing' }), {
      status: 422,
      message:
        "StorageClass.storage.k8s.io \"bad\" is invalid: provisioner: Invalid value: \"no/such/thing\": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    });
    const many = Object.fromEntries(Array.from({ length: 513 }, (_, i) => [`k${i}`, 'v']));
    assert.deepEqual(await create({ metadata: { name: 'many' }, provisioner: 'x.io/y', parameters: many }), {
      status: 422,
      message: 'StorageClass.storage.k8s.io "many" is invalid: parameters: Too many: 513: must have at most 512 items',
    });
    const changed = await ts.request(
      'PATCH',
      `${SCS}/slow`,
      { provisioner: 'other.io/x', parameters: { a: 'b' }, reclaimPolicy: 'Delete', volumeBindingMode: 'Immediate' },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    assert.equal(changed.status, 422);
    assert.equal(
      changed.json.message,
      'StorageClass.storage.k8s.io "slow" is invalid: [parameters: Forbidden: updates to parameters are forbidden., provisioner: Forbidden: updates to provisioner are forbidden., reclaimPolicy: Forbidden: updates to reclaimPolicy are forbidden., volumeBindingMode: Forbidden: field is immutable]',
    );
    await ts.kubectlOk(['annotate', 'sc', 'slow', 'team=storage']);
    await ts.kubectlOk(['patch', 'sc', 'slow', '-p', '{"allowVolumeExpansion":true,"mountOptions":["ro"]}']);
  });

  it('kubectl explain storageclass describes the fields', async () => {
    const out = await ts.kubectlOk(['explain', 'storageclass']);
    assert.match(out, /^KIND:\s+StorageClass$/m);
    assert.match(out, /^GROUP:\s+storage\.k8s\.io$/m);
    assert.match(out, /provisioner\t<string> -required-/);
    assert.match(await ts.kubectlOk(['explain', 'sc.volumeBindingMode']), /ENUM:\s+Immediate\s+WaitForFirstConsumer/);
  });
  it('a CSIDriver gets every default; attachRequired is immutable', async () => {
    await ts.kubectlOk(['apply', '-f', '-'], {
      input: 'apiVersion: storage.k8s.io/v1\nkind: CSIDriver\nmetadata:\n  name: ebs.csi.example.com\nspec: {}\n',
    });
    const driver = JSON.parse(await ts.kubectlOk(['get', 'csidriver', 'ebs.csi.example.com', '-o', 'json']));
    assert.deepEqual(driver.spec, {
      attachRequired: true,
      fsGroupPolicy: 'ReadWriteOnceWithFSType',
      podInfoOnMount: false,
      requiresRepublish: false,
      seLinuxMount: false,
      storageCapacity: false,
      volumeLifecycleModes: ['Persistent'],
    });
    assert.equal(driver.metadata.generation, undefined);
    await ts.kubectlOk(['patch', 'csidriver', 'ebs.csi.example.com', '-p', '{"spec":{"podInfoOnMount":true}}']);
    await ts.kubectlOk(['patch', 'csidriver', 'ebs.csi.example.com', '-p', '{"spec":{"podInfoOnMount":false}}']);
    await ts.kubectlOk(['label', 'csidriver', 'ebs.csi.example.com', 'team=storage']);
    assert.equal(await ts.kubectlOk(['get', 'csidriver', 'ebs.csi.example.com', '-o', 'jsonpath={.metadata.generation}']), '2');
    const table = rows(await ts.kubectlOk(['get', 'csidrivers']));
    assert.equal(table[0], 'NAME ATTACHREQUIRED PODINFOONMOUNT STORAGECAPACITY TOKENREQUESTS REQUIRESREPUBLISH MODES AGE');
    assert.match(table[1] ?? '', /^ebs\.csi\.example\.com true false false <unset> false Persistent \S+$/);
    const out = await ts.kubectl(['patch', 'csidriver', 'ebs.csi.example.com', '-p', '{"spec":{"attachRequired":false}}']);
    assert.notEqual(out.code, 0);
    assert.match(
      out.stderr,
      /The CSIDriver "ebs\.csi\.example\.com" is invalid: spec\.attachRequired: Invalid value: false: field is immutable/,
    );
    const odd = await ts.request('POST', '/apis/storage.k8s.io/v1/csidrivers', {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'CSIDriver',
      metadata: { name: 'odd.example.com' },
      spec: { fsGroupPolicy: 'Always' },
    });
    assert.equal(odd.status, 422);
    assert.equal(
      odd.json.message,
      'CSIDriver.storage.k8s.io "odd.example.com" is invalid: spec.fsGroupPolicy: Unsupported value: "Always": supported values: "File", "None", "ReadWriteOnceWithFSType"',
    );
  });

  it('VolumeAttachments: status only through the subresource, printed with PV, node and attached', async () => {
    const VAS = '/apis/storage.k8s.io/v1/volumeattachments';
    const created = await ts.request('POST', VAS, {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'VolumeAttachment',
      metadata: { name: 'va1' },
      spec: { attacher: 'ebs.csi.example.com', nodeName: 'node-1', source: { persistentVolumeName: 'pv-1' } },
      status: { attached: true },
    });
    assert.equal(created.status, 201);
    assert.equal(created.json.status, undefined);
    assert.match(rows(await ts.kubectlOk(['get', 'volumeattachments']))[1] ?? '', /^va1 ebs\.csi\.example\.com pv-1 node-1 false \S+$/);
    const status = await ts.request(
      'PATCH',
      `${VAS}/va1/status`,
      { status: { attached: true } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    assert.equal(status.status, 200);
    assert.match(rows(await ts.kubectlOk(['get', 'volumeattachments']))[1] ?? '', /^va1 ebs\.csi\.example\.com pv-1 node-1 true \S+$/);
    const moved = await ts.request(
      'PATCH',
      `${VAS}/va1`,
      { spec: { nodeName: 'node-2' } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    assert.equal(moved.status, 422);
    assert.match(
      moved.json.message,
      /^VolumeAttachment\.storage\.k8s\.io "va1" is invalid: spec: Invalid value: storage\.VolumeAttachmentSpec\{Attacher:"ebs\.csi\.example\.com", .*NodeName:"node-2"\}: field is immutable$/,
    );
    const bad = await ts.request('POST', VAS, {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'VolumeAttachment',
      metadata: { name: 'va2' },
      spec: { attacher: 'x.io', source: {} },
    });
    assert.equal(bad.status, 422);
    assert.equal(
      bad.json.message,
      'VolumeAttachment.storage.k8s.io "va2" is invalid: [spec.source: Forbidden: must specify exactly one of inlineVolumeSpec and persistentVolumeName, spec.nodeName: Required value]',
    );
  });

  it('CSINodes and namespaced CSIStorageCapacities print as kube-apiserver prints them', async () => {
    await ts.kubectlOk(['apply', '-f', '-'], {
      input:
        'apiVersion: storage.k8s.io/v1\nkind: CSINode\nmetadata:\n  name: node-1\nspec:\n  drivers:\n  - name: ebs.csi.example.com\n    nodeID: i-123\n',
    });
    assert.match(rows(await ts.kubectlOk(['get', 'csinodes']))[1] ?? '', /^node-1 1 \S+$/);
    await ts.kubectlOk(['apply', '-n', 'default', '-f', '-'], {
      input: 'apiVersion: storage.k8s.io/v1\nkind: CSIStorageCapacity\nmetadata:\n  name: cap\nstorageClassName: fast\ncapacity: 10Gi\n',
    });
    assert.deepEqual(rows(await ts.kubectlOk(['get', 'csistoragecapacities', '-n', 'default'])), [
      'NAME STORAGECLASSNAME CAPACITY',
      'cap fast 10Gi',
    ]);
    const out = await ts.kubectl(['patch', 'csistoragecapacity', 'cap', '-n', 'default', '-p', '{"storageClassName":"slow"}']);
    assert.notEqual(out.code, 0);
    assert.match(out.stderr, /storageClassName: Invalid value: "slow": field is immutable/);
  });
  it('DefaultStorageClass admission: a claim naming no class gets the default one; an explicit "" stays', async () => {
    const claim = (name: string, storageClassName?: string): string =>
      `apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: ${name}\nspec:\n${
        storageClassName === undefined ? '' : `  storageClassName: "${storageClassName}"\n`
      }  accessModes: [ReadWriteOnce]\n  resources:\n    requests:\n      storage: 1Gi\n`;
    await ts.kubectlOk(['apply', '-n', 'default', '-f', '-'], { input: claim('data') });
    await ts.kubectlOk(['apply', '-n', 'default', '-f', '-'], { input: claim('none', '') });
    await ts.kubectlOk(['apply', '-n', 'default', '-f', '-'], { input: claim('slow-one', 'slow') });
    const classOf = async (name: string): Promise<string> =>
      ts.kubectlOk(['get', 'pvc', name, '-n', 'default', '-o', 'jsonpath={.spec.storageClassName}']);
    assert.equal(await classOf('data'), 'fast');
    assert.equal(await classOf('none'), '');
    assert.equal(await classOf('slow-one'), 'slow');
    await ts.kubectlOk(['delete', 'pvc', 'data', 'none', 'slow-one', '-n', 'default', '--wait=false']);
  });
});
