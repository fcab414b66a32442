import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../api/types.js';
import { parseFieldSelector } from '../selectors/field-selector.js';
import { convertFieldSelector, isSupportedField, selectableFields } from './selectable-fields.js';
import { SelectorError } from '../selectors/selector-error.js';

describe('selectableFields', () => {
  it('exposes the pod field set with Go zero values for absent fields', () => {
    const pod: KubeObject = {
      metadata: { name: 'p', namespace: 'ns' },
      spec: { nodeName: 'n1', restartPolicy: 'Always', schedulerName: 'default-scheduler', serviceAccountName: 'sa' },
      status: { phase: 'Running', podIP: '10.0.0.1', podIPs: [{ ip: '10.0.0.2' }] },
    };
    assert.deepEqual(selectableFields('Pod', '', pod), {
      'metadata.name': 'p',
      'metadata.namespace': 'ns',
      'spec.nodeName': 'n1',
      'spec.restartPolicy': 'Always',
      'spec.schedulerName': 'default-scheduler',
      'spec.serviceAccountName': 'sa',
      'spec.hostNetwork': 'false',
      'status.phase': 'Running',
      'status.podIP': '10.0.0.2',
      'status.nominatedNodeName': '',
    });
  });

  it('omits metadata.namespace for cluster-scoped kinds', () => {
    assert.deepEqual(selectableFields('Node', '', { metadata: { name: 'n' }, spec: { unschedulable: true } }), {
      'metadata.name': 'n',
      'spec.unschedulable': 'true',
    });
    assert.deepEqual(selectableFields('Namespace', '', { metadata: { name: 'a' }, status: { phase: 'Active' } }), {
      'metadata.name': 'a',
      'status.phase': 'Active',
    });
  });

  it('falls back to reportingController for an event source', () => {
    const event: KubeObject = {
      metadata: { name: 'e', namespace: 'ns' },
      involvedObject: { kind: 'Pod', name: 'p', namespace: 'ns', uid: 'u' },
      reason: 'Started',
      type: 'Normal',
      reportingController: 'kubelet',
    };
    const fields = selectableFields('Event', '', event);
    assert.equal(fields.source, 'kubelet');
    assert.equal(fields.reportingComponent, 'kubelet');
    assert.equal(fields['involvedObject.kind'], 'Pod');
    assert.equal(fields['involvedObject.uid'], 'u');
  });

  it('reads events.k8s.io events through their core spellings', () => {
    const event: KubeObject = { metadata: { name: 'e', namespace: 'ns' }, regarding: { kind: 'Pod', name: 'p' } };
    assert.equal(selectableFields('Event', 'events.k8s.io', event)['involvedObject.name'], 'p');
  });

  it('exposes status counters of ReplicaSets and Jobs', () => {
    assert.equal(
      selectableFields('ReplicaSet', 'apps', { metadata: { name: 'r', namespace: 'n' }, status: { replicas: 2 } })['status.replicas'],
      '2',
    );
    assert.equal(selectableFields('Job', 'batch', { metadata: { name: 'j', namespace: 'n' } })['status.successful'], '0');
  });
});

describe('isSupportedField / convertFieldSelector', () => {
  const supported: [kind: string, group: string, field: string, expected: boolean][] = [
    ['Pod', '', 'spec.nodeName', true],
    ['Pod', '', 'spec.host', true],
    ['Pod', '', 'metadata.labels', false],
    ['Secret', '', 'type', true],
    ['Service', '', 'spec.type', true],
    ['Node', '', 'metadata.namespace', false],
    ['Namespace', '', 'status.phase', true],
    ['Event', '', 'involvedObject.name', true],
    ['Event', 'events.k8s.io', 'regarding.name', false],
    ['Event', 'events.k8s.io', 'metadata.name', true],
    ['ReplicaSet', 'apps', 'status.replicas', false],
    ['Job', 'batch', 'status.successful', true],
    ['ConfigMap', '', 'metadata.namespace', true],
    ['ClusterRole', 'rbac.authorization.k8s.io', 'metadata.namespace', true],
  ];
  for (const [kind, group, field, expected] of supported) {
    it(`${group}/${kind} ${field} → ${expected}`, () => {
      assert.equal(isSupportedField(kind, group, field), expected);
    });
  }

  const rejected: [kind: string, group: string, selector: string, message: string][] = [
    ['Pod', '', 'spec.foo=x', 'field label not supported: spec.foo'],
    [
      'ReplicaSet',
      'apps',
      'status.replicas=0',
      '"status.replicas" is not a known field selector: only "metadata.name", "metadata.namespace"',
    ],
    ['Job', 'batch', 'status.active=1', 'field label "status.active" not supported for batchv1.Job'],
    ['Pod', '', ' metadata.name=x', 'field label not supported:  metadata.name'],
  ];
  for (const [kind, group, selector, message] of rejected) {
    it(`rejects ${selector} on ${group}/${kind}`, () => {
      assert.throws(() => convertFieldSelector(kind, group, parseFieldSelector(selector)), new SelectorError(message));
    });
  }

  it('rewrites the legacy spec.host label to spec.nodeName', () => {
    const converted = convertFieldSelector('Pod', '', parseFieldSelector('spec.host=n1'));
    assert.deepEqual(converted.requirements, [{ field: 'spec.nodeName', operator: '=', value: 'n1' }]);
    assert.equal(converted.matches({ 'spec.nodeName': 'n1' }), true);
  });
});
