import { forbidden, type StatusError } from '../api/errors.js';
import type { ResourceInfo } from '../api/resource-info.js';
import type { KubeObject, OwnerReference } from '../api/types.js';
import type { Authorizer, ResourceAttributes } from '../auth/authorizer.js';
import type { UserInfo } from '../api/user.js';
import type { GroupKind, RestMapping } from '../discovery/rest-mapper/types.js';
import type { ValidatingAdmissionPlugin } from '../registry/admission/plugin.js';

export interface OwnerReferencesPermissionDeps {
  readonly authorizer: () => Authorizer;
  /**
   * RESTMapper.RESTMappings for the owner's group/kind in the reference's version: every mapping (the scope decides
   * the namespace of the finalizers check); throws when none exists, and its message becomes part of the 403.
   */
  readonly restMappings: (groupKind: GroupKind, version: string) => readonly RestMapping[];
}

/** pods/status is exempt: old kubelets rewrote owner references there, and the pod status strategy keeps them. */
const EXEMPT = [{ group: '', resource: 'pods', subresource: 'status' }] as const;

function isExempt(info: ResourceInfo, subresource: string): boolean {
  return EXEMPT.some((e) => e.group === info.group && e.resource === info.plural && e.subresource === subresource);
}

/** apimachinery's semantic equality of two references: absent booleans differ from false. */
function sameReference(a: OwnerReference, b: OwnerReference): boolean {
  return (
    a.apiVersion === b.apiVersion &&
    a.kind === b.kind &&
    a.name === b.name &&
    a.uid === b.uid &&
    a.controller === b.controller &&
    a.blockOwnerDeletion === b.blockOwnerDeletion
  );
}

/** R3.3: position by position, so reordering counts as a change. */
function changesOwnerReferences(refs: readonly OwnerReference[], old: KubeObject | undefined): boolean {
  if (old === undefined) return refs.length > 0;
  const oldRefs = old.metadata.ownerReferences ?? [];
  if (oldRefs.length !== refs.length) return true;
  return refs.some((ref, i) => {
    const before = oldRefs[i];
    return before === undefined || !sameReference(before, ref);
  });
}

/** R3.5: blocking references that are new, or matched by uid to one that did not block. */
function newlyBlocking(refs: readonly OwnerReference[], old: KubeObject | undefined): OwnerReference[] {
  const blocking = refs.filter((ref) => ref.blockOwnerDeletion === true);
  if (blocking.length === 0 || old === undefined) return blocking;
  // Keyed by uid alone, later entries winning, exactly as Kubernetes indexes them.
  const byUid = new Map<string, OwnerReference>();
  for (const ref of old.metadata.ownerReferences ?? []) byUid.set(ref.uid, ref);
  return blocking.filter((ref) => byUid.get(ref.uid)?.blockOwnerDeletion !== true);
}

/** schema.ParseGroupVersion. */
function parseGroupVersion(apiVersion: string): { group: string; version: string } {
  if (apiVersion === '' || apiVersion === '/') return { group: '', version: '' };
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: apiVersion };
  if (parts.length === 2) return { group: parts[0] ?? '', version: parts[1] ?? '' };
  throw new Error(`unexpected GroupVersion string: ${apiVersion}`);
}

/** admission.NewForbidden: the object's name, else its generateName, else "Unknown". */
function denied(info: ResourceInfo, obj: KubeObject, why: string): StatusError {
  const name = obj.metadata.name || obj.metadata.generateName || 'Unknown';
  return forbidden({ group: info.group, resource: info.plural }, name, why);
}

/** Go's `%v, %v` of the authorizer's reason and its (here always nil) error. */
function because(reason: string): string {
  return `${reason}, <nil>`;
}

function finalizersAttributes(user: UserInfo, mapping: RestMapping, name: string, namespace: string): ResourceAttributes {
  return {
    user,
    resourceRequest: true,
    verb: 'update',
    apiGroup: mapping.resource.group,
    apiVersion: mapping.resource.version,
    resource: mapping.resource.resource,
    subresource: 'finalizers',
    // A namespaced owner lives in the dependent's namespace; a cluster-scoped one has none.
    namespace: mapping.scope === 'namespace' ? namespace : '',
    name,
  };
}

/**
 * OwnerReferencesPermissionEnforcement (R3.1–R3.7): whoever changes an object's ownerReferences must be able to
 * delete it (not asked on create: the creator could have chosen not to create it), and whoever makes a reference
 * block its owner's deletion must be able to update that owner's finalizers. Writes by the server itself (no user)
 * are not checked.
 */
export function ownerReferencesPermissionEnforcement(deps: OwnerReferencesPermissionDeps): ValidatingAdmissionPlugin {
  return {
    name: 'OwnerReferencesPermissionEnforcement',
    handles: (operation) => operation === 'CREATE' || operation === 'UPDATE',
    validate: async ({ operation, resource: info, subresource, object: obj, oldObject: old, user }) => {
      if (operation === 'DELETE' || obj === undefined || user === undefined) return;
      if (isExempt(info, subresource)) return;
      const refs = obj.metadata.ownerReferences ?? [];
      const previous = operation === 'CREATE' ? undefined : old;
      if (!changesOwnerReferences(refs, previous)) return;

      const authorizer = deps.authorizer();
      const namespace = info.namespaced ? (obj.metadata.namespace ?? '') : '';
      if (operation === 'UPDATE') {
        const decision = authorizer.authorize({
          user,
          resourceRequest: true,
          verb: 'delete',
          apiGroup: info.group,
          apiVersion: info.version,
          resource: info.plural,
          subresource,
          namespace,
          name: obj.metadata.name ?? '',
        });
        if (decision.decision !== 'allow') {
          throw denied(info, obj, `cannot set an ownerRef on a resource you can't delete: ${because(decision.reason)}`);
        }
      }

      const blocking = newlyBlocking(refs, previous);
      if (blocking.length === 0) return;
      // One wildcard question first: whoever may finalize anything needs no REST mapping at all.
      const anything = authorizer.authorize({
        user,
        resourceRequest: true,
        verb: 'update',
        apiGroup: '*',
        apiVersion: '*',
        resource: '*',
        subresource: 'finalizers',
        namespace: '',
        name: '*',
      });
      if (anything.decision === 'allow') return;

      for (const ref of blocking) {
        let mappings: readonly RestMapping[];
        try {
          const { group, version } = parseGroupVersion(ref.apiVersion);
          mappings = deps.restMappings({ group, kind: ref.kind }, version);
        } catch (err) {
          const message = err instanceof Error ? err.message : String(err);
          throw denied(
            info,
            obj,
            `cannot set blockOwnerDeletion in this case because cannot find RESTMapping for APIVersion ${ref.apiVersion} Kind ${ref.kind}: ${message}`,
          );
        }
        for (const mapping of mappings) {
          const decision = authorizer.authorize(finalizersAttributes(user, mapping, ref.name, namespace));
          if (decision.decision !== 'allow') {
            throw denied(
              info,
              obj,
              `cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set finalizers on: ${because(decision.reason)}`,
            );
          }
        }
      }
    },
  };
}
