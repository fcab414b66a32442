import { age, containerCells, deploymentSelector } from '../../tables/cell-format.js';
import { deploymentSpecSelector, deploymentStatusAvailableReplicas, deploymentStatusUpdatedReplicas } from '../../tables/column-descriptions.js';
import { AGE_COLUMN, CONTAINERS_COLUMN, IMAGES_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import { get, integer } from '../../tables/object-fields.js';
import { column, type Printer } from '../../tables/printer.js';
import { defaultWorkload } from '../core-v1/types/kind-defaults.js';
import { desiredReplicas } from '../core-v1/types/workload-printing.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo, SCALE, STATUS } from '../define/resource.js';

const DEPLOYMENT_PRINTER: Printer = {
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

/** apps/v1 Deployment. */
export const DEPLOYMENT: KindDefinition = {
  resource: resourceInfo({
    group: 'apps',
    version: 'v1',
    kind: 'Deployment',
    plural: 'deployments',
    namespaced: true,
    shortNames: ['deploy'],
    categories: ['all'],
    subresources: [SCALE, STATUS],
  }),
  strategy: {
    specGeneration: true,
    initialStatus: () => ({}),
    defaults: (obj) =>
      defaultWorkload(obj, (s) => {
        s.replicas ??= 1;
        s.strategy ??= { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } };
        s.revisionHistoryLimit ??= 10;
        s.progressDeadlineSeconds ??= 600;
      }),
  },
  printer: DEPLOYMENT_PRINTER,
};
