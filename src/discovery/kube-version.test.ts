import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareKubeAwareVersions } from './kube-version.js';

describe('kube-aware version order', () => {
  it('sorts GA before beta before alpha, then by major and minor, then other strings ascending', () => {
    const versions = ['foo10', 'v11alpha2', 'v1', 'v3beta1', 'v10beta3', 'foo1', 'v12alpha1', 'v2', 'v10', 'v11beta2'];
    const sorted = [...versions].sort((a, b) => compareKubeAwareVersions(b, a));
    // The example order documented on APIServiceSpec.versionPriority.
    assert.deepEqual(sorted, ['v10', 'v2', 'v1', 'v11beta2', 'v10beta3', 'v3beta1', 'v12alpha1', 'v11alpha2', 'foo1', 'foo10']);
  });

  it('treats equal strings as equal', () => {
    assert.equal(compareKubeAwareVersions('v1', 'v1'), 0);
  });
});
