import { isObject, objects } from '../api/types.js';
import { age } from '../tables/cell-format.js';
import { AGE_COLUMN, NAME_COLUMN } from '../tables/common-columns.js';
import { column, type Printer } from '../tables/printer.js';

/** `kubectl get restores`: the target, how it ended and how many objects it recreated. */
export function restorePrinter(): Printer {
  return {
    style: 'printer',
    columns: [
      NAME_COLUMN,
      column('Target', 'string', 'The resource and name (or uid) restored.'),
      column('Status', 'string', 'Complete or Failed once the restore ended; empty while it runs.'),
      column('Restored', 'integer', 'How many objects were recreated.'),
      AGE_COLUMN,
    ],
    row(obj, now) {
      const spec = isObject(obj.spec) ? obj.spec : {};
      const target = isObject(spec.target) ? spec.target : {};
      const status = isObject(obj.status) ? obj.status : {};
      const ended = objects(status.conditions).find((c) => c.status === 'True');
      const ns = typeof target.namespace === 'string' && target.namespace !== '' ? `${target.namespace}/` : '';
      const name = typeof target.name === 'string' && target.name !== '' ? target.name : `uid=${String(target.uid ?? '')}`;
      return [
        obj.metadata.name ?? '',
        `${String(target.resource ?? '')} ${ns}${name}`,
        typeof ended?.type === 'string' ? ended.type : '',
        objects(status.restored).length,
        age(obj.metadata.creationTimestamp, now),
      ];
    },
  };
}
