/**
 * Views of a form's first step, for its insights (src/insights/): the page counts one when it shows a
 * new respondent the first step (page or embed mode); a custom client rendering the form through the
 * JSON API reports one with `POST /s/:formId/views` `{hiddenFields?, referrer?}` → 202 `{counted}`.
 * Views of bots that announce themselves in their User-Agent are not counted. A view stores no personal
 * data: one counter update of its form, hour and segment (device class, language, referrer host,
 * hidden-field values), no address, no identifier.
 */
import { z } from 'zod';
import type { Form } from '../forms/forms.service.ts';
import { LOGIC_LIMITS } from '../forms/logic.ts';
import { countView } from '../insights/counters.service.ts';
import { deviceClassOf, hostOf, isBotUserAgent, referrerHostOf, type Segment } from '../insights/dimensions.ts';
import { unsafeStringProblem } from '../limits/json-safety.ts';
import { readJsonObject } from '../limits/request-safety.ts';
import { toFieldErrors } from '../errors.ts';
import { EMBED_QUERY } from './embed-query.ts';
import { FORM_CLOSED, FORM_CLOSED_STATUS, liveForm, type PublicContext, type PublicDeps, type PublicRequest } from './context.ts';

/**
 * The query parameter that carries a new respondent's referrer host from the first step's page to its
 * post (the post's own Referer is the form's page). A hyphen: never a hidden field's name.
 */
export const REFERRER_PARAM = 'fl-referrer';

const isEmbedded = (c: PublicContext) => c.req.query(EMBED_QUERY.embed) === '1';

/**
 * The host that referred a page request: in embed mode the embedding page (`fl-origin`), else the
 * Referer header's host unless it is this server.
 */
function pageReferrer(c: PublicContext): string {
  const origin = c.req.query(EMBED_QUERY.origin);
  if (isEmbedded(c) && origin) return referrerHostOf(origin);
  return referrerHostOf(c.req.header('referer'), new URL(c.req.url).hostname);
}

/** `&fl-referrer=<host>` for the first step's form action, or '' without a referrer (and in embed mode, whose posts carry `fl-origin`). */
export function referrerQuery(c: PublicContext): string {
  const host = isEmbedded(c) ? '' : pageReferrer(c);
  return host ? `&${REFERRER_PARAM}=${encodeURIComponent(host)}` : '';
}

/** The referrer host a page post carries for the response it starts: `fl-referrer`, in embed mode the embedding page ('' when none). */
export const postedReferrer = (c: PublicContext): string => (isEmbedded(c) ? pageReferrer(c) : hostOf(c.req.query(REFERRER_PARAM) ?? ''));

/** The referrer host of a JSON API request: its Referer header's host (a browser sends the calling page's origin). */
export const apiReferrer = (c: PublicContext): string => referrerHostOf(c.req.header('referer'), new URL(c.req.url).hostname);

/** A view's segment; its language as a response's (a multilingual form's: the language shown, else the form's locale). */
const segmentOf = (c: PublicContext, form: Form, referrer: string, hidden: Record<string, string>, language?: string): Segment => ({
  device: deviceClassOf(c.req.header('user-agent')),
  language: form.languages ? (language ?? form.languages.default) : form.locale,
  referrer,
  hidden,
});

/** Counts a page view of the first step (not a bot's), with the hidden values the page brings. */
export async function countPageView(deps: Pick<PublicDeps, 'db'>, c: PublicContext, form: Form, hidden: Record<string, string>, language?: string): Promise<void> {
  if (isBotUserAgent(c.req.header('user-agent'))) return;
  await countView(deps.db, form, segmentOf(c, form, pageReferrer(c), hidden, language));
}

const hiddenValue = z
  .string()
  .max(LOGIC_LIMITS.maxValueLength)
  .superRefine((value, ctx) => {
    const problem = unsafeStringProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: `A hidden field value ${problem}` });
  });
const viewSchema = z.strictObject({
  // Names the form does not declare are ignored, as a response's are.
  hiddenFields: z.record(z.string().max(256), hiddenValue).optional(),
  /** The page showing the form: an address (https://www.example.com/pricing) or a host. */
  referrer: z.string().max(2048).optional(),
});

/** `POST /s/:formId/views` `{hiddenFields?, referrer?}` → 202 `{counted}`. */
export async function reportView({ c, deps, formId }: PublicRequest): Promise<Response> {
  const form = await liveForm(deps.db, formId);
  if (!form) return c.json({ message: 'Form not found' }, 404);
  if (form.status === 'closed') return c.json(FORM_CLOSED, FORM_CLOSED_STATUS);
  const read = await readJsonObject(c, deps.config.maxJsonDepth);
  if ('response' in read) return read.response;
  const parsed = viewSchema.safeParse(read.body);
  if (!parsed.success) return c.json({ message: 'Invalid request body', errors: toFieldErrors(parsed.error.issues) }, 400);
  if (isBotUserAgent(c.req.header('user-agent'))) return c.json({ counted: false }, 202);
  const sent = parsed.data.referrer;
  const referrer = sent === undefined ? apiReferrer(c) : sent.includes('/') ? referrerHostOf(sent) : hostOf(sent);
  const hidden = Object.fromEntries(Object.entries(parsed.data.hiddenFields ?? {}).filter(([name]) => form.hiddenFields.includes(name)));
  await countView(deps.db, form, segmentOf(c, form, referrer, hidden));
  return c.json({ counted: true }, 202);
}
