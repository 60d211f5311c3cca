/**
 * An environment's own SMTP server and sender (README: notifications can go through the team's own
 * mail system): the server's address `smtp://user@host:587` or `smtps://…:465` without a password,
 * the password apart, write-only, stored sealed (SecretBox, bound to its environment, like the captcha
 * secret keys: never returned, logged or audited), and a sender. Where an environment has none, the
 * server's SMTP_URL and MAIL_FROM apply. An environment's server always needs TLS (STARTTLS on smtp://).
 */
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { SecretBox } from '../auth/secret-box.ts';
import type { SmtpSettings } from '../config.ts';
import type { Db } from '../db/client.ts';
import { environments } from '../db/schema.ts';

const MAX_PASSWORD_LENGTH = 500;
/** The same shape as MAIL_FROM: an address, or a display name and one, on one line. */
const FROM_PATTERN = /^(?:[^<>\r\n"]{0,100} ?<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/;

const urlSchema = z
  .string()
  .max(500)
  .regex(/^smtps?:\/\/[^\s/?#]+\/?$/, 'must be smtp://[user@]host[:port] or smtps://…')
  .refine((value) => URL.canParse(value) && new URL(value).password === '', 'must not carry the password: give it as password');

/** `smtp` in a settings change: a field left out stays, null removes it (`url: null` removes the password too). */
export const smtpSettingsInputSchema = z.strictObject({
  url: urlSchema.nullable().optional(),
  password: z.string().min(1, 'password must not be empty (null removes it)').max(MAX_PASSWORD_LENGTH).nullable().optional(),
  from: z.string().regex(FROM_PATTERN, 'must be an address or "Name <address>" on one line').nullable().optional(),
});
export type SmtpSettingsInput = z.infer<typeof smtpSettingsInputSchema>;

type EnvironmentRow = typeof environments.$inferSelect;

export interface VisibleSmtpSettings {
  url: string | null;
  from: string | null;
  passwordSet: boolean;
}

const sealedFor = (environmentId: string) => `environment:${environmentId}:smtp:password`;

export const visibleSmtpSettings = (row: EnvironmentRow): VisibleSmtpSettings => ({
  url: row.smtpUrl ?? null,
  from: row.mailFrom ?? null,
  passwordSet: row.smtpPasswordSealed !== null,
});

/** The column changes for `input` (the password sealed), and what the audit log may say of them. */
export function smtpSettingsChanges(box: SecretBox, environmentId: string, input: SmtpSettingsInput) {
  const columns: Partial<Pick<EnvironmentRow, 'smtpUrl' | 'smtpPasswordSealed' | 'mailFrom'>> = {};
  const audit: Record<string, string | null> = {};
  if (input.url !== undefined) {
    columns.smtpUrl = input.url;
    audit.smtpUrl = input.url;
    if (input.url === null) columns.smtpPasswordSealed = null;
  }
  if (input.password !== undefined) {
    columns.smtpPasswordSealed = input.password === null ? null : box.seal(input.password, sealedFor(environmentId));
    audit.smtpPassword = input.password === null ? 'removed' : 'set';
  }
  if (input.from !== undefined) {
    columns.mailFrom = input.from;
    audit.mailFrom = input.from;
  }
  return { columns, audit };
}

/** The environment's own server (its URL with the password opened into it), or undefined: the server's applies. */
export function ownSmtpSettings(box: SecretBox, environmentId: string, row: { smtpUrl: string | null; smtpPasswordSealed: string | null }): SmtpSettings | undefined {
  if (!row.smtpUrl) return undefined;
  const url = new URL(row.smtpUrl);
  const password = row.smtpPasswordSealed === null ? undefined : box.open(row.smtpPasswordSealed, sealedFor(environmentId));
  if (password !== undefined) url.password = encodeURIComponent(password);
  return { url: url.toString(), requireTls: true };
}

/** Whether the environment has a server of its own. */
export async function environmentHasSmtp(db: Db, environmentId: string): Promise<boolean> {
  const [row] = await db.select({ url: environments.smtpUrl }).from(environments).where(eq(environments.id, environmentId));
  return Boolean(row?.url);
}
