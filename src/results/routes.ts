/**
 * The read-only results page, `GET /r/<token>` (share links: insights/share-links.service.ts). Rate-limited
 * with the public pages (PUBLIC_PAGE_RATE_LIMIT per client address), never cached, not indexed, not
 * framed, no referrer sent on. An unknown, expired or revoked token, or a deleted form, is one 404 page:
 * each request looks the link up, so a revocation holds on every node at once. The page is read in the
 * form's language the request asks for (`?lang=`, `Accept-Language`: language.ts), its message pages in
 * the reader's.
 */
import { randomBytes } from 'node:crypto';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { primaryReads, type LagTolerantReads } from '../db/replicas.ts';
import { appErrorOf } from '../graphql/errors.ts';
import type { AppEnv } from '../http.ts';
import { readResults, type Results } from '../insights/results.service.ts';
import { FreshFor } from './cache.ts';
import { openShareLink } from '../insights/share-links.service.ts';
import { clientAddressKey, rateLimitHeaders, type RateLimit } from '../limits/rate-limits.ts';
import { pageSecurityHeaders } from '../limits/security-headers.ts';
import { clientIp } from '../request-info.ts';
import { renderResultsMessage, renderResultsPage } from './page.ts';
import { messageLanguage, resultsIn, resultsLanguage, type ResultsLanguageRequest } from './language.ts';
import { resultsWords } from './words.ts';

export interface ResultsDeps {
  db: Db;
  /** Where the page's figures are read (summaries tolerate a replica's lag); default the primary. */
  reads?: LagTolerantReads | undefined;
  /** `resultsFreshMs`: how long a node reuses a form's computed figures (RESULTS_FRESH_SECONDS). */
  config: Pick<Config, 'trustProxy' | 'resultsFreshMs'>;
  /** The public pages' rate limit per client address. */
  pageLimit: RateLimit;
}

/** Forms whose figures a node remembers at once. */
const RESULTS_REMEMBERED = 200;

/** The page's policy: its nonce'd stylesheet and nothing else; no form posts, no framing. */
const csp = (nonce: string) => `default-src 'none'; style-src 'nonce-${nonce}'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

async function sendPage(c: Context<AppEnv>, status: number, render: (nonce: string) => ReturnType<typeof renderResultsPage>) {
  const nonce = randomBytes(16).toString('base64');
  c.header('Content-Security-Policy', csp(nonce));
  for (const [name, value] of Object.entries(pageSecurityHeaders("'none'"))) c.header(name, value);
  c.header('X-Frame-Options', 'DENY');
  c.header('Referrer-Policy', 'no-referrer');
  c.header('X-Robots-Tag', 'noindex, nofollow');
  c.header('Cache-Control', 'no-store');
  c.header('Cross-Origin-Resource-Policy', 'same-origin');
  return c.html((await render(nonce)).toString(), status as 200);
}

/** A results page's message page, in English (the edge's 400 for a hostile address). */
export const sendResultsMessage = (c: Context<AppEnv>, status: number, title: string, text: string) =>
  sendPage(c, status, (nonce) => renderResultsMessage(title, text, nonce, 'en'));

/** What a request says about the language it is read in: `?lang=`, `Accept-Language`. */
const languageRequest = (c: Context<AppEnv>): ResultsLanguageRequest => ({ lang: c.req.query('lang'), acceptLanguage: c.req.header('accept-language') });

/** A message page in the reader's language (no form known: any built-in language), its words picked by `pick`. */
function sendMessage(c: Context<AppEnv>, status: number, pick: (words: ReturnType<typeof resultsWords>) => [string, string]) {
  const language = messageLanguage(languageRequest(c));
  const [title, text] = pick(resultsWords(language));
  return sendPage(c, status, (nonce) => renderResultsMessage(title, text, nonce, language));
}

/** A request for a results page (`/r/…`), which answers in HTML. */
export const isResultsPageRequest = (c: Context) => c.req.path.startsWith('/r/');

function rateLimited(deps: ResultsDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const decision = await deps.pageLimit.consume(clientAddressKey(clientIp(c, deps.config.trustProxy)));
    const headers = rateLimitHeaders(decision);
    if (!decision.allowed) {
      c.header('Retry-After', String(decision.resetSeconds));
      for (const [name, value] of Object.entries(headers)) c.header(name, value);
      return sendMessage(c, 429, (words) => [words.tooManyTitle, words.tooManyText]);
    }
    await next();
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
  };
}

export function resultsRoutes(deps: ResultsDeps) {
  const app = new Hono<AppEnv>();
  const reads = deps.reads ?? primaryReads(deps.db);
  const fresh = new FreshFor<Results>(deps.config.resultsFreshMs, RESULTS_REMEMBERED);
  app.get('/r/:token', rateLimited(deps), async (c) => {
    const opened = await openShareLink(deps.db, c.req.param('token'));
    if (!opened) return sendMessage(c, 404, (words) => [words.notFoundTitle, words.notFoundText]);
    const { form, link } = opened;
    // Keyed by the form's version too: an edited form is drawn with its new steps at once.
    const key = `${form.id}:${form.version}:${link.includeTextAnswers}`;
    const results = await fresh.get(key, () => readResults(reads, form, link.includeTextAnswers));
    const language = resultsLanguage(form, languageRequest(c));
    return sendPage(c, 200, (nonce) => renderResultsPage(resultsIn(results, language), nonce));
  });
  app.all('/r/:token', (c) => {
    c.header('Allow', 'GET');
    return sendResultsMessage(c, 405, 'Method not allowed', `This page answers GET, not ${c.req.method}.`);
  });
  app.onError((error, c) => {
    if (appErrorOf(error)?.code === 'UNAVAILABLE') {
      c.var.log.warn({ err: error }, 'database unavailable');
      return sendMessage(c, 503, (words) => [words.errorTitle, words.errorText]);
    }
    c.var.log.error({ err: error }, 'unexpected error');
    return sendMessage(c, 500, (words) => [words.errorTitle, words.errorText]);
  });
  return app;
}
