/**
 * Server-rendered HTML of the public form pages. Every interpolation goes through hono/html's
 * `html` tag, which escapes it; only the generated stylesheet and the fixed client script are
 * inserted raw. Each step is a plain `<form method="post">`, so the page works without JavaScript.
 */
import { html, raw } from 'hono/html';
import { isBookingType, isHttpUrl, type IdentityField, type StoredComponent, type StoredStep } from '../forms/components.ts';
import type { Form } from '../forms/forms.service.ts';
import { DEFAULT_THEME, type Theme } from '../forms/theme.ts';
import {
  allowsOther,
  dropdownOptions,
  graphicOptions,
  identityFields,
  isFieldRequired,
  maxLengthOf,
  multipleChoices,
  ANSWER_LIMITS,
} from '../responses/shapes.ts';
import { CLIENT_SCRIPT } from './client-script.ts';
import { DIAL_COUNTRIES, dialCountry, splitPhone } from './dial-codes.ts';
import { fieldName, OTHER_CHOICE } from './form-fields.ts';
import { fontsStylesheetUrl, pageCss } from './styles.ts';

type Html = ReturnType<typeof html>;
type Content = Record<string, unknown>;

const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const asObject = (value: unknown): Content => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Content) : {});
const asStrings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : typeof value === 'string' && value !== '' ? [value] : [];
const inputValue = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');

/** Messages per field: key `componentId` for the whole answer, `componentId.fieldKey` for a part. */
export type FieldMessages = Map<string, string[]>;

export interface PageChrome {
  nonce: string;
  /** Theme font stylesheet service (config), if fonts may be loaded. */
  fontsCssUrl: string | undefined;
}

export interface StepPageInput extends PageChrome {
  form: Form;
  stepIndex: number;
  /** Answers to show, in the answer shape (shapes.ts), by component id. */
  values: Map<string, unknown>;
  errors: FieldMessages;
  /** Problems that are not about a field of this step (e.g. unanswered questions on earlier steps). */
  notices: { message: string; href?: string | undefined; linkText?: string | undefined }[];
  /** What earlier steps collected, for schedulers with `prefillEmail`. */
  prefill: { email?: string | undefined; name?: string | undefined };
  /** Host of the page (Calendly wants it to post booking events). */
  host: string;
}

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
  const hasButtons = step.components.some((c) => c.type === 'NextButton' || c.type === 'NextBackButtons');
  const invalid = input.errors.size > 0;
  const types = new Set(step.components.map((c) => c.type));
  types.add('NextButton');
  const body = html`<main class="fl-page">
${logo(theme)}
${theme.layout.showProgressBar ? html`<div class="fl-progress" role="progressbar" aria-label="Progress" aria-valuemin="1" aria-valuemax="${total}" aria-valuenow="${stepIndex + 1}"><span></span></div>` : ''}
<p class="fl-step-name">${step.name}<span class="sr-only"> (step ${stepIndex + 1} of ${total})</span></p>
${invalid ? html`<div class="fl-alert" role="alert">Please check the highlighted answers.</div>` : ''}
${input.notices.map((n) => html`<div class="fl-alert" role="alert">${n.message}${n.href ? html` <a href="${n.href}">${n.linkText ?? 'Go there'}</a>` : ''}</div>`)}
<form method="post" action="/s/${form.id}?step=${stepIndex}" accept-charset="utf-8">
${step.components.map((component) => renderComponent(component, ctx))}
${hasButtons ? '' : actions(ctx, undefined, undefined)}
</form>
</main>`;
  return document(theme, input, `${form.name} – ${step.name}`, types, body, theme.layout.showProgressBar ? (stepIndex + 1) / total : undefined);
}

export function renderThanksPage(form: Form, chrome: PageChrome): Html {
  const body = html`<main class="fl-page fl-center">
${logo(form.theme)}
<h1>Thank you!</h1>
<p>Your response has been recorded.</p>
<p><a class="fl-back" href="/s/${form.id}?new=1">Submit another response</a></p>
</main>`;
  return document(form.theme, chrome, form.name, [], body);
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

interface RenderContext extends StepPageInput {
  step: StoredStep;
  isLast: boolean;
}

const domId = (component: StoredComponent, part?: string) => (part ? `f-${component.id}-${part}` : `f-${component.id}`);

function errorsOf(ctx: RenderContext, key: string): string[] {
  return ctx.errors.get(key) ?? [];
}

/** Every message about a component, whichever part it names. */
function allErrorsOf(ctx: RenderContext, component: StoredComponent): string[] {
  return [...ctx.errors].filter(([key]) => key === component.id || key.startsWith(`${component.id}.`)).flatMap(([, messages]) => messages);
}

function errorText(id: string, messages: string[]): Html | string {
  return messages.length ? html`<p class="fl-error" id="${id}-error">${messages.join(' ')}</p>` : '';
}

function box(component: StoredComponent, invalid: boolean, inner: Html, extra: { className?: string; scheduler?: boolean } = {}): Html {
  return html`<div class="fl-c fl-t-${component.type}${invalid ? ' fl-invalid' : ''}${extra.className ?? ''}" id="q-${component.id}"${extra.scheduler ? ' data-scheduler' : ''}>${inner}</div>`;
}

function renderComponent(component: StoredComponent, ctx: RenderContext): Html | string {
  const { type } = component;
  switch (type) {
    case 'Header':
      return header(component);
    case 'ShortInput':
    case 'LongInput':
    case 'EmailForm':
    case 'FileUploader':
    case 'PasswordInput':
      return textInput(component, ctx);
    case 'PasswordCreatorInput':
      return passwordCreator(component, ctx);
    case 'IdentityInfo':
      return identityInfo(component, ctx);
    case 'Dropdown':
      return dropdown(component, ctx);
    case 'MultipleOptionsQuestion':
      return multipleOptions(component, ctx);
    case 'Disclaimer':
      return disclaimer(component, ctx);
    case 'GraphicOptions':
      return graphic(component, ctx);
    case 'NextButton':
      return actions(ctx, str(component.content.label), undefined, type);
    case 'NextBackButtons':
      return actions(ctx, str(component.content.nextLabel), str(component.content.backLabel), type);
    case 'Recaptcha':
    case 'TurnstileWidget':
      // Recorded as nothing; the widgets need the provider's script, which the CSP does not load.
      return '';
    default:
      if (isBookingType(type)) return scheduler(component, ctx);
      return textOnly(component);
  }
}

function header(component: StoredComponent): Html {
  const title = str(component.content.title);
  const sub = str(component.content.subheading);
  return box(component, false, html`${title ? html`<h1>${title}</h1>` : ''}${sub ? html`<p>${sub}</p>` : ''}`);
}

/** A type without answers (e.g. AiChatbot): its text content, as text. */
function textOnly(component: StoredComponent): Html | string {
  const c = component.content;
  const text = str(c.title) ?? str(c.question) ?? str(c.message) ?? str(c.greeting) ?? str(c.text);
  return text ? box(component, false, html`<p class="fl-note">${text}</p>`) : '';
}

function label(component: StoredComponent, forId: string, hidden = false): Html | string {
  const question = str(component.content.question);
  if (!question) return '';
  return html`<label class="${hidden ? 'sr-only' : 'fl-label'}" for="${forId}">${question}${component.content.required === true ? html`<span aria-hidden="true"> *</span>` : ''}</label>`;
}

function describedBy(id: string, messages: string[]) {
  return messages.length ? html` aria-invalid="true" aria-describedby="${id}-error"` : '';
}

function textInput(component: StoredComponent, ctx: RenderContext): Html {
  const { type, content } = component;
  const id = domId(component);
  const messages = errorsOf(ctx, component.id);
  const value = type === 'PasswordInput' ? '' : inputValue(ctx.values.get(component.id));
  const placeholder = str(content.placeholder) ?? (type === 'FileUploader' ? 'https://… (link to your file)' : undefined);
  const aria = str(content.question) ? '' : html` aria-label="${placeholder ?? 'Your answer'}"`;
  const common = html`id="${id}" name="${fieldName(component)}" class="fl-input"${placeholder ? html` placeholder="${placeholder}"` : ''}${content.required === true ? ' required' : ''}${aria}${describedBy(id, messages)}`;
  let control: Html;
  switch (type) {
    case 'LongInput':
      control = html`<textarea ${common} maxlength="${maxLengthOf(component)}">${value}</textarea>`;
      break;
    case 'EmailForm':
      control = html`<input type="email" ${common} autocomplete="email" maxlength="${ANSWER_LIMITS.email}" value="${value}">`;
      break;
    case 'FileUploader':
      control = html`<input type="url" ${common} maxlength="${ANSWER_LIMITS.url}" value="${value}"><p class="fl-note">Paste a link to your file (for example a shared drive link).</p>`;
      break;
    case 'PasswordInput':
      control = html`<input type="password" ${common} autocomplete="current-password" maxlength="${ANSWER_LIMITS.password}" value="">`;
      break;
    default:
      control = html`<input type="text" ${common} maxlength="${maxLengthOf(component)}" value="${value}">`;
  }
  return box(component, messages.length > 0, html`${label(component, id)}${control}${errorText(id, messages)}`);
}

function passwordCreator(component: StoredComponent, ctx: RenderContext): Html {
  const id = domId(component);
  const confirmId = domId(component, 'confirmation');
  const messages = errorsOf(ctx, component.id);
  const confirmMessages = errorsOf(ctx, `${component.id}.confirmation`);
  const placeholder = str(component.content.placeholder);
  return box(
    component,
    messages.length + confirmMessages.length > 0,
    html`${label(component, id)}
<div class="fl-field"><input type="password" id="${id}" name="${fieldName(component)}" class="fl-input" autocomplete="new-password" minlength="${ANSWER_LIMITS.passwordCreatorMin}" maxlength="${ANSWER_LIMITS.password}"${placeholder ? html` placeholder="${placeholder}"` : ''}${str(component.content.question) ? '' : html` aria-label="Password"`}${component.content.required === true ? ' required' : ''}${describedBy(id, messages)}>${errorText(id, messages)}</div>
<div class="fl-field"><label class="fl-label" for="${confirmId}">Repeat the password</label><input type="password" id="${confirmId}" name="${fieldName(component, 'confirmation')}" class="fl-input" autocomplete="new-password" maxlength="${ANSWER_LIMITS.password}"${describedBy(confirmId, confirmMessages)}>${errorText(confirmId, confirmMessages)}</div>`,
  );
}

const IDENTITY_INPUT: Partial<Record<string, { type: string; autocomplete: string }>> = {
  firstName: { type: 'text', autocomplete: 'given-name' },
  lastName: { type: 'text', autocomplete: 'family-name' },
  fullName: { type: 'text', autocomplete: 'name' },
  emailAddress: { type: 'email', autocomplete: 'email' },
  workEmailAddress: { type: 'email', autocomplete: 'email' },
  phoneNumber: { type: 'tel', autocomplete: 'tel' },
  companyName: { type: 'text', autocomplete: 'organization' },
  title: { type: 'text', autocomplete: 'organization-title' },
  websiteUrl: { type: 'text', autocomplete: 'url' },
  profilePictureUrl: { type: 'url', autocomplete: 'photo' },
  streetAddress: { type: 'text', autocomplete: 'address-line1' },
  aptSuiteEtc: { type: 'text', autocomplete: 'address-line2' },
  city: { type: 'text', autocomplete: 'address-level2' },
  state: { type: 'text', autocomplete: 'address-level1' },
  country: { type: 'text', autocomplete: 'country-name' },
  zipCode: { type: 'text', autocomplete: 'postal-code' },
};

function identityInfo(component: StoredComponent, ctx: RenderContext): Html {
  const values = asObject(ctx.values.get(component.id));
  const fields = identityFields(component.content);
  const rendered = fields.map((field) => identityField(component, field, inputValue(values[field.key]), errorsOf(ctx, `${component.id}.${field.key}`)));
  // Each field marks itself invalid; the box only when the answer as a whole is.
  const whole = errorsOf(ctx, component.id);
  return box(component, whole.length > 0, html`<div class="fl-fields">${rendered}</div>${errorText(domId(component), whole)}`);
}

function identityField(component: StoredComponent, field: IdentityField, value: string, messages: string[]): Html {
  const id = domId(component, field.key);
  const kind = IDENTITY_INPUT[field.key] ?? { type: 'text', autocomplete: 'on' };
  const required = isFieldRequired(field);
  const maxLength = field.key.includes('mail') ? ANSWER_LIMITS.email : field.key.endsWith('Url') ? ANSWER_LIMITS.url : ANSWER_LIMITS.identityField;
  const reveal = field.revealAfter ? html` data-reveal-after="${domId(component, field.revealAfter)}"` : '';
  const attrs = html`id="${id}" name="${fieldName(component, field.key)}" class="fl-input" type="${kind.type}" autocomplete="${kind.autocomplete}" maxlength="${maxLength}"${field.placeholder ? html` placeholder="${field.placeholder}"` : ''}${required && !field.revealAfter ? ' required' : ''}${describedBy(id, messages)}`;
  let control: Html;
  if (field.key === 'phoneNumber' && field.includeDialCode) {
    const { country, number } = splitPhone(value, field.defaultDialCodeCountry);
    const selected = country?.code ?? dialCountry(field.defaultDialCodeCountry)?.code ?? 'US';
    control = html`<div class="fl-phone"><select class="fl-input" name="${fieldName(component, 'phoneNumber.country')}" aria-label="Country dial code" data-dial-for="${id}">${DIAL_COUNTRIES.map(
      (c) => html`<option value="${c.code}" data-dial="${c.dial.slice(1)}"${c.code === selected ? ' selected' : ''}>${c.code} ${c.dial}</option>`,
    )}</select><input ${attrs} value="${number}"></div>`;
  } else {
    control = html`<input ${attrs} value="${value}">`;
  }
  return html`<div class="fl-field${messages.length ? ' fl-invalid' : ''}"${reveal}><label class="fl-label" for="${id}">${field.label}${required ? html`<span aria-hidden="true"> *</span>` : ''}</label>${control}${errorText(id, messages)}</div>`;
}

function dropdown(component: StoredComponent, ctx: RenderContext): Html {
  const { content } = component;
  const id = domId(component);
  const messages = errorsOf(ctx, component.id);
  const multi = content.isMulti === true;
  const chosen = asStrings(ctx.values.get(component.id));
  const placeholder = str(content.placeholder) ?? 'Select…';
  const options = dropdownOptions(content).map((option) => html`<option value="${option}"${chosen.includes(option) ? ' selected' : ''}>${option}</option>`);
  const aria = str(content.question) ? '' : html` aria-label="${placeholder}"`;
  const control = multi
    ? html`<select id="${id}" name="${fieldName(component)}" class="fl-input" multiple${aria}${describedBy(id, messages)}>${options}</select><p class="fl-note">Hold Ctrl (⌘ on a Mac) to choose several.</p>`
    : html`<select id="${id}" name="${fieldName(component)}" class="fl-input"${content.required === true ? ' required' : ''}${aria}${describedBy(id, messages)}><option value="">${placeholder}</option>${options}</select>`;
  return box(component, messages.length > 0, html`${label(component, id, content.hideQuestion === true)}${control}${errorText(id, messages)}`);
}

function multipleOptions(component: StoredComponent, ctx: RenderContext): Html {
  const { content } = component;
  const id = domId(component);
  const messages = [...errorsOf(ctx, component.id), ...errorsOf(ctx, `${component.id}.selected`)];
  const otherMessages = errorsOf(ctx, `${component.id}.other`);
  const multi = content.isMulti === true;
  const value = ctx.values.get(component.id);
  const answer = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Content) : { selected: value };
  const chosen = asStrings(answer.selected);
  const other = typeof answer.other === 'string' ? answer.other : undefined;
  const type = multi ? 'checkbox' : 'radio';
  const name = fieldName(component);
  const question = str(content.question);
  const subheading = str(content.subheading);
  const choices = multipleChoices(content).map(
    (choice, index) =>
      html`<label class="fl-choice" for="${id}-${index}"><input type="${type}" id="${id}-${index}" name="${name}" value="${choice}"${chosen.includes(choice) ? ' checked' : ''}><span>${choice}</span></label>`,
  );
  const otherChoice = allowsOther(content)
    ? html`<label class="fl-choice" for="${id}-other"><input type="${type}" id="${id}-other" name="${name}" value="${OTHER_CHOICE}"${other !== undefined ? ' checked' : ''}><span>Other</span><input type="text" class="fl-input" name="${fieldName(component, 'other')}" aria-label="Other" maxlength="${ANSWER_LIMITS.otherText}" value="${other ?? ''}"></label>${errorText(`${id}-other`, otherMessages)}`
    : '';
  return box(
    component,
    messages.length + otherMessages.length > 0,
    html`<fieldset class="fl-fieldset"${describedBy(id, messages)}>${question ? html`<legend class="fl-question">${question}</legend>` : ''}${subheading ? html`<p class="fl-sub">${subheading}</p>` : ''}<div class="fl-choices">${choices}${otherChoice}</div></fieldset>${errorText(id, messages)}`,
  );
}

function disclaimer(component: StoredComponent, ctx: RenderContext): Html {
  const id = domId(component);
  const messages = errorsOf(ctx, component.id);
  const text = str(component.content.text);
  const checked = ctx.values.get(component.id) === true;
  const required = component.content.required === true;
  return box(
    component,
    messages.length > 0,
    html`${text ? html`<p class="fl-disclaimer-text">${text}</p>` : ''}<label class="fl-check" for="${id}"><input type="checkbox" id="${id}" name="${fieldName(component)}" value="on"${checked ? ' checked' : ''}${required ? ' required' : ''}${describedBy(id, messages)}><span>${str(component.content.checkboxLabel) ?? 'I agree'}</span></label>${errorText(id, messages)}`,
  );
}

function graphic(component: StoredComponent, ctx: RenderContext): Html {
  const id = domId(component);
  const messages = errorsOf(ctx, component.id);
  const value = ctx.values.get(component.id);
  const question = str(component.content.question);
  const options = graphicOptions(component.content).map(
    (option, index) =>
      html`<label class="fl-choice" for="${id}-${index}">${option.imageUrl && isHttpUrl(option.imageUrl) ? html`<img src="${option.imageUrl}" alt="" loading="lazy">` : ''}<span><input type="radio" id="${id}-${index}" name="${fieldName(component)}" value="${index}"${value === index ? ' checked' : ''}${component.content.required === true ? ' required' : ''}>${option.label}</span></label>`,
  );
  return box(
    component,
    messages.length > 0,
    html`<fieldset class="fl-fieldset"${describedBy(id, messages)}>${question ? html`<legend class="fl-question">${question}</legend>` : ''}<div class="fl-graphic">${options}</div></fieldset>${errorText(id, messages)}`,
  );
}

/** The embedded calendar's address: http(s) only, with the e-mail (and name) of earlier steps when asked. */
export function calendarSrc(dataUrl: unknown, content: Content, ctx: Pick<StepPageInput, 'prefill' | 'host'>): string | undefined {
  if (typeof dataUrl !== 'string' || !isHttpUrl(dataUrl)) return undefined;
  const url = new URL(dataUrl);
  if (content.prefillEmail === true) {
    if (ctx.prefill.email) url.searchParams.set('email', ctx.prefill.email);
    if (ctx.prefill.name) url.searchParams.set('name', ctx.prefill.name);
  }
  if (content.calendarType === 'Calendly' || url.hostname === 'calendly.com' || url.hostname.endsWith('.calendly.com')) {
    url.searchParams.set('embed_domain', ctx.host);
    url.searchParams.set('embed_type', 'Inline');
  }
  return url.href;
}

/** Origins the step's schedulers embed (the CSP's frame-src); isHttpUrl admits only hosts safe in a CSP. */
export function frameOrigins(step: StoredStep): string[] {
  const origins = new Set<string>();
  for (const component of step.components) {
    if (!isBookingType(component.type)) continue;
    const c = component.content;
    const urls: unknown[] =
      component.type === 'DynamicScheduler'
        ? [asObject(c.defaultCalendar).dataUrl, ...(Array.isArray(c.calendars) ? c.calendars.map((calendar) => asObject(calendar).dataUrl) : [])]
        : [c.dataUrl];
    for (const url of urls) if (typeof url === 'string' && isHttpUrl(url)) origins.add(new URL(url).origin);
  }
  return [...origins];
}

function scheduler(component: StoredComponent, ctx: RenderContext): Html {
  const { content } = component;
  const dynamic = component.type === 'DynamicScheduler';
  const calendars = dynamic
    ? [asObject(content.defaultCalendar), ...(Array.isArray(content.calendars) ? content.calendars.map(asObject) : [])]
    : [{ name: 'Calendar', dataUrl: content.dataUrl }];
  const sources = calendars
    .map((calendar) => ({ name: str(calendar.name) ?? 'Calendar', src: calendarSrc(calendar.dataUrl, content, ctx) }))
    .filter((calendar): calendar is { name: string; src: string } => calendar.src !== undefined);
  const first = sources[0];
  const message = str(content.message);
  const booking = asObject(ctx.values.get(component.id));
  const hidden = (name: string, value: string) => html`<input type="hidden" name="${fieldName(component, name)}" data-booking="${name}" value="${value}">`;
  const picker =
    dynamic && sources.length > 1
      ? html`<select class="fl-input fl-hidden" data-calendar-select aria-label="Calendar">${sources.map((s) => html`<option data-src="${s.src}">${s.name}</option>`)}</select>`
      : '';
  const messages = allErrorsOf(ctx, component);
  return box(
    component,
    messages.length > 0,
    html`${message ? html`<p class="fl-question">${message}</p>` : ''}${picker}${
      first
        ? html`<iframe class="fl-calendar-frame" src="${first.src}" title="${str(content.calendarType) ?? 'Scheduling'} calendar" loading="lazy" referrerpolicy="strict-origin-when-cross-origin"></iframe><a class="fl-calendar-link" href="${first.src}" target="_blank" rel="noopener noreferrer">Open the calendar in a new tab</a>`
        : html`<p class="fl-note">This calendar can't be shown.</p>`
    }
<p class="fl-note fl-hidden" data-booked>Your meeting is booked.</p>
${hidden('eventScheduled', booking.eventScheduled === true ? 'true' : 'false')}${hidden('uri', inputValue(booking.uri))}${hidden('meetingTime', inputValue(booking.meetingTime))}${hidden('meetingEndTime', inputValue(booking.meetingEndTime))}${errorText(domId(component), messages)}`,
    { className: ' fl-calendar', scheduler: true },
  );
}

function actions(ctx: RenderContext, nextLabel: string | undefined, backLabel: string | undefined, type = 'NextButton'): Html {
  const back = ctx.stepIndex > 0 ? html`<a class="fl-back" href="/s/${ctx.form.id}?step=${ctx.stepIndex - 1}">← ${backLabel ?? 'Back'}</a>` : '';
  return html`<div class="fl-actions">${back}<button type="submit" class="fl-button fl-t-${type}">${nextLabel ?? (ctx.isLast ? 'Submit' : 'Next')}</button></div>`;
}
