import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../api/types.js';
import { printerFor } from '../kinds/printers.js';
import type { Printer } from './printer.js';
import { parseIncludeObject, type TableInput, tableFor as buildTable, UnrecognizedIncludeObjectError } from './table-for.js';

/** The kind's table as the API server builds it: the kind's own printer unless the input brings one. */
const tableFor = (input: Omit<TableInput, 'printer'> & { kind: string; group: string; printer?: Printer }) =>
  buildTable({ ...input, printer: input.printer ?? printerFor(input.kind, input.group) });
const columnsFor = (kind: string, group: string) => printerFor(kind, group).columns;

const NOW = new Date('2024-06-01T12:00:00Z');
const namespace = (name: string, rv: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name, resourceVersion: rv, uid: `uid-${name}`, creationTimestamp: '2024-06-01T11:00:00Z' },
  status: { phase: 'Active' },
});

describe('tableFor', () => {
  it('builds a meta.k8s.io/v1 Table for a list with full objects', () => {
    const objects = [namespace('a', '5'), namespace('b', '6')];
    const table = tableFor({
      kind: 'Namespace',
      group: '',
      objects,
      includeObject: 'Object',
      now: NOW,
      listMeta: { resourceVersion: '9', continue: 'tok', remainingItemCount: 3 },
    });
    assert.equal(table.kind, 'Table');
    assert.equal(table.apiVersion, 'meta.k8s.io/v1');
    assert.deepEqual(table.metadata, { resourceVersion: '9', continue: 'tok', remainingItemCount: 3 });
    assert.deepEqual(
      table.columnDefinitions?.map((column) => [column.name, column.type, column.format, column.priority]),
      [
        ['Name', 'string', 'name', 0],
        ['Status', 'string', '', 0],
        ['Age', 'string', '', 0],
      ],
    );
    assert.deepEqual(table.rows, [
      { cells: ['a', 'Active', '60m'], object: objects[0] },
      { cells: ['b', 'Active', '60m'], object: objects[1] },
    ]);
  });

  it('uses the object resourceVersion for a single object', () => {
    const table = tableFor({ kind: 'Namespace', group: '', objects: [namespace('a', '5')], includeObject: 'None', now: NOW });
    assert.deepEqual(table.metadata, { resourceVersion: '5' });
    assert.deepEqual(table.rows, [{ cells: ['a', 'Active', '60m'], object: null }]);
  });

  it('returns PartialObjectMetadata rows for includeObject=Metadata', () => {
    const object = namespace('a', '5');
    const table = tableFor({ kind: 'Namespace', group: '', objects: [object], includeObject: 'Metadata', now: NOW });
    assert.deepEqual(table.rows?.[0]?.object, { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: object.metadata });
  });

  it('omits column definitions (as null) when headers are suppressed, except for APIServices', () => {
    const table = tableFor({
      kind: 'Namespace',
      group: '',
      objects: [namespace('a', '5')],
      includeObject: 'None',
      now: NOW,
      noHeaders: true,
    });
    assert.equal(table.columnDefinitions, null);
    const apiService: KubeObject = { metadata: { name: 'v1.apps', creationTimestamp: '2024-06-01T11:59:00Z' } };
    const aggregated = tableFor({
      kind: 'APIService',
      group: 'apiregistration.k8s.io',
      objects: [apiService],
      includeObject: 'None',
      now: NOW,
      noHeaders: true,
    });
    assert.deepEqual(
      aggregated.columnDefinitions?.map((column) => column.name),
      ['Name', 'Service', 'Available', 'Age'],
    );
    assert.deepEqual(aggregated.rows?.[0]?.cells, ['v1.apps', 'Local', 'Unknown', '60s']);
  });

  it('serves kinds without a printer through the default convertor', () => {
    const role: KubeObject = { metadata: { name: 'reader', namespace: 'ns', creationTimestamp: '2024-05-01T08:09:10Z' } };
    const table = tableFor({
      kind: 'Role',
      group: 'rbac.authorization.k8s.io',
      objects: [role],
      includeObject: 'None',
      now: NOW,
      listMeta: {},
    });
    assert.deepEqual(
      table.columnDefinitions?.map((column) => [column.name, column.type, column.format]),
      [
        ['Name', 'string', 'name'],
        ['Created At', 'date', ''],
      ],
    );
    assert.deepEqual(table.rows?.[0]?.cells, ['reader', '2024-05-01T08:09:10Z']);
  });

  it('keeps the upstream difference in empty lists: rows null for the default convertor, [] for printers', () => {
    const base = { objects: [], includeObject: 'Object' as const, now: NOW, listMeta: { resourceVersion: '1' } };
    assert.equal(tableFor({ ...base, kind: 'CustomResourceDefinition', group: 'apiextensions.k8s.io' }).rows, null);
    assert.deepEqual(tableFor({ ...base, kind: 'Pod', group: '' }).rows, []);
  });

  it('attaches pod row conditions', () => {
    const pod: KubeObject = { metadata: { name: 'done' }, spec: { containers: [{ name: 'c' }] }, status: { phase: 'Succeeded' } };
    const table = tableFor({ kind: 'Pod', group: '', objects: [pod], includeObject: 'None', now: NOW });
    assert.equal(table.rows?.[0]?.conditions?.[0]?.reason, 'Succeeded');
  });
});

describe('columnsFor', () => {
  const cases: [kind: string, group: string, columns: string[]][] = [
    ['Pod', '', ['Name', 'Ready', 'Status', 'Restarts', 'Age', 'IP*', 'Node*', 'Nominated Node*', 'Readiness Gates*']],
    ['ConfigMap', '', ['Name', 'Data', 'Age']],
    ['Secret', '', ['Name', 'Type', 'Data', 'Age']],
    ['ServiceAccount', '', ['Name', 'Secrets', 'Age']],
    ['Service', '', ['Name', 'Type', 'Cluster-IP', 'External-IP', 'Port(s)', 'Age', 'Selector*']],
    ['Endpoints', '', ['Name', 'Endpoints', 'Age']],
    ['Event', '', ['Last Seen', 'Type', 'Reason', 'Object', 'Subobject*', 'Source*', 'Message', 'First Seen*', 'Count*', 'Name*']],
    [
      'Event',
      'events.k8s.io',
      ['Last Seen', 'Type', 'Reason', 'Object', 'Subobject*', 'Source*', 'Message', 'First Seen*', 'Count*', 'Name*'],
    ],
    [
      'PersistentVolumeClaim',
      '',
      ['Name', 'Status', 'Volume', 'Capacity', 'Access Modes', 'StorageClass', 'VolumeAttributesClass', 'Age', 'VolumeMode*'],
    ],
    [
      'PersistentVolume',
      '',
      [
        'Name',
        'Capacity',
        'Access Modes',
        'Reclaim Policy',
        'Status',
        'Claim',
        'StorageClass',
        'VolumeAttributesClass',
        'Reason',
        'Age',
        'VolumeMode*',
      ],
    ],
    [
      'Node',
      '',
      ['Name', 'Status', 'Roles', 'Age', 'Version', 'Internal-IP*', 'External-IP*', 'OS-Image*', 'Kernel-Version*', 'Container-Runtime*'],
    ],
    ['Deployment', 'apps', ['Name', 'Ready', 'Up-to-date', 'Available', 'Age', 'Containers*', 'Images*', 'Selector*']],
    ['ReplicaSet', 'apps', ['Name', 'Desired', 'Current', 'Ready', 'Age', 'Containers*', 'Images*', 'Selector*']],
    ['StatefulSet', 'apps', ['Name', 'Ready', 'Age', 'Containers*', 'Images*']],
    [
      'DaemonSet',
      'apps',
      ['Name', 'Desired', 'Current', 'Ready', 'Up-to-date', 'Available', 'Node Selector', 'Age', 'Containers*', 'Images*', 'Selector*'],
    ],
    ['Job', 'batch', ['Name', 'Status', 'Completions', 'Duration', 'Age', 'Containers*', 'Images*', 'Selector*']],
    ['Lease', 'coordination.k8s.io', ['Name', 'Holder', 'Age']],
    ['EndpointSlice', 'discovery.k8s.io', ['Name', 'AddressType', 'Ports', 'Endpoints', 'Age']],
    ['Role', 'rbac.authorization.k8s.io', ['Name', 'Created At']],
    ['ClusterRole', 'rbac.authorization.k8s.io', ['Name', 'Created At']],
    ['RoleBinding', 'rbac.authorization.k8s.io', ['Name', 'Role', 'Age', 'Users*', 'Groups*', 'ServiceAccounts*']],
    ['ClusterRoleBinding', 'rbac.authorization.k8s.io', ['Name', 'Role', 'Age', 'Users*', 'Groups*', 'ServiceAccounts*']],
    ['CustomResourceDefinition', 'apiextensions.k8s.io', ['Name', 'Created At']],
    ['APIService', 'apiregistration.k8s.io', ['Name', 'Service', 'Available', 'Age']],
    ['Widget', 'example.com', ['Name', 'Created At']],
  ];
  for (const [kind, group, columns] of cases) {
    it(`${group}/${kind} (* = wide)`, () => {
      const actual = columnsFor(kind, group).map((column) => column.name + (column.priority === 1 ? '*' : ''));
      assert.deepEqual(actual, columns);
    });
  }

  it('describes Name and Age with the ObjectMeta docs', () => {
    const [name, age] = [columnsFor('ConfigMap', '')[0], columnsFor('ConfigMap', '')[2]];
    assert.match(name?.description ?? '', /^Name must be unique within a namespace\./);
    assert.match(age?.description ?? '', /is in UTC\.\n\nPopulated by the system\./);
  });
});

describe('parseIncludeObject', () => {
  it('defaults to Metadata and rejects unknown values', () => {
    assert.equal(parseIncludeObject(undefined), 'Metadata');
    assert.equal(parseIncludeObject('Object'), 'Object');
    assert.equal(parseIncludeObject('None'), 'None');
    assert.throws(() => parseIncludeObject('All'), new UnrecognizedIncludeObjectError('All'));
    assert.throws(() => parseIncludeObject('All'), { message: 'unrecognized includeObject value: "All"' });
  });
});
