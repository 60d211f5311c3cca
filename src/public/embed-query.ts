/**
 * Embed mode, as a page's query asks for it (docs/embedding.md): `embed=1`, the embedding page's
 * origin `fl-origin` (where the page's messages go), `fl-transparent=1` (no page background) and, once
 * the page has handed one out, the session token `fl-token` (src/embed/session-token.ts). Names with a
 * hyphen cannot be hidden-field names, so they never collide with a form's own parameters.
 */
import type { Context } from 'hono';
import type { EmbedChrome } from '../components/markup.ts';
import { canonicalOrigin } from '../embed/embed-origins.ts';

export const EMBED_QUERY = { embed: 'embed', origin: 'fl-origin', transparent: 'fl-transparent', token: 'fl-token' } as const;

export interface EmbedRequest {
  chrome: EmbedChrome;
  /** `fl-token` as sent; undefined when there is none, or on a top-level navigation (never in a frame). */
  token: string | undefined;
}

/**
 * The embed mode a page request asks for: undefined outside it (no `embed=1`), or the problem with its
 * parameters (an `fl-origin` that is not an origin).
 */
export function embedRequestOf(c: Context): EmbedRequest | { problem: string } | undefined {
  if (c.req.query(EMBED_QUERY.embed) !== '1') return undefined;
  const origin = c.req.query(EMBED_QUERY.origin);
  const hostOrigin = origin === undefined || origin === '' ? undefined : canonicalOrigin(origin);
  if (origin !== undefined && origin !== '' && hostOrigin === undefined) {
    return { problem: `${EMBED_QUERY.origin} must be the embedding page's origin, such as https://www.example.com` };
  }
  // A link opened in a window of its own (Sec-Fetch-Dest: document) is not the embedding page's frame:
  // whoever sent it may hold its token, so it continues no session and starts a fresh one.
  const topLevel = c.req.header('sec-fetch-dest')?.toLowerCase() === 'document';
  const token = topLevel ? undefined : c.req.query(EMBED_QUERY.token);
  return { chrome: { hostOrigin, transparent: c.req.query(EMBED_QUERY.transparent) === '1' }, token: token === '' ? undefined : token };
}

/** The embed chrome of a request in embed mode (its parameters good), else undefined. */
export function embedChromeOf(c: Context): EmbedChrome | undefined {
  const request = embedRequestOf(c);
  return request && 'chrome' in request ? request.chrome : undefined;
}

/** The embed parameters of `/s/<id>?…` without a session: where an embedded form starts (again). */
export function embedStartQuery(chrome: EmbedChrome): string {
  const params = new URLSearchParams({ [EMBED_QUERY.embed]: '1' });
  if (chrome.hostOrigin) params.set(EMBED_QUERY.origin, chrome.hostOrigin);
  if (chrome.transparent) params.set(EMBED_QUERY.transparent, '1');
  return params.toString();
}
