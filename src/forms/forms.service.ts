/** Forms: import templates, generate published forms from them, read and soft-delete. */
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { forms, type FormStatus } from '../db/schema.ts';
import { notFound } from '../errors.ts';
import { recordEvent } from '../events/outbox.ts';
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

export async function deleteForm(db: Db, environmentId: string, id: string): Promise<Form> {
  const [row] = await db
    .update(forms)
    .set({ deletedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(forms.id, id), eq(forms.environmentId, environmentId), isNull(forms.deletedAt)))
    .returning();
  if (!row) throw notFound('Form not found');
  return row;
}
