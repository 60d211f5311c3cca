/**
 * The form page's request context (`GET`/`POST /s/:formId`), made once per request by `openPage`: the
 * live form, how its session travels (page-session.ts), who may frame the page, and the addresses
 * of its steps. Also the path rules both the step page and the step post follow.
 */
import type { Form } from '../forms/forms.service.ts';
import { LOGIC_LIMITS } from '../forms/logic.ts';
import { embedOriginsOf, frameAncestorsFor } from '../embed/embed-origins.ts';
import { pageWords } from '../i18n/locales.ts';
import { matchLanguage, negotiateLanguage } from '../i18n/negotiate.ts';
import { languagesOf, localizeForm } from '../forms/translations.ts';
import { unsafeStringProblem } from '../limits/json-safety.ts';
import { takesResponses } from '../responses/gate.ts';
import type { WalkedPath } from '../responses/path.ts';
import { handle, liveForm, type PublicContext, type PublicDeps, type PublicRequest } from './context.ts';
import { embedRequestOf, embedStartQuery } from './embed-query.ts';
import { closedFormPage, notFoundPage, sendMessagePage } from './html-response.ts';
import { cookieSession, tokenSession, type PageSession } from './page-session.ts';

export interface PageRequest extends PublicRequest {
  /** The live form as it is now (a response may be answered on an earlier version of it). */
  readonly current: Form;
  readonly session: PageSession;
  /** The language the respondent reads (languages.md): `?lang=`, else Accept-Language, else the default. */
  readonly language: string;
  /** `&lang=<language>` when the respondent chose it (`?lang=`): every link and post carries it, so it sticks. */
  readonly languageQuery: string;
  /** Before a page is sent: who may frame it, its environment's embedOrigins (else FRAME_ANCESTORS); looked up once. */
  framedBy(): Promise<void>;
}

/** A page route's handler over the page's request context (not found, closed and bad embed parameters answered first). */
export const handlePage = (deps: PublicDeps, handler: (page: PageRequest) => Promise<Response>) =>
  handle(deps, async (request) => {
    const opened = await openPage(request);
    return opened instanceof Response ? opened : handler(opened);
  });

/**
 * The live form the page shows, who may frame it, and how its session travels; or the answer to send
 * instead (not found, closed, a bad embed parameter).
 */
async function openPage(request: PublicRequest): Promise<PageRequest | Response> {
  const { c, deps } = request;
  const form = await liveForm(deps.db, request.formId);
  if (!form) return notFoundPage(c);
  let framed = false;
  const framedBy = async () => {
    if (framed) return;
    framed = true;
    c.set('frameAncestors', frameAncestorsFor(await embedOriginsOf(deps.db, form.environmentId), deps.config.frameAncestors));
  };
  const embed = embedRequestOf(c);
  // A GET answers with a page; a step's post mostly with a redirect, so it looks who may frame it up only for a page.
  // Past its schedule or full, a form answers as a closed one does (src/responses/gate.ts); but the final
  // screen of a response that ended (`?done=1`) stays its respondent's, the one whose finish took the last place too.
  const finalScreen = c.req.method === 'GET' && c.req.query('done') !== undefined;
  const closed = form.status === 'closed' || (!finalScreen && !(await takesResponses(deps.db, form)));
  if (c.req.method === 'GET' || (embed && 'problem' in embed) || closed) await framedBy();
  if (embed && 'problem' in embed) return sendMessagePage(c, 400, 'Invalid address', embed.problem);
  const { language, languageQuery } = pageLanguage(c, form);
  if (closed) return closedFormPage(c, localizeForm(form, language), deps.config.fontsCssUrl);
  const session = embed ? tokenSession(deps, form, embed) : cookieSession(c, deps, form);
  return { ...request, current: form, session, framedBy, language, languageQuery };
}

/** The language the page shows `form` in (src/i18n/negotiate.ts), and the query that keeps a chosen one. */
function pageLanguage(c: PublicContext, form: Form): { language: string; languageQuery: string } {
  const languages = languagesOf(form);
  const asked = matchLanguage(c.req.query('lang'), languages);
  const language = negotiateLanguage(languages, { asked, acceptLanguage: c.req.header('accept-language') });
  return { language, languageQuery: asked && form.languages ? `&lang=${asked}` : '' };
}

/** What every link and form post of the page carries: the session's (embed mode) and the chosen language. */
export const carried = (page: PageRequest): string => page.session.carry() + page.languageQuery;

/** The page's own words' locale: the respondent's language (a region the form's locale gives kept for its default). */
export const pageLocale = (page: PageRequest): string => localizeForm(page.current, page.language).locale;

/** `/s/<id>` with `query` (`step=1`) and what the session carries (embed mode), e.g. `/s/<id>?step=1&embed=1…`. */
export function formPath(page: PageRequest, query = ''): string {
  const params = [query, carried(page).replace(/^&/, '')].filter(Boolean).join('&');
  return `/s/${page.current.id}${params ? `?${params}` : ''}`;
}

/** A message page about the form, in its language (after looking up who may frame it). */
export async function formMessagePage(page: PageRequest, status: number, title: string, text: string, link?: { href: string; text: string }): Promise<Response> {
  await page.framedBy();
  const { id: formId } = page.current;
  const locale = pageLocale(page);
  return sendMessagePage(page.c, status, title, text, link ? { link, locale, formId } : { locale, formId });
}

/** Embed mode's answer to a token that continues nothing: 400 "Session expired", a link that starts the form again. */
export function sessionExpired(page: PageRequest): Promise<Response> {
  const form = page.current;
  const words = pageWords(pageLocale(page));
  const link = { href: `/s/${form.id}?${embedStartQuery(page.session.embed!)}${page.languageQuery}`, text: words.startAgain };
  return formMessagePage(page, 400, words.sessionExpiredTitle, words.sessionExpiredText, link);
}

/** `?step=N` as a step of `form`, if it is one. */
export function parseStep(value: string | undefined, form: Form): number | undefined {
  if (value === undefined || !/^\d{1,4}$/.test(value)) return undefined;
  const index = Number(value);
  return index < form.steps.length ? index : undefined;
}

/** The step a respondent is at: the path's next step (the first for a new response; the last on the path once it has ended). */
export const currentStep = (walked: WalkedPath): number => walked.next ?? walked.path.at(-1) ?? 0;

/** Whether step `index` may be shown and posted: a step of the path so far (not its final screen), or its next step. */
export function mayShow(form: Form, walked: WalkedPath, index: number): boolean {
  const step = form.steps[index]!;
  return index === walked.next || (walked.path.includes(index) && !step.completion && !step.invalid);
}

/** The form's declared hidden fields in the request's query: the values a new response brings. */
export function hiddenValues(form: Form, c: PublicContext): Record<string, string> {
  const values: Record<string, string> = {};
  for (const name of form.hiddenFields) {
    const value = c.req.query(name);
    // A value that could not be stored is left out rather than refused: the page still works.
    if (value !== undefined && value.length <= LOGIC_LIMITS.maxValueLength && !unsafeStringProblem(value)) values[name] = value;
  }
  return values;
}

/** The hidden values as query parameters (`&name=value…`), carried by a new response's first step. */
export const hiddenQuery = (form: Form, c: PublicContext): string =>
  Object.entries(hiddenValues(form, c))
    .map(([name, value]) => `&${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
    .join('');
