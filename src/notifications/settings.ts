/**
 * A form's `notifications` (generate, update): alerts to the team and a confirmation to the
 * respondent. The input schema, and the check of `respondent.emailFrom` against the form's steps.
 */
import { z } from 'zod';
import { isEmail } from '../components/answers.ts';
import { moduleOf } from '../components/catalogue.ts';
import { TEAM_NOTIFICATION_EVENTS, type FormNotifications } from '../db/json-columns.ts';
/** The events a team rule may name (the REST contract lists them). */
export { TEAM_NOTIFICATION_EVENTS };

export const NOTIFICATION_LIMITS = {
  maxTeamRules: 10,
  maxRecipients: 10,
  maxSubjectLength: 200,
  maxBodyLength: 5_000,
} as const;

/** One line, no control characters: a subject goes into a header. */
// eslint-disable-next-line no-control-regex
const ONE_LINE = /^[^\u0000-\u001f\u007f]*$/;
const subjectSchema = z.string().trim().min(1, 'must not be empty').max(NOTIFICATION_LIMITS.maxSubjectLength).regex(ONE_LINE, 'must be one line without control characters');

const addressSchema = z
  .string()
  .trim()
  .refine((value) => isEmail(value), 'must be an e-mail address like team@example.com');

const teamRuleSchema = z.strictObject({
  to: z.array(addressSchema).min(1, 'needs at least one address').max(NOTIFICATION_LIMITS.maxRecipients),
  on: z
    .array(
      z.enum(TEAM_NOTIFICATION_EVENTS, {
        error: (issue) => `Unknown event ${JSON.stringify(issue.input)}; expected one of: ${TEAM_NOTIFICATION_EVENTS.join(', ')}`,
      }),
    )
    .min(1, 'needs at least one event')
    .default(['response.finished'])
    .transform((events) => [...new Set(events)]),
  includeAnswers: z.boolean().default(false),
  subject: subjectSchema.optional(),
});

const respondentSchema = z.strictObject({
  enabled: z.boolean().default(true),
  emailFrom: z.string().min(1).max(200),
  subject: subjectSchema,
  body: z.string().max(NOTIFICATION_LIMITS.maxBodyLength).default(''),
  includeAnswers: z.boolean().default(false),
});

/** `notifications` of generate's and update's input; null or left out: nobody is notified. */
export const notificationsSchema = z
  .strictObject({
    team: z.array(teamRuleSchema).max(NOTIFICATION_LIMITS.maxTeamRules, `at most ${NOTIFICATION_LIMITS.maxTeamRules} entries`).default([]),
    respondent: respondentSchema.optional(),
  })
  .nullish()
  .transform((value): FormNotifications | null | undefined => value);

interface DraftComponent {
  type?: unknown;
  key?: unknown;
}

/**
 * Where `respondent.emailFrom` must point: an EmailForm's key, or an IdentityInfo's key and one of its
 * e-mail fields (`contact.workEmailAddress`). Reports a problem at `["notifications", "respondent", "emailFrom"]`.
 */
export function checkNotifications(input: { steps?: unknown; notifications?: unknown }, report: (path: (string | number)[], message: string) => void): void {
  const notifications = input.notifications as FormNotifications | null | undefined;
  const emailFrom = notifications?.respondent?.emailFrom;
  if (typeof emailFrom !== 'string' || !Array.isArray(input.steps)) return;
  const steps = input.steps as ({ components?: unknown } | null)[];
  const components = steps.flatMap((step) => (Array.isArray(step?.components) ? (step.components as (DraftComponent | null)[]) : []));
  if (!emailSource(components, emailFrom)) {
    report(
      ['notifications', 'respondent', 'emailFrom'],
      `${JSON.stringify(emailFrom)} names no e-mail question of the form: give an EmailForm's key, or an IdentityInfo's key and .emailAddress or .workEmailAddress`,
    );
  }
}

/** The component and field a confirmation's address comes from, if `emailFrom` names one. */
export function emailSource(components: readonly (DraftComponent | null)[], emailFrom: string): { key: string; field: string } | undefined {
  const dot = emailFrom.indexOf('.');
  const key = dot < 0 ? emailFrom : emailFrom.slice(0, dot);
  const component = components.find((c) => c?.key === key);
  const fields = typeof component?.type === 'string' ? moduleOf(component.type)?.confirmationEmailFields : undefined;
  if (!fields) return undefined;
  if (dot < 0) return fields.length === 1 ? { key, field: fields[0]! } : undefined;
  const field = emailFrom.slice(dot + 1);
  return fields.length > 1 && fields.includes(field) ? { key, field } : undefined;
}
