/** Forms: import templates, generate published forms from them, read and soft-delete. */
import { and, eq, getTableColumns, ilike, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.ts';
import { preparedQuery } from '../db/prepared.ts';
import { forms, type FormStatus } from '../db/schema.ts';
import { AppError, notFound } from '../errors.ts';
import { recordEvent } from '../events/outbox.ts';
import { claimIdempotencyKey, requestHash, storeIdempotentResult } from '../idempotency/idempotency.service.ts';
import { createId } from '../ids.ts';
import { afterPosition, fieldsOf, groupPages, microsOf, newestFirst, pageOf, type KeysetPosition, type Page } from '../keyset.ts';
import type { GenerateFormInput, StepDraft, StoredStep } from './components.ts';
import { stepKey } from './logic.ts';
import { inheritTheme, type Theme } from './theme.ts';

export type Form = typeof forms.$inferSelect;

export const formUrl = (id: string) => `/s/${id}`;

/** Gives every step and component its stable id, and every step its key (its own or the default: `stepKey`). */
function withIds(steps: StepDraft[]): StoredStep[] {
  return steps.map((step, index) => {
    const stored: StoredStep = {
      id: createId(),
      key: stepKey(step, index),
      name: step.name,
      components: step.components.map((component) => ({
        id: createId(),
        ...(component.key === undefined ? {} : { key: component.key }),
        type: component.type,
        content: component.content,
      })),
    };
    if (step.completion === true) stored.completion = true;
    if (step.invalid === true) stored.invalid = true;
    if (step.logic && (step.logic.rules.length > 0 || step.logic.next !== undefined)) stored.logic = step.logic;
    return stored;
  });
}

export interface ImportFormInput {
  environmentId: string;
  name: string;
  theme: Theme;
  steps: StepDraft[];
  hiddenFields?: string[] | undefined;
  status?: FormStatus | undefined;
}

/** Stores a form as given (how template forms get into an environment). */
export async function importForm(db: Db, input: ImportFormInput): Promise<Form> {
  const [row] = await db
    .insert(forms)
    .values({
      id: createId(),
      environmentId: input.environmentId,
      name: input.name,
      status: input.status ?? 'published',
      theme: input.theme,
      steps: withIds(input.steps),
      hiddenFields: input.hiddenFields ?? [],
    })
    .returning();
  return row!;
}

/** A live (not deleted) form of the environment, or undefined. Other environments' forms are invisible. */
export async function findForm(db: Db, environmentId: string, id: string): Promise<Form | undefined> {
  const query = preparedQuery(db, 'form_in_environment', (handle) =>
    handle
      .select()
      .from(forms)
      .where(and(eq(forms.id, sql.placeholder('id')), eq(forms.environmentId, sql.placeholder('environmentId')), isNull(forms.deletedAt)))
      .prepare('form_in_environment'),
  );
  const [row] = await query.execute({ id, environmentId });
  return row;
}

/** A live form by id alone, for callers that check the environment themselves (the admin, public pages). */
export async function findFormById(db: Db, id: string): Promise<Form | undefined> {
  const query = preparedQuery(db, 'form_by_id', (handle) =>
    handle.select().from(forms).where(and(eq(forms.id, sql.placeholder('id')), isNull(forms.deletedAt))).prepare('form_by_id'),
  );
  const [row] = await query.execute({ id });
  return row;
}

/**
 * Creates a published form in `environmentId` from the template `sourceFormId` of the same
 * environment, inheriting its theme, and records its form.generated event in the same transaction.
 */
export async function generateForm(db: Db, environmentId: string, input: GenerateFormInput): Promise<Form> {
  const source = await findForm(db, environmentId, input.sourceFormId);
  if (!source) throw notFound('Source form not found');
  const steps = withIds(input.steps);
  const usedTypes = new Set(steps.flatMap((step) => step.components.map((component) => component.type)));
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(forms)
      .values({
        id: createId(),
        environmentId,
        name: input.name,
        status: 'published',
        theme: inheritTheme(source.theme, usedTypes),
        steps,
        hiddenFields: input.hiddenFields ?? [],
        sourceFormId: source.id,
      })
      .returning();
    const form = row!;
    // The outbox, in the form's transaction (events/outbox.ts).
    await recordEvent(tx, { environmentId, type: 'form.generated', formId: form.id, data: generatedFormObject(form), at: form.createdAt });
    return form;
  });
}

/** The `data` of a form.generated event. */
export function generatedFormObject(form: Form) {
  return {
    id: form.id,
    url: formUrl(form.id),
    name: form.name,
    status: form.status,
    sourceFormId: form.sourceFormId,
    environmentId: form.environmentId,
    createdAt: form.createdAt.toISOString(),
  };
}

/**
 * generateForm under an Idempotency-Key (scoped to the environment): the first request creates the
 * form; a repeat within 24 h with the same input gets that form again (`replayed`), even if it was
 * deleted since; the same key with another input is UNPROCESSABLE. The key is claimed in the
 * transaction that creates the form, so concurrent repeats wait for the first and create nothing.
 */
export async function generateFormIdempotently(
  db: Db,
  environmentId: string,
  input: GenerateFormInput,
  key: string,
): Promise<{ form: Form; replayed: boolean }> {
  const scope = `env:${environmentId}:generateForm`;
  const hash = requestHash({ environmentId, input });
  return db.transaction(async (tx) => {
    const claim = await claimIdempotencyKey(tx, scope, key, hash);
    if (claim.state === 'repeat') {
      const formId = claim.result?.formId;
      const [form] = typeof formId === 'string' ? await tx.select().from(forms).where(eq(forms.id, formId)) : [];
      if (!form) throw new AppError('CONFLICT', 'A request with this Idempotency-Key is in progress; retry it');
      return { form, replayed: true };
    }
    const form = await generateForm(tx, environmentId, input);
    await storeIdempotentResult(tx, scope, key, { formId: form.id });
    return { form, replayed: false };
  });
}

export async function deleteForm(db: Db, environmentId: string, id: string): Promise<Form> {
  const [row] = await db
    .update(forms)
    .set({ deletedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(forms.id, id), eq(forms.environmentId, environmentId), isNull(forms.deletedAt)))
    .returning();
  if (!row) throw notFound('Form not found');
  return row;
}

// ---------------------------------------------------------------- the graph: lookups and listings

export type ListedForm = Form & { position: string };

const formColumns = { ...getTableColumns(forms), position: microsOf(forms.createdAt).as('position') };

/** Live forms by id, in one statement; each a form of `scope` (null: any environment), else missing. */
export async function loadForms(db: Db, scope: string | null, ids: readonly string[]): Promise<(Form | null)[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select()
    .from(forms)
    .where(and(inArray(forms.id, [...ids]), isNull(forms.deletedAt), scope === null ? undefined : eq(forms.environmentId, scope)));
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id) ?? null);
}

export interface FormListFilter {
  status?: FormStatus | undefined;
  /** Case-insensitive substring of the name. */
  nameContains?: string | undefined;
}

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

function formFilterConditions(filter: FormListFilter, after: KeysetPosition | undefined): (SQL | undefined)[] {
  return [
    isNull(forms.deletedAt),
    filter.status === undefined ? undefined : eq(forms.status, filter.status),
    filter.nameContains === undefined ? undefined : ilike(forms.name, likePattern(filter.nameContains)),
    afterPosition(forms.createdAt, forms.id, after),
  ];
}

/** An environment's live forms, newest first, one keyset page (the forms_environment_created_idx order). */
export async function listForms(
  db: Db,
  input: { environmentId: string; filter: FormListFilter; after?: KeysetPosition | undefined; limit: number },
): Promise<Page<ListedForm>> {
  const rows = await db
    .select(formColumns)
    .from(forms)
    .where(and(eq(forms.environmentId, input.environmentId), ...formFilterConditions(input.filter, input.after)))
    .orderBy(...newestFirst(forms.createdAt, forms.id))
    .limit(input.limit + 1);
  return pageOf(rows, input.limit);
}

/**
 * The live forms generated from each of `sourceIds` (of the same environment), newest first: one page
 * per source in one statement (a lateral index scan per source), in the order of `sourceIds`.
 */
export async function generatedFormPages(
  db: Db,
  sourceIds: readonly string[],
  input: { filter: FormListFilter; after?: KeysetPosition | undefined; limit: number },
): Promise<Page<ListedForm>[]> {
  if (sourceIds.length === 0) return [];
  const source = alias(forms, 'source');
  const page = db
    .select(formColumns)
    .from(forms)
    .where(and(eq(forms.sourceFormId, source.id), eq(forms.environmentId, source.environmentId), ...formFilterConditions(input.filter, input.after)))
    .orderBy(...newestFirst(forms.createdAt, forms.id))
    .limit(input.limit + 1)
    .as('generated');
  const rows = await db
    .select({ sourceId: source.id, form: fieldsOf(page, formColumns) })
    .from(source)
    .crossJoinLateral(page)
    .where(inArray(source.id, [...sourceIds]));
  return groupPages(sourceIds, rows, (row) => row.sourceId, (row) => row.form as unknown as ListedForm, input.limit);
}

/**
 * Closing and reopening. published → closed (closeForm), closed → published (reopenForm); asking for
 * the state a form is already in changes nothing. A draft can be neither closed nor reopened (CONFLICT).
 */
export async function setFormStatus(db: Db, environmentId: string, id: string, target: 'closed' | 'published'): Promise<Form> {
  const from = target === 'closed' ? 'published' : 'closed';
  const [row] = await db
    .update(forms)
    .set({ status: target, updatedAt: new Date() })
    .where(and(eq(forms.id, id), eq(forms.environmentId, environmentId), isNull(forms.deletedAt), eq(forms.status, from)))
    .returning();
  if (row) return row;
  const existing = await findForm(db, environmentId, id);
  if (!existing) throw notFound('Form not found');
  if (existing.status === target) return existing;
  throw new AppError('CONFLICT', `A ${existing.status} form cannot be ${target === 'closed' ? 'closed' : 'reopened'}`);
}
