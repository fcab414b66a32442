import type { KubeObject } from '../../api/types.js';
import { age, containerCells, formatLabelSelector } from '../cell-format.js';
import { jobSpecSelector, jobStatusSucceeded } from '../column-descriptions.js';
import { humanDuration } from '../human-duration.js';
import { get, integer, list, text, timestamp } from '../object-fields.js';
import { column, type Printer } from '../printer.js';
import { AGE_COLUMN, CONTAINERS_COLUMN, IMAGES_COLUMN, NAME_COLUMN } from './common-columns.js';

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

export const JOB_PRINTER: Printer = {
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
