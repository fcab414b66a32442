import type { ResourceInfo } from '../api/resource-info.js';
import { type KubeObject, parseApiVersion } from '../api/types.js';
import type { StatusError } from '../api/errors.js';
import type { UserInfo } from '../api/user.js';
import type { Authorizer, ResourceAttributes } from '../auth/authorizer.js';
import { forbidden } from '../auth/authn/forbidden.js';
import { entryParts, reasonText } from '../registry/archive/entry.js';
import { ARCHIVED_OBJECTS, CLUSTER_ARCHIVED_OBJECTS, isArchiveResource } from '../registry/archive/resources.js';
import { RESTORE_STRATEGY, RESTORES } from '../registry/archive/restore-resource.js';
import type { Registry } from '../registry/registry.js';
import { genericStrategy } from '../registry/resources/generic.js';
import { age } from '../tables/cell-format.js';
import { column, type Printer } from '../tables/printer.js';
import { restorePrinter } from './restore-printer.js';
import { ARCHIVED_OBJECT_DEFINITIONS, CLUSTER_ARCHIVED_OBJECT_DEFINITIONS, RESTORE_DEFINITIONS } from './archive-definitions.js';
import type { CreateCheck } from '../controllers/restore/controller.js';

const ARCHIVE_PRINTER: Printer = {
  style: 'printer',
  columns: [
    column('Kind', 'string', 'Kind of the archived object.'),
    column('Name', 'string', 'Name of the archived object.', { format: 'name' }),
    column('Deleted', 'string', 'How long ago the object was removed from storage.'),
    column('Reason', 'string', 'Why it was removed: Delete, Cascade(owner=UID), NamespaceTerminating(NS), CRDRemoval(CRD), Finalized.'),
    column('UID', 'string', 'UID of the archived object; the archive entry is named after it.', { wide: true }),
    column('Deleted By', 'string', 'The user whose request removed it.', { wide: true }),
  ],
  row(entry, now) {
    const { original, deletion } = entryParts(entry);
    return [original.kind, original.name, age(deletion.time, now), reasonText(deletion), original.uid, deletion.user.username];
  },
};

/** Field selectors of archive entries: by the original's identity and by the cascade that removed it (issue 28). */
const SELECTABLE: Readonly<Record<string, (entry: KubeObject) => readonly string[]>> = {
  'original.kind': (e) => [entryParts(e).original.kind],
  'original.apiVersion': (e) => [entryParts(e).original.apiVersion],
  'original.resource': (e) => [entryParts(e).original.resource],
  'original.name': (e) => [entryParts(e).original.name],
  'original.uid': (e) => [entryParts(e).original.uid],
  'deletion.reason': (e) => [entryParts(e).deletion.reason],
  'deletion.ownerUID': (e) => entryParts(e).deletion.ownerUIDs ?? [],
  'deletion.namespace': (e) => {
    const ns = entryParts(e).deletion.namespace;
    return ns === undefined ? [] : [ns];
  },
  'deletion.crd': (e) => {
    const crd = entryParts(e).deletion.crd;
    return crd === undefined ? [] : [crd];
  },
};

/** Serves the archive (read-only) and Restores; called once, when the server archives. */
export function serveArchiveApi(registry: Registry): void {
  const served = [
    [ARCHIVED_OBJECTS, ARCHIVED_OBJECT_DEFINITIONS],
    [CLUSTER_ARCHIVED_OBJECTS, CLUSTER_ARCHIVED_OBJECT_DEFINITIONS],
  ] as const;
  for (const [info, definitions] of served) {
    registry.add(info, { ...genericStrategy(info), printer: ARCHIVE_PRINTER }, definitions);
    for (const [label, field] of Object.entries(SELECTABLE)) registry.computedFields.define(info.group, info.plural, label, field);
  }
  registry.add(RESTORES, { ...genericStrategy(RESTORES, RESTORE_STRATEGY), printer: restorePrinter() }, RESTORE_DEFINITIONS);
}

/** The original's resource and group, from "deployments.apps" / "pods". */
function splitResource(qualified: string): { resource: string; group: string } {
  const dot = qualified.indexOf('.');
  return dot < 0 ? { resource: qualified, group: '' } : { resource: qualified.slice(0, dot), group: qualified.slice(dot + 1) };
}

/**
 * Who may read an archive entry: whoever may `get` the original where it was (an archived Secret stays a Secret).
 * Returns, for a request on `info` by `user`, the refusal of each entry the user may not read, or undefined when
 * the resource is no archive.
 */
export function archiveReadCheck(
  authorizer: Authorizer,
  info: ResourceInfo,
  user: UserInfo,
): ((entry: KubeObject) => StatusError | undefined) | undefined {
  if (!isArchiveResource(info)) return undefined;
  return (entry) => {
    const { original } = entryParts(entry);
    const { resource, group } = splitResource(original.resource);
    const attributes: ResourceAttributes = {
      user,
      resourceRequest: true,
      verb: 'get',
      apiGroup: group,
      apiVersion: parseApiVersion(original.apiVersion).version,
      resource,
      subresource: '',
      namespace: original.namespace ?? '',
      name: original.name,
    };
    const decision = authorizer.authorize(attributes);
    return decision.decision === 'allow' ? undefined : forbidden(attributes, decision.reason);
  };
}

/** The restore controller's permission check: may the requester create such objects there (SubjectAccessReview's answer)? */
export function createCheck(authorizer: Authorizer): CreateCheck {
  return (user, ref, namespace) => {
    const attributes: ResourceAttributes = {
      user,
      resourceRequest: true,
      verb: 'create',
      apiGroup: ref.group,
      apiVersion: ref.version,
      resource: ref.resource,
      subresource: '',
      namespace: namespace ?? '',
      name: '',
    };
    const decision = authorizer.authorize(attributes);
    return decision.decision === 'allow' ? undefined : forbidden(attributes, decision.reason).message;
  };
}
