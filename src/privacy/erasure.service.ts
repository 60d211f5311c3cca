/**
 * Erasing a person (docs/privacy.md, "Erasing a person"): the lead, every response attached to it in every form
 * of the environment with their files and webhook payloads (deleteResponses), its per-form counts, and
 * nothing else. What stays is an erasure record — when, which key, how many rows — and an audit entry,
 * neither with personal data. Erasing again answers with the first record (`alreadyErased`).
 *
 * The responses go in batches first; then one transaction deletes whatever a submission attached to
 * the lead meanwhile, the lead itself, and writes the record, so the record exists only once the
 * person is gone.
 */
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import type { FileStorage } from '../uploads/storage.ts';
import { erasures, leads } from '../db/schema.ts';
import { notFound } from '../errors.ts';
import { createId } from '../ids.ts';
import { normaliseEmail } from '../leads/leads.service.ts';
import { recordAudit, type Actor } from '../audit/audit.service.ts';
import { deleteResponses } from './deletion.service.ts';

export type Erasure = typeof erasures.$inferSelect;

export interface ErasureOutcome {
  erasure: Erasure;
  /** True when the lead had been erased before: nothing was deleted now. */
  alreadyErased: boolean;
}

async function existingErasure(db: Db, environmentId: string, leadId: string): Promise<Erasure | undefined> {
  const [row] = await db
    .select()
    .from(erasures)
    .where(and(eq(erasures.environmentId, environmentId), eq(erasures.leadId, leadId)));
  return row;
}

/** Erases the lead `leadId` of `environmentId`. Unknown (or another environment's) and never erased: NOT_FOUND. */
export async function eraseLead(db: Db, input: { environmentId: string; leadId: string; actor: Actor; files?: FileStorage | undefined }): Promise<ErasureOutcome> {
  const { environmentId, leadId, actor, files } = input;
  const [lead] = await db
    .select({ id: leads.id })
    .from(leads)
    .where(and(eq(leads.id, leadId), eq(leads.environmentId, environmentId)));
  if (!lead) {
    const previous = await existingErasure(db, environmentId, leadId);
    if (previous) return { erasure: previous, alreadyErased: true };
    throw notFound('Lead not found');
  }
  const first = await deleteResponses(db, { environmentId, leadId }, { files });
  return db.transaction(async (tx) => {
    // New responses can't attach to a locked lead (their foreign key check waits for it).
    await tx.select({ id: leads.id }).from(leads).where(eq(leads.id, leadId)).for('update');
    const last = await deleteResponses(tx, { environmentId, leadId }, { files });
    const gone = await tx
      .delete(leads)
      .where(and(eq(leads.id, leadId), eq(leads.environmentId, environmentId)))
      .returning({ id: leads.id });
    const previous = await existingErasure(tx, environmentId, leadId);
    // A concurrent erasure of the same lead finished first.
    if (gone.length === 0 && previous) return { erasure: previous, alreadyErased: true };
    const counts = { responsesDeleted: first.deleted + last.deleted, webhookEventsDeleted: first.webhookEvents + last.webhookEvents };
    let erasure: Erasure;
    if (previous) {
      // The id was erased once and came back as an anonymous visitor's (a stale cookie): a new erasure.
      [erasure] = (await tx
        .update(erasures)
        .set({ ...counts, createdAt: new Date(), actorKind: actor.kind, actorKeyId: actor.keyId })
        .where(eq(erasures.id, previous.id))
        .returning()) as [Erasure];
    } else {
      [erasure] = (await tx
        .insert(erasures)
        .values({ id: createId(), environmentId, leadId, actorKind: actor.kind, actorKeyId: actor.keyId, ...counts })
        .returning()) as [Erasure];
    }
    await recordAudit(tx, {
      environmentId,
      actor,
      action: 'lead.erase',
      targetIds: [leadId],
      details: { responsesDeleted: counts.responsesDeleted, webhookEventsDeleted: counts.webhookEventsDeleted, filesDeleted: first.files + last.files },
    });
    return { erasure, alreadyErased: false };
  });
}

/**
 * Erases the environment's lead with this e-mail. No such lead (never known, or already erased: the
 * address itself is not kept anywhere to tell which) is `null`, not an error: the outcome the caller
 * wants holds either way.
 */
export async function eraseLeadByEmail(db: Db, input: { environmentId: string; email: string; actor: Actor; files?: FileStorage | undefined }): Promise<ErasureOutcome | null> {
  const [lead] = await db
    .select({ id: leads.id })
    .from(leads)
    .where(and(eq(leads.environmentId, input.environmentId), eq(leads.email, normaliseEmail(input.email))));
  if (!lead) return null;
  return eraseLead(db, { environmentId: input.environmentId, leadId: lead.id, actor: input.actor, files: input.files });
}
