import { isDeepStrictEqual } from 'node:util';
import { isObject } from '../../api/types.js';
import { core, coreKind } from '../../openapi/builders/shorthand.js';
import type { Definitions } from '../../openapi/schema.js';
import { containerCells, formatLabels } from '../../tables/cell-format.js';
import { NAME_COLUMN } from '../../tables/common-columns.js';
import { get } from '../../tables/object-fields.js';
import { column, type Printer } from '../../tables/printer.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo } from '../define/resource.js';
import { defaultPodTemplate } from './types/pod-defaults.js';
import { validatePodTemplateObject } from './types/pod-validation/pod-object.js';
import { podTemplateWarnings } from './types/pod-validation/warnings.js';

/** printPodTemplate: no Age column, and Containers and Images are not wide-only here, unlike the workloads'. */
const POD_TEMPLATE_PRINTER: Printer = {
  style: 'printer',
  columns: [
    NAME_COLUMN,
    column('Containers', 'string', 'Names of each container in the template.'),
    column('Images', 'string', 'Images referenced by each container in the template.'),
    column('Pod Labels', 'string', 'The labels for the pod template.'),
  ],
  row: (podTemplate) => {
    const [names, images] = containerCells(get(podTemplate, 'template', 'spec'));
    return [podTemplate.metadata.name ?? '', names, images, formatLabels(get(podTemplate, 'template', 'metadata', 'labels'))];
  },
};

const DEFINITIONS: Definitions = coreKind({
  kind: 'PodTemplate',
  description: 'A stored pod template, for other objects to copy pods from.',
  properties: {
    template: core('PodTemplateSpec', 'The pod this template describes.'),
  },
  listDescription: 'List of PodTemplate objects.',
  itemsDescription: 'The pod templates.',
});

const FIELD_NUMBERS: FieldNumberTable = {
  'io.k8s.api.core.v1.PodTemplate': { tags: { metadata: 1, template: 2 } },
  'io.k8s.api.core.v1.PodTemplateList': { tags: { metadata: 1, items: 2 } },
};

/** core/v1 PodTemplate. */
export const POD_TEMPLATE: KindDefinition = {
  resource: resourceInfo({ group: '', version: 'v1', kind: 'PodTemplate', plural: 'podtemplates', namespaced: true }),
  strategy: {
    // The pod template gets the pod defaults, as a workload's template does.
    defaults: (podTemplate) => {
      if (isObject(podTemplate.template)) defaultPodTemplate(podTemplate.template);
    },
    // podTemplateStrategy starts at generation 1 and bumps it on every change of the template.
    prepareForCreate: (podTemplate) => {
      podTemplate.metadata.generation = 1;
    },
    validate: validatePodTemplateObject,
    validateUpdate: validatePodTemplateObject,
    warningsOnCreate: (podTemplate) => podTemplateWarnings(podTemplate.template, 'template'),
    // Only a changed template (a new generation) is warned about again.
    warningsOnUpdate: (next, old) =>
      next.metadata.generation !== old.metadata.generation ? podTemplateWarnings(next.template, 'template') : [],
    prepareForUpdate: (next, old) => {
      const generation = typeof old.metadata.generation === 'number' ? old.metadata.generation : 1;
      next.metadata.generation = isDeepStrictEqual(next.template, old.template) ? generation : generation + 1;
    },
  },
  printer: POD_TEMPLATE_PRINTER,
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
