/**
 * Deleting responses: the one path every deletion takes (one response, a filter, an erasure, the
 * retention job, the purge of deleted forms).
 *
 * A deletion runs in batches of `batchSize` responses, each its own short transaction: it deletes the
 * batch, the outbox events of those responses (their webhook payloads carry the answers; the
 * deliveries and attempts cascade), what they counted in the insight counters, and the responses' uploaded files (files.ts: removed once the batch commits). No lock is held longer
 * than one batch, so submissions go on while a large deletion runs. The criteria are checked again on
 * each row as it is deleted (they are the DELETE's own condition, not only the batch subquery's), so a
 * response that a concurrent submission changes so it no longer matches (a partial that finishes) is
 * left alone, and nothing outside the criteria is ever touched.
 */
import { and, desc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { notificationDeliveries, outboxEvents, responses } from '../db/schema.ts';
import type { FileStorage } from '../uploads/storage.ts';
import { subtractResponses } from '../insights/counters.service.ts';
import { removeDetachedUploads, uploadsOf, type DetachedUpload } from './files.ts';

/** Responses per batch (one transaction each). */
const DELETE_BATCH_SIZE = 500;

export interface ResponseDeletionCriteria {
  /** Always required: a deletion never crosses environments. */
  environmentId: string;
  formId?: string | undefined;
  leadId?: string | undefined;
  /** Exactly these responses (still within the environment). */
  ids?: readonly string[] | undefined;
  /** Inclusive lower bound on `dateField`. */
  since?: Date | undefined;
  /** Exclusive upper bound on `dateField`. */
  until?: Date | undefined;
  dateField?: 'createdAt' | 'updatedAt' | undefined;
  /** Only unfinished (partial) responses. */
  partialOnly?: boolean | undefined;
}

export interface DeletionResult {
  /** Responses deleted. */
  deleted: number;
  /** Outbox events (webhook payloads) deleted with them. */
  webhookEvents: number;
  /** Files removed with them. */
  files: number;
}

function conditionsOf(criteria: ResponseDeletionCriteria): SQL {
  const dateColumn = criteria.dateField === 'updatedAt' ? responses.updatedAt : responses.createdAt;
  return and(
    eq(responses.environmentId, criteria.environmentId),
    criteria.formId === undefined ? undefined : eq(responses.formId, criteria.formId),
    criteria.leadId === undefined ? undefined : eq(responses.leadId, criteria.leadId),
    criteria.ids === undefined ? undefined : inArray(responses.id, [...criteria.ids]),
    criteria.since === undefined ? undefined : gte(dateColumn, criteria.since),
    criteria.until === undefined ? undefined : lt(dateColumn, criteria.until),
    criteria.partialOnly ? eq(responses.finished, false) : undefined,
  )!;
}

/**
 * The e-mails about deleted responses: those not sent yet are dropped (nothing is sent about a response
 * that is gone), and the log keeps the others with the address masked (`a***@example.com`).
 */
async function forgetNotifications(tx: Db, responseIds: string[]): Promise<void> {
  const about = inArray(notificationDeliveries.responseId, responseIds);
  await tx.delete(notificationDeliveries).where(and(about, inArray(notificationDeliveries.status, ['pending', 'sending'])));
  await tx
    .update(notificationDeliveries)
    .set({ recipient: sql`left(${notificationDeliveries.recipient}, 1) || '***' || substr(${notificationDeliveries.recipient}, strpos(${notificationDeliveries.recipient}, '@'))` })
    .where(and(about, sql`${notificationDeliveries.recipient} not like '_***@%'`));
}

/** Deletes one batch in `tx`; returns the ids it deleted. */
async function deleteBatch(tx: Db, where: SQL, ordered: boolean, batchSize: number): Promise<{ ids: string[]; webhookEvents: number; detached: DetachedUpload[] }> {
  // Two statements, not `DELETE … WHERE id IN (SELECT … LIMIT n)`: on a table the planner has no
  // statistics for yet (just filled), that form was planned as a scan per row, about a minute a batch.
  // Ordered like the listing indexes (form or environment, created_at DESC, id DESC), each batch is an
  // index range scan that stops after `batchSize` rows, not a bitmap of every matching row.
  const select = tx.select({ id: responses.id }).from(responses).where(where);
  const batch = await (ordered ? select.orderBy(desc(responses.createdAt), desc(responses.id)) : select).limit(batchSize).for('update');
  if (batch.length === 0) return { ids: [], webhookEvents: 0, detached: [] };
  // The batch's rows are locked FOR UPDATE, so each of them is deleted below: read their uploads first
  // (deleting a response detaches its uploads).
  const attached = await uploadsOf(
    tx,
    batch.map((row) => row.id),
  );
  const deleted = await tx
    .delete(responses)
    .where(
      and(
        where,
        inArray(
          responses.id,
          batch.map((row) => row.id),
        ),
      ),
    )
    .returning({ id: responses.id, formId: responses.formId, environmentId: responses.environmentId, insight: responses.insight });
  const ids = deleted.map((row) => row.id);
  if (ids.length === 0) return { ids, webhookEvents: 0, detached: [] };
  const [events] = await Promise.all([
    tx.delete(outboxEvents).where(inArray(outboxEvents.responseId, ids)).returning({ id: outboxEvents.id }),
    // What they counted goes with them, in the same transaction.
    subtractResponses(tx, deleted),
    forgetNotifications(tx, ids),
  ]);
  return { ids, webhookEvents: events.length, detached: attached };
}

/**
 * Deletes the responses matching `criteria`, batch by batch (see the module comment). Given a
 * transaction as `db`, each batch is a savepoint in it and everything commits with that transaction.
 */
export async function deleteResponses(
  db: Db,
  criteria: ResponseDeletionCriteria,
  options: { batchSize?: number; onBatch?: (ids: readonly string[]) => void; files?: FileStorage | undefined } = {},
): Promise<DeletionResult> {
  const batchSize = options.batchSize ?? DELETE_BATCH_SIZE;
  const where = conditionsOf(criteria);
  // A lead's or a list of ids' responses are few and have indexes of their own.
  const ordered = criteria.leadId === undefined && criteria.ids === undefined;
  const total: DeletionResult = { deleted: 0, webhookEvents: 0, files: 0 };
  for (;;) {
    const batch = await db.transaction((tx) => deleteBatch(tx, where, ordered, batchSize));
    total.deleted += batch.ids.length;
    total.webhookEvents += batch.webhookEvents;
    total.files += await removeDetachedUploads(db, options.files, batch.detached);
    // Until a batch finds nothing: a short batch is no proof of the end (a row locked by a submission
    // that then stopped matching is skipped by its batch).
    if (batch.ids.length === 0) return total;
    options.onBatch?.(batch.ids);
  }
}
