/**
 * Settings of an environment (IP storage, retention, its own captcha keys, who may embed its forms) and of a form (retention),
 * each change audited (a captcha secret key only as "set" or "removed").
 */
import { and, eq, isNull } from 'drizzle-orm';
import type { SecretBox } from '../auth/secret-box.ts';
import type { Db } from '../db/client.ts';
import { smtpSettingsChanges, smtpSettingsInputSchema, type SmtpSettingsInput } from '../notifications/smtp-settings.ts';
import { CAPTCHA_PROVIDERS, captchaKeyChanges, captchaKeysInputSchema, type CaptchaKeysChange } from '../environments/captcha-keys.service.ts';
import { environments, forms, type IpStorage } from '../db/schema.ts';
import { invalidInput, notFound, toFieldErrors, type FieldError } from '../errors.ts';
import { recordAudit, type Actor } from '../audit/audit.service.ts';
import { parseEmbedOrigins } from '../embed/embed-origins.ts';

/** Longest retention one may set: 100 years. */
export const MAX_RETENTION_DAYS = 36_500;
export const RETENTION_DAYS_MESSAGE = `retentionDays must be between 1 and ${MAX_RETENTION_DAYS}, or null`;

export type EnvironmentRow = typeof environments.$inferSelect;

function checkDays(days: number | null | undefined, path: string[], errors: FieldError[]) {
  if (days === null || days === undefined) return;
  if (!Number.isInteger(days) || days < 1 || days > MAX_RETENTION_DAYS) errors.push({ message: RETENTION_DAYS_MESSAGE, path });
}

export interface EnvironmentSettingsInput extends CaptchaKeysChange {
  ipStorage?: IpStorage | undefined;
  /** null: keep responses indefinitely. */
  retentionDays?: number | null | undefined;
  /** Who may embed the environment's forms (src/embed/embed-origins.ts); null: the server's FRAME_ANCESTORS. */
  embedOrigins?: readonly string[] | null | undefined;
  /** The environment's own SMTP server and sender (notifications/smtp-settings.ts). */
  smtp?: SmtpSettingsInput | undefined;
}

/** Changes an environment's settings; `box` seals captcha secret keys. */
export async function updateEnvironmentSettings(db: Db, environmentId: string, input: EnvironmentSettingsInput, actor: Actor, box: SecretBox): Promise<EnvironmentRow> {
  const errors: FieldError[] = [];
  checkDays(input.retentionDays, ['retentionDays'], errors);
  const captcha: CaptchaKeysChange = {};
  for (const provider of CAPTCHA_PROVIDERS) {
    if (input[provider] === undefined) continue;
    const parsed = captchaKeysInputSchema.safeParse(input[provider]);
    // The messages name the field, never its value (a secret key must not come back in an error).
    if (parsed.success) captcha[provider] = parsed.data;
    else errors.push(...toFieldErrors(parsed.error.issues).map((error) => ({ ...error, path: [provider, ...error.path] })));
  }
  let embedOrigins: string[] | null | undefined;
  if (input.embedOrigins === null) embedOrigins = null;
  else if (input.embedOrigins !== undefined) {
    const parsed = parseEmbedOrigins(input.embedOrigins);
    errors.push(...parsed.errors);
    embedOrigins = parsed.origins;
  }
  let smtp: SmtpSettingsInput | undefined;
  if (input.smtp !== undefined) {
    const parsed = smtpSettingsInputSchema.safeParse(input.smtp);
    // As for captcha keys: the messages name the field, never its value (the password).
    if (parsed.success) smtp = parsed.data;
    else errors.push(...toFieldErrors(parsed.error.issues).map((error) => ({ ...error, path: ['smtp', ...error.path] })));
  }
  if (errors.length > 0) throw invalidInput(errors, 'Invalid input');
  return db.transaction(async (tx) => {
    const changes: { ipStorage?: IpStorage; retentionDays?: number | null } = {};
    if (input.ipStorage !== undefined) changes.ipStorage = input.ipStorage;
    if (input.retentionDays !== undefined) changes.retentionDays = input.retentionDays;
    const keys = captchaKeyChanges(box, environmentId, captcha);
    const mail = smtp ? smtpSettingsChanges(box, environmentId, smtp) : { columns: {}, audit: {} };
    const columns = { ...changes, ...keys.columns, ...mail.columns, ...(embedOrigins !== undefined ? { embedOrigins } : {}) };
    // The audit log's details are flat values: the origins as one space-separated string.
    const embedAudit: Record<string, string | null> = embedOrigins === undefined ? {} : { embedOrigins: embedOrigins === null ? null : embedOrigins.join(' ') };
    const [row] =
      Object.keys(columns).length === 0
        ? await tx.select().from(environments).where(eq(environments.id, environmentId))
        : await tx.update(environments).set(columns).where(eq(environments.id, environmentId)).returning();
    if (!row) throw notFound('Environment not found');
    if (Object.keys(columns).length > 0) {
      await recordAudit(tx, {
        environmentId,
        actor,
        action: 'environment.settings',
        targetIds: [environmentId],
        details: { ...changes, ...keys.audit, ...mail.audit, ...embedAudit },
      });
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
