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

/** The descriptions of a replica-counting controller's columns, and how its selector is shown. */
interface ReplicaColumns {
  readonly specReplicas: string;
  readonly statusReplicas: string;
  readonly readyReplicas: string;
  readonly selector: string;
  readonly formatSelector: (selector: unknown) => string;
}

/** ReplicaSet's columns, shared with ReplicationController, whose selector is a plain label map. */
function replicaPrinter(c: ReplicaColumns): Printer {
  return {
    style: 'printer',
    columns: [
      NAME_COLUMN,
      column('Desired', 'integer', c.specReplicas),
      column('Current', 'integer', c.statusReplicas),
      column('Ready', 'integer', c.readyReplicas),
      AGE_COLUMN,
      CONTAINERS_COLUMN,
      IMAGES_COLUMN,
      column('Selector', 'string', c.selector, { wide: true }),
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
        c.formatSelector(get(obj, 'spec', 'selector')),
      ];
    },
  };
}

export const REPLICA_SET_PRINTER: Printer = replicaPrinter({
  specReplicas: replicaSetSpecReplicas,
  statusReplicas: replicaSetStatusReplicas,
  readyReplicas: replicaSetStatusReadyReplicas,
  selector: replicaSetSpecSelector,
  formatSelector: formatLabelSelector,
});

/** core/v1 ReplicationController. */
export const REPLICATION_CONTROLLER_PRINTER: Printer = replicaPrinter({
  specReplicas: replicationControllerSpecReplicas,
  statusReplicas: replicationControllerStatusReplicas,
  readyReplicas: replicationControllerStatusReadyReplicas,
  selector: replicationControllerSpecSelector,
  formatSelector: formatLabels,
});

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
