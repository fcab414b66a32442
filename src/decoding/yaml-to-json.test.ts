import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { yamlToJson } from './yaml-to-json.js';
import { YamlWorkerClient } from './yaml-worker-client.js';

describe('yamlToJson', () => {
  it('converts the first document (YAML 1.1 scalars) to JSON', () => {
    assert.deepEqual(yamlToJson('a: yes\nb: [1, "2"]\n---\nc: 3\n'), { json: '{"a":true,"b":[1,"2"]}', duplicateKeys: [] });
  });

  it("refuses nesting past go-yaml's 10,000 levels before parsing, naming the line after the first", () => {
    assert.deepEqual(yamlToJson('['.repeat(10_001)), { error: 'exceeded max depth of 10000' });
    assert.deepEqual(yamlToJson(`a:\n  ${'{'.repeat(10_001)}`), { error: 'line 2: exceeded max depth of 10000' });
    assert.deepEqual(yamlToJson(`${'- '.repeat(10_001)}x`), { error: 'exceeded max depth of 10000' });
  });

  it("accepts 10,000 levels on the YAML worker, whose stack the parser's recursion fits in", async () => {
    const result = await new YamlWorkerClient().convert(`${'['.repeat(10_000)}${']'.repeat(10_000)}`);
    assert.ok('json' in result && result.json.length === 20_000);
  });

  it('bounds aliases', () => {
    const levels = ['a: &a [x,x,x,x,x,x,x,x,x,x]'];
    for (let i = 1; i < 9; i++) {
      const prev = String.fromCharCode(96 + i);
      const name = String.fromCharCode(97 + i);
      levels.push(`${name}: &${name} [${Array(10).fill(`*${prev}`).join(',')}]`);
    }
    assert.deepEqual(yamlToJson(levels.join('\n')), { error: 'document contains excessive aliasing' });
  });

  it('refuses sequence and mapping keys, which Go cannot decode into a map', () => {
    assert.deepEqual(yamlToJson('data:\n  ? [a, 1]\n  : x\n'), { error: 'invalid map key: []interface {}{"a", 1}' });
    assert.deepEqual(yamlToJson('{? {k: v} : x}'), { error: 'invalid map key: map[interface {}]interface {}{"k":"v"}' });
    assert.deepEqual(yamlToJson('a: [1, 2]\n'), { json: '{"a":[1,2]}', duplicateKeys: [] });
  });

  it("reports duplicate keys as go-yaml's strict mode does, in document order", () => {
    const result = yamlToJson('a: 1\nb:\n  c: 1\n  c: 2\na: 2\n');
    assert.deepEqual(result, {
      json: '{"a":2,"b":{"c":2}}',
      duplicateKeys: ['line 4: key "c" already set in map', 'line 5: key "a" already set in map'],
    });
  });
});
