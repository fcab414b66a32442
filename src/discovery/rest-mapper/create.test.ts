import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BUILTIN_RESOURCES } from '../../kinds/index.js';
import { createRestMapper } from './create.js';
import { AmbiguousResourceError, NoKindMatchError, NoResourceMatchError } from './errors.js';
import { served } from './test-fixtures.js';

// After client-go's TestRESTMapper: a resource in core v1 and in another group, a group with a resource only
// in non-preferred versions, and several versions of one group.
const resources = [
  served('', 'v1', 'Pod', 'pods'),
  served('extensions.example.com', 'v1beta1', 'Job', 'jobs'),
  served('extensions.example.com', 'v1beta1', 'Pod', 'pods'),
  served('unpreferred.example.com', 'v1', 'Broccoli', 'broccoli', { singular: 'broccolo' }),
  served('unpreferred.example.com', 'v2beta1', 'Broccoli', 'broccoli', { singular: 'broccolo' }),
  served('unpreferred.example.com', 'v2beta1', 'Pea', 'peas'),
  served('unpreferred.example.com', 'v2alpha1', 'Broccoli', 'broccoli', { singular: 'broccolo' }),
  served('unpreferred.example.com', 'v2alpha1', 'Pea', 'peas'),
];
const mapper = createRestMapper(resources);

describe('createRestMapper: kindFor and resourceFor (R7.1–R7.4, R7.9)', () => {
  const cases: [Parameters<typeof mapper.kindFor>[0], string, string, string][] = [
    [{ resource: 'pods' }, '', 'v1', 'Pod'],
    [{ version: 'v1', resource: 'pods' }, '', 'v1', 'Pod'],
    [{ version: 'v1beta1', resource: 'pods' }, 'extensions.example.com', 'v1beta1', 'Pod'],
    [{ resource: 'jobs' }, 'extensions.example.com', 'v1beta1', 'Job'],
    [{ resource: 'peas' }, 'unpreferred.example.com', 'v2beta1', 'Pea'],
    [{ resource: 'broccoli' }, 'unpreferred.example.com', 'v1', 'Broccoli'],
    [{ version: 'v2alpha1', resource: 'pea' }, 'unpreferred.example.com', 'v2alpha1', 'Pea'],
  ];
  for (const [partial, group, version, kind] of cases) {
    it(`${JSON.stringify(partial)} → ${group}/${version} ${kind}`, () => {
      assert.deepEqual(mapper.kindFor(partial), { group, version, kind });
      assert.equal(mapper.resourceFor(partial).group, group);
      assert.equal(mapper.resourceFor(partial).version, version);
    });
  }

  it('core v1 outranks every other group (R7.4)', () => {
    assert.deepEqual(mapper.resourceFor({ resource: 'pod' }), { group: '', version: 'v1', resource: 'pods' });
  });

  it('a group-version only resource resolves to the group preferred version first (R7.4)', () => {
    assert.deepEqual(mapper.resourceFor({ group: 'unpreferred.example.com', resource: 'broccolo' }), {
      group: 'unpreferred.example.com',
      version: 'v1',
      resource: 'broccoli',
    });
  });
});

describe('createRestMapper: resourcesFor and kindsFor list every candidate in discovery order (R7.7)', () => {
  it('no group, no version: every group and version, core first', () => {
    assert.deepEqual(mapper.resourcesFor({ resource: 'pods' }), [
      { group: '', version: 'v1', resource: 'pods' },
      { group: 'extensions.example.com', version: 'v1beta1', resource: 'pods' },
    ]);
  });

  it('versions of a group in preference order', () => {
    assert.deepEqual(
      mapper.kindsFor({ resource: 'broccoli' }).map((gvk) => gvk.version),
      ['v1', 'v2beta1', 'v2alpha1'],
    );
  });

  it('singular and plural names both match, and return the plural resource', () => {
    assert.deepEqual(mapper.resourcesFor({ resource: 'broccolo' }), mapper.resourcesFor({ resource: 'broccoli' }));
  });

  it('group and version: exactly that group-version', () => {
    assert.deepEqual(mapper.resourcesFor({ group: 'unpreferred.example.com', version: 'v2alpha1', resource: 'peas' }), [
      { group: 'unpreferred.example.com', version: 'v2alpha1', resource: 'peas' },
    ]);
  });

  it('version only: any group serving that version', () => {
    assert.deepEqual(mapper.resourcesFor({ version: 'v1', resource: 'pods' }), [{ group: '', version: 'v1', resource: 'pods' }]);
  });

  it('R7.6 lower-cases the resource and ignores the __internal version', () => {
    assert.deepEqual(mapper.resourceFor({ version: '__internal', resource: 'PODS' }), {
      group: '',
      version: 'v1',
      resource: 'pods',
    });
    assert.deepEqual(mapper.kindFor({ resource: 'Pod' }), { group: '', version: 'v1', kind: 'Pod' });
  });
});

describe('createRestMapper: group prefixes (R7.7, R7.8)', () => {
  const prefixed = createRestMapper([
    ...BUILTIN_RESOURCES,
    served('apps.example.com', 'v1', 'Deployment', 'deployments'),
    served('first.example.com', 'v1', 'MyKind', 'my-kinds', { singular: 'my-kind' }),
    served('firstly.example.com', 'v1', 'MyKind', 'my-kinds', { singular: 'my-kind' }),
  ]);

  it('a group prefix reaches the group ("deployments.app" → apps)', () => {
    assert.deepEqual(prefixed.resourceFor({ group: 'app', resource: 'deployments' }), {
      group: 'apps',
      version: 'v1',
      resource: 'deployments',
    });
  });

  it('an exact group wins over a longer group it prefixes', () => {
    assert.deepEqual(prefixed.resourcesFor({ group: 'apps', resource: 'deployments' }), [
      { group: 'apps', version: 'v1', resource: 'deployments' },
      { group: 'apps.example.com', version: 'v1', resource: 'deployments' },
    ]);
    assert.equal(prefixed.resourceFor({ group: 'apps', resource: 'deployments' }).group, 'apps');
    assert.equal(prefixed.resourceFor({ group: 'apps.example.com', resource: 'deployment' }).group, 'apps.example.com');
  });

  it('several prefixed groups are ordered by discovery, the first wins', () => {
    assert.deepEqual(
      prefixed.kindsFor({ group: 'first', resource: 'my-kind' }).map((gvk) => gvk.group),
      ['first.example.com', 'firstly.example.com'],
    );
    assert.equal(prefixed.kindFor({ group: 'first', resource: 'my-kinds' }).group, 'first.example.com');
  });

  it('R7.8 no prefix matching once a version is given', () => {
    assert.throws(
      () => prefixed.resourceFor({ group: 'app', version: 'v1', resource: 'deployments' }),
      (err) => err instanceof NoResourceMatchError && err.message === 'no matches for app/v1, Resource=deployments',
    );
  });
});

describe('createRestMapper: errors (R7.9, R7.10)', () => {
  it('no match reports the partial resource as given', () => {
    assert.throws(() => mapper.resourceFor({ resource: 'foo' }), {
      name: 'NoResourceMatchError',
      message: 'no matches for /, Resource=foo',
    });
    assert.throws(() => mapper.kindFor({ group: 'apps', resource: 'Foos' }), {
      message: 'no matches for apps/, Resource=Foos',
    });
    assert.throws(() => mapper.resourcesFor({ version: 'v3', resource: 'pods' }), NoResourceMatchError);
  });

  it('a resource name is required', () => {
    assert.throws(() => mapper.resourceFor({ resource: '' }), {
      message: 'a resource must be present, got: /, Resource=',
    });
  });

  it('several resources of one group-version sharing a name are ambiguous', () => {
    const fish = createRestMapper([
      served('zoo.example.com', 'v1', 'Fish', 'fish', { singular: 'fish' }),
      served('zoo.example.com', 'v1', 'FishSchool', 'fishes', { singular: 'fish' }),
    ]);
    assert.throws(
      () => fish.resourceFor({ resource: 'fish' }),
      (err) =>
        err instanceof AmbiguousResourceError &&
        err.message ===
          '/, Resource=fish matches multiple resources [zoo.example.com/v1, Resource=fish zoo.example.com/v1, Resource=fishes]',
    );
  });
});

describe('createRestMapper: restMapping (R7.3, R7.11)', () => {
  it('maps a kind to its plural resource and scope', () => {
    assert.deepEqual(mapper.restMapping({ group: '', kind: 'Pod' }), {
      resource: { group: '', version: 'v1', resource: 'pods' },
      groupVersionKind: { group: '', version: 'v1', kind: 'Pod' },
      scope: 'namespace',
    });
    const builtin = createRestMapper(BUILTIN_RESOURCES);
    assert.equal(builtin.restMapping({ group: '', kind: 'Namespace' }).scope, 'root');
  });

  it('with no version, picks the preferred version among all served', () => {
    assert.deepEqual(
      mapper.restMappings({ group: 'unpreferred.example.com', kind: 'Pea' }).map((m) => m.groupVersionKind.version),
      ['v2beta1', 'v2alpha1'],
    );
    assert.equal(mapper.restMapping({ group: 'unpreferred.example.com', kind: 'Pea' }).groupVersionKind.version, 'v2beta1');
  });

  it('uses the first requested version that is served', () => {
    const mapping = mapper.restMapping({ group: 'unpreferred.example.com', kind: 'Broccoli' }, 'v9', 'v2alpha1', 'v1');
    assert.equal(mapping.groupVersionKind.version, 'v2alpha1');
    assert.equal(mapper.restMapping({ group: 'unpreferred.example.com', kind: 'Broccoli' }, '', 'v1').resource.version, 'v1');
  });

  it('kinds match case-sensitively, with the lower-case alias registered too', () => {
    assert.equal(mapper.restMapping({ group: '', kind: 'pod' }).resource.resource, 'pods');
    assert.throws(() => mapper.restMapping({ group: '', kind: 'POD' }), {
      name: 'NoKindMatchError',
      message: 'no matches for kind "POD" in group ""',
    });
  });

  it('reports the versions searched when none serves the kind', () => {
    assert.throws(() => mapper.restMapping({ group: 'unpreferred.example.com', kind: 'Pea' }, 'v1'), {
      message: 'no matches for kind "Pea" in version "unpreferred.example.com/v1"',
    });
    assert.throws(
      () => mapper.restMappings({ group: 'unpreferred.example.com', kind: 'Pea' }, 'v1', 'v3'),
      (err) =>
        err instanceof NoKindMatchError &&
        err.message === 'no matches for kind "Pea" in versions ["unpreferred.example.com/v1" "unpreferred.example.com/v3"]',
    );
    assert.throws(() => mapper.restMapping({ group: 'nowhere', kind: 'Pod' }), {
      message: 'no matches for kind "Pod" in group "nowhere"',
    });
  });

  it('registers <Kind>List and List kinds with guessed resources (R7.3)', () => {
    assert.deepEqual(mapper.restMapping({ group: '', kind: 'PodList' }).resource, { group: '', version: 'v1', resource: 'podlists' });
    const list = mapper.restMapping({ group: 'extensions.example.com', kind: 'List' });
    assert.deepEqual(list.resource, { group: 'extensions.example.com', version: 'v1beta1', resource: 'lists' });
    assert.equal(list.scope, 'root');
  });

  it('guesses the singular from the kind when discovery gives none (R7.3)', () => {
    const guessed = createRestMapper([served('example.com', 'v1', 'Widget', 'widgets', { singular: '' })]);
    assert.equal(guessed.resourceFor({ resource: 'widget' }).resource, 'widgets');
  });

  it('lists a resource whose singular equals its plural once', () => {
    const builtin = createRestMapper(BUILTIN_RESOURCES);
    assert.deepEqual(builtin.resourcesFor({ resource: 'endpoints' }), [{ group: '', version: 'v1', resource: 'endpoints' }]);
  });
});

describe('createRestMapper: the built-in catalog', () => {
  const builtin = createRestMapper(BUILTIN_RESOURCES);

  it('events resolve to core v1 first, events.k8s.io when asked', () => {
    assert.deepEqual(builtin.resourceFor({ resource: 'events' }), { group: '', version: 'v1', resource: 'events' });
    assert.deepEqual(
      builtin.resourcesFor({ resource: 'event' }).map((gvr) => gvr.group),
      ['', 'events.k8s.io'],
    );
    assert.equal(builtin.resourceFor({ group: 'events.k8s.io', resource: 'events' }).group, 'events.k8s.io');
    assert.equal(builtin.kindFor({ group: 'events', resource: 'event' }).group, 'events.k8s.io');
  });

  it('maps workload kinds to apps/v1', () => {
    assert.deepEqual(builtin.restMapping({ group: 'apps', kind: 'Deployment' }).resource, {
      group: 'apps',
      version: 'v1',
      resource: 'deployments',
    });
    assert.equal(builtin.resourceFor({ group: 'rbac', resource: 'clusterrole' }).resource, 'clusterroles');
    assert.equal(builtin.restMapping({ group: 'rbac.authorization.k8s.io', kind: 'ClusterRole' }).scope, 'root');
  });
});
