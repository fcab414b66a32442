import { type FieldError, fieldError } from '../../api/errors.js';
import { isObject, type KubeObject } from '../../api/types.js';
import {
  arrayOf,
  bool,
  int32,
  int64,
  kindDefinition,
  listDefinition,
  OBJECT_REFERENCE,
  ref,
  str,
  TIME,
} from '../../openapi/builders/group-builders.js';
import { definitionRef, type Definitions } from '../../openapi/schema.js';
import { age, containerCells, formatLabelSelector } from '../../tables/cell-format.js';
import { AGE_COLUMN, CONTAINERS_COLUMN, IMAGES_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import { get, list } from '../../tables/object-fields.js';
import { column } from '../../tables/printer.js';
import { podNamePrefixWarnings, podOptionsForUpdate } from '../apps-v1/workload-validation.js';
import { defaultPodTemplate } from '../core-v1/types/pod-defaults.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo, STATUS } from '../define/resource.js';
import { cronScheduleError, loadLocationError } from './cron-schedule.js';
import { jobSpecWarnings, validateJobTemplateSpec } from './job-validation.js';

/** Column descriptions: the swagger docs of the fields (batch/v1beta1's, which the Go printer still names). */
const scheduleDoc = 'The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.';
const timeZoneDoc =
  'The time zone name for the given schedule, see https://en.wikipedia.org/wiki/List_of_tz_database_time_zones. If not specified, this will default to the time zone of the kube-controller-manager process. The set of valid time zone names and the time zone offset is loaded from the system-wide time zone database by the API server during CronJob validation and the controller manager during execution. If no system-wide time zone database can be found a bundled version of the database is used instead. If the time zone name becomes invalid during the lifetime of a CronJob or due to a change in host configuration, the controller will stop creating new new Jobs and will create a system event with the reason UnknownTimeZone. More information can be found in https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/#time-zones';
const suspendDoc =
  'This flag tells the controller to suspend subsequent executions, it does not apply to already started executions.  Defaults to false.';
const activeDoc = 'A list of pointers to currently running jobs.';
const lastScheduleDoc = 'Information when was the last time the job was successfully scheduled.';
const jobSpecSelector =
  'A label query over pods that should match the pod count. Normally, the system sets this field for you. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors';

const CONCURRENCY_POLICIES = ['Allow', 'Forbid', 'Replace'];
/** The controller names Jobs `<cronjob>-<11 characters>`, and a Job name must stay a 63-character label. */
const MAX_NAME_LENGTH = 52;
/** IANA naming rules for one component of a zone name, with the digits and '+' legacy names use. */
const TIME_ZONE_PART = /^[A-Za-z.\-_0-9+]{1,14}$/;

/** batch/v1 SetDefaults_CronJob, and the pod defaults of the job template (SetDefaults_Job is for Jobs only). */
function defaultCronJob(cj: KubeObject): void {
  if (!isObject(cj.spec)) cj.spec = {};
  const spec = cj.spec as Record<string, unknown>;
  if (spec.concurrencyPolicy === undefined || spec.concurrencyPolicy === '') spec.concurrencyPolicy = 'Allow';
  spec.suspend ??= false;
  spec.successfulJobsHistoryLimit ??= 3;
  spec.failedJobsHistoryLimit ??= 1;
  const jobSpec = get(spec, 'jobTemplate', 'spec');
  if (isObject(jobSpec)) defaultPodTemplate(jobSpec.template);
}

function validateTimeZone(zone: unknown): FieldError[] {
  if (typeof zone !== 'string') return [];
  const path = 'spec.timeZone';
  if (zone === '') return [fieldError.invalid(path, zone, 'timeZone must be nil or non-empty string')];
  for (const part of zone.split('/')) {
    if (part === '.' || part === '..' || part.startsWith('-') || !TIME_ZONE_PART.test(part)) {
      return [fieldError.invalid(path, zone, `unknown time zone ${zone}`)];
    }
  }
  const errors: FieldError[] = [];
  if (zone.toLowerCase() === 'local') {
    errors.push(fieldError.invalid(path, zone, 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones'));
  }
  const loadError = loadLocationError(zone);
  if (loadError !== undefined) errors.push(fieldError.invalid(path, zone, loadError));
  return errors;
}

function nonNegative(value: unknown, path: string): FieldError[] {
  return typeof value === 'number' && value < 0 ? [fieldError.invalid(path, value, 'must be greater than or equal to 0')] : [];
}

/** validateCronJobSpec. */
function validateSpec(cj: KubeObject, old: KubeObject | undefined): FieldError[] {
  const spec = isObject(cj.spec) ? cj.spec : {};
  const oldSpec = isObject(old?.spec) ? old.spec : undefined;
  const errors: FieldError[] = [];
  const schedule = typeof spec.schedule === 'string' ? spec.schedule : '';
  if (schedule === '') errors.push(fieldError.required('spec.schedule'));
  else {
    const parseError = cronScheduleError(schedule);
    if (parseError !== undefined) errors.push(fieldError.invalid('spec.schedule', schedule, parseError));
    // A schedule that already carried TZ may keep it on update, as long as timeZone is not set as well.
    const allowTz = typeof oldSpec?.schedule === 'string' && oldSpec.schedule.includes('TZ');
    if (schedule.includes('TZ')) {
      if (!allowTz) errors.push(fieldError.invalid('spec.schedule', schedule, 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead'));
      else if (typeof spec.timeZone === 'string') {
        errors.push(fieldError.invalid('spec.schedule', schedule, 'cannot use both timeZone field and TZ or CRON_TZ in schedule'));
      }
    }
  }
  errors.push(...nonNegative(spec.startingDeadlineSeconds, 'spec.startingDeadlineSeconds'));
  if (oldSpec === undefined || oldSpec.timeZone !== spec.timeZone) errors.push(...validateTimeZone(spec.timeZone));
  const policy = typeof spec.concurrencyPolicy === 'string' ? spec.concurrencyPolicy : '';
  if (policy === '') errors.push(fieldError.required('spec.concurrencyPolicy'));
  else if (!CONCURRENCY_POLICIES.includes(policy)) errors.push(fieldError.notSupported('spec.concurrencyPolicy', policy, CONCURRENCY_POLICIES));
  const template = (s: unknown): unknown => get(s, 'jobTemplate', 'spec', 'template');
  const podOptions = oldSpec === undefined ? {} : podOptionsForUpdate(template(spec), template(oldSpec));
  errors.push(...validateJobTemplateSpec(spec.jobTemplate, 'spec.jobTemplate', podOptions));
  errors.push(...nonNegative(spec.successfulJobsHistoryLimit, 'spec.successfulJobsHistoryLimit'));
  errors.push(...nonNegative(spec.failedJobsHistoryLimit, 'spec.failedJobsHistoryLimit'));
  return errors;
}

function validateCronJob(cj: KubeObject): FieldError[] {
  const errors = validateSpec(cj, undefined);
  const name = cj.metadata.name ?? '';
  if (name.length > MAX_NAME_LENGTH) errors.push(fieldError.invalid('metadata.name', name, `must be no more than ${MAX_NAME_LENGTH} characters`));
  return errors;
}

const P = 'io.k8s.api.batch.v1.';

const DEFINITIONS: Definitions = {
  [`${P}CronJob`]: kindDefinition({
    group: 'batch',
    version: 'v1',
    kind: 'CronJob',
    description: 'CronJob creates a Job from its template on a repeating schedule.',
    properties: {
      spec: ref(`${P}CronJobSpec`, 'The schedule and the Job to create.'),
      status: ref(`${P}CronJobStatus`, 'The running Jobs and the last schedule times.'),
    },
  }),
  [`${P}CronJobList`]: listDefinition('batch', 'v1', 'CronJob', `${P}CronJob`),
  [`${P}CronJobSpec`]: {
    type: 'object',
    description: 'When a CronJob runs and what Job it creates.',
    properties: {
      concurrencyPolicy: str('Allow (the default), Forbid (skip a run while one is active) or Replace (replace the active run).', {
        enum: ['Allow', 'Forbid', 'Replace'],
      }),
      failedJobsHistoryLimit: int32('Failed finished Jobs to keep. Defaults to 1.'),
      jobTemplate: ref(`${P}JobTemplateSpec`, 'The Job created at each scheduled time.'),
      schedule: str('The schedule in cron format.'),
      startingDeadlineSeconds: int64('Seconds after a missed scheduled time within which the Job may still start.'),
      successfulJobsHistoryLimit: int32('Successful finished Jobs to keep. Defaults to 3.'),
      suspend: bool('Whether later runs are suspended (running ones continue). Defaults to false.'),
      timeZone: str('IANA time zone of the schedule; the controller manager\'s zone when unset.'),
    },
    required: ['schedule', 'jobTemplate'],
  },
  [`${P}CronJobStatus`]: {
    type: 'object',
    description: 'The observed state of a CronJob.',
    properties: {
      active: arrayOf(definitionRef(OBJECT_REFERENCE), 'The Jobs running now.', { 'x-kubernetes-list-type': 'atomic' }),
      lastScheduleTime: ref(TIME, 'When a Job was last scheduled.'),
      lastSuccessfulTime: ref(TIME, 'When a Job last completed successfully.'),
    },
  },
  [`${P}JobTemplateSpec`]: {
    type: 'object',
    description: 'The metadata and spec of the Jobs a CronJob creates.',
    properties: {
      metadata: ref('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', 'Metadata of the Jobs created from the template.'),
      spec: ref(`${P}JobSpec`, 'Spec of the Jobs created from the template.'),
    },
  },
};

const FIELD_NUMBERS: FieldNumberTable = {
  [`${P}CronJob`]: { tags: { metadata: 1, spec: 2, status: 3 } },
  [`${P}CronJobList`]: { tags: { metadata: 1, items: 2 } },
  [`${P}CronJobSpec`]: {
    tags: {
      schedule: 1,
      startingDeadlineSeconds: 2,
      concurrencyPolicy: 3,
      suspend: 4,
      jobTemplate: 5,
      successfulJobsHistoryLimit: 6,
      failedJobsHistoryLimit: 7,
      timeZone: 8,
    },
    pointers: ['timeZone', 'startingDeadlineSeconds', 'suspend', 'successfulJobsHistoryLimit', 'failedJobsHistoryLimit'],
  },
  [`${P}CronJobStatus`]: { tags: { active: 1, lastScheduleTime: 4, lastSuccessfulTime: 5 } },
  [`${P}JobTemplateSpec`]: { tags: { metadata: 1, spec: 2 } },
};

/** batch/v1 CronJob (served and validated; the controller that runs it belongs to the workloads work). */
export const CRON_JOB: KindDefinition = {
  resource: resourceInfo({
    group: 'batch',
    version: 'v1',
    kind: 'CronJob',
    plural: 'cronjobs',
    namespaced: true,
    shortNames: ['cj'],
    categories: ['all'],
    subresources: [STATUS],
  }),
  strategy: {
    specGeneration: true,
    initialStatus: () => ({}),
    defaults: defaultCronJob,
    validate: validateCronJob,
    validateUpdate: (next, old) => validateSpec(next, old),
    // The status strategy validates nothing beyond metadata.
    validateStatusUpdate: () => [],
    warningsOnCreate: (cj) => [
      ...podNamePrefixWarnings(cj),
      ...jobSpecWarnings(get(cj, 'spec', 'jobTemplate', 'spec'), 'spec.jobTemplate.spec'),
    ],
  },
  printer: {
    style: 'printer',
    columns: [
      NAME_COLUMN,
      column('Schedule', 'string', scheduleDoc),
      column('Timezone', 'string', timeZoneDoc),
      column('Suspend', 'boolean', suspendDoc),
      column('Active', 'integer', activeDoc),
      column('Last Schedule', 'string', lastScheduleDoc),
      AGE_COLUMN,
      CONTAINERS_COLUMN,
      IMAGES_COLUMN,
      column('Selector', 'string', jobSpecSelector, { wide: true }),
    ],
    row(cj, now) {
      const suspend = get(cj, 'spec', 'suspend');
      const zone = get(cj, 'spec', 'timeZone');
      const lastSchedule = get(cj, 'status', 'lastScheduleTime');
      const [names, images] = containerCells(get(cj, 'spec', 'jobTemplate', 'spec', 'template', 'spec'));
      const schedule = get(cj, 'spec', 'schedule');
      return [
        cj.metadata.name ?? '',
        typeof schedule === 'string' ? schedule : '',
        typeof zone === 'string' ? zone : '<none>',
        typeof suspend === 'boolean' ? (suspend ? 'True' : 'False') : '<unset>',
        list(get(cj, 'status', 'active')).length,
        typeof lastSchedule === 'string' ? age(lastSchedule, now) : '<none>',
        age(cj.metadata.creationTimestamp, now),
        names,
        images,
        formatLabelSelector(get(cj, 'spec', 'jobTemplate', 'spec', 'selector')),
      ];
    },
  },
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
