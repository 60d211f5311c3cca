/**
 * Retention (docs/privacy.md, "Retention"): responses older than their form's `retentionDays`, else their
 * environment's, are deleted; soft-deleted forms are purged for good `FORM_PURGE_DAYS` after their
 * deletion. One job does both, once per RETENTION_INTERVAL across every node:
 *
 * - every node ticks on the same schedule and tries `runExclusively` (an advisory lock: never two runs
 *   at once), then claims the run in `job_runs` only when the last one started at least an interval
 *   ago (a conditional upsert: at most one run per interval, whatever the clocks of the nodes);
 * - the work is deleteResponses per form (batched, index range scans on responses_form_created_idx);
 * - the run's outcome stays in `job_runs` (`retentionStatus`, `formloom retention status`, /metrics).
 */
import { hostname } from 'node:os';
import { and, eq, isNotNull, lt, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db, DatabaseHandle } from '../db/client.ts';
import { runExclusively } from '../db/locks.ts';
import { environments, forms, jobRuns } from '../db/schema.ts';
import { recordAudit, SYSTEM_ACTOR } from '../audit/audit.service.ts';
import type { FileStorage } from '../uploads/storage.ts';
import { removeFilesOfForm } from '../uploads/uploads.service.ts';
import { deleteResponses } from './deletion.service.ts';

export const RETENTION_JOB = 'retention';
const DAY_MS = 86_400_000;

export type JobRun = typeof jobRuns.$inferSelect;

export interface RetentionOutcome {
  responsesDeleted: number;
  formsPurged: number;
}

export interface RetentionOptions {
  /** Days a soft-deleted form is kept before its purge; 0: never purged. */
  formPurgeDays: number;
  now?: Date;
  batchSize?: number;
  /** Where uploaded files live: deleted responses' files go with them, and a purged form's unused uploads. */
  files?: FileStorage | undefined;
}

/** One pass of the work, without the once-per-interval claim (the scheduler's body; tests call it too). */
async function applyRetention(db: Db, options: RetentionOptions): Promise<RetentionOutcome> {
  const now = options.now ?? new Date();
  const batch = { ...(options.batchSize === undefined ? {} : { batchSize: options.batchSize }), files: options.files };
  const outcome: RetentionOutcome = { responsesDeleted: 0, formsPurged: 0 };

  // Forms with a retention of their own or their environment's (deleted ones included: their
  // responses age out too until the purge).
  const governed = await db
    .select({ formId: forms.id, environmentId: forms.environmentId, days: sql<number>`coalesce(${forms.retentionDays}, ${environments.retentionDays})` })
    .from(forms)
    .innerJoin(environments, eq(environments.id, forms.environmentId))
    .where(sql`coalesce(${forms.retentionDays}, ${environments.retentionDays}) is not null`);
  for (const form of governed) {
    const until = new Date(now.getTime() - Number(form.days) * DAY_MS);
    const { deleted } = await deleteResponses(db, { environmentId: form.environmentId, formId: form.formId, until }, batch);
    if (deleted === 0) continue;
    outcome.responsesDeleted += deleted;
    await recordAudit(db, {
      environmentId: form.environmentId,
      actor: SYSTEM_ACTOR,
      action: 'responses.retention',
      targetIds: [form.formId],
      details: { deleted, retentionDays: Number(form.days), olderThan: until.toISOString() },
    });
  }

  if (options.formPurgeDays > 0) {
    const deletedBefore = new Date(now.getTime() - options.formPurgeDays * DAY_MS);
    const doomed = await db
      .select({ id: forms.id, environmentId: forms.environmentId })
      .from(forms)
      .where(and(isNotNull(forms.deletedAt), lt(forms.deletedAt, deletedBefore)));
    for (const form of doomed) {
      const { deleted } = await deleteResponses(db, { environmentId: form.environmentId, formId: form.id }, batch);
      outcome.responsesDeleted += deleted;
      await db.transaction(async (tx) => {
        // Responses that arrived meanwhile (none should: a deleted form takes no submissions) go with it.
        const late = await deleteResponses(tx, { environmentId: form.environmentId, formId: form.id }, batch);
        const gone = await tx
          .delete(forms)
          .where(and(eq(forms.id, form.id), isNotNull(forms.deletedAt)))
          .returning({ id: forms.id });
        if (gone.length === 0) return;
        // Uploads that no response kept (abandoned sessions) go with the form.
        if (options.files) await removeFilesOfForm(tx, options.files, form.id);
        outcome.responsesDeleted += late.deleted;
        outcome.formsPurged++;
        await recordAudit(tx, {
          environmentId: form.environmentId,
          actor: SYSTEM_ACTOR,
          action: 'form.purge',
          targetIds: [form.id],
          details: { responsesDeleted: deleted + late.deleted },
        });
      });
    }
  }
  return outcome;
}

const nodeName = () => `${hostname()}:${process.pid}`;

/**
 * Runs the retention job if no node has started it within the last `intervalMs` (see the module
 * comment). `{ran: false}` when another node runs it now or ran it recently.
 */
export async function runRetentionJob(
  database: Pick<DatabaseHandle, 'kind' | 'db'>,
  options: RetentionOptions & { intervalMs: number; node?: string },
): Promise<{ ran: false } | { ran: true; run: JobRun }> {
  const { db } = database;
  const exclusive = await runExclusively(database, RETENTION_JOB, async () => {
    const [claimed] = await db
      .insert(jobRuns)
      .values({ name: RETENTION_JOB, startedAt: sql`now()`, status: 'running', node: options.node ?? nodeName() })
      .onConflictDoUpdate({
        target: jobRuns.name,
        set: { startedAt: sql`now()`, finishedAt: null, status: 'running', responsesDeleted: 0, formsPurged: 0, error: null, node: options.node ?? nodeName() },
        // Slightly under the interval, so timers that drift a little never skip a whole interval.
        setWhere: sql`${jobRuns.startedAt} <= now() - ${Math.floor(options.intervalMs * 0.95)} * interval '1 millisecond'`,
      })
      .returning();
    if (!claimed) return undefined;
    try {
      const outcome = await applyRetention(db, options);
      const [run] = await db
        .update(jobRuns)
        .set({ finishedAt: sql`now()`, status: 'succeeded', ...outcome })
        .where(eq(jobRuns.name, RETENTION_JOB))
        .returning();
      return run!;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const [run] = await db
        .update(jobRuns)
        .set({ finishedAt: sql`now()`, status: 'failed', error: message.slice(0, 500) })
        .where(eq(jobRuns.name, RETENTION_JOB))
        .returning();
      return run!;
    }
  });
  if (!exclusive.ran || exclusive.value === undefined) return { ran: false };
  return { ran: true, run: exclusive.value };
}

export async function lastJobRun(db: Db, name: string = RETENTION_JOB): Promise<JobRun | undefined> {
  const [row] = await db.select().from(jobRuns).where(eq(jobRuns.name, name));
  return row;
}

/**
 * Every node's timer: checks at start and once a minute (or once per interval, if shorter) whether the
 * job is due. Returns the function that stops it.
 */
export function startRetentionScheduler(
  database: Pick<DatabaseHandle, 'kind' | 'db'>,
  options: { intervalMs: number; formPurgeDays: number; logger: Logger; files?: FileStorage | undefined },
): () => Promise<void> {
  const tickMs = Math.min(options.intervalMs, 60_000);
  let running: Promise<void> | undefined;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    running = runRetentionJob(database, { intervalMs: options.intervalMs, formPurgeDays: options.formPurgeDays, files: options.files })
      .then((result) => {
        if (!result.ran) {
          options.logger.debug('retention job not due here (run recently, or running on another node)');
          return;
        }
        const { status, responsesDeleted, formsPurged, error } = result.run;
        if (status === 'failed') options.logger.error({ error }, 'retention job failed');
        else options.logger.info({ responsesDeleted, formsPurged }, 'retention job ran');
      })
      .catch((error: unknown) => options.logger.warn({ err: error }, 'retention job could not run'))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(tick, tickMs).unref();
  setImmediate(tick);
  /** Stops the timer and waits for a run in progress (before the database closes). */
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
