import { age, containerCells, formatLabelSelector, formatLabels } from '../../tables/cell-format.js';
import {
  daemonSetSpecSelector,
  daemonSetStatusCurrentNumberScheduled,
  daemonSetStatusDesiredNumberScheduled,
  daemonSetStatusNumberAvailable,
  daemonSetStatusNumberReady,
  daemonSetStatusUpdatedNumberScheduled,
  podSpecNodeSelector,
} from '../../tables/column-descriptions.js';
import { AGE_COLUMN, CONTAINERS_COLUMN, IMAGES_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import { get, integer } from '../../tables/object-fields.js';
import { column, type Printer } from '../../tables/printer.js';
import { defaultWorkload, STATUS_ZERO_VALUES } from '../core-v1/types/kind-defaults.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo, STATUS } from '../define/resource.js';

const DAEMON_SET_PRINTER: Printer = {
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

/** apps/v1 DaemonSet. */
export const DAEMON_SET: KindDefinition = {
  resource: resourceInfo({
    group: 'apps',
    version: 'v1',
    kind: 'DaemonSet',
    plural: 'daemonsets',
    namespaced: true,
    shortNames: ['ds'],
    categories: ['all'],
    subresources: [STATUS],
  }),
  strategy: {
    specGeneration: true,
    initialStatus: () => ({}),
    statusZeroValues: STATUS_ZERO_VALUES['daemonsets.apps'],
    defaults: (obj) =>
      defaultWorkload(obj, (s) => {
        s.updateStrategy ??= { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } };
        s.revisionHistoryLimit ??= 10;
      }),
  },
  printer: DAEMON_SET_PRINTER,
};
