/** How a public page is sent: its Content-Security-Policy, the security headers, and the message pages. */
import { randomBytes } from 'node:crypto';
import { SELF_HOSTED_FONTS } from '../config.ts';
import type { Form } from '../forms/forms.service.ts';
import { pageSecurityHeaders } from '../limits/security-headers.ts';
import { FORM_CLOSED_STATUS, type PublicContext } from './context.ts';
import { embedChromeOf } from './embed-query.ts';
import { renderClosedPage, renderMessagePage } from './render.ts';

export const newNonce = () => randomBytes(16).toString('base64');

/** The page's Content-Security-Policy: nothing but our nonce'd style and script, the theme's font service, and the step's calendars and captcha provider. */
export function pageCsp(nonce: string, options: { fontsCssUrl?: string | undefined; frameOrigins?: readonly string[]; scriptOrigins?: readonly string[] }): string {
  const selfHosted = options.fontsCssUrl === SELF_HOSTED_FONTS;
  const fontsOrigin = options.fontsCssUrl && !selfHosted ? new URL(options.fontsCssUrl).origin : undefined;
  const frames = options.frameOrigins ?? [];
  const scripts = options.scriptOrigins ?? [];
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'${scripts.map((origin) => ` ${origin}`).join('')}`,
    `style-src 'nonce-${nonce}'${fontsOrigin ? ` ${fontsOrigin}` : ''}${selfHosted ? " 'self'" : ''}`,
    fontsOrigin ? "font-src 'self' https:" : "font-src 'self'",
    "img-src 'self' https: http: data: blob:",
    // The FileUploader's script uploads to this server.
    "connect-src 'self'",
    `frame-src ${frames.length > 0 ? frames.join(' ') : "'none'"}`,
    "form-action 'self'",
    "base-uri 'none'",
  ].join('; ');
}

/**
 * Sends an HTML page with the security headers every public page carries. Pages hold answers: never
 * cached. Who may frame them (forms are embedded on customers' sites) is FRAME_ANCESTORS.
 */
export function sendHtml(c: PublicContext, body: string, status: number, csp: string): Response {
  const frameAncestors = c.var.frameAncestors ?? "'self'";
  c.header('Content-Security-Policy', `${csp}; frame-ancestors ${frameAncestors}`);
  for (const [name, value] of Object.entries(pageSecurityHeaders(frameAncestors))) c.header(name, value);
  c.header('Referrer-Policy', 'strict-origin-when-cross-origin');
  c.header('Cache-Control', 'no-store');
  return c.html(body, status as 200);
}

/** A message page; in embed mode with the embed's chrome, so the embedding page shows it too. */
export async function sendMessagePage(c: PublicContext, status: number, title: string, message: string, options: Parameters<typeof renderMessagePage>[3] = {}): Promise<Response> {
  const nonce = newNonce();
  const page = await renderMessagePage({ nonce, fontsCssUrl: undefined, embed: embedChromeOf(c) }, title, message, options);
  return sendHtml(c, page.toString(), status, pageCsp(nonce, {}));
}

export const notFoundPage = (c: PublicContext) => sendMessagePage(c, 404, 'Form not found', 'This form does not exist or is no longer available.');

/** A closed form's page: its theme, "no longer accepting responses", 410 (in embed mode, with the embed's chrome). */
export async function closedFormPage(c: PublicContext, form: Form, fontsCssUrl: string | undefined): Promise<Response> {
  const nonce = newNonce();
  const page = await renderClosedPage(form, { nonce, fontsCssUrl, embed: embedChromeOf(c) });
  return sendHtml(c, page.toString(), FORM_CLOSED_STATUS, pageCsp(nonce, { fontsCssUrl }));
}
