import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BUILTIN_RESOURCES } from '../kinds/index.js';
import { ComputedFields } from './computed-fields.js';
import { compileSelection } from './selection.js';
import { StatusError } from '../api/errors.js';
import type { KubeObject } from '../api/types.js';

const configMaps = BUILTIN_RESOURCES.find((r) => r.group === '' && r.plural === 'configmaps');
const cm = (name: string, refs: string[]): KubeObject => ({ metadata: { name, namespace: 'ns' }, data: { refs: refs.join(',') } });

describe('computed field selectors', () => {
  const fields = new ComputedFields();
  fields.define('', 'configmaps', 'example.com/ref', (obj) =>
    String((obj.data as Record<string, string>).refs)
      .split(',')
      .filter(Boolean),
  );
  const info = configMaps ?? assert.fail('configmaps are served');

  it('match when any computed value equals the requested one, and != when none does', () => {
    const eq = compileSelection(info, undefined, 'example.com/ref=b', fields.of('', 'configmaps'));
    assert.equal(eq.everything, false);
    assert.equal(eq.matches(cm('x', ['a', 'b'])), true);
    assert.equal(eq.matches(cm('y', ['a'])), false);
    const ne = compileSelection(info, undefined, 'example.com/ref!=b', fields.of('', 'configmaps'));
    assert.equal(ne.matches(cm('x', ['a', 'b'])), false);
    assert.equal(ne.matches(cm('y', [])), true);
  });

  it('combine with the kind’s own field labels', () => {
    const both = compileSelection(info, undefined, 'example.com/ref=a,metadata.name=y', fields.of('', 'configmaps'));
    assert.equal(both.matches(cm('x', ['a'])), false);
    assert.equal(both.matches(cm('y', ['a'])), true);
  });

  it('are unknown labels for resources that do not define them, and once removed', () => {
    const other = new ComputedFields();
    assert.throws(
      () => compileSelection(info, undefined, 'example.com/ref=a', other.of('', 'configmaps')),
      (err: unknown) => err instanceof StatusError && err.code === 400 && /is not a known field selector/.test(err.message),
    );
    other.define('', 'configmaps', 'example.com/ref', () => []);
    other.remove('', 'configmaps', 'example.com/ref');
    assert.equal(other.of('', 'configmaps').size, 0);
  });
});
