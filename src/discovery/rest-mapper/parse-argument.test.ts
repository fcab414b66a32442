import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseKindArgument, parseResourceArgument } from './parse-argument.js';

describe('parseResourceArgument (schema.ParseResourceArg)', () => {
  it('a bare name has no group', () => {
    assert.deepEqual(parseResourceArgument('rs'), { groupResource: { group: '', resource: 'rs' } });
  });

  it('one dot: resource.group', () => {
    assert.deepEqual(parseResourceArgument('rs.apps'), { groupResource: { group: 'apps', resource: 'rs' } });
    assert.deepEqual(parseResourceArgument('deployments.app'), { groupResource: { group: 'app', resource: 'deployments' } });
  });

  it('two or more dots: both resource.version.group and resource.group readings', () => {
    assert.deepEqual(parseResourceArgument('replicasets.v1.apps'), {
      fullySpecified: { group: 'apps', version: 'v1', resource: 'replicasets' },
      groupResource: { group: 'v1.apps', resource: 'replicasets' },
    });
    assert.deepEqual(parseResourceArgument('ev.events.k8s.io'), {
      fullySpecified: { group: 'k8s.io', version: 'events', resource: 'ev' },
      groupResource: { group: 'events.k8s.io', resource: 'ev' },
    });
  });
});

describe('parseKindArgument (schema.ParseKindArg)', () => {
  it('reads kind, version and group the same way', () => {
    assert.deepEqual(parseKindArgument('Deployment'), { groupKind: { group: '', kind: 'Deployment' } });
    assert.deepEqual(parseKindArgument('Deployment.apps'), { groupKind: { group: 'apps', kind: 'Deployment' } });
    assert.deepEqual(parseKindArgument('Widget.v1.example.com'), {
      fullySpecified: { group: 'example.com', version: 'v1', kind: 'Widget' },
      groupKind: { group: 'v1.example.com', kind: 'Widget' },
    });
  });
});
