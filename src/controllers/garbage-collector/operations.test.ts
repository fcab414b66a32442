import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BUILTIN_RESOURCES } from '../../kinds/index.js';
import { GcOperations, RestMappingError } from './operations.js';
import { FakeGcClient } from './testing/fake-client.js';

test('references resolve through the REST mapper: exact version and kind, unknown ones as a RestMappingError (R4.26b)', () => {
  const ops = new GcOperations(new FakeGcClient(BUILTIN_RESOURCES));
  ops.setResources(BUILTIN_RESOURCES);
  assert.equal(ops.resourceFor('apps/v1', 'Deployment').plural, 'deployments');
  assert.equal(ops.resourceFor('v1', 'ConfigMap').plural, 'configmaps');
  assert.throws(() => ops.resourceFor('apps/v2', 'Deployment'), new RestMappingError('apps/v2', 'Deployment'));
  // client-go's discovery mapper registers each kind also in lower case, so such references resolve too.
  assert.equal(ops.resourceFor('v1', 'configmap').plural, 'configmaps');
  assert.throws(() => ops.resourceFor('v1', 'Configmap'), { message: 'unable to map v1, Kind=Configmap to a resource' });
  // A new discovery replaces what was resolved before.
  ops.setResources(BUILTIN_RESOURCES.filter((r) => r.kind !== 'Deployment'));
  assert.throws(() => ops.resourceFor('apps/v1', 'Deployment'), RestMappingError);
});
