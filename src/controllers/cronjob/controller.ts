import { StatusError } from '../../api/errors.js';
import { isObject, type KubeObject } from '../../api/types.js';
import { objectKey } from '../../cache/object-key.js';
import { createSharedInformer, type SharedInformer } from '../../cache/shared-informer.js';
import { NAMESPACE_INDEX, namespaceIndexFunc } from '../../cache/store.js';
import type { ApiClient, ResourceRef } from '../../client/interface.js';
import { type CronSchedule, loadLocationError, parseCronSchedule } from '../../kinds/batch-v1/cron-schedule.js';
import type { Clock } from '../../workqueue/clock.js';
import { createRateLimitedQueue, type RateLimitedQueue } from '../../workqueue/rate-limited-queue.js';
import { type ItemResult, runWorker } from '../../workqueue/worker.js';
import { controllerRefOf } from '../workloads/controller-ref.js';
import { type EventRecorder, eventRecorder } from '../workloads/events.js';
import { isBeingRestored } from '../workloads/restoring.js';
import { finishedType, historyToDelete, type Obj, objectReference, specOf, statusOf } from './cronjob-util.js';
import { jobFromTemplate, jobName } from './job-template.js';
import { mostRecentScheduleTime, nextActivation } from './next-schedule.js';

const CRONJOBS: ResourceRef = { group: 'batch', version: 'v1', resource: 'cronjobs' };
const JOBS: ResourceRef = { group: 'batch', version: 'v1', resource: 'jobs' };
const COMPONENT = 'cronjob-controller';
/** The controller looks again this long after the next activation (nextScheduleTimeDuration). */
const REQUEUE_SLACK_MS = 100;

export interface CronJobControllerOptions {
  readonly client: ApiClient;
  /** --concurrent-cron-job-syncs (default 5). */
  readonly workers?: number;
  /** Wall-clock time (ms since the epoch): the schedules are evaluated against it. */
  readonly now?: () => number;
  /** The clock the requeues wait on; a test passes the FakeClock its `now` reads. */
  readonly clock?: Clock;
  /** The zone of CronJobs without spec.timeZone (the controller's local zone). */
  readonly localZone?: string;
  readonly log?: (message: string) => void;
}

const rfc3339 = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Go's time.RFC1123Z rendering in UTC, as the MissSchedule event prints the time. */
function rfc1123z(ms: number): string {
  const d = new Date(ms);
  const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const two = (n: number): string => String(n).padStart(2, '0');
  const time = `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
  return `${days[d.getUTCDay()]}, ${two(d.getUTCDate())} ${months[d.getUTCMonth()]} ${d.getUTCFullYear()} ${time} +0000`;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * The CronJob controller (kube name `cronjob`): creates a Job for each scheduled time, honouring
 * startingDeadlineSeconds, concurrencyPolicy and suspend, tracks its Jobs in status and prunes finished ones
 * beyond the history limits (R12.117–R12.124).
 */
export class CronJobController {
  private readonly client: ApiClient;
  private readonly cronJobs: SharedInformer;
  private readonly jobs: SharedInformer;
  private readonly queue: RateLimitedQueue<string>;
  private readonly workers: number;
  private readonly now: () => number;
  private readonly localZone: string;
  private readonly log: (message: string) => void;
  private readonly record: EventRecorder;
  /** The last status written per CronJob and the resource versions it replaced (see freshest). */
  private readonly written = new Map<string, { readonly stale: Set<string>; cronJob: KubeObject }>();
  private running: Promise<void>[] = [];

  constructor(options: CronJobControllerOptions) {
    this.client = options.client;
    this.workers = options.workers ?? 5;
    this.now = options.now ?? Date.now;
    this.localZone = options.localZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
    this.log = options.log ?? (() => {});
    this.queue = createRateLimitedQueue<string>({ clock: options.clock });
    this.record = eventRecorder(this.client, COMPONENT, this.log);
    const onError = (err: unknown): void => this.log(`${COMPONENT}: ${errorText(err)}`);
    const indexers = { [NAMESPACE_INDEX]: namespaceIndexFunc };
    this.cronJobs = createSharedInformer(this.client, CRONJOBS, undefined, { indexers, onError });
    this.jobs = createSharedInformer(this.client, JOBS, undefined, { indexers, onError });
    this.cronJobs.addEventHandler({
      onAdd: (cj) => this.queue.add(objectKey(cj)),
      onUpdate: (_old, cj) => this.queue.add(objectKey(cj)),
    });
    const wakeOwner = (job: KubeObject): void => {
      const ref = controllerRefOf(job);
      if (ref?.kind !== 'CronJob') return;
      const owner = this.cronJobs.store.get(job.metadata.namespace, ref.name);
      if (owner?.metadata.uid === ref.uid) this.queue.add(objectKey(owner));
    };
    this.jobs.addEventHandler({ onAdd: wakeOwner, onUpdate: (_old, job) => wakeOwner(job), onDelete: wakeOwner });
  }

  async start(): Promise<void> {
    this.cronJobs.start();
    this.jobs.start();
    await Promise.all([this.cronJobs.whenSynced(), this.jobs.whenSynced()]);
    for (let i = 0; i < this.workers; i++) {
      this.running.push(
        runWorker(
          this.queue,
          (key) => this.sync(key),
          (key, err) => this.log(`${COMPONENT}: syncing ${key}: ${errorText(err)}`),
        ),
      );
    }
  }

  async stop(): Promise<void> {
    await Promise.all([this.cronJobs.stop(), this.jobs.stop()]);
    this.queue.shutDown();
    await Promise.all(this.running);
  }

  /** Waits until every queued sync has run (tests). */
  async idle(): Promise<void> {
    while (this.queue.len() > 0) await new Promise((resolve) => setTimeout(resolve, 5));
  }

  async sync(key: string): Promise<ItemResult | undefined> {
    const cronJob = this.freshest(key);
    if (cronJob === undefined || isBeingRestored(cronJob)) return undefined;
    const jobs = this.jobs.store
      .byIndex(NAMESPACE_INDEX, cronJob.metadata.namespace ?? '')
      .filter((job) => controllerRefOf(job)?.uid === cronJob.metadata.uid);
    const status = structuredClone(statusOf(cronJob));
    const requeueAfterMs = await this.syncCronJob(cronJob, jobs, status);
    await this.cleanupFinishedJobs(cronJob, jobs, status);
    if (JSON.stringify(status) !== JSON.stringify(statusOf(cronJob))) {
      const written = await this.client.update(CRONJOBS, cronJob.metadata.namespace, { ...cronJob, status }, 'status');
      const previous = this.written.get(key);
      const stale =
        previous !== undefined && previous.cronJob.metadata.resourceVersion === cronJob.metadata.resourceVersion
          ? previous.stale
          : new Set<string>();
      stale.add(cronJob.metadata.resourceVersion ?? '');
      this.written.set(key, { stale, cronJob: written });
    }
    return requeueAfterMs === undefined ? undefined : { requeueAfterMs };
  }

  /**
   * The cached CronJob, or the one this controller last wrote while the cache still shows an older version: a stale
   * active list or lastScheduleTime would let Forbid start a second run or repeat a scheduled time.
   */
  private freshest(key: string): KubeObject | undefined {
    const cached = this.cronJobs.store.getByKey(key);
    const mine = this.written.get(key);
    if (cached !== undefined && mine !== undefined && cached.metadata.uid === mine.cronJob.metadata.uid) {
      if (mine.stale.has(cached.metadata.resourceVersion ?? '')) return mine.cronJob;
    }
    this.written.delete(key);
    return cached;
  }

  /** The active list against the Jobs that exist (R12.122), then at most one new Job (R12.118–R12.121). */
  private async syncCronJob(cronJob: KubeObject, jobs: readonly KubeObject[], status: Obj): Promise<number | undefined> {
    let active = Array.isArray(status.active) ? status.active.filter(isObject) : [];
    for (const job of jobs) {
      const listed = active.some((ref) => ref.uid === job.metadata.uid);
      const finished = finishedType(job);
      if (!listed && finished === undefined) {
        this.record(cronJob, 'Warning', 'UnexpectedJob', `Saw a job that the controller did not create or forgot: ${job.metadata.name}`);
      } else if (listed && finished !== undefined) {
        active = active.filter((ref) => ref.uid !== job.metadata.uid);
        this.record(cronJob, 'Normal', 'SawCompletedJob', `Saw completed job: ${job.metadata.name}, status: ${finished}`);
      }
      const completionTime = isObject(job.status) ? job.status.completionTime : undefined;
      if (finished === 'Complete' && typeof completionTime === 'string') {
        const last = typeof status.lastSuccessfulTime === 'string' ? Date.parse(status.lastSuccessfulTime) : 0;
        if (Date.parse(completionTime) > last) status.lastSuccessfulTime = completionTime;
      }
    }
    for (const ref of [...active]) {
      if (jobs.some((job) => job.metadata.uid === ref.uid)) continue;
      if (await this.jobGone(cronJob, String(ref.name ?? ''), String(ref.uid ?? ''))) {
        active = active.filter((r) => r !== ref);
        this.record(cronJob, 'Normal', 'MissingJob', `Active job went missing: ${ref.name}`);
      }
    }
    setActive(status, active);
    if (cronJob.metadata.deletionTimestamp !== undefined) return undefined;
    const spec = specOf(cronJob);
    const zone = typeof spec.timeZone === 'string' ? spec.timeZone : this.localZone;
    const zoneError = typeof spec.timeZone === 'string' ? loadLocationError(spec.timeZone) : undefined;
    if (zoneError !== undefined) {
      this.record(cronJob, 'Warning', 'UnknownTimeZone', `invalid timeZone: "${spec.timeZone}": ${zoneError}`);
      return undefined;
    }
    const scheduleText = String(spec.schedule ?? '');
    if (/^(CRON_)?TZ=/.test(scheduleText)) {
      const message = `CRON_TZ or TZ used in schedule "${scheduleText}" is not officially supported, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details`;
      this.record(cronJob, 'Warning', 'UnsupportedSchedule', message);
    }
    const parsed = parseCronSchedule(scheduleText);
    if (typeof parsed === 'string') {
      this.record(cronJob, 'Warning', 'UnparseableSchedule', `unparseable schedule: "${scheduleText}" : ${parsed}`);
      return undefined;
    }
    if (spec.suspend === true) return undefined;
    return this.maybeStartJob(cronJob, status, parsed, parsed.zone ?? zone);
  }

  private async maybeStartJob(cronJob: KubeObject, status: Obj, schedule: CronSchedule, zone: string): Promise<number | undefined> {
    const spec = specOf(cronJob);
    const now = this.now();
    const requeue = (): number | undefined => {
      const next = nextActivation(schedule, zone, now);
      return next === undefined ? undefined : next - now + REQUEUE_SLACK_MS;
    };
    const deadline = typeof spec.startingDeadlineSeconds === 'number' ? spec.startingDeadlineSeconds * 1000 : undefined;
    let earliest = Date.parse(String(status.lastScheduleTime ?? cronJob.metadata.creationTimestamp ?? ''));
    if (deadline !== undefined) earliest = Math.max(earliest, now - deadline);
    let recent: ReturnType<typeof mostRecentScheduleTime>;
    try {
      recent = mostRecentScheduleTime(schedule, zone, earliest, now);
    } catch (err) {
      this.record(cronJob, 'Warning', 'InvalidSchedule', `invalid schedule: ${spec.schedule} : ${errorText(err)}`);
      return undefined;
    }
    if (recent.missed === 'many') {
      this.record(
        cronJob,
        'Warning',
        'TooManyMissedTimes',
        'too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew',
      );
    }
    const scheduled = recent.scheduled;
    if (scheduled === undefined) return requeue();
    if (deadline !== undefined && scheduled + deadline < now) {
      this.record(cronJob, 'Warning', 'MissSchedule', `Missed scheduled time to start a job: ${rfc1123z(scheduled)}`);
      return requeue();
    }
    let active = (status.active as Obj[] | undefined) ?? [];
    if (active.some((ref) => ref.name === jobName(cronJob, scheduled))) return requeue();
    if (spec.concurrencyPolicy === 'Forbid' && active.length > 0) {
      this.record(
        cronJob,
        'Normal',
        'JobAlreadyActive',
        'Not starting job because prior execution is running and concurrency policy is Forbid',
      );
      return requeue();
    }
    if (spec.concurrencyPolicy === 'Replace') {
      for (const ref of active) {
        if (await this.deleteJob(cronJob, String(ref.name ?? ''))) active = active.filter((r) => r !== ref);
      }
      setActive(status, active);
    }
    const created = await this.createJob(cronJob, scheduled, zone);
    if (created === undefined) return requeue();
    setActive(status, [...active.filter((ref) => ref.uid !== created.metadata.uid), objectReference(created)]);
    status.lastScheduleTime = rfc3339(scheduled);
    return requeue();
  }

  /** The Job for the scheduled time; an existing one it controls is taken over, one of another owner blocks. */
  private async createJob(cronJob: KubeObject, scheduled: number, zone: string): Promise<KubeObject | undefined> {
    const job = jobFromTemplate(cronJob, scheduled, zone);
    try {
      const created = await this.client.create(JOBS, cronJob.metadata.namespace, job);
      this.record(cronJob, 'Normal', 'SuccessfulCreate', `Created job ${created.metadata.name}`);
      return created;
    } catch (err) {
      if (err instanceof StatusError && err.code === 409) {
        const existing = await this.client.get(JOBS, cronJob.metadata.namespace, job.metadata.name ?? '');
        return controllerRefOf(existing)?.uid === cronJob.metadata.uid ? existing : undefined;
      }
      this.record(cronJob, 'Warning', 'FailedCreate', `Error creating job: ${errorText(err)}`);
      throw err;
    }
  }

  /** deleteJob: Background propagation, so the Job's pods go with it. True when the Job is gone or going. */
  private async deleteJob(cronJob: KubeObject, name: string): Promise<boolean> {
    try {
      await this.client.delete(JOBS, cronJob.metadata.namespace, name, { propagationPolicy: 'Background' });
      this.record(cronJob, 'Normal', 'SuccessfulDelete', `Deleted job ${name}`);
      return true;
    } catch (err) {
      if (err instanceof StatusError && err.code === 404) return true;
      this.record(cronJob, 'Warning', 'FailedDelete', `Deleted job: ${errorText(err)}`);
      return false;
    }
  }

  /** A live read confirms that an active Job the cache lacks is really gone (R12.122). */
  private async jobGone(cronJob: KubeObject, name: string, uid: string): Promise<boolean> {
    try {
      const job = await this.client.get(JOBS, cronJob.metadata.namespace, name);
      return job.metadata.uid !== uid;
    } catch (err) {
      if (err instanceof StatusError && err.code === 404) return true;
      throw err;
    }
  }

  /** cleanupFinishedJobs: finished Jobs beyond each history limit go, oldest start first (R12.123). */
  private async cleanupFinishedJobs(cronJob: KubeObject, jobs: readonly KubeObject[], status: Obj): Promise<void> {
    for (const job of historyToDelete(cronJob, jobs)) {
      if (await this.deleteJob(cronJob, job.metadata.name ?? '')) {
        const active = (status.active as Obj[] | undefined) ?? [];
        setActive(
          status,
          active.filter((ref) => ref.uid !== job.metadata.uid),
        );
      }
    }
  }
}

/** status.active is omitted when empty. */
function setActive(status: Obj, active: readonly Obj[]): void {
  if (active.length > 0) status.active = [...active];
  else delete status.active;
}
