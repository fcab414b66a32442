import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BUILTIN_RESOURCES } from '../../kinds/index.js';
import { createRestMapper } from './create.js';
import { mappingForArgument, ResourceTypeNotFoundError } from './mapping-for-argument.js';
import { served } from './test-fixtures.js';

const resources = [
  ...BUILTIN_RESOURCES,
  served('example.com', 'v1', 'Widget', 'gadgets', { singular: 'gadget', shortNames: ['gd'] }),
  served('example.com', 'v1beta1', 'Widget', 'gadgets', { singular: 'gadget', shortNames: ['gd'] }),
  served('other.example.org', 'v1', 'Gadget', 'gadgets'),
];
const source = { mapper: createRestMapper(resources), resources };

function resolve(arg: string): string {
  const { resource } = mappingForArgument(source, arg);
  return `${resource.resource}.${resource.version}.${resource.group}`;
}

describe('mappingForArgument (kubectl resource arguments)', () => {
  const cases: [string, string][] = [
    ['rs', 'replicasets.v1.apps'],
    ['replicasets', 'replicasets.v1.apps'],
    ['replicaset', 'replicasets.v1.apps'],
    ['ReplicaSet', 'replicasets.v1.apps'],
    ['rs.apps', 'replicasets.v1.apps'],
    ['replicasets.v1.apps', 'replicasets.v1.apps'],
    ['deploy', 'deployments.v1.apps'],
    ['deployments.app', 'deployments.v1.apps'],
    ['events', 'events.v1.'],
    ['ev', 'events.v1.'],
    ['ev.events.k8s.io', 'events.v1.events.k8s.io'],
    ['events.v1.events.k8s.io', 'events.v1.events.k8s.io'],
    ['crd', 'customresourcedefinitions.v1.apiextensions.k8s.io'],
    ['gadgets', 'gadgets.v1.example.com'],
    ['gadgets.other.example.org', 'gadgets.v1.other.example.org'],
    ['gadgets.v1beta1.example.com', 'gadgets.v1beta1.example.com'],
    ['gd', 'gadgets.v1.example.com'],
    // A kind that is not also a resource name resolves through the kind readings.
    ['Widget.example.com', 'gadgets.v1.example.com'],
    ['Widget.v1beta1.example.com', 'gadgets.v1beta1.example.com'],
  ];
  for (const [arg, expected] of cases) {
    it(`${arg} → ${expected}`, () => {
      assert.equal(resolve(arg), expected);
    });
  }

  it('passes short-name warnings on', () => {
    const warnings: string[] = [];
    mappingForArgument(source, 'ev', (warning) => warnings.push(warning));
    assert.deepEqual(warnings, ['short name "ev" could also match lower priority resource events.events.k8s.io']);
  });

  it('R7.19 reports an unknown type as kubectl does', () => {
    assert.throws(
      () => mappingForArgument(source, 'deploymentz'),
      (err) => err instanceof ResourceTypeNotFoundError && err.message === 'the server doesn\'t have a resource type "deploymentz"',
    );
    assert.throws(() => mappingForArgument(source, 'Widget'), { message: 'the server doesn\'t have a resource type "Widget"' });
    assert.throws(() => mappingForArgument(source, 'foo.bar.baz'), { message: 'the server doesn\'t have a resource type "foo"' });
  });
});
