import { isObject, type KubeObject } from '../../api/types.js';
import { age, containerCells, formatLabelSelector } from '../../tables/cell-format.js';
import { jobSpecSelector, jobStatusSucceeded } from '../../tables/column-descriptions.js';
import { humanDuration } from '../../tables/human-duration.js';
import { get, integer, list, text, timestamp } from '../../tables/object-fields.js';
import { column, type Printer } from '../../tables/printer.js';
import { AGE_COLUMN, CONTAINERS_COLUMN, IMAGES_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import { defaultPodTemplate } from '../core-v1/types/pod-defaults.js';
import { specOf } from '../core-v1/types/kind-defaults.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { fieldAt, integerAttr } from '../define/field-selectors.js';
import { resourceInfo, STATUS } from '../define/resource.js';
import { goQuote } from '../../util/go-quote.js';

/** hasJobCondition: the first condition of the type decides. */
function hasCondition(job: KubeObject, type: string): boolean {
  const condition = list(get(job, 'status', 'conditions')).find((entry) => text(get(entry, 'type')) === type);
  return condition !== undefined && text(get(condition, 'status')) === 'True';
}

function jobStatus(job: KubeObject): string {
  if (hasCondition(job, 'Complete')) return 'Complete';
  if (hasCondition(job, 'Failed')) return 'Failed';
  if (typeof job.metadata.deletionTimestamp === 'string') return 'Terminating';
  if (hasCondition(job, 'Suspended')) return 'Suspended';
  if (hasCondition(job, 'FailureTarget')) return 'FailureTarget';
  return 'Running';
}

function completions(job: KubeObject): string {
  const succeeded = integer(get(job, 'status', 'succeeded'));
  const wanted = get(job, 'spec', 'completions');
  if (typeof wanted === 'number') return `${succeeded}/${Math.trunc(wanted)}`;
  const parallelism = integer(get(job, 'spec', 'parallelism'));
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

function duration(job: KubeObject, now: Date): string {
  const start = timestamp(get(job, 'status', 'startTime'));
  if (start === undefined) return '';
  const end = timestamp(get(job, 'status', 'completionTime')) ?? now.getTime();
  return humanDuration(end - start);
}

const JOB_PRINTER: Printer = {
  style: 'printer',
  columns: [
    NAME_COLUMN,
    column('Status', 'string', 'Status of the job.'),
    column('Completions', 'string', jobStatusSucceeded),
    column('Duration', 'string', 'Time required to complete the job.'),
    AGE_COLUMN,
    CONTAINERS_COLUMN,
    IMAGES_COLUMN,
    column('Selector', 'string', jobSpecSelector, { wide: true }),
  ],
  row(job, now) {
    const [names, images] = containerCells(get(job, 'spec', 'template', 'spec'));
    return [
      job.metadata.name ?? '',
      jobStatus(job),
      completions(job),
      duration(job, now),
      age(job.metadata.creationTimestamp, now),
      names,
      images,
      formatLabelSelector(get(job, 'spec', 'selector')),
    ];
  },
};

/** batch/v1 defaulting (SetDefaults_Job) and the generated selector of the job registry's PrepareForCreate. */
function defaultJob(obj: KubeObject): void {
  const uid = obj.metadata.uid ?? '';
  const name = obj.metadata.name ?? '';
  const s = specOf(obj);
  if (s.completions === undefined && s.parallelism === undefined) {
    s.completions = 1;
    s.parallelism = 1;
  }
  s.parallelism ??= 1;
  // With a per-index limit, the job-wide one no longer bounds anything unless the user sets it.
  s.backoffLimit ??= s.backoffLimitPerIndex === undefined ? 6 : 2147483647;
  s.completionMode ??= 'NonIndexed';
  s.suspend ??= false;
  const failurePolicy = isObject(s.podFailurePolicy) ? s.podFailurePolicy : undefined;
  for (const rule of Array.isArray(failurePolicy?.rules) ? failurePolicy.rules : []) {
    if (!isObject(rule) || !Array.isArray(rule.onPodConditions)) continue;
    for (const pattern of rule.onPodConditions) if (isObject(pattern) && (pattern.status ?? '') === '') pattern.status = 'True';
  }
  s.podReplacementPolicy ??= failurePolicy === undefined ? 'TerminatingOrFailed' : 'Failed';
  // The job controller owns its pods through generated labels unless the user chose manualSelector.
  if (s.manualSelector !== true && uid !== '' && s.selector === undefined) {
    s.selector = { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } };
    if (isObject(s.template)) {
      const template = s.template;
      if (!isObject(template.metadata)) template.metadata = {};
      const meta = template.metadata as Record<string, unknown>;
      meta.labels = {
        ...(isObject(meta.labels) ? meta.labels : {}),
        'batch.kubernetes.io/controller-uid': uid,
        'batch.kubernetes.io/job-name': name,
        'controller-uid': uid,
        'job-name': name,
      };
    }
  }
  // batch/v1 defaulting gives a Job without labels its template's. kube-apiserver defaults again when it reads the
  // created Job back from storage, so the Job ends up with the generated controller-uid and job-name labels too.
  const templateLabels = isObject(s.template) && isObject(s.template.metadata) ? s.template.metadata.labels : undefined;
  const labels = obj.metadata.labels;
  if (isObject(templateLabels) && (labels === undefined || Object.keys(labels).length === 0)) {
    obj.metadata.labels = { ...(templateLabels as Record<string, string>) };
  }
  defaultPodTemplate(s.template);
}

/** batch/v1 Job. */
export const JOB: KindDefinition = {
  resource: resourceInfo({
    group: 'batch',
    version: 'v1',
    kind: 'Job',
    plural: 'jobs',
    namespaced: true,
    categories: ['all'],
    subresources: [STATUS],
  }),
  // batch/v1 keeps the pre-garbage-collector default: deleting a Job leaves its pods.
  strategy: { specGeneration: true, gcPolicy: 'OrphanDependents', initialStatus: () => ({}), defaults: defaultJob },
  fieldSelectors: {
    conversion: {
      labels: new Set(['metadata.name', 'metadata.namespace', 'status.successful']),
      error: (label) => `field label ${goQuote(label)} not supported for batchv1.Job`,
    },
    attrs: (obj) => ({ 'status.successful': integerAttr(fieldAt(obj, 'status', 'succeeded')) }),
  },
  printer: JOB_PRINTER,
};
