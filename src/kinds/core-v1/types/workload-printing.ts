import { age, containerCells } from '../../../tables/cell-format.js';
import { AGE_COLUMN, CONTAINERS_COLUMN, IMAGES_COLUMN, NAME_COLUMN } from '../../../tables/common-columns.js';
import { get, integer } from '../../../tables/object-fields.js';
import { column, type Printer } from '../../../tables/printer.js';

/** spec.replicas is defaulted to 1 by every replicated workload, so an absent value prints as 1. */
export const desiredReplicas = (value: unknown): number => (typeof value === 'number' ? Math.trunc(value) : 1);

/**
 * ReplicaSet's and ReplicationController's columns, which differ only in their descriptions and in the selector:
 * a LabelSelector for the one, a plain label map for the other.
 */
export function replicatedPrinter(
  descriptions: { desired: string; current: string; ready: string; selector: string },
  formatSelector: (selector: unknown) => string,
): Printer {
  return {
    style: 'printer',
    columns: [
      NAME_COLUMN,
      column('Desired', 'integer', descriptions.desired),
      column('Current', 'integer', descriptions.current),
      column('Ready', 'integer', descriptions.ready),
      AGE_COLUMN,
      CONTAINERS_COLUMN,
      IMAGES_COLUMN,
      column('Selector', 'string', descriptions.selector, { wide: true }),
    ],
    row(obj, now) {
      const [names, images] = containerCells(get(obj, 'spec', 'template', 'spec'));
      return [
        obj.metadata.name ?? '',
        desiredReplicas(get(obj, 'spec', 'replicas')),
        integer(get(obj, 'status', 'replicas')),
        integer(get(obj, 'status', 'readyReplicas')),
        age(obj.metadata.creationTimestamp, now),
        names,
        images,
        formatSelector(get(obj, 'spec', 'selector')),
      ];
    },
  };
}
