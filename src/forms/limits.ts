/**
 * When a form takes responses and how many: `limits` (a most of finished responses, an opening and a
 * closing instant, the messages of the closed and the not-yet-open screens, each a string or one text per
 * language) and `quotas` (at most `limit` finished responses meeting a
 * condition, the ones past it routed by the quota's action). The shapes are checked here; a quota's
 * condition is read and checked as a rule's (src/forms/logic.ts); the server enforces both when a response
 * is submitted (src/responses/gate.ts).
 */
import { z } from 'zod';
import type { Condition } from '../components/conditions.ts';
import { isObject } from '../components/content.ts';
import type { FormLimits, FormQuota, QuotaAction, TextTranslations } from '../db/json-columns.ts';
import { checkFormConditions, KEY_PATTERN, readFormCondition, stepKey } from './logic.ts';
import { isTextObject, LIMIT_MESSAGES, resolveText, textObjectProblems, type TextObject } from './translations.ts';

export const QUOTA_LIMITS = { maxQuotas: 20, maxClosedMessageLength: 1_000, maxResponses: 1_000_000_000 } as const;

/** An instant with its offset: `2026-03-06T17:00:00+01:00` or `…Z` (a time without one is refused). */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/;
const instant = z
  .string()
  .refine((text) => INSTANT.test(text) && !Number.isNaN(Date.parse(text)), {
    message: 'An instant is ISO 8601 with an offset or Z, e.g. 2026-03-06T17:00:00+01:00',
  })
  .transform((text) => new Date(text).toISOString());

type LimitMessage = (typeof LIMIT_MESSAGES)[number];

/** `limits` as given: each message a string or a text object (`resolveLimits` stores it). */
export type LimitsInput = Omit<FormLimits, LimitMessage | 'texts'> & Partial<Record<LimitMessage, string | TextObject>>;

const messageText = z.string().trim().min(1).max(QUOTA_LIMITS.maxClosedMessageLength);
/** A message: a string, or one text per language (`{"en": "…", "de": "…"}`, docs/languages.md). */
const message = z.unknown().transform((value, ctx): string | TextObject | undefined => {
  if (value === undefined || value === null) return undefined;
  if (isTextObject(value)) {
    for (const problem of textObjectProblems(value, QUOTA_LIMITS.maxClosedMessageLength))
      ctx.addIssue({ code: 'custom', path: problem.path, message: problem.message, input: value });
    return value;
  }
  const parsed = messageText.safeParse(value);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message, input: value });
  return z.NEVER;
});

export const limitsSchema = z
  .strictObject({
    maxResponses: z.number().int().min(1).max(QUOTA_LIMITS.maxResponses).nullish().meta({ description: 'Finished responses the form takes; then it is full.' }),
    opensAt: instant.nullish().meta({ description: 'Before this instant the form is not open yet (ISO 8601 with an offset or Z).' }),
    closesAt: instant.nullish().meta({ description: 'From this instant the form is closed; started responses can finish until then.' }),
    closedMessage: message.optional().meta({ description: 'The text of the closed screen: a string, or one text per language.' }),
    notYetOpenMessage: message
      .optional()
      .meta({ description: 'The text of the screen before `opensAt` (its opening time is shown below it): a string, or one text per language.' }),
  })
  .superRefine((limits, ctx) => {
    if (limits.opensAt && limits.closesAt && limits.opensAt >= limits.closesAt) ctx.addIssue({ code: 'custom', path: ['closesAt'], message: 'closesAt must be after opensAt' });
  })
  .transform((limits): LimitsInput => Object.fromEntries(Object.entries(limits).filter(([, value]) => value != null)))
  .meta({ description: 'When the form takes responses and how many (docs/logic.md, Limits).' });

/**
 * Limits as stored: each message's default-language text in place, the others in `texts`. A message
 * given as the string it already was keeps its translations (`before`'s); a changed one loses them.
 */
export function resolveLimits(input: LimitsInput | null | undefined, language: string, before?: FormLimits | null): FormLimits | null {
  if (!input) return null;
  const stored: FormLimits = { ...(input as FormLimits) };
  const texts: TextTranslations = {};
  for (const key of LIMIT_MESSAGES) {
    const given = input[key];
    if (given === undefined) continue;
    const { text, others } = resolveText(given, language);
    stored[key] = text;
    const kept = others ?? (typeof given === 'string' && before?.[key] === given ? before.texts?.[key] : undefined);
    if (kept) texts[key] = kept;
  }
  delete stored.texts;
  return Object.keys(texts).length > 0 ? { ...stored, texts } : stored;
}

/**
 * The limits' messages re-keyed to a new default language: each message's text in `to` becomes the
 * message and the former default text (`from`) a translation; `missing` names the messages without one.
 */
export function rekeyLimits(limits: FormLimits, from: string, to: string): { limits: FormLimits; missing: LimitMessage[] } {
  const stored: FormLimits = { ...limits };
  const texts: TextTranslations = { ...limits.texts };
  const missing: LimitMessage[] = [];
  for (const key of LIMIT_MESSAGES) {
    const text = limits[key];
    const translations = limits.texts?.[key] ?? {};
    if (text === undefined) continue;
    const translated = translations[to];
    if (translated === undefined) {
      missing.push(key);
      continue;
    }
    stored[key] = translated;
    texts[key] = { ...Object.fromEntries(Object.entries(translations).filter(([locale]) => locale !== to)), [from]: text };
  }
  return { limits: { ...stored, texts }, missing };
}

type Report = (path: (string | number)[], message: string) => void;

function readQuotaAction(raw: unknown, report: Report, at: (string | number)[]): QuotaAction | undefined {
  if (raw === 'complete' || raw === 'invalid') return raw;
  if (isObject(raw) && Object.keys(raw).length === 1 && typeof raw.goTo === 'string' && KEY_PATTERN.test(raw.goTo)) return { goTo: raw.goTo };
  report(at, '"action" is "complete", "invalid" or {goTo: <step key>}');
  return undefined;
}

function readQuota(raw: unknown, index: number, report: Report): FormQuota | undefined {
  if (!isObject(raw)) return void report([index], 'A quota is {key, condition, limit, action}');
  for (const key of Object.keys(raw))
    if (!['key', 'condition', 'limit', 'action'].includes(key)) report([index, key], `Unknown key "${key}"; a quota takes "key", "condition", "limit" and "action"`);
  const key =
    typeof raw.key === 'string' && KEY_PATTERN.test(raw.key)
      ? raw.key
      : void report([index, 'key'], 'A quota key must start with a letter or "_" and hold at most 64 letters, digits or "_"');
  const condition = readFormCondition(raw.condition, report, [index, 'condition']);
  const limit =
    Number.isInteger(raw.limit) && (raw.limit as number) >= 0 && (raw.limit as number) <= QUOTA_LIMITS.maxResponses
      ? (raw.limit as number)
      : void report([index, 'limit'], `"limit" is a whole number from 0 to ${QUOTA_LIMITS.maxResponses}`);
  const action = readQuotaAction(raw.action, report, [index, 'action']);
  if (key === undefined || condition === undefined || limit === undefined || action === undefined) return undefined;
  return { key, condition, limit, action };
}

/** Where each read quota stood in the input (those that could not be read are left out of the list). */
const readAt = new WeakMap<FormQuota, number>();

/** `quotas`: at most 20, keys unique, read by hand so that every problem has its path. */
export const quotasSchema = z
  .unknown()
  .transform((raw, ctx): FormQuota[] | undefined => {
    const report: Report = (path, message) => ctx.addIssue({ code: 'custom', path, message, input: raw });
    if (raw === undefined) return undefined;
    if (raw === null) return [];
    if (!Array.isArray(raw)) return void report([], '"quotas" must be a list');
    if (raw.length > QUOTA_LIMITS.maxQuotas) report([], `A form may have at most ${QUOTA_LIMITS.maxQuotas} quotas`);
    const quotas = raw.slice(0, QUOTA_LIMITS.maxQuotas).map((item, index) => readQuota(item, index, report));
    quotas.forEach((quota, index) => {
      if (quota && quotas.findIndex((other) => other?.key === quota.key) !== index) report([index, 'key'], `Quota "${quota.key}" is listed twice`);
    });
    quotas.forEach((quota, index) => quota && readAt.set(quota, index));
    return quotas.filter((quota) => quota !== undefined);
  })
  .meta({
    description:
      'Caps on the finished responses meeting a condition: `{key, condition, limit, action}`; past the limit a response is routed by `action` ("complete", "invalid" or {goTo: <step key>}).',
    examples: [
      [
        {
          key: 'large',
          condition: { question: 'employees', op: 'greaterThan', value: 50 },
          limit: 100,
          action: { goTo: 'full' },
        },
      ],
    ],
  });

/** Quotas against the form: conditions on its components, hidden fields and variables; `goTo` a step it has. */
export function checkQuotas(input: { steps?: unknown; hiddenFields?: unknown; variables?: unknown; quotas?: unknown }, report: Report): void {
  if (!Array.isArray(input.quotas) || !Array.isArray(input.steps)) return;
  const quotas = input.quotas.filter((quota): quota is FormQuota => isObject(quota) && isObject(quota.condition));
  const keys = new Set(input.steps.map((step: unknown, index) => stepKey(isObject(step) && typeof step.key === 'string' ? { key: step.key } : {}, index)));
  const conditions: [Condition, (string | number)[]][] = [];
  quotas.forEach((quota, position) => {
    const index = readAt.get(quota) ?? position;
    const { action, condition } = quota;
    conditions.push([condition, ['quotas', index, 'condition']]);
    if (typeof action === 'object' && !keys.has(action.goTo)) report(['quotas', index, 'action', 'goTo'], `No step has the key "${action.goTo}"`);
  });
  checkFormConditions(input, conditions, report);
}
