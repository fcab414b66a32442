import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  AmbiguousKindError,
  AmbiguousResourceError,
  isAmbiguousError,
  isNoMatchError,
  NoKindMatchError,
  NoResourceMatchError,
} from './errors.js';

const deployments = { group: 'apps', version: 'v1', resource: 'deployments' };
const crdDeployments = { group: 'apps.example.com', version: 'v1', resource: 'deployments' };
const deployment = { group: 'apps', version: 'v1', kind: 'Deployment' };
const crdDeployment = { group: 'apps.example.com', version: 'v1', kind: 'Deployment' };

describe('REST mapper error messages (apimachinery errors.go)', () => {
  it('R7.10 NoResourceMatchError prints the partial resource in GVR form', () => {
    assert.equal(new NoResourceMatchError({ resource: 'foo' }).message, 'no matches for /, Resource=foo');
    assert.equal(
      new NoResourceMatchError({ group: 'apps', version: 'v1', resource: 'foo' }).message,
      'no matches for apps/v1, Resource=foo',
    );
  });

  it('R7.11 NoKindMatchError names the group, the version or the sorted versions searched', () => {
    assert.equal(new NoKindMatchError({ group: 'apps', kind: 'Foo' }, []).message, 'no matches for kind "Foo" in group "apps"');
    assert.equal(new NoKindMatchError({ group: 'apps', kind: 'Foo' }, ['v1']).message, 'no matches for kind "Foo" in version "apps/v1"');
    assert.equal(new NoKindMatchError({ group: '', kind: 'Foo' }, ['v1']).message, 'no matches for kind "Foo" in version "v1"');
    assert.equal(
      new NoKindMatchError({ group: 'apps', kind: 'Foo' }, ['v2', 'v1', 'v2']).message,
      'no matches for kind "Foo" in versions ["apps/v1" "apps/v2"]',
    );
    assert.equal(new NoKindMatchError({ group: '', kind: 'Foo' }, []).message, 'no matches for kind "Foo" in group ""');
  });

  it('R7.9 AmbiguousResourceError lists resources, kinds or both', () => {
    assert.equal(
      new AmbiguousResourceError({ resource: 'deployments' }, [deployments, crdDeployments], []).message,
      '/, Resource=deployments matches multiple resources [apps/v1, Resource=deployments apps.example.com/v1, Resource=deployments]',
    );
    assert.equal(
      new AmbiguousResourceError({ resource: 'deployments' }, [], [deployment, crdDeployment]).message,
      '/, Resource=deployments matches multiple kinds [apps/v1, Kind=Deployment apps.example.com/v1, Kind=Deployment]',
    );
    assert.equal(
      new AmbiguousResourceError({ resource: 'x' }, [deployments], [deployment]).message,
      '/, Resource=x matches multiple resources [apps/v1, Resource=deployments] and kinds [apps/v1, Kind=Deployment]',
    );
    assert.equal(new AmbiguousResourceError({ resource: 'x' }, [], []).message, '/, Resource=x matches multiple resources or kinds');
  });

  it('AmbiguousKindError prints the partial kind in GVK form', () => {
    assert.equal(
      new AmbiguousKindError({ group: 'apps', version: '', kind: 'Deployment' }, [], [deployment, crdDeployment]).message,
      'apps/, Kind=Deployment matches multiple kinds [apps/v1, Kind=Deployment apps.example.com/v1, Kind=Deployment]',
    );
  });

  it('quotes kinds as Go does', () => {
    assert.equal(new NoKindMatchError({ group: 'g', kind: 'A"b\\c\n' }, []).message, 'no matches for kind "A\\"b\\\\c\\n" in group "g"');
  });

  it('R7.12 both no-match errors are "no match"; ambiguity is not', () => {
    assert.equal(isNoMatchError(new NoResourceMatchError({ resource: 'x' })), true);
    assert.equal(isNoMatchError(new NoKindMatchError({ group: '', kind: 'X' }, [])), true);
    assert.equal(isNoMatchError(new AmbiguousResourceError({ resource: 'x' }, [], [])), false);
    assert.equal(isNoMatchError(new Error('no matches for /, Resource=x')), false);
    assert.equal(isAmbiguousError(new AmbiguousKindError({ group: '', version: '', kind: 'X' }, [], [])), true);
    assert.equal(isAmbiguousError(new NoResourceMatchError({ resource: 'x' })), false);
  });
});
