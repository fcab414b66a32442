import { age, containerCells, deploymentSelector, formatLabelSelector, formatLabels } from '../cell-format.js';
import {
  daemonSetSpecSelector,
  daemonSetStatusCurrentNumberScheduled,
  daemonSetStatusDesiredNumberScheduled,
  daemonSetStatusNumberAvailable,
  daemonSetStatusNumberReady,
  daemonSetStatusUpdatedNumberScheduled,
  deploymentSpecSelector,
  deploymentStatusAvailableReplicas,
  deploymentStatusUpdatedReplicas,
  podSpecNodeSelector,
  replicaSetSpecReplicas,
  replicaSetSpecSelector,
  replicaSetStatusReadyReplicas,
  replicaSetStatusReplicas,
  replicationControllerSpecReplicas,
  replicationControllerSpecSelector,
  replicationControllerStatusReadyReplicas,
  replicationControllerStatusReplicas,
} from '../column-descriptions.js';
import { get, integer } from '../object-fields.js';
import { column, type Printer } from '../printer.js';
import { AGE_COLUMN, CONTAINERS_COLUMN, IMAGES_COLUMN, NAME_COLUMN } from './common-columns.js';

/** spec.replicas is defaulted to 1 by every replicated workload, so an absent value prints as 1. */
const desiredReplicas = (value: unknown): number => (typeof value === 'number' ? Math.trunc(value) : 1);

export const DEPLOYMENT_PRINTER: Printer = {
  style: 'printer',
  columns: [
    NAME_COLUMN,
    column('Ready', 'string', 'Number of the pod with ready state'),
    column('Up-to-date', 'string', deploymentStatusUpdatedReplicas),
    column('Available', 'string', deploymentStatusAvailableReplicas),
    AGE_COLUMN,
    CONTAINERS_COLUMN,
    IMAGES_COLUMN,
    column('Selector', 'string', deploymentSpecSelector, { wide: true }),
  ],
  row(obj, now) {
    const [names, images] = containerCells(get(obj, 'spec', 'template', 'spec'));
    return [
      obj.metadata.name ?? '',
      `${integer(get(obj, 'status', 'readyReplicas'))}/${desiredReplicas(get(obj, 'spec', 'replicas'))}`,
      integer(get(obj, 'status', 'updatedReplicas')),
      integer(get(obj, 'status', 'availableReplicas')),
      age(obj.metadata.creationTimestamp, now),
      names,
      images,
      deploymentSelector(get(obj, 'spec', 'selector')),
    ];
  },
};

/**
 * ReplicaSet's and ReplicationController's columns, which differ only in their descriptions and in the selector:
 * a LabelSelector for the one, a plain label map for the other.
 */
function replicatedPrinter(
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

export const REPLICA_SET_PRINTER: Printer = replicatedPrinter(
  {
    desired: replicaSetSpecReplicas,
    current: replicaSetStatusReplicas,
    ready: replicaSetStatusReadyReplicas,
    selector: replicaSetSpecSelector,
  },
  formatLabelSelector,
);

export const REPLICATION_CONTROLLER_PRINTER: Printer = replicatedPrinter(
  {
    desired: replicationControllerSpecReplicas,
    current: replicationControllerStatusReplicas,
    ready: replicationControllerStatusReadyReplicas,
    selector: replicationControllerSpecSelector,
  },
  formatLabels,
);

export const STATEFUL_SET_PRINTER: Printer = {
  style: 'printer',
  columns: [NAME_COLUMN, column('Ready', 'string', 'Number of the pod with ready state'), AGE_COLUMN, CONTAINERS_COLUMN, IMAGES_COLUMN],
  row(obj, now) {
    const [names, images] = containerCells(get(obj, 'spec', 'template', 'spec'));
    return [
      obj.metadata.name ?? '',
      `${integer(get(obj, 'status', 'readyReplicas'))}/${desiredReplicas(get(obj, 'spec', 'replicas'))}`,
      age(obj.metadata.creationTimestamp, now),
      names,
      images,
    ];
  },
};

export const DAEMON_SET_PRINTER: Printer = {
  style: 'printer',
  columns: [
    NAME_COLUMN,
    column('Desired', 'integer', daemonSetStatusDesiredNumberScheduled),
    column('Current', 'integer', daemonSetStatusCurrentNumberScheduled),
    column('Ready', 'integer', daemonSetStatusNumberReady),
    column('Up-to-date', 'integer', daemonSetStatusUpdatedNumberScheduled),
    column('Available', 'integer', daemonSetStatusNumberAvailable),
    column('Node Selector', 'string', podSpecNodeSelector),
    AGE_COLUMN,
    CONTAINERS_COLUMN,
    IMAGES_COLUMN,
    column('Selector', 'string', daemonSetSpecSelector, { wide: true }),
  ],
  row(obj, now) {
    const podSpec = get(obj, 'spec', 'template', 'spec');
    const [names, images] = containerCells(podSpec);
    return [
      obj.metadata.name ?? '',
      integer(get(obj, 'status', 'desiredNumberScheduled')),
      integer(get(obj, 'status', 'currentNumberScheduled')),
      integer(get(obj, 'status', 'numberReady')),
      integer(get(obj, 'status', 'updatedNumberScheduled')),
      integer(get(obj, 'status', 'numberAvailable')),
      formatLabels(get(podSpec, 'nodeSelector')),
      age(obj.metadata.creationTimestamp, now),
      names,
      images,
      formatLabelSelector(get(obj, 'spec', 'selector')),
    ];
  },
};
