import { age, containerCells } from '../../tables/cell-format.js';
import { AGE_COLUMN, CONTAINERS_COLUMN, IMAGES_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import { get, integer } from '../../tables/object-fields.js';
import { column, type Printer } from '../../tables/printer.js';
import { defaultClaimTemplates, defaultWorkload, STATUS_ZERO_VALUES } from '../core-v1/types/kind-defaults.js';
import { desiredReplicas } from '../core-v1/types/workload-printing.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo, SCALE, STATUS } from '../define/resource.js';

const STATEFUL_SET_PRINTER: Printer = {
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

/** apps/v1 StatefulSet. */
export const STATEFUL_SET: KindDefinition = {
  resource: resourceInfo({
    group: 'apps',
    version: 'v1',
    kind: 'StatefulSet',
    plural: 'statefulsets',
    namespaced: true,
    shortNames: ['sts'],
    categories: ['all'],
    subresources: [SCALE, STATUS],
    // A StatefulSet's name becomes its pods' hostnames, so it must be a DNS label (since v1.27).
    nameFormat: 'dns1123-label',
  }),
  strategy: {
    specGeneration: true,
    initialStatus: () => ({}),
    statusZeroValues: STATUS_ZERO_VALUES['statefulsets.apps'],
    defaults: (obj) =>
      defaultWorkload(obj, (s) => {
        defaultClaimTemplates(s);
        s.replicas ??= 1;
        s.podManagementPolicy ??= 'OrderedReady';
        s.updateStrategy ??= { type: 'RollingUpdate', rollingUpdate: { partition: 0 } };
        s.revisionHistoryLimit ??= 10;
        s.persistentVolumeClaimRetentionPolicy ??= { whenDeleted: 'Retain', whenScaled: 'Retain' };
      }),
  },
  printer: STATEFUL_SET_PRINTER,
};
