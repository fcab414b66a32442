import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StatusError } from '../api/errors.js';
import type { ResourceInfo } from '../api/resource-info.js';
import type { KubeObject, OwnerReference } from '../api/types.js';
import type { AuthorizationAttributes, Authorizer, Decision, ResourceAttributes, RulesInfo } from '../auth/authorizer.js';
import type { UserInfo } from '../api/user.js';
import { NoKindMatchError } from '../discovery/rest-mapper/errors.js';
import type { GroupKind, RestMapping } from '../discovery/rest-mapper/types.js';
import { BUILTIN_RESOURCES } from '../kinds/index.js';
import { AdmissionChain } from '../registry/admission/chain.js';
import { admissionAttributes, type AdmissionOperation } from '../registry/admission/attributes.js';
import { ownerReferencesPermissionEnforcement } from './owner-references-permission.js';

type Grant = Omit<ResourceAttributes, 'user' | 'resourceRequest' | 'apiVersion'> & { readonly userName: string };

/** Allows exactly the listed (user, verb, group, resource, subresource, namespace, name) tuples; records every question. */
class GrantListAuthorizer implements Authorizer {
  readonly grants: Grant[] = [];
  readonly asked: ResourceAttributes[] = [];
  denyReason = '';

  allow(grant: Grant): this {
    this.grants.push(grant);
    return this;
  }

  authorize(attributes: AuthorizationAttributes): Decision {
    if (!attributes.resourceRequest) return { decision: 'noOpinion', reason: '' };
    this.asked.push(attributes);
    const granted = this.grants.some(
      (g) =>
        g.userName === attributes.user.name &&
        g.verb === attributes.verb &&
        g.apiGroup === attributes.apiGroup &&
        g.resource === attributes.resource &&
        g.subresource === attributes.subresource &&
        g.namespace === attributes.namespace &&
        g.name === attributes.name,
    );
    return granted ? { decision: 'allow', reason: 'granted' } : { decision: 'noOpinion', reason: this.denyReason };
  }

  rulesFor(): RulesInfo {
    return { resourceRules: [], nonResourceRules: [], incomplete: false };
  }
}

const MAPPINGS: readonly RestMapping[] = [
  {
    resource: { group: 'apps', version: 'v1', resource: 'deployments' },
    groupVersionKind: { group: 'apps', version: 'v1', kind: 'Deployment' },
    scope: 'namespace',
  },
  {
    resource: { group: '', version: 'v1', resource: 'nodes' },
    groupVersionKind: { group: '', version: 'v1', kind: 'Node' },
    scope: 'root',
  },
];

function restMappings(lookups: GroupKind[]) {
  return (groupKind: GroupKind, version: string): RestMapping[] => {
    lookups.push(groupKind);
    const found = MAPPINGS.filter(
      (m) =>
        m.groupVersionKind.group === groupKind.group &&
        m.groupVersionKind.kind === groupKind.kind &&
        m.groupVersionKind.version === version,
    );
    if (found.length === 0) throw new NoKindMatchError(groupKind, [version]);
    return found;
  };
}

const info = (group: string, plural: string): ResourceInfo =>
  BUILTIN_RESOURCES.find((r) => r.group === group && r.plural === plural) ?? assert.fail(plural);

const alice: UserInfo = { name: 'alice', groups: ['system:authenticated'] };

const deploymentOwner = (blockOwnerDeletion?: boolean): OwnerReference => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  name: 'web',
  uid: 'u-web',
  ...(blockOwnerDeletion === undefined ? {} : { blockOwnerDeletion }),
});

const configMap = (refs?: OwnerReference[], name = 'cm'): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'ns1', ...(refs === undefined ? {} : { ownerReferences: refs }) },
});

interface Options {
  readonly dryRun: boolean;
  readonly user?: UserInfo;
  readonly subresource?: string;
}

function setup() {
  const authorizer = new GrantListAuthorizer();
  const lookups: GroupKind[] = [];
  const plugin = ownerReferencesPermissionEnforcement({ authorizer: () => authorizer, restMappings: restMappings(lookups) });
  const attributes = (operation: AdmissionOperation, resource: ResourceInfo, obj: KubeObject, old: KubeObject | undefined, opts: Options) =>
    admissionAttributes({
      operation,
      resource,
      object: obj,
      oldObject: old,
      user: opts.user,
      subresource: opts.subresource,
      dryRun: opts.dryRun,
    });
  const admit = (operation: AdmissionOperation, resource: ResourceInfo, obj: KubeObject, old: KubeObject | undefined, opts: Options) =>
    plugin.validate(attributes(operation, resource, obj, old, opts));
  // It plugs into the store's admission chain as a validating plugin.
  const chain = new AdmissionChain([], [plugin]);
  const chained = (operation: AdmissionOperation, resource: ResourceInfo, obj: KubeObject, old: KubeObject | undefined, opts: Options) =>
    chain.validate(attributes(operation, resource, obj, old, opts));
  return { authorizer, lookups, admit, chained };
}

async function forbiddenMessage(run: Promise<void>): Promise<string> {
  try {
    await run;
  } catch (err) {
    assert.ok(err instanceof StatusError);
    assert.equal(err.code, 403);
    assert.equal(err.reason, 'Forbidden');
    return err.message;
  }
  assert.fail('expected a 403');
}

const deleteConfigMap = {
  userName: 'alice',
  verb: 'delete',
  apiGroup: '',
  resource: 'configmaps',
  subresource: '',
  namespace: 'ns1',
  name: 'cm',
};

describe('R3 OwnerReferencesPermissionEnforcement admission', () => {
  it('R3.4: on create, setting a non-blocking ownerRef needs no permission at all', async () => {
    const { authorizer, admit } = setup();
    await admit('CREATE', info('', 'configmaps'), configMap([deploymentOwner()]), undefined, { dryRun: false, user: alice });
    assert.equal(authorizer.asked.length, 0);
  });

  it('R3.4: on update, changing ownerReferences needs delete on the object itself', async () => {
    const { authorizer, admit } = setup();
    const message = await forbiddenMessage(
      admit('UPDATE', info('', 'configmaps'), configMap([deploymentOwner()]), configMap(), { dryRun: false, user: alice }),
    );
    assert.equal(message, `configmaps "cm" is forbidden: cannot set an ownerRef on a resource you can't delete: , <nil>`);
    assert.deepEqual(authorizer.asked[0], {
      user: alice,
      resourceRequest: true,
      verb: 'delete',
      apiGroup: '',
      apiVersion: 'v1',
      resource: 'configmaps',
      subresource: '',
      namespace: 'ns1',
      name: 'cm',
    });

    authorizer.allow(deleteConfigMap);
    await admit('UPDATE', info('', 'configmaps'), configMap([deploymentOwner()]), configMap(), { dryRun: false, user: alice });
  });

  it('R3.4: the Status carries the authorizer reason, the resource and the name', async () => {
    const { authorizer, admit } = setup();
    authorizer.denyReason = 'RBAC: no rule';
    try {
      await admit(
        'UPDATE',
        info('apps', 'deployments'),
        { metadata: { name: 'd', namespace: 'ns1', ownerReferences: [] } },
        {
          metadata: { name: 'd', namespace: 'ns1', ownerReferences: [deploymentOwner()] },
        },
        { dryRun: false, user: alice },
      );
      assert.fail('expected a 403');
    } catch (err) {
      assert.ok(err instanceof StatusError);
      assert.deepEqual(err.toStatus(), {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: `deployments.apps "d" is forbidden: cannot set an ownerRef on a resource you can't delete: RBAC: no rule, <nil>`,
        reason: 'Forbidden',
        details: { name: 'd', group: 'apps', kind: 'deployments' },
        code: 403,
      });
    }
  });

  it('R3.3: identical references need nothing; a reordering or a flag becoming explicit is a change', async () => {
    const { authorizer, admit } = setup();
    const other: OwnerReference = { apiVersion: 'v1', kind: 'Node', name: 'n1', uid: 'u-n1' };
    const opts = { dryRun: false, user: alice };
    await admit('UPDATE', info('', 'configmaps'), configMap([deploymentOwner(), other]), configMap([deploymentOwner(), other]), opts);
    assert.equal(authorizer.asked.length, 0);
    await forbiddenMessage(
      admit('UPDATE', info('', 'configmaps'), configMap([other, deploymentOwner()]), configMap([deploymentOwner(), other]), opts),
    );
    await forbiddenMessage(
      admit('UPDATE', info('', 'configmaps'), configMap([deploymentOwner(false)]), configMap([deploymentOwner()]), opts),
    );
    // R3.7: removing references needs only the delete permission.
    authorizer.allow(deleteConfigMap);
    await admit('UPDATE', info('', 'configmaps'), configMap([]), configMap([deploymentOwner(true)]), opts);
  });

  it('R3.5: a new blocking reference needs update on the owner’s finalizers in the object’s namespace', async () => {
    const { authorizer, admit } = setup();
    const created = configMap([deploymentOwner(true)], '');
    created.metadata.generateName = 'cm-';
    const message = await forbiddenMessage(admit('CREATE', info('', 'configmaps'), created, undefined, { dryRun: false, user: alice }));
    assert.equal(
      message,
      `configmaps "cm-" is forbidden: cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set finalizers on: , <nil>`,
    );
    assert.deepEqual(
      authorizer.asked.map((a) => [a.verb, a.apiGroup, a.apiVersion, a.resource, a.subresource, a.namespace, a.name]),
      [
        ['update', '*', '*', '*', 'finalizers', '', '*'],
        ['update', 'apps', 'v1', 'deployments', 'finalizers', 'ns1', 'web'],
      ],
    );

    authorizer.allow({
      userName: 'alice',
      verb: 'update',
      apiGroup: 'apps',
      resource: 'deployments',
      subresource: 'finalizers',
      namespace: 'ns1',
      name: 'web',
    });
    await admit('CREATE', info('', 'configmaps'), created, undefined, { dryRun: false, user: alice });
  });

  it('R3.5: a cluster-scoped owner is checked without a namespace', async () => {
    const { authorizer, admit } = setup();
    authorizer.allow({
      userName: 'alice',
      verb: 'update',
      apiGroup: '',
      resource: 'nodes',
      subresource: 'finalizers',
      namespace: '',
      name: 'n1',
    });
    const node: OwnerReference = { apiVersion: 'v1', kind: 'Node', name: 'n1', uid: 'u-n1', blockOwnerDeletion: true };
    await admit('CREATE', info('', 'configmaps'), configMap([node]), undefined, { dryRun: false, user: alice });
  });

  it('R3.5: only references that start blocking are checked, matched by uid', async () => {
    const { authorizer, lookups, admit } = setup();
    authorizer.allow(deleteConfigMap);
    const opts = { dryRun: false, user: alice };
    // Already blocking before: the controller flag changes, so delete is needed, but not the owner's finalizers.
    const controlled = { ...deploymentOwner(true), controller: true };
    await admit('UPDATE', info('', 'configmaps'), configMap([controlled]), configMap([deploymentOwner(true)]), opts);
    assert.equal(lookups.length, 0);
    // false → true starts blocking.
    const message = await forbiddenMessage(
      admit('UPDATE', info('', 'configmaps'), configMap([deploymentOwner(true)]), configMap([deploymentOwner(false)]), opts),
    );
    assert.match(message, /can't set finalizers on: , <nil>$/);
    assert.deepEqual(lookups, [{ group: 'apps', kind: 'Deployment' }]);
  });

  it('R3.5: permission to update any finalizers skips the REST mapping entirely', async () => {
    const { authorizer, lookups, admit } = setup();
    authorizer.allow({
      userName: 'alice',
      verb: 'update',
      apiGroup: '*',
      resource: '*',
      subresource: 'finalizers',
      namespace: '',
      name: '*',
    });
    const widget: OwnerReference = { apiVersion: 'example.com/v1', kind: 'Widget', name: 'w', uid: 'u-w', blockOwnerDeletion: true };
    await admit('CREATE', info('', 'configmaps'), configMap([widget]), undefined, { dryRun: false, user: alice });
    assert.equal(lookups.length, 0);
  });

  it('R3.6: an owner kind the server does not serve is refused with the mapper’s error', async () => {
    const { admit } = setup();
    const widget: OwnerReference = { apiVersion: 'example.com/v1', kind: 'Widget', name: 'w', uid: 'u-w', blockOwnerDeletion: true };
    const message = await forbiddenMessage(
      admit('CREATE', info('', 'configmaps'), configMap([widget]), undefined, { dryRun: false, user: alice }),
    );
    assert.equal(
      message,
      `configmaps "cm" is forbidden: cannot set blockOwnerDeletion in this case because cannot find RESTMapping for APIVersion example.com/v1 Kind Widget: no matches for kind "Widget" in version "example.com/v1"`,
    );
    const malformed: OwnerReference = { apiVersion: 'a/b/c', kind: 'Widget', name: 'w', uid: 'u-w', blockOwnerDeletion: true };
    assert.match(
      await forbiddenMessage(admit('CREATE', info('', 'configmaps'), configMap([malformed]), undefined, { dryRun: false, user: alice })),
      /cannot find RESTMapping for APIVersion a\/b\/c Kind Widget: unexpected GroupVersion string: a\/b\/c$/,
    );
  });

  it('R3.2: pods/status is exempt; other subresources are checked under their own name', async () => {
    const { authorizer, admit } = setup();
    const pod = (refs: OwnerReference[]): KubeObject => ({ metadata: { name: 'p', namespace: 'ns1', ownerReferences: refs } });
    await admit('UPDATE', info('', 'pods'), pod([deploymentOwner(true)]), pod([]), { dryRun: false, user: alice, subresource: 'status' });
    assert.equal(authorizer.asked.length, 0);
    await forbiddenMessage(admit('UPDATE', info('', 'pods'), pod([deploymentOwner()]), pod([]), { dryRun: false, user: alice }));
    const deployment = (refs: OwnerReference[]): KubeObject => ({ metadata: { name: 'd', namespace: 'ns1', ownerReferences: refs } });
    await forbiddenMessage(
      admit('UPDATE', info('apps', 'deployments'), deployment([deploymentOwner()]), deployment([]), {
        dryRun: false,
        user: alice,
        subresource: 'status',
      }),
    );
    assert.equal(authorizer.asked.at(-1)?.subresource, 'status');
  });

  it('leaves deletes and the server’s own writes alone', async () => {
    const { authorizer, admit, chained } = setup();
    await chained('UPDATE', info('', 'configmaps'), configMap([deploymentOwner(true)]), configMap(), { dryRun: false });
    await admit('DELETE', info('', 'configmaps'), configMap([deploymentOwner(true)]), undefined, { dryRun: false, user: alice });
    assert.equal(authorizer.asked.length, 0);
  });
});
