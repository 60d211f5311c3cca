/**
 * Leads: every respondent is a lead of the form's environment.
 *
 * - An anonymous visitor is one lead across visits: the public page keeps its id in a signed
 *   cookie (the JSON API in a signed visitor token); the row is created on its first submission.
 * - An e-mail answered in a form attaches the response to the environment's lead with that e-mail
 *   (lower-cased). An anonymous lead that answers an e-mail nobody has yet simply becomes that lead.
 * - `lead_form_stats` counts per lead and form: a visit is a response started, a completion a
 *   response finished. Responses copy the counts into `personAttributes.visitedForm`/`completedForm`.
 *
 * Every function takes the caller's transaction.
 */
import { and, eq, getTableColumns, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { rowsOf } from '../db/rows.ts';
import { leadFormStats, leads, responses } from '../db/schema.ts';
import { createId } from '../ids.ts';
import { afterPosition, microsOf, newestFirst, pageOf, type KeysetPosition, type Page } from '../keyset.ts';
import { preparedQuery } from '../db/prepared.ts';

export type Lead = typeof leads.$inferSelect;

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

async function findLead(db: Db, id: string): Promise<Lead | undefined> {
  const [row] = await db.select().from(leads).where(eq(leads.id, id));
  return row;
}

/** A lead as the submission path needs it: who, and whether it has an e-mail yet. */
export type LeadIdentity = Pick<Lead, 'id' | 'email'>;

/**
 * The lead of a visitor: `candidateId` (from the visitor's cookie or token; may not exist yet) when it
 * is free or already a lead of this environment, otherwise a new anonymous lead. Usually one statement:
 * the candidate is inserted if it is free, else read (the insert's row is not visible to the same
 * statement's read, so at most one of the two answers).
 */
export async function ensureVisitorLead(db: Db, environmentId: string, candidateId: string | undefined): Promise<LeadIdentity> {
  if (candidateId) {
    const [row] = rowsOf<{ id: string; environment_id: string; email: string | null }>(
      await db.execute(sql`
        with inserted as (
          insert into ${leads} (id, environment_id) values (${candidateId}, ${environmentId})
          on conflict (id) do nothing
          returning id, environment_id, email
        )
        select id, environment_id, email from inserted
        union all
        select id, environment_id, email from ${leads} where id = ${candidateId}`),
    );
    if (row?.environment_id === environmentId) return { id: row.id, email: row.email };
    if (!row) {
      // Neither branch answered: a concurrent transaction inserted the candidate after this statement's
      // snapshot was taken (the insert waited for it). A new statement sees it.
      const existing = await findLead(db, candidateId);
      if (existing?.environmentId === environmentId) return { id: existing.id, email: existing.email };
    }
  }
  const [row] = await db.insert(leads).values({ id: createId(), environmentId }).returning({ id: leads.id });
  return { id: row!.id, email: null };
}

/**
 * The lead a response with `email` belongs to, given the lead it has now (its id, or the lead itself
 * when the caller has just read it): the environment's lead with that e-mail; or, when there is none
 * and the current lead is anonymous, the current lead, which takes the e-mail.
 */
export async function leadForEmail(db: Db, environmentId: string, currentLead: string | LeadIdentity, email: string): Promise<string> {
  const address = normaliseEmail(email);
  const current = typeof currentLead === 'string' ? await findLead(db, currentLead) : currentLead;
  const currentLeadId = typeof currentLead === 'string' ? currentLead : currentLead.id;
  if (current?.email === address) return currentLeadId;
  if (current && current.email === null) {
    // Promote the anonymous lead. Another session may claim the address at the same moment: the
    // unique index then refuses one of us, inside a savepoint, and that one joins the other's lead.
    try {
      const promoted = await db.transaction(async (savepoint) =>
        savepoint
          .update(leads)
          .set({ email: address, updatedAt: new Date() })
          .where(
            and(eq(leads.id, currentLeadId), isNull(leads.email), sql`not exists (select 1 from ${leads} l2 where l2.environment_id = ${environmentId} and l2.email = ${address})`),
          )
          .returning({ id: leads.id }),
      );
      if (promoted.length > 0) return currentLeadId;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
  return leadWithEmail(db, environmentId, address);
}

/** The environment's lead with `email`, created if there is none (one statement). */
async function leadWithEmail(db: Db, environmentId: string, email: string): Promise<string> {
  const [row] = await db
    .insert(leads)
    .values({ id: createId(), environmentId, email: normaliseEmail(email) })
    .onConflictDoUpdate({ target: [leads.environmentId, leads.email], set: { updatedAt: new Date() } })
    .returning({ id: leads.id });
  return row!.id;
}

export interface LeadFormCounts {
  visits: number;
  completions: number;
}

/** Adds to a lead's visits and completions of a form; returns the new counts. */
export async function addLeadFormCounts(db: Db, leadId: string, formId: string, delta: { visits?: number; completions?: number }): Promise<LeadFormCounts> {
  const visits = delta.visits ?? 0;
  const completions = delta.completions ?? 0;
  const name = 'add_lead_form_counts';
  const query = preparedQuery(db, name, (handle) =>
    handle
      .insert(leadFormStats)
      .values({ leadId: sql.placeholder('leadId'), formId: sql.placeholder('formId'), visits: sql.placeholder('newVisits'), completions: sql.placeholder('newCompletions') })
      .onConflictDoUpdate({
        target: [leadFormStats.leadId, leadFormStats.formId],
        set: {
          visits: sql`greatest(${leadFormStats.visits} + ${sql.placeholder('visits')}::integer, 0)`,
          completions: sql`greatest(${leadFormStats.completions} + ${sql.placeholder('completions')}::integer, 0)`,
        },
      })
      .returning({ visits: leadFormStats.visits, completions: leadFormStats.completions })
      .prepare(name),
  );
  const [row] = await query.execute({ leadId, formId, newVisits: Math.max(visits, 0), newCompletions: Math.max(completions, 0), visits, completions });
  return row!;
}

/**
 * The lead of a visitor who has none yet (no cookie or visitor token), with its counts for `formId`
 * raised by `delta`, as two CTEs of the caller's statement: `lead`, the environment's lead with `email`
 * (created if there is none) or without an e-mail a new anonymous lead; and `stats`, its new counts
 * (`lead_id`, `visits`, `completions`). What `leadWithEmail` or a new lead, then `addLeadFormCounts`, do
 * in two statements.
 */
export function newVisitorCountsCtes(environmentId: string, formId: string, email: string | undefined, delta: LeadFormCounts): SQL {
  return sql`
    lead as (
      insert into ${leads} (id, environment_id, email) values (${createId()}, ${environmentId}, ${email === undefined ? null : normaliseEmail(email)})
      on conflict (environment_id, email) do update set updated_at = now()
      returning id
    ),
    stats as (${addLeadFormCountsSql(sql`lead`, sql`id`, formId, delta)})`;
}

/**
 * `addLeadFormCounts` as the body of a CTE of the caller's statement: the counts of the lead in column
 * `leadId` of each row of `from` (a CTE) raised by `delta`; it returns `lead_id`, `visits`, `completions`.
 */
export function addLeadFormCountsSql(from: SQL, leadId: SQL, formId: string, delta: LeadFormCounts): SQL {
  return sql`
      insert into ${leadFormStats} (lead_id, form_id, visits, completions)
      select ${leadId}, ${formId}::text, ${Math.max(delta.visits, 0)}::integer, ${Math.max(delta.completions, 0)}::integer from ${from}
      on conflict (lead_id, form_id) do update
        set visits = greatest(${leadFormStats}.visits + ${delta.visits}::integer, 0), completions = greatest(${leadFormStats}.completions + ${delta.completions}::integer, 0)
      returning lead_id, visits, completions`;
}

function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

// ---------------------------------------------------------------- the graph

const leadColumns = { ...getTableColumns(leads), position: microsOf(leads.createdAt).as('position') };
export type ListedLead = Lead & { position: string };

/** Leads that responded to one of `formIds` (a key's form limit); no condition for null. */
const respondedToAny = (formIds: readonly string[] | null): SQL | undefined =>
  formIds === null ? undefined : sql`exists (select 1 from ${responses} where ${responses.leadId} = ${leads.id} and ${inArray(responses.formId, [...formIds, ''])})`;

/** Leads by id, in one statement; each a lead of `scope` (null: any environment), else null. */
export async function loadLeads(db: Db, scope: string | null, ids: readonly string[], formIds: readonly string[] | null = null): Promise<(Lead | null)[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select()
    .from(leads)
    .where(and(inArray(leads.id, [...ids]), scope === null ? undefined : eq(leads.environmentId, scope), respondedToAny(formIds)));
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id) ?? null);
}

/** An environment's leads, newest first, one keyset page; `email` matches exactly (case-insensitively). */
export async function listLeads(
  db: Db,
  input: { environmentId: string; email?: string | undefined; after?: KeysetPosition | undefined; limit: number; formIds?: readonly string[] | undefined },
): Promise<Page<ListedLead>> {
  const rows = await db
    .select(leadColumns)
    .from(leads)
    .where(
      and(
        eq(leads.environmentId, input.environmentId),
        input.email === undefined ? undefined : eq(leads.email, normaliseEmail(input.email)),
        respondedToAny(input.formIds ?? null),
        afterPosition(leads.createdAt, leads.id, input.after),
      ),
    )
    .orderBy(...newestFirst(leads.createdAt, leads.id))
    .limit(input.limit + 1);
  return pageOf(rows, input.limit);
}
