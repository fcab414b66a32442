import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { keyTypeOf, registerKeyType } from './key-types.js';

describe('keyTypeOf (the type label of etcd_request_* metrics)', () => {
  it('finds the resource of object keys and collection prefixes, the longer prefix first', () => {
    registerKeyType('/registry/configmaps/', 'configmaps');
    registerKeyType('/registry/services/specs/', 'services');
    registerKeyType('/registry/services/endpoints/', 'endpoints');
    registerKeyType('/registry/stable.example.com/crontabs/', 'crontabs.stable.example.com');
    assert.equal(keyTypeOf('/registry/configmaps/default/app'), 'configmaps');
    assert.equal(keyTypeOf('/registry/configmaps/'), 'configmaps');
    assert.equal(keyTypeOf('/registry/configmaps/kube-system/'), 'configmaps');
    assert.equal(keyTypeOf('/registry/services/specs/default/web'), 'services');
    assert.equal(keyTypeOf('/registry/services/endpoints/default/web'), 'endpoints');
    assert.equal(keyTypeOf('/registry/stable.example.com/crontabs/ns/x'), 'crontabs.stable.example.com');
  });

  it('gives the empty type to keys of no known resource', () => {
    assert.equal(keyTypeOf('/registry/unknown/x'), '');
    assert.equal(keyTypeOf('/registry'), '');
    assert.equal(keyTypeOf(''), '');
  });
});
