import { objectMetaCreationTimestamp, objectMetaName } from './column-descriptions.js';
import { timestamp } from './object-fields.js';
import { column, type Printer } from './printer.js';

/** RFC 3339 in UTC, whole seconds, as Go's time.RFC3339 prints metav1.Time; zero time for an unset value. */
function createdAt(value: unknown): string {
  const at = timestamp(value);
  if (at === undefined) return '0001-01-01T00:00:00Z';
  return `${new Date(at).toISOString().slice(0, 19)}Z`;
}

/** apiserver's DefaultTableConvertor: kinds with no printer (Role, ClusterRole, CRDs, unknown kinds). */
export const DEFAULT_PRINTER: Printer = {
  style: 'default',
  columns: [column('Name', 'string', objectMetaName, { format: 'name' }), column('Created At', 'date', objectMetaCreationTimestamp)],
  row: (obj) => [obj.metadata.name ?? '', createdAt(obj.metadata.creationTimestamp)],
};
