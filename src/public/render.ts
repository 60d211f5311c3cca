/**
 * Server-rendered HTML of the public form pages: the document, the step's shell and the thank-you,
 * closed and message pages. Each component's markup comes from its module (src/components/). Every
 * interpolation goes through hono/html's `html` tag, which escapes it; only the generated stylesheet
 * and the fixed client script are inserted raw. Each step is a plain `<form method="post">`, so the
 * page works without JavaScript.
 */
import { html, raw } from 'hono/html';
import { actions, PLAIN_BUTTON_TYPE } from '../components/buttons.ts';
import { moduleOf } from '../components/catalogue.ts';
import { isHttpUrl } from '../components/content.ts';
import { pageHref, textOnly, type FieldMessages, type Html, type PageChrome, type RenderContext, type StepPageInput } from '../components/markup.ts';
import type { Form } from '../forms/forms.service.ts';
import { DEFAULT_THEME } from '../forms/theme.ts';
import { stepKey } from '../forms/logic.ts';
import { scheduleAt } from '../responses/gate.ts';
import { FRAME_SCRIPT_PATH, PAGE_SCRIPT_PATH } from './page-assets.ts';
import { DEFAULT_LOCALE, directionOf, localizeInstant, pageWords } from '../i18n/locales.ts';
import { fontsStylesheetUrls, pageCss } from './styles.ts';
import type { Theme, StoredComponent, StoredStep } from '../db/json-columns.ts';

export type { FieldMessages, PageChrome, StepPageInput } from '../components/markup.ts';

// ---------------------------------------------------------------- documents

/**
 * What a page is, on its root element (`<html data-state=…>`), for the embed's messages
 * (frame-script.ts) and for tests: a step (`step`), the end of a response (`completed`, or `invalid`
 * when the answers rule it out), a closed form (`closed`), or a message page (`message`).
 */
export type PageState = 'step' | 'completed' | 'invalid' | 'closed' | 'message';

export interface PageRoot {
  state: PageState;
  /** BCP 47 (`<html lang>`). */
  locale: string;
  formId?: string | undefined;
  stepKey?: string | undefined;
  /** 0-based, as in `?step=`. */
  stepIndex?: number | undefined;
  responseId?: string | undefined;
}

function rootAttributes(root: PageRoot, chrome: PageChrome): Html {
  const embed = chrome.embed;
  const classes = embed ? `fl-embed${embed.transparent ? ' fl-transparent' : ''}` : '';
  return html` lang="${root.locale}" dir="${directionOf(root.locale)}"${classes ? html` class="${classes}"` : ''} data-state="${root.state}"${root.formId !== undefined ? html` data-form-id="${root.formId}"` : ''}${root.stepKey !== undefined ? html` data-step-key="${root.stepKey}"` : ''}${root.stepIndex !== undefined ? html` data-step-index="${root.stepIndex}"` : ''}${root.responseId !== undefined ? html` data-response-id="${root.responseId}"` : ''}${embed?.hostOrigin ? html` data-host-origin="${embed.hostOrigin}"` : ''}`;
}

function document(theme: Theme, chrome: PageChrome, title: string, types: Iterable<string>, body: Html, root: PageRoot, progress?: number): Html {
  const fonts = fontsStylesheetUrls(theme, chrome.fontsCssUrl);
  const css = pageCss(theme, { types, progress, embed: chrome.embed }).replace(/<\//g, '<\\/');
  return html`<!doctype html>
<html${rootAttributes(root, chrome)}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="strict-origin-when-cross-origin">
<meta name="description" content="${title}">
<link rel="icon" href="data:,">
<title>${title}</title>
${fonts.map((href) => html`<link rel="stylesheet" href="${href}" nonce="${chrome.nonce}">`)}
<style nonce="${chrome.nonce}">${raw(css)}</style>
</head>
<body class="fl-align-${theme.layout.align}">
${body}
<script nonce="${chrome.nonce}" src="${PAGE_SCRIPT_PATH}"></script>
${chrome.embed?.hostOrigin ? html`<script nonce="${chrome.nonce}" src="${FRAME_SCRIPT_PATH}"></script>` : ''}
</body>
</html>`;
}

function logo(theme: Theme): Html | string {
  const url = theme.layout.logoUrl;
  return url && isHttpUrl(url) ? html`<img class="fl-logo" src="${url}" alt="">` : '';
}

export function renderStepPage(input: StepPageInput): Html {
  const { form, stepIndex } = input;
  const step = form.steps[stepIndex]!;
  const theme = form.theme;
  const words = pageWords(form.locale);
  const total = form.steps.length;
  const isLast = stepIndex === total - 1;
  const ctx: RenderContext = { ...input, step, isLast };
  const hasButtons = step.components.some((c) => moduleOf(c.type)?.submitsStep === true);
  const invalid = input.errors.size > 0;
  const multipart = step.components.some((c) => moduleOf(c.type)?.multipart === true);
  const types = new Set(step.components.map((c) => c.type));
  types.add(PLAIN_BUTTON_TYPE);
  const where = words.stepOf(stepIndex + 1, total);
  const body = html`<main class="fl-page">${languageSwitcher(input.languages, words.language)}
${logo(theme)}
${theme.layout.showProgressBar ? html`<div class="fl-progress" role="progressbar" aria-label="${words.progress}" aria-valuemin="1" aria-valuemax="${total}" aria-valuenow="${stepIndex + 1}"><span></span></div>` : ''}
<p class="fl-step-name">${step.name}<span class="sr-only"> (${where})</span></p>
${step.components.some((c) => moduleOf(c.type)?.stepHeading?.(c) === true) ? '' : html`<h1 class="fl-form-name">${form.name}</h1>`}
${invalid ? errorSummary(step, input.errors, form.locale) : ''}
${input.notices.map((n) => html`<div class="fl-alert" role="alert">${n.message}${n.href ? html` <a href="${n.href}">${n.linkText ?? words.goThere}</a>` : ''}</div>`)}
<form method="post" action="${pageHref(form.id, `step=${stepIndex}${input.actionQuery ?? ''}`, input)}" accept-charset="utf-8"${multipart ? html` enctype="multipart/form-data"` : ''}>
${step.components.map((component) => renderComponent(component, ctx))}
${hasButtons ? '' : actions(ctx, undefined, undefined)}
</form>
</main>`;
  // Screen readers announce the title first: the step, where it is in the form, and whether it came back with errors.
  const title = `${invalid ? `${words.errorTitle}: ` : ''}${step.name} (${where}) – ${form.name}`;
  const root: PageRoot = { state: 'step', locale: form.locale, formId: form.id, stepKey: stepKey(step, stepIndex), stepIndex };
  // The bar shows the steps behind the respondent: full only on the final screen.
  return document(theme, input, title, types, body, root, theme.layout.showProgressBar ? stepIndex / total : undefined);
}

/** How a response ended: finished (`completed`), or ruled out by its answers (`invalid`), with its id. */
export interface ResponseEnd {
  state?: 'completed' | 'invalid';
  responseId?: string | undefined;
  /** The completion or invalid step that ended it: its components are the screen (without a form to post). */
  step?: StoredStep | undefined;
}

/**
 * The final screen of a response: the completion or invalid step that ended it, or the form language's
 * thank-you (or "does not meet the requirements") words when the path ended otherwise. Its class says
 * which (`fl-final-completed` / `fl-final-invalid`), as does the root's `data-state` (embed events).
 */
export function renderFinalPage(form: Form, chrome: PageChrome, end: ResponseEnd = {}): Html {
  const words = pageWords(form.locale);
  const state = end.state ?? 'completed';
  const step = end.step;
  const content = step
    ? html`${step.components.filter((c) => moduleOf(c.type)?.submitsStep !== true).map((component) => renderFinalComponent(form, step, component, chrome))}`
    : html`<h1>${state === 'completed' ? words.thanksTitle : words.invalidTitle}</h1>
<p>${state === 'completed' ? words.thanksText : words.invalidText}</p>`;
  const body = html`<main class="fl-page fl-center fl-final fl-final-${state}">
${logo(form.theme)}
${form.theme.layout.showProgressBar ? html`<div class="fl-progress" role="progressbar" aria-label="${words.progress}" aria-valuemin="0" aria-valuemax="100" aria-valuenow="100"><span></span></div>` : ''}
${content}
${form.allowAnotherResponse ? html`<p><a class="fl-back" href="${pageHref(form.id, 'new=1', chrome)}">${words.anotherResponse}</a></p>` : ''}
</main>`;
  const types = step ? new Set(step.components.map((c) => c.type)) : [];
  const root: PageRoot = { state, locale: form.locale, formId: form.id, responseId: end.responseId };
  return document(form.theme, chrome, step ? `${step.name} – ${form.name}` : form.name, types, body, root, form.theme.layout.showProgressBar ? 1 : undefined);
}

/** A component of a final step: its own markup, as on a step page without errors or answers. */
function renderFinalComponent(form: Form, step: StoredStep, component: StoredComponent, chrome: PageChrome): Html | string {
  const ctx: RenderContext = {
    ...chrome,
    form,
    stepIndex: form.steps.indexOf(step),
    values: new Map(),
    errors: new Map(),
    notices: [],
    prefill: {},
    host: '',
    step,
    isLast: true,
  };
  return renderComponent(component, ctx);
}

/**
 * A closed form: its theme and name, and that it no longer accepts responses; before its `limits.opensAt`,
 * that it is not open yet and when it opens (in the page's language, UTC).
 */
export function renderClosedPage(form: Form, chrome: PageChrome, now = new Date()): Html {
  const words = pageWords(form.locale);
  const opensAt = form.status === 'published' && scheduleAt(form, now) === 'notYetOpen' ? form.limits!.opensAt! : undefined;
  const text = opensAt
    ? html`<p>${form.limits?.notYetOpenMessage ?? words.notYetOpenText}</p>
<p class="fl-opens">${openingLine(words.opensOn, opensAt, form.locale)}</p>`
    : html`<p>${form.limits?.closedMessage ?? words.closedText}</p>`;
  const body = html`<main class="fl-page fl-center">
${logo(form.theme)}
<h1>${form.name}</h1>
${text}
</main>`;
  return document(form.theme, chrome, form.name, [], body, { state: 'closed', locale: form.locale, formId: form.id });
}

/** "It opens on <time>…</time>.": the page's words around the opening time, each escaped. */
function openingLine(opensOn: (when: string) => string, opensAt: string, locale: string): Html {
  const [before = '', after = ''] = opensOn('\uE001').split('\uE001');
  return html`${before}<time datetime="${opensAt}">${localizeInstant(locale, opensAt)}</time>${after}`;
}

/**
 * A plain page for 404s and other errors (no form theme: the form may not exist). `link`: where to go
 * from here; `locale`: the language of the page when a form's own words are used.
 */
export function renderMessagePage(
  chrome: PageChrome,
  title: string,
  message: string,
  options: { link?: { href: string; text: string }; locale?: string; formId?: string } = {},
): Html {
  const link = options.link ? html`<p><a class="fl-back" href="${options.link.href}">${options.link.text}</a></p>` : '';
  const body = html`<main class="fl-page fl-center"><h1>${title}</h1><p>${message}</p>${link}</main>`;
  return document(DEFAULT_THEME, { ...chrome, fontsCssUrl: undefined }, title, [], body, { state: 'message', locale: options.locale ?? DEFAULT_LOCALE, formId: options.formId });
}

/** A multilingual form's language switcher: plain links (no JavaScript), each named in its language, the current one marked. */
function languageSwitcher(links: PageChrome['languages'], label: string): Html | string {
  if (!links || links.length < 2) return '';
  const items = links.map(
    (link) => html`<li><a href="${link.href}" hreflang="${link.language}" lang="${link.language}"${link.current ? html` aria-current="true"` : ''}>${link.name}</a></li>`,
  );
  return html`<nav class="fl-languages" aria-label="${label}"><ul>${items}</ul></nav>`;
}

// ---------------------------------------------------------------- components

/**
 * The list of what is wrong at the top of a step shown again with errors, each linked to its question
 * (the client script moves focus to the first invalid field; the links work without it).
 */
function errorSummary(step: StoredStep, errors: FieldMessages, locale: string): Html {
  const words = pageWords(locale);
  // One link per message, to the field it is about (a part's own field when its module names one).
  const items = step.components.flatMap((component) => {
    const question = typeof component.content.question === 'string' && component.content.question !== '' ? `${component.content.question}: ` : '';
    return [...errors]
      .filter(([key]) => key === component.id || key.startsWith(`${component.id}.`))
      .flatMap(([key, list]) => {
        const part = key === component.id ? undefined : key.slice(component.id.length + 1);
        const anchor = (part === undefined ? undefined : moduleOf(component.type)?.errorAnchor?.(component, part)) ?? `q-${component.id}`;
        return list.map((message) => html`<li><a href="#${anchor}">${question}${message}</a></li>`);
      });
  });
  if (items.length === 0) return html`<div class="fl-alert" role="alert" id="fl-error-summary">${words.checkHighlighted}</div>`;
  return html`<div class="fl-alert" role="alert" id="fl-error-summary"><p class="fl-alert-title">${words.checkAnswers(items.length)}</p><ul>${items}</ul></div>`;
}

function renderComponent(component: StoredComponent, ctx: RenderContext): Html | string {
  const render = moduleOf(component.type)?.render;
  return render ? render(component, ctx) : textOnly(component);
}

/** Origins the step's components embed (the CSP's frame-src); isHttpUrl admits only hosts safe in a CSP. */
export function frameOrigins(step: StoredStep): string[] {
  const origins = new Set<string>();
  for (const component of step.components) for (const origin of moduleOf(component.type)?.frameOrigins?.(component) ?? []) origins.add(origin);
  return [...origins];
}

/** Origins the step's components load scripts from (the CSP's script-src), e.g. a captcha provider's. */
export function scriptOrigins(step: StoredStep): string[] {
  const origins = new Set<string>();
  for (const component of step.components) for (const origin of moduleOf(component.type)?.scriptOrigins?.(component) ?? []) origins.add(origin);
  return [...origins];
}
