/**
 * The page's stylesheet, built from the form's theme: fonts, colours, background, layout and one
 * rule per component type from `theme.componentStyles`. Theme values are validated to CSS-safe
 * shapes when stored (theme.ts); URLs are re-encoded here anyway before they enter the CSS.
 */
import { COMPONENT_MODULES, moduleOf } from '../components/catalogue.ts';
import { defaultComponentStyle } from '../forms/theme.ts';
import { backgroundFor, mix, NON_TEXT_CONTRAST, readableOn } from './contrast.ts';
import type { ComponentStyle, Theme } from '../db/json-columns.ts';
import { SELF_HOSTED_FONTS } from '../config.ts';
import { selfHostedStylesheet } from './fonts.ts';

const WIDTHS = { narrow: '560px', medium: '700px', wide: '920px' } as const;
const FONT_STACK = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';
const SYSTEM_FONTS = new Set(['system-ui', 'sans-serif', 'serif', 'monospace', 'arial', 'helvetica', 'georgia', 'times new roman', 'verdana', 'tahoma', 'courier new']);

/** Only characters that are safe inside `url("…")` in a `<style>` element survive; others are percent-encoded. */
function cssUrl(value: string): string {
  const href = new URL(value).href;
  return `url("${href.replace(/[^\w\-.~:/?#[\]@!$&*+,;=%]/g, (ch) => encodeURIComponent(ch).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`))}")`;
}

const fontFamily = (name: string) => `"${name.replace(/[^A-Z0-9 -]/gi, '')}", ${FONT_STACK}`;

/**
 * The stylesheets that serve the theme's fonts: formloom's own per family it ships (`SELF_HOSTED_FONTS`:
 * the others fall back to the system stack), else one from the configured service; none when no font
 * needs loading or none may be loaded.
 */
export function fontsStylesheetUrls(theme: Theme, serviceUrl: string | undefined): string[] {
  if (!serviceUrl) return [];
  const names = [...new Set([theme.fonts.heading, theme.fonts.body])].filter((name) => !SYSTEM_FONTS.has(name.toLowerCase()));
  if (serviceUrl === SELF_HOSTED_FONTS) return [...new Set(names.map(selfHostedStylesheet).filter((path) => path !== undefined))];
  if (names.length === 0) return [];
  const families = names.map((name) => `family=${name.replace(/[^A-Z0-9 -]/gi, '').replace(/ /g, '+')}:wght@400;600;700`);
  return [`${serviceUrl}?${families.join('&')}&display=swap`];
}

function background(theme: Theme): string {
  const bg = theme.background;
  switch (bg.type) {
    case 'color':
      return `background: ${bg.color};`;
    case 'gradient':
      return `background: ${bg.to} linear-gradient(${bg.angle}deg, ${bg.from}, ${bg.to});`;
    case 'image': {
      const overlay = bg.overlay ? `linear-gradient(${bg.overlay}, ${bg.overlay}), ` : '';
      return `background: ${theme.colors.background} ${overlay}${cssUrl(bg.url)} center / cover no-repeat;`;
    }
  }
}

/** The styling of a component type: the theme's, else the default derived from the theme's colours. */
function componentStyle(theme: Theme, type: string): ComponentStyle {
  return theme.componentStyles[type] ?? defaultComponentStyle(type, theme.colors);
}

/**
 * The colours text sits on outside fields: the page background (both ends of a gradient; an image's
 * overlay, else the theme's background colour, since the image itself can't be measured).
 */
function pageBackgrounds(theme: Theme): string[] {
  const bg = theme.background;
  switch (bg.type) {
    case 'color':
      return [bg.color];
    case 'gradient':
      return [bg.from, bg.to];
    case 'image':
      return [bg.overlay ?? theme.colors.background];
  }
}

const DEFAULT_FIELD_BG = '#ffffff';
const ERROR_COLOR = '#b91c1c';

/**
 * A component type's CSS variables. Colours are the theme's, adjusted to pass WCAG AA where the
 * theme's pair would not: text outside fields (`--c-fg`, `--c-muted`, links `--c-link`) against the
 * page background, text inside fields (`--c-field-fg`) against the field's fill, field borders 3:1
 * against the fill, and a button's fill against its text.
 */
function componentVars(style: ComponentStyle, theme: Theme, button: boolean): string {
  const vars: string[] = [];
  const page = pageBackgrounds(theme);
  if (button) {
    const fill = backgroundFor(style.textColor ?? theme.colors.buttonText, style.backgroundColor ?? theme.colors.primary);
    vars.push(`--c-bg: ${fill.background}`, `--c-fg: ${fill.foreground}`);
  } else {
    const fieldBg = style.backgroundColor ?? DEFAULT_FIELD_BG;
    const text = style.textColor ?? theme.colors.text;
    const accent = style.accentColor ?? theme.colors.primary;
    const fg = readableOn(text, page);
    vars.push(`--c-bg: ${fieldBg}`, `--c-fg: ${fg}`, `--c-muted: ${readableOn(mix(fg, page[0]!, 0.25), page)}`);
    vars.push(`--c-field-fg: ${readableOn(text, [fieldBg])}`, `--c-placeholder: ${readableOn(mix(text, fieldBg, 0.4), [fieldBg])}`);
    vars.push(`--c-border: ${readableOn(style.borderColor ?? '#d1d5db', [fieldBg], NON_TEXT_CONTRAST)}`);
    vars.push(`--c-accent: ${accent}`, `--c-link: ${readableOn(accent, page)}`, `--c-error: ${readableOn(ERROR_COLOR, page)}`);
  }
  if (style.borderRadius !== undefined) vars.push(`--c-radius: ${style.borderRadius}px`);
  if (style.fontSize !== undefined) vars.push(`--c-fs: ${style.fontSize}px`);
  return vars.join('; ');
}

const BASE = `
*, *::before, *::after { box-sizing: border-box; }
html { min-height: 100%; }
body { margin: 0; min-height: 100vh; color: var(--fl-text); font-family: var(--fl-body); font-size: 16px; line-height: 1.5; -webkit-font-smoothing: antialiased; }
.fl-page { max-width: var(--fl-width); margin: 0 auto; padding: 56px 24px 72px; }
.fl-align-center .fl-page { text-align: center; }
.fl-align-center .fl-field, .fl-align-center .fl-choices, .fl-align-center .fl-input { text-align: start; }
.fl-logo { display: block; max-height: 44px; max-width: 200px; margin: 0 0 28px; }
.fl-align-center .fl-logo { margin: 0 auto 28px; }
.fl-progress { height: 6px; border-radius: 99px; background: color-mix(in srgb, var(--fl-primary) 16%, transparent); overflow: hidden; margin: 0 0 12px; }
.fl-progress > span { display: block; height: 100%; border-radius: 99px; background: var(--fl-primary); }
.fl-form-name { font-family: var(--fl-heading); font-size: 28px; line-height: 1.2; margin: 0 0 24px; }
.fl-step-name { font-size: 13px; font-weight: 600; letter-spacing: .06em; text-transform: uppercase; color: var(--fl-primary-text); margin: 0 0 28px; }
.fl-alert { border: 1px solid #fca5a5; background: #fef2f2; color: #991b1b; border-radius: 10px; padding: 12px 16px; margin: 0 0 24px; text-align: start; }
.fl-alert a { color: inherit; }
.fl-c { --c-bg: #ffffff; --c-fg: var(--fl-text); --c-muted: var(--fl-muted); --c-field-fg: #111827; --c-placeholder: #6b7280; --c-border: #8b919c;
  --c-accent: var(--fl-primary); --c-link: var(--fl-primary-text); --c-error: var(--fl-error); --c-radius: 8px; --c-fs: 16px;
  margin: 0 0 28px; font-size: var(--c-fs); color: var(--c-fg); }
.fl-c .fl-label, .fl-question { display: block; font-weight: 600; margin: 0 0 8px; }
.fl-question { font-size: 1.1em; }
.fl-sub { margin: -4px 0 12px; color: var(--c-muted); }
.fl-field { margin: 0 0 16px; }
.fl-field:last-child { margin-bottom: 0; }
.fl-input { display: block; width: 100%; padding: 11px 14px; font: inherit; color: var(--c-field-fg); background: var(--c-bg);
  border: 1px solid var(--c-border); border-radius: var(--c-radius); outline: none; transition: border-color .15s, box-shadow .15s; }
textarea.fl-input { min-height: 128px; resize: vertical; }
select.fl-input[multiple] { min-height: 140px; padding: 6px; }
.fl-input::placeholder { color: var(--c-placeholder); opacity: 1; }
.fl-input:focus { border-color: var(--c-accent); box-shadow: 0 0 0 3px color-mix(in srgb, var(--c-accent) 22%, transparent); }
.fl-invalid .fl-input, .fl-invalid .fl-choice { border-color: var(--c-error, #dc2626); }
/* Keyboard focus is always visible: an outline in the accent colour, readable on the page background (3:1 or more). */
.fl-input:focus-visible, .fl-choice:has(input:focus-visible), .fl-check:has(input:focus-visible), .fl-c a:focus-visible { outline: 3px solid var(--c-link); outline-offset: 2px; }
.fl-error { color: var(--c-error, var(--fl-error)); font-size: 14px; margin: 6px 0 0; }
.fl-phone { display: flex; gap: 8px; }
.fl-phone select.fl-input { flex: 0 0 auto; width: auto; max-width: 45%; }
.fl-fieldset { border: 0; padding: 0; margin: 0; min-width: 0; }
.fl-fieldset legend { padding: 0; }
.fl-choices { display: grid; gap: 8px; }
.fl-choice { display: flex; align-items: center; gap: 10px; padding: 11px 14px; background: var(--c-bg); color: var(--c-field-fg);
  border: 1px solid var(--c-border); border-radius: var(--c-radius); cursor: pointer; text-align: start; }
.fl-choice input { accent-color: var(--c-accent); width: 24px; height: 24px; margin: 0; flex: 0 0 auto; }
.fl-choice:has(input:checked) { border-color: var(--c-accent); box-shadow: inset 0 0 0 1px var(--c-accent); }
.fl-choice .fl-input { margin-inline-start: 4px; padding: 6px 10px; }
.fl-graphic { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 12px; }
.fl-graphic .fl-choice { flex-direction: column; align-items: stretch; }
.fl-graphic img { width: 100%; aspect-ratio: 4 / 3; object-fit: cover; border-radius: calc(var(--c-radius) / 2); }
.fl-graphic .fl-choice span { display: flex; gap: 8px; align-items: center; }
${[...new Set(COMPONENT_MODULES.flatMap((module) => (module.style?.css ? [module.style.css] : [])))].join('\n')}
.fl-disclaimer-text { margin: 0 0 10px; white-space: pre-line; }
.fl-check { display: flex; gap: 10px; align-items: flex-start; cursor: pointer; }
.fl-check input { accent-color: var(--c-accent); width: 24px; height: 24px; margin: 0; flex: 0 0 auto; }
.fl-calendar-frame { display: block; width: 100%; height: 700px; background: #fff; border: 1px solid var(--c-border, #d1d5db); border-radius: var(--c-radius); }
.fl-calendar-link { display: inline-block; margin-top: 8px; color: var(--c-link); }
.fl-note { color: var(--c-muted, var(--fl-muted)); font-size: 14px; }
.fl-actions { display: flex; gap: 12px; align-items: center; flex-wrap: wrap; margin-top: 8px; }
.fl-align-center .fl-actions { justify-content: center; }
.fl-button { --c-bg: var(--fl-button-bg); --c-fg: var(--fl-button-text); --c-radius: 8px; --c-fs: 16px;
  display: inline-flex; align-items: center; justify-content: center; min-width: 120px; padding: 12px 28px; font: inherit; font-size: var(--c-fs);
  font-weight: 600; color: var(--c-fg); background: var(--c-bg); border: 0; border-radius: var(--c-radius); cursor: pointer; text-decoration: none; }
.fl-button:hover { filter: brightness(1.06); }
.fl-button:focus-visible { outline: 3px solid var(--fl-primary-text); outline-offset: 2px; }
.fl-back { color: var(--fl-muted); text-decoration: underline; font-weight: 600; }
.fl-back:hover { color: var(--fl-text); }
.fl-hidden { display: none !important; }
.fl-center { text-align: center; padding-top: 12vh; }
.fl-center h1 { font-family: var(--fl-heading); }
.fl-alert-title { margin: 0 0 4px; font-weight: 600; }
.fl-alert ul { margin: 0; padding-inline-start: 20px; }
/* On a phone the buttons span the width: one large target each, the submit button first in reach. */
@media (max-width: 480px) {
  .fl-actions { flex-direction: column-reverse; align-items: stretch; }
  .fl-actions .fl-button { width: 100%; }
  .fl-actions .fl-back { text-align: center; padding: 10px 0; }
}
@media (prefers-reduced-motion: reduce) {
  *, *::before, *::after { transition: none !important; animation: none !important; scroll-behavior: auto !important; }
}
.fl-languages ul { display: flex; flex-wrap: wrap; justify-content: flex-end; gap: 4px 16px; list-style: none; margin: 0 0 20px; padding: 0; font-size: 14px; }
.fl-languages a { color: var(--fl-primary-text); display: inline-block; padding: 4px 0; }
.fl-languages a[aria-current] { color: var(--fl-text); font-weight: 600; text-decoration: none; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`;

export interface PageCssOptions {
  /** Component types on the page. */
  types: Iterable<string>;
  /** Progress through the form, 0..1; omitted: no progress bar. */
  progress?: number | undefined;
  /** Embed mode: no page chrome (the viewport-high page, its wide margins), and a transparent background when asked. */
  embed?: { transparent: boolean } | undefined;
}

/**
 * In a frame: as high as the content (the frame is resized to it), with narrower margins; transparent:
 * the host page's background shows through.
 */
const EMBED = `
.fl-embed body { min-height: 0; }
.fl-embed .fl-page { padding: 24px 20px 28px; }
.fl-embed .fl-center { padding-top: 24px; }
`;
const TRANSPARENT = `html.fl-transparent, .fl-transparent body { background: transparent; }`;

/** The page-wide colours, each adjusted to pass AA against the page background (see componentVars). */
function rootColors(theme: Theme): string {
  const page = pageBackgrounds(theme);
  const text = readableOn(theme.colors.text, page);
  const button = backgroundFor(theme.colors.buttonText, theme.colors.primary);
  return [
    `--fl-primary: ${theme.colors.primary}`,
    `--fl-primary-text: ${readableOn(theme.colors.primary, page)}`,
    `--fl-text: ${text}`,
    `--fl-muted: ${readableOn(mix(text, page[0]!, 0.25), page)}`,
    `--fl-error: ${readableOn(ERROR_COLOR, page)}`,
    `--fl-button-bg: ${button.background}`,
    `--fl-button-text: ${button.foreground};`,
  ].join('; ');
}

/**
 * The stylesheets made lately, by theme and options: adjusting colours to contrast costs about 2 ms a
 * page, and a form's pages ask for the same few stylesheets again and again. Bounded, oldest dropped first.
 */
const madeStylesheets = new Map<string, string>();
const MADE_STYLESHEETS_MAX = 256;

/** The stylesheet of one page of a form. */
export function pageCss(theme: Theme, options: PageCssOptions): string {
  const types = [...new Set(options.types)];
  const key = JSON.stringify([theme, types, options.embed ?? null, options.progress ?? null]);
  const made = madeStylesheets.get(key);
  if (made !== undefined) return made;
  const css = makePageCss(theme, { ...options, types });
  madeStylesheets.set(key, css);
  if (madeStylesheets.size > MADE_STYLESHEETS_MAX) madeStylesheets.delete(madeStylesheets.keys().next().value!);
  return css;
}

function makePageCss(theme: Theme, options: PageCssOptions): string {
  const rules = [
    `:root { ${rootColors(theme)}` + ` --fl-heading: ${fontFamily(theme.fonts.heading)}; --fl-body: ${fontFamily(theme.fonts.body)}; --fl-width: ${WIDTHS[theme.layout.width]}; }`,
    `body { ${background(theme)} }`,
    BASE,
  ];
  for (const type of options.types) {
    if (!/^[A-Z]+$/i.test(type)) continue;
    const button = moduleOf(type)?.style?.button === true;
    const vars = componentVars(componentStyle(theme, type), theme, button);
    if (!vars) continue;
    const selector = button ? `.fl-button.fl-t-${type}` : `.fl-c.fl-t-${type}`;
    rules.push(`${selector} { ${vars}; }`);
  }
  if (options.embed) rules.push(EMBED, ...(options.embed.transparent ? [TRANSPARENT] : []));
  if (options.progress !== undefined) rules.push(`.fl-progress > span { width: ${Math.round(Math.min(1, Math.max(0, options.progress)) * 1000) / 10}%; }`);
  return rules.join('\n');
}
