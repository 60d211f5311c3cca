/**
 * Recaptcha and TurnstileWidget: the provider's widget on the page, and a check that the step it is
 * on is sent by a person. They record nothing in the response.
 *
 * - Keys: the form's environment's own (src/environments/captcha-keys.service.ts), else the server's
 *   (TURNSTILE_* / RECAPTCHA_*); the component's `siteKey` comes before both.
 * - Generating a form with a captcha that could never be checked (no secret key, or no site key,
 *   anywhere) is refused (`uncheckableCaptchas`).
 * - Enforced when a secret key applies: the step is accepted only with a token the provider's verify
 *   endpoint confirms. The page posts the widget's token; the JSON API takes it as the captcha's answer
 *   (`answers[captchaId]`), required in every submission that takes the captcha's step
 *   (src/responses/captcha-gate.ts).
 *   (A form stored before its keys were removed shows its captcha unchecked, as it was made.)
 * - The provider unreachable (or answering nonsense) within CAPTCHA_TIMEOUT_MS: refused (fail closed)
 *   unless CAPTCHA_FAIL_OPEN=1.
 */
import { html } from 'hono/html';
import { loose, shortText } from './content.ts';
import { fieldName, type PostedFields } from './fields.ts';
import { allErrorsOf, box, domId, errorText, str } from './markup.ts';
import type { ComponentModule } from './module.ts';
import { languageOf, pageWords } from '../i18n/locales.ts';
import type { StoredComponent, StoredStep } from '../db/json-columns.ts';

const CAPTCHA_TYPES = ['Recaptcha', 'TurnstileWidget'] as const;
export type CaptchaType = (typeof CAPTCHA_TYPES)[number];
export const isCaptchaType = (type: string): type is CaptchaType => (CAPTCHA_TYPES as readonly string[]).includes(type);

interface Provider {
  /** Where the config keeps its keys. */
  configKey: 'recaptcha' | 'turnstile';
  /** The provider's name, and the prefix of its config variables. */
  name: string;
  variablePrefix: string;
  script: string;
  /** How the widget is told the page's language: its script's `hl` (reCAPTCHA) or the widget's `data-language` (Turnstile). */
  languageBy: 'script' | 'widget';
  /** Sources (origins, or origin and path) the widget loads scripts and frames from. */
  origins: string[];
  /** The field the widget adds to the form when not told another name. */
  defaultField: string;
  widgetClass: string;
}

const PROVIDERS: Record<CaptchaType, Provider> = {
  TurnstileWidget: {
    configKey: 'turnstile',
    name: 'Turnstile',
    variablePrefix: 'TURNSTILE',
    script: 'https://challenges.cloudflare.com/turnstile/v0/api.js',
    languageBy: 'widget',
    origins: ['https://challenges.cloudflare.com'],
    defaultField: 'cf-turnstile-response',
    widgetClass: 'cf-turnstile',
  },
  Recaptcha: {
    configKey: 'recaptcha',
    name: 'reCAPTCHA',
    variablePrefix: 'RECAPTCHA',
    script: 'https://www.google.com/recaptcha/api.js',
    languageBy: 'script',
    // Paths, not whole hosts: google.com serves much more than the widget.
    origins: ['https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/', 'https://www.recaptcha.net/recaptcha/'],
    defaultField: 'g-recaptcha-response',
    widgetClass: 'g-recaptcha',
  },
};

export interface CaptchaProviderSettings {
  siteKey: string | undefined;
  secretKey: string | undefined;
  verifyUrl: string;
  /** The environment's secret is stored but does not open: enforced, and every check fails closed. */
  secretUnreadable?: boolean | undefined;
}
export interface CaptchaSettings {
  turnstile: CaptchaProviderSettings;
  recaptcha: CaptchaProviderSettings;
  failOpen: boolean;
  timeoutMs: number;
}

type SiteKeys = Record<Provider['configKey'], { siteKey: string | undefined }>;

/** An environment's own keys of each provider (as src/environments/captcha-keys.service.ts loads them). */
export type OwnKeys = Record<Provider['configKey'], { siteKey: string | undefined; secretKey: string | undefined; secretUnreadable: boolean }>;

/** The settings for a form of an environment: its own keys where it has them, else the server's. */
export function captchaSettingsWith(server: CaptchaSettings, own: OwnKeys): CaptchaSettings {
  const provider = (key: Provider['configKey']): CaptchaProviderSettings => ({
    verifyUrl: server[key].verifyUrl,
    siteKey: own[key].siteKey ?? server[key].siteKey,
    secretKey: own[key].secretKey ?? (own[key].secretUnreadable ? undefined : server[key].secretKey),
    secretUnreadable: own[key].secretUnreadable,
  });
  return { ...server, turnstile: provider('turnstile'), recaptcha: provider('recaptcha') };
}

const isEnforced = (settings: CaptchaProviderSettings) => settings.secretKey !== undefined || settings.secretUnreadable === true;

/**
 * The captchas among `steps` that could never be checked with `settings` (the form's environment's
 * keys over the server's): without a secret key its tokens can't be verified, without a site key the
 * widget can't be shown. Each with its component's path and what to configure.
 */
export function uncheckableCaptchas(
  steps: readonly { components: readonly { type: string; content: Record<string, unknown> }[] }[],
  settings: CaptchaSettings,
): { message: string; path: (string | number)[] }[] {
  const problems: { message: string; path: (string | number)[] }[] = [];
  steps.forEach((step, stepIndex) =>
    step.components.forEach((component, index) => {
      if (!isCaptchaType(component.type)) return;
      const provider = PROVIDERS[component.type];
      const path = ['steps', stepIndex, 'components', index];
      const option = `--${provider.configKey}-`;
      if (!isEnforced(settings[provider.configKey])) {
        problems.push({
          message: `${component.type} can't be checked: no ${provider.name} secret key is set for this environment or the server. Set the environment's (updateEnvironmentSettings, PATCH /api/v1/environments/{environmentId}/settings or formloom env settings ${option}secret-key) or the server's ${provider.variablePrefix}_SECRET_KEY`,
          path,
        });
      }
      if (!str(component.content.siteKey) && !settings[provider.configKey].siteKey) {
        problems.push({
          message: `${component.type} has no site key: give content.siteKey, or set the environment's ${provider.name} site key (${option}site-key) or the server's ${provider.variablePrefix}_SITE_KEY`,
          path,
        });
      }
    }),
  );
  return problems;
}
const siteKeyOf = (component: StoredComponent, settings: SiteKeys | undefined): string | undefined =>
  isCaptchaType(component.type) ? (str(component.content.siteKey) ?? settings?.[PROVIDERS[component.type].configKey].siteKey) : undefined;

export const CAPTCHA_MESSAGES = {
  missing: 'Please complete the check that you are not a robot.',
  rejected: 'The check that you are not a robot failed or expired. Please try it again.',
  unavailable: 'The check that you are not a robot cannot be verified right now. Please try again in a moment.',
} as const;

export type CaptchaOutcome = 'ok' | keyof typeof CAPTCHA_MESSAGES;

/** Asks the provider whether `token` is good (Turnstile and reCAPTCHA share the siteverify protocol). */
async function verifyCaptchaToken(
  provider: CaptchaProviderSettings,
  token: string,
  remoteIp: string,
  options: Pick<CaptchaSettings, 'failOpen' | 'timeoutMs'>,
): Promise<CaptchaOutcome> {
  if (token.trim() === '') return 'missing';
  if (token.length > 4096) return 'rejected';
  if (provider.secretUnreadable) return options.failOpen ? 'ok' : 'unavailable';
  const body = new URLSearchParams({ secret: provider.secretKey ?? '', response: token });
  if (remoteIp) body.set('remoteip', remoteIp);
  try {
    const response = await fetch(provider.verifyUrl, { method: 'POST', body, signal: AbortSignal.timeout(options.timeoutMs), redirect: 'error' });
    if (!response.ok) throw new Error(`verify answered ${response.status}`);
    const answer: unknown = await response.json();
    if (typeof answer !== 'object' || answer === null || !('success' in answer) || typeof answer.success !== 'boolean') throw new Error('verify answered without success');
    return answer.success ? 'ok' : 'rejected';
  } catch {
    return options.failOpen ? 'ok' : 'unavailable';
  }
}

/** The captchas of a step that are enforced (a secret key of their provider applies). */
export const enforcedCaptchas = (step: StoredStep, settings: CaptchaSettings): StoredComponent[] =>
  step.components.filter((component) => isCaptchaType(component.type) && isEnforced(settings[PROVIDERS[component.type].configKey]));

/** The token a page post carries for a captcha: its own field, else the widget's default field. */
export function postedCaptchaToken(component: StoredComponent, fields: PostedFields): string {
  if (!isCaptchaType(component.type)) return '';
  return fields.one(fieldName(component)) || fields.one(PROVIDERS[component.type].defaultField);
}

/** Verifies each captcha's token; the captchas whose check did not pass, with why. */
export async function checkCaptchas(
  captchas: readonly StoredComponent[],
  tokenOf: (component: StoredComponent) => unknown,
  remoteIp: string,
  settings: CaptchaSettings,
): Promise<{ component: StoredComponent; outcome: Exclude<CaptchaOutcome, 'ok'> }[]> {
  const results = await Promise.all(
    captchas.map(async (component) => {
      const token = tokenOf(component);
      const provider = settings[PROVIDERS[component.type as CaptchaType].configKey];
      const outcome: CaptchaOutcome = typeof token !== 'string' ? 'missing' : await verifyCaptchaToken(provider, token, remoteIp, settings);
      return { component, outcome };
    }),
  );
  return results.filter((result): result is { component: StoredComponent; outcome: Exclude<CaptchaOutcome, 'ok'> } => result.outcome !== 'ok');
}

const content = loose({ siteKey: shortText.optional() });

export const captchas: ComponentModule = {
  texts: [],
  types: { Recaptcha: content, TurnstileWidget: content },
  render(component, ctx) {
    const siteKey = siteKeyOf(component, ctx.captcha);
    if (!siteKey || !isCaptchaType(component.type)) return '';
    const provider = PROVIDERS[component.type];
    const messages = allErrorsOf(ctx, component);
    const id = domId(component);
    const language = languageOf(ctx.form.locale);
    // Turnstile names its token field as told; reCAPTCHA's is always g-recaptcha-response. Both widgets speak the form's language.
    return box(
      component,
      messages.length > 0,
      html`<div class="${provider.widgetClass}" id="${id}" data-sitekey="${siteKey}" data-response-field-name="${fieldName(component)}"${provider.languageBy === 'widget' ? html` data-language="${language}"` : ''}${messages.length ? html` aria-describedby="${id}-error"` : ''}></div><noscript><p class="fl-note">${pageWords(language).captchaNeedsScript}</p></noscript><script src="${provider.languageBy === 'script' ? `${provider.script}?hl=${language}` : provider.script}" nonce="${ctx.nonce}" async defer></script>${errorText(id, messages)}`,
    );
  },
  guards: () => true,
  frameOrigins: (component) => (isCaptchaType(component.type) ? PROVIDERS[component.type].origins : []),
  scriptOrigins: (component) => (isCaptchaType(component.type) ? PROVIDERS[component.type].origins : []),
};
