import { objects, type KubeObject } from '../../api/types.js';
import { age } from '../../tables/cell-format.js';
import { AGE_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import { get, list, text } from '../../tables/object-fields.js';
import { column, type Printer } from '../../tables/printer.js';

/** What RoleBinding and ClusterRoleBinding share: subject defaulting and the printer. */

/** Users and groups are RBAC subjects; a service account subject stays in the core group. */
export function defaultRbacSubjects(obj: KubeObject): void {
  for (const subject of objects(obj.subjects)) {
    if (subject.apiGroup !== undefined && subject.apiGroup !== '') continue;
    if (subject.kind === 'User' || subject.kind === 'Group') subject.apiGroup = 'rbac.authorization.k8s.io';
  }
}

/** rbac.SubjectsStrings: users, groups and "namespace/name" service accounts, each ", "-joined. */
function subjectCells(binding: KubeObject): [string, string, string] {
  const users: string[] = [];
  const groups: string[] = [];
  const serviceAccounts: string[] = [];
  for (const subject of list(get(binding, 'subjects'))) {
    const name = text(get(subject, 'name'));
    switch (text(get(subject, 'kind'))) {
      case 'ServiceAccount':
        serviceAccounts.push(`${text(get(subject, 'namespace'))}/${name}`);
        break;
      case 'User':
        users.push(name);
        break;
      case 'Group':
        groups.push(name);
        break;
    }
  }
  return [users.join(', '), groups.join(', '), serviceAccounts.join(', ')];
}

/** RoleBinding's and ClusterRoleBinding's columns, which differ only in their descriptions. */
export function bindingPrinter(roleRefDescription: string, subjectsOf: string): Printer {
  return {
    style: 'printer',
    columns: [
      NAME_COLUMN,
      column('Role', 'string', roleRefDescription),
      AGE_COLUMN,
      column('Users', 'string', `Users in the ${subjectsOf}`, { wide: true }),
      column('Groups', 'string', `Groups in the ${subjectsOf}`, { wide: true }),
      column('ServiceAccounts', 'string', `ServiceAccounts in the ${subjectsOf}`, { wide: true }),
    ],
    row: (binding, now) => [
      binding.metadata.name ?? '',
      `${text(get(binding, 'roleRef', 'kind'))}/${text(get(binding, 'roleRef', 'name'))}`,
      age(binding.metadata.creationTimestamp, now),
      ...subjectCells(binding),
    ],
  };
}
