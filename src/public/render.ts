/**
 * Server-rendered HTML of the public form pages: the document, the step's shell and the thank-you,
 * closed and message pages. Each component's markup comes from its module (src/components/). Every
 * interpolation goes through hono/html's `html` tag, which escapes it; only the generated stylesheet
 * and the fixed client script are inserted raw. Each step is a plain `<form method="post">`, so the
 * page works without JavaScript.
 */
import { html, raw } from 'hono/html';
import { actions, BUTTON_TYPES } from '../components/buttons.ts';
import { moduleOf } from '../components/catalogue.ts';
import { isHttpUrl, type StoredComponent, type StoredStep } from '../components/content.ts';
import { textOnly, type FieldMessages, type Html, type PageChrome, type RenderContext, type StepPageInput } from '../components/markup.ts';
import type { Form } from '../forms/forms.service.ts';
import { DEFAULT_THEME, type Theme } from '../forms/theme.ts';
import { CLIENT_SCRIPT } from './client-script.ts';
import { fontsStylesheetUrl, pageCss } from './styles.ts';

export type { FieldMessages, PageChrome, StepPageInput } from '../components/markup.ts';

// ---------------------------------------------------------------- documents

function document(theme: Theme, chrome: PageChrome, title: string, types: Iterable<string>, body: Html, progress?: number): Html {
  const fonts = fontsStylesheetUrl(theme, chrome.fontsCssUrl);
  const css = pageCss(theme, { types, progress }).replace(/<\//g, '<\\/');
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="strict-origin-when-cross-origin">
<link rel="icon" href="data:,">
<title>${title}</title>
${fonts ? html`<link rel="stylesheet" href="${fonts}">` : ''}
<style nonce="${chrome.nonce}">${raw(css)}</style>
</head>
<body class="fl-align-${theme.layout.align}">
${body}
<script nonce="${chrome.nonce}">${raw(CLIENT_SCRIPT)}</script>
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
  const total = form.steps.length;
  const isLast = stepIndex === total - 1;
  const ctx: RenderContext = { ...input, step, isLast };
  const hasButtons = step.components.some((c) => BUTTON_TYPES.includes(c.type));
  const invalid = input.errors.size > 0;
  const multipart = step.components.some((c) => moduleOf(c.type)?.multipart === true);
  const types = new Set(step.components.map((c) => c.type));
  types.add('NextButton');
  const body = html`<main class="fl-page">
${logo(theme)}
${theme.layout.showProgressBar ? html`<div class="fl-progress" role="progressbar" aria-label="Progress" aria-valuemin="1" aria-valuemax="${total}" aria-valuenow="${stepIndex + 1}"><span></span></div>` : ''}
<p class="fl-step-name">${step.name}<span class="sr-only"> (step ${stepIndex + 1} of ${total})</span></p>
${invalid ? errorSummary(step, input.errors) : ''}
${input.notices.map((n) => html`<div class="fl-alert" role="alert">${n.message}${n.href ? html` <a href="${n.href}">${n.linkText ?? 'Go there'}</a>` : ''}</div>`)}
<form method="post" action="/s/${form.id}?step=${stepIndex}${input.actionQuery ?? ''}" accept-charset="utf-8"${multipart ? html` enctype="multipart/form-data"` : ''}>
${step.components.map((component) => renderComponent(component, ctx))}
${hasButtons ? '' : actions(ctx, undefined, undefined)}
</form>
</main>`;
  // Screen readers announce the title first: the step, where it is in the form, and whether it came back with errors.
  const title = `${invalid ? 'Error: ' : ''}${step.name} (step ${stepIndex + 1} of ${total}) – ${form.name}`;
  return document(theme, input, title, types, body, theme.layout.showProgressBar ? (stepIndex + 1) / total : undefined);
}

/** How a response ended: the final screen says which (class `fl-final-completed` / `fl-final-invalid`). */
export type FinalState = 'completed' | 'invalid';

/**
 * The final screen of a response: the completion or invalid step that ended it (its components, without
 * a form to post), or the default thank-you when the path ended otherwise.
 */
export function renderFinalPage(form: Form, chrome: PageChrome, state: FinalState, step?: StoredStep): Html {
  const content = step
    ? html`${step.components.filter((c) => !BUTTON_TYPES.includes(c.type)).map((component) => renderFinalComponent(form, step, component, chrome))}`
    : state === 'completed'
      ? html`<h1>Thank you!</h1>
<p>Your response has been recorded.</p>`
      : html`<h1>Thank you for your time</h1>
<p>Your answers have been recorded.</p>`;
  const body = html`<main class="fl-page fl-center fl-final fl-final-${state}">
${logo(form.theme)}
${content}
<p><a class="fl-back" href="/s/${form.id}?new=1">Submit another response</a></p>
</main>`;
  const types = step ? new Set(step.components.map((c) => c.type)) : [];
  return document(form.theme, chrome, step ? `${step.name} – ${form.name}` : form.name, types, body);
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

/** A closed form: its theme and name, and that it no longer accepts responses. */
export function renderClosedPage(form: Form, chrome: PageChrome): Html {
  const body = html`<main class="fl-page fl-center">
${logo(form.theme)}
<h1>${form.name}</h1>
<p>This form is no longer accepting responses.</p>
</main>`;
  return document(form.theme, chrome, form.name, [], body);
}

/** A plain page for 404s and other errors (no form theme: the form may not exist). */
export function renderMessagePage(chrome: PageChrome, title: string, message: string): Html {
  const body = html`<main class="fl-page fl-center"><h1>${title}</h1><p>${message}</p></main>`;
  return document(DEFAULT_THEME, { ...chrome, fontsCssUrl: undefined }, title, [], body);
}

// ---------------------------------------------------------------- components

/**
 * The list of what is wrong at the top of a step shown again with errors, each linked to its question
 * (the client script moves focus to the first invalid field; the links work without it).
 */
function errorSummary(step: StoredStep, errors: FieldMessages): Html {
  const items = step.components.flatMap((component) => {
    const messages = [...errors].filter(([key]) => key === component.id || key.startsWith(`${component.id}.`)).flatMap(([, list]) => list);
    if (messages.length === 0) return [];
    const question = typeof component.content.question === 'string' && component.content.question !== '' ? `${component.content.question}: ` : '';
    return [html`<li><a href="#q-${component.id}">${question}${messages.join(' ')}</a></li>`];
  });
  if (items.length === 0) return html`<div class="fl-alert" role="alert" id="fl-error-summary">Please check the highlighted answers.</div>`;
  return html`<div class="fl-alert" role="alert" id="fl-error-summary"><p class="fl-alert-title">Please check ${items.length === 1 ? 'this answer' : `these ${items.length} answers`}:</p><ul>${items}</ul></div>`;
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
