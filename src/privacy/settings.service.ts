/** Privacy settings of an environment (IP storage, retention) and of a form (retention), each change audited. */
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { environments, forms, type IpStorage } from '../db/schema.ts';
import { invalidInput, notFound } from '../errors.ts';
import { recordAudit, type Actor } from '../audit/audit.service.ts';
import type { FieldError } from '../forms/components.ts';

/** Longest retention one may set: 100 years. */
export const MAX_RETENTION_DAYS = 36_500;

export type EnvironmentRow = typeof environments.$inferSelect;

function checkDays(days: number | null | undefined, path: string[], errors: FieldError[]) {
  if (days === null || days === undefined) return;
  if (!Number.isInteger(days) || days < 1 || days > MAX_RETENTION_DAYS) errors.push({ message: `retentionDays must be between 1 and ${MAX_RETENTION_DAYS}, or null`, path });
}

export interface EnvironmentSettingsInput {
  ipStorage?: IpStorage | undefined;
  /** null: keep responses indefinitely. */
  retentionDays?: number | null | undefined;
}

export async function updateEnvironmentSettings(db: Db, environmentId: string, input: EnvironmentSettingsInput, actor: Actor): Promise<EnvironmentRow> {
  const errors: FieldError[] = [];
  checkDays(input.retentionDays, ['retentionDays'], errors);
  if (errors.length > 0) throw invalidInput(errors, 'Invalid input');
  return db.transaction(async (tx) => {
    const changes: { ipStorage?: IpStorage; retentionDays?: number | null } = {};
    if (input.ipStorage !== undefined) changes.ipStorage = input.ipStorage;
    if (input.retentionDays !== undefined) changes.retentionDays = input.retentionDays;
    const [row] =
      Object.keys(changes).length === 0
        ? await tx.select().from(environments).where(eq(environments.id, environmentId))
        : await tx.update(environments).set(changes).where(eq(environments.id, environmentId)).returning();
    if (!row) throw notFound('Environment not found');
    if (Object.keys(changes).length > 0) {
      await recordAudit(tx, { environmentId, actor, action: 'environment.settings', targetIds: [environmentId], details: { ...changes } });
    }
    return row;
  });
}

export async function setFormRetention(db: Db, environmentId: string, formId: string, days: number | null, actor: Actor) {
  const errors: FieldError[] = [];
  checkDays(days, ['retentionDays'], errors);
  if (errors.length > 0) throw invalidInput(errors, 'Invalid arguments');
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(forms)
      .set({ retentionDays: days, updatedAt: new Date() })
      .where(and(eq(forms.id, formId), eq(forms.environmentId, environmentId), isNull(forms.deletedAt)))
      .returning();
    if (!row) throw notFound('Form not found');
    await recordAudit(tx, { environmentId, actor, action: 'form.retention', targetIds: [formId], details: { retentionDays: days } });
    return row;
  });
}
