/** Forms: import templates, generate published forms from them, read and soft-delete. */
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { forms, type FormStatus } from '../db/schema.ts';
import { AppError, notFound } from '../errors.ts';
import { claimIdempotencyKey, requestHash, storeIdempotentResult } from '../idempotency/idempotency.service.ts';
import { createId } from '../ids.ts';
import type { GenerateFormInput, StepDraft, StoredStep } from './components.ts';
import { inheritTheme, type Theme } from './theme.ts';

export type Form = typeof forms.$inferSelect;

export const formUrl = (id: string) => `/s/${id}`;

/** Gives every step and component its stable id. */
function withIds(steps: StepDraft[]): StoredStep[] {
  return steps.map((step) => ({
    id: createId(),
    name: step.name,
    components: step.components.map((component) => ({ id: createId(), type: component.type, content: component.content })),
  }));
}

export interface ImportFormInput {
  environmentId: string;
  name: string;
  theme: Theme;
  steps: StepDraft[];
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
    })
    .returning();
  return row!;
}

/** A live (not deleted) form of the environment, or undefined. Other environments' forms are invisible. */
export async function findForm(db: Db, environmentId: string, id: string): Promise<Form | undefined> {
  const [row] = await db
    .select()
    .from(forms)
    .where(and(eq(forms.id, id), eq(forms.environmentId, environmentId), isNull(forms.deletedAt)));
  return row;
}

/** A live form by id alone, for callers that check the environment themselves (the admin, public pages). */
export async function findFormById(db: Db, id: string): Promise<Form | undefined> {
  const [row] = await db.select().from(forms).where(and(eq(forms.id, id), isNull(forms.deletedAt)));
  return row;
}

/**
 * Creates a published form in `environmentId` from the template `sourceFormId` of the same
 * environment, inheriting its theme.
 */
export async function generateForm(db: Db, environmentId: string, input: GenerateFormInput): Promise<Form> {
  const source = await findForm(db, environmentId, input.sourceFormId);
  if (!source) throw notFound('Source form not found');
  const steps = withIds(input.steps);
  const usedTypes = new Set(steps.flatMap((step) => step.components.map((component) => component.type)));
  const [row] = await db
    .insert(forms)
    .values({
      id: createId(),
      environmentId,
      name: input.name,
      status: 'published',
      theme: inheritTheme(source.theme, usedTypes),
      steps,
      sourceFormId: source.id,
    })
    .returning();
  return row!;
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
