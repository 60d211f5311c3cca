/**
 * Retention of the outbox: an event is deleted `retentionDays` after it was recorded once none of its
 * deliveries is still pending or in flight; its deliveries and their attempts go with it (foreign keys
 * cascade). Events no endpoint wanted (the live feed's only) go the same way. A delivery still waiting
 * (an endpoint disabled for weeks) keeps its event, however old, so it can still be sent.
 *
 * The sweep runs on every node's timer, inside `runExclusively` (src/db/locks.ts): one node sweeps,
 * the others skip; sweeping twice deletes nothing more. It deletes in batches, oldest first, so no
 * statement holds many row locks or runs into the statement timeout.
 */
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { DatabaseHandle, Db } from '../db/client.ts';
import { runExclusively, type ExclusiveRun } from '../db/locks.ts';

/** Events deleted per statement. */
const BATCH = 1_000;
/** How often each node tries to sweep. */
const RETENTION_SWEEP_MS = 60 * 60 * 1000;

export interface RetentionResult {
  events: number;
  deliveries: number;
  attempts: number;
}

const rowsOf = <T>(result: unknown): T[] => (Array.isArray(result) ? result : ((result as { rows?: T[] }).rows ?? [])) as T[];

/** Deletes what is past retention (see the module comment); returns how many rows went. */
export async function deleteExpiredEvents(db: Db, retentionDays: number, now: Date = new Date()): Promise<RetentionResult> {
  const total: RetentionResult = { events: 0, deliveries: 0, attempts: 0 };
  if (retentionDays <= 0) return total;
  const cutoff = new Date(now.getTime() - retentionDays * 86_400_000).toISOString();
  for (;;) {
    // Oldest first (outbox_events_created_idx); the cascades find deliveries by webhook_deliveries_event_idx.
    const [counts] = rowsOf<{ events: number; deliveries: number; attempts: number }>(
      await db.execute(sql`
        with doomed as (
          select e.id from outbox_events e
          where e.created_at < ${cutoff}
            and not exists (select 1 from webhook_deliveries d where d.event_id = e.id and d.status in ('pending', 'delivering'))
          order by e.created_at
          limit ${BATCH}
        ),
        counted as (
          select (select count(*) from webhook_deliveries d where d.event_id in (select id from doomed))::int as deliveries,
                 (select count(*) from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id
                   where d.event_id in (select id from doomed))::int as attempts
        ),
        deleted as (delete from outbox_events where id in (select id from doomed) returning 1)
        select (select count(*) from deleted)::int as events, counted.deliveries, counted.attempts from counted`),
    );
    const events = Number(counts?.events ?? 0);
    total.events += events;
    total.deliveries += Number(counts?.deliveries ?? 0);
    total.attempts += Number(counts?.attempts ?? 0);
    if (events < BATCH) return total;
  }
}

/** One sweep, unless another node (or another call here) is sweeping right now: then `{ ran: false }`. */
export function sweepExpiredEvents(database: Pick<DatabaseHandle, 'kind' | 'db'>, retentionDays: number): Promise<ExclusiveRun<RetentionResult>> {
  return runExclusively(database, 'webhook-retention', () => deleteExpiredEvents(database.db, retentionDays));
}

/**
 * Sweeps a minute after start every `RETENTION_SWEEP_MS`, one node at a time; returns a function that stops it.
 * Does nothing when `retentionDays` is 0.
 */
export function startRetentionSweep(database: Pick<DatabaseHandle, 'kind' | 'db'>, retentionDays: number, logger: Logger): () => void {
  if (retentionDays <= 0) return () => {};
  const sweep = () =>
    sweepExpiredEvents(database, retentionDays)
      .then((run) => {
        if (run.ran && run.value.events > 0) logger.info({ ...run.value, retentionDays }, 'expired webhook events deleted');
      })
      .catch((error: unknown) => logger.warn({ err: error }, 'webhook retention sweep failed'));
  const first = setTimeout(() => void sweep(), 60_000).unref(); // not during start-up
  const timer = setInterval(() => void sweep(), RETENTION_SWEEP_MS).unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
