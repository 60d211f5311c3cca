/**
 * The results page's document: the form's name, the sections (sections.ts, questions.ts) and one
 * nonce'd stylesheet in the form's colours and fonts (only fonts the reader has: the page loads
 * nothing from anywhere). No script: the page works as it arrives. Message pages (404, 429, 5xx) share
 * the document. `<html lang dir>` follow the language read (language.ts); a right-to-left page's
 * tables and lists follow its direction (logical properties), the charts keep their own geometry.
 */
import { html, raw } from 'hono/html';
import { directionOf } from '../i18n/locales.ts';
import type { Theme } from '../db/json-columns.ts';
import { DEFAULT_THEME } from '../forms/theme.ts';
import type { Results } from '../insights/results.service.ts';
import type { Html } from './charts.ts';
import { paletteOf, type Palette } from './colors.ts';
import { questionsSection } from './questions.ts';
import { dropOffSection, funnelSection, seriesSection, type SectionContext } from './sections.ts';
import { formatters, resultsWords } from './words.ts';

const family = (name: string) => `"${name}", system-ui, -apple-system, "Segoe UI", Roboto, sans-serif`;

function css(theme: Theme, p: Palette): string {
  return `*,*::before,*::after{box-sizing:border-box}
body{margin:0;background:${p.background};color:${p.text};font:16px/1.5 ${family(theme.fonts.body)}}
h1,h2,h3,h4{font-family:${family(theme.fonts.heading)};line-height:1.25;margin:1.2em 0 .4em}
h1{font-size:1.9rem;margin-top:.2em}h2{font-size:1.4rem;border-bottom:2px solid ${p.rule};padding-bottom:4px}h3{font-size:1.15rem}h4{font-size:1rem}
.rs-page{max-width:1120px;margin:0 auto;padding:24px 16px 48px}
.rs-eyebrow{margin:0;font-weight:600;color:${p.muted}}
.rs-note{color:${p.muted};font-size:.9rem;margin:.2em 0 .6em}
.rs-figure{display:grid;grid-template-columns:minmax(0,3fr) minmax(0,2fr);gap:24px;align-items:start;margin:12px 0 20px}
.rs-chart{display:block;width:100%;max-width:600px;height:auto;font-size:13px;direction:ltr}
[dir=rtl] .rs-chart{transform:scaleX(-1)}
[dir=rtl] .rs-chart text{transform:scaleX(-1);transform-box:fill-box;transform-origin:center}
table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}
caption{text-align:start;font-weight:600;padding-bottom:4px}
th,td{border-bottom:1px solid ${p.rule};padding:4px 8px;text-align:start;overflow-wrap:break-word;vertical-align:top}
td,thead th+th{text-align:end}
thead th{background:${p.surface};color:${p.surfaceText}}
.rs-figures{display:flex;flex-wrap:wrap;gap:12px;margin:8px 0 12px}
.rs-figures div{border:1px solid ${p.rule};border-radius:8px;padding:8px 12px;min-width:150px}
.rs-figures dt{font-size:.85rem;color:${p.muted}}.rs-figures dd{margin:0;font-size:1.35rem;font-weight:600}
.rs-question{margin-bottom:28px}
.rs-texts{padding-inline-start:1.2em}.rs-texts li{white-space:pre-wrap;overflow-wrap:anywhere;margin:.3em 0}
@media (max-width:760px){.rs-figure{grid-template-columns:minmax(0,1fr)}.rs-chart{font-size:17px}th{overflow-wrap:anywhere}th,td{padding:4px 6px}}`;
}

function document(locale: string, title: string, theme: Theme, nonce: string, body: Html): Html {
  const style = css(theme, paletteOf(theme)).replace(/<\//g, '<\\/');
  return html`<!doctype html>
    <html lang="${locale}" dir="${directionOf(locale)}">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        <meta name="description" content="${title}" />
        <meta name="referrer" content="no-referrer" />
        <link rel="icon" href="data:," />
        <title>${title}</title>
        <style nonce="${nonce}">
          ${raw(style)}
        </style>
      </head>
      <body>
        <div class="rs-page">${body}</div>
      </body>
    </html>`;
}

/** The results page of `results.form`, in its locale (results in a language: language.ts). */
export function renderResultsPage(results: Results, nonce: string): Html {
  const { form, insights } = results;
  const words = resultsWords(form.locale);
  const ctx: SectionContext = { words, format: formatters(form.locale), palette: paletteOf(form.theme) };
  const body = html`<header>
      <p class="rs-eyebrow">${words.results}</p>
      <h1>${form.name}</h1>
      <p class="rs-note">${words.readOnly}</p>
    </header>
    <main>
      ${funnelSection(insights, ctx)} ${dropOffSection(insights, ctx)} ${seriesSection(insights, ctx)}
      ${questionsSection(results.questions, results.textAnswers, ctx)}
    </main>`;
  return document(form.locale, `${form.name} – ${words.results}`, form.theme, nonce, body);
}

/** A short page with a title and a message (unknown link, too many requests, a failure). */
export function renderResultsMessage(title: string, message: string, nonce: string, locale: string): Html {
  return document(
    locale,
    title,
    DEFAULT_THEME,
    nonce,
    html`<main>
      <h1>${title}</h1>
      <p>${message}</p>
    </main>`,
  );
}
