/**
 * An environment's own captcha keys (README "Captchas"): a Turnstile and a reCAPTCHA site key and secret
 * key, each optional. Where an environment has none, the server's (TURNSTILE_* / RECAPTCHA_* config)
 * apply, so a single-team install configures them once.
 *
 * A secret key is write-only: stored sealed (SecretBox, bound to its environment and provider, so a
 * sealed value copied into another environment's row does not open there), never returned (callers
 * learn whether one is set), never written to the audit log or a log line.
 */
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { SecretBox } from '../auth/secret-box.ts';
import { captchaSettingsWith, isCaptchaType, type CaptchaSettings } from '../components/captchas.ts';
import type { Db } from '../db/client.ts';
import { environments } from '../db/schema.ts';

export const CAPTCHA_PROVIDERS = ['turnstile', 'recaptcha'] as const;
export type CaptchaProvider = (typeof CAPTCHA_PROVIDERS)[number];

export const MAX_SITE_KEY_LENGTH = 200;
export const MAX_SECRET_KEY_LENGTH = 500;
const printable = (what: string, max: number) =>
  z
    .string()
    .min(1, `${what} must not be empty (null removes it)`)
    .max(max, `${what} must be at most ${max} characters`)
    .regex(/^[\x21-\x7e]*$/, `${what} must be printable ASCII without spaces`);

/** One provider's keys in a settings change: a key left out stays as it is, null removes it. */
export const captchaKeysInputSchema = z.strictObject({
  siteKey: printable('siteKey', MAX_SITE_KEY_LENGTH).nullable().optional(),
  secretKey: printable('secretKey', MAX_SECRET_KEY_LENGTH).nullable().optional(),
});
export type CaptchaKeysInput = z.infer<typeof captchaKeysInputSchema>;
export type CaptchaKeysChange = Partial<Record<CaptchaProvider, CaptchaKeysInput>>;

/** One provider's keys as callers may see them. */
export interface VisibleCaptchaKeys {
  /** The environment's own site key; null: the server's (if any) applies. */
  siteKey: string | null;
  /** Whether the environment has a secret key of its own (the key itself is never shown). */
  secretKeySet: boolean;
}

/** One provider's keys for verification: the environment's own, the secret opened. */
export interface OwnCaptchaKeys {
  siteKey: string | undefined;
  secretKey: string | undefined;
  /** A secret is stored but does not open (the instance's key changed): checks fail closed. */
  secretUnreadable: boolean;
}

type EnvironmentRow = typeof environments.$inferSelect;
const COLUMNS = {
  turnstile: { siteKey: 'turnstileSiteKey', sealed: 'turnstileSecretKeySealed' },
  recaptcha: { siteKey: 'recaptchaSiteKey', sealed: 'recaptchaSecretKeySealed' },
} as const satisfies Record<CaptchaProvider, { siteKey: keyof EnvironmentRow; sealed: keyof EnvironmentRow }>;

const sealedFor = (environmentId: string, provider: CaptchaProvider) => `environment:${environmentId}:${provider}:secret-key`;

export type CaptchaKeyColumns = Partial<Pick<EnvironmentRow, (typeof COLUMNS)[CaptchaProvider][keyof (typeof COLUMNS)[CaptchaProvider]]>>;

/**
 * The column changes for `change` (secrets sealed), and what the audit log may say of them (flat
 * details): site keys (public, they are in every page that shows the widget) as they are
 * (`turnstileSiteKey`), secrets only as `"set"` or `"removed"` (`turnstileSecretKey`).
 */
export function captchaKeyChanges(box: SecretBox, environmentId: string, change: CaptchaKeysChange): { columns: CaptchaKeyColumns; audit: Record<string, string | null> } {
  const columns: CaptchaKeyColumns = {};
  const audit: Record<string, string | null> = {};
  for (const provider of CAPTCHA_PROVIDERS) {
    const keys = change[provider];
    if (keys?.siteKey !== undefined) {
      columns[COLUMNS[provider].siteKey] = keys.siteKey;
      audit[`${provider}SiteKey`] = keys.siteKey;
    }
    if (keys?.secretKey !== undefined) {
      columns[COLUMNS[provider].sealed] = keys.secretKey === null ? null : box.seal(keys.secretKey, sealedFor(environmentId, provider));
      audit[`${provider}SecretKey`] = keys.secretKey === null ? 'removed' : 'set';
    }
  }
  return { columns, audit };
}

/** An environment's captcha keys as callers may see them. */
export const visibleCaptchaKeys = (row: EnvironmentRow, provider: CaptchaProvider): VisibleCaptchaKeys => ({
  siteKey: row[COLUMNS[provider].siteKey] ?? null,
  secretKeySet: row[COLUMNS[provider].sealed] !== null,
});

/** An environment's own captcha keys for verification, secrets opened (every provider; none when it has none). */
async function ownCaptchaKeys(db: Db, box: SecretBox, environmentId: string): Promise<Record<CaptchaProvider, OwnCaptchaKeys>> {
  const [row] = await db
    .select({
      turnstileSiteKey: environments.turnstileSiteKey,
      turnstileSecretKeySealed: environments.turnstileSecretKeySealed,
      recaptchaSiteKey: environments.recaptchaSiteKey,
      recaptchaSecretKeySealed: environments.recaptchaSecretKeySealed,
    })
    .from(environments)
    .where(eq(environments.id, environmentId));
  const keysOf = (provider: CaptchaProvider): OwnCaptchaKeys => {
    const sealed = row?.[COLUMNS[provider].sealed] ?? null;
    const secretKey = sealed === null ? undefined : box.open(sealed, sealedFor(environmentId, provider));
    return { siteKey: row?.[COLUMNS[provider].siteKey] ?? undefined, secretKey, secretUnreadable: sealed !== null && secretKey === undefined };
  };
  return { turnstile: keysOf('turnstile'), recaptcha: keysOf('recaptcha') };
}

/**
 * The captcha settings a form is shown and checked with: its environment's own keys over the server's
 * (`server`, the config). A form without captchas gets the server's as they are, without a query.
 */
export async function captchaSettingsForForm(
  db: Db,
  box: SecretBox,
  server: CaptchaSettings,
  form: { environmentId: string; steps: readonly { components: readonly { type: string }[] }[] },
): Promise<CaptchaSettings> {
  if (!form.steps.some((step) => step.components.some((component) => isCaptchaType(component.type)))) return server;
  return captchaSettingsWith(server, await ownCaptchaKeys(db, box, form.environmentId));
}
