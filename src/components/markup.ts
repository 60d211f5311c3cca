/**
 * What every component module's page markup is built from. Every interpolation goes through
 * hono/html's `html` tag, which escapes it. A component renders inside its box (`#q-<id>`), with its
 * label, control and error text tied together by ids (`f-<id>`, `f-<id>-error`).
 */
import { html } from 'hono/html';
import type { Content } from './content.ts';
import { pageWords } from '../i18n/locales.ts';
import type { StoredComponent, StoredStep, Theme } from '../db/json-columns.ts';

export type Html = ReturnType<typeof html>;

/** Messages per field: key `componentId` for the whole answer, `componentId.fieldKey` for a part. */
export type FieldMessages = Map<string, string[]>;

export interface PageChrome {
  nonce: string;
  /** Theme font stylesheet service (config), if fonts may be loaded. */
  fontsCssUrl: string | undefined;
  /**
   * Query parameters every link and form post of the page carries, each `&name=value` ('' or left out
   * outside embed mode): the embed mode and its signed session token (docs/embedding.md).
   */
  carry?: string | undefined;
  /** Embed mode: the page is shown in a frame on another site (docs/embedding.md). */
  embed?: EmbedChrome | undefined;
  /** A multilingual form's language switcher: the page in each of its languages (docs/languages.md). */
  languages?: LanguageLink[] | undefined;
}

/** One language of the switcher: its name in itself, the page in it, and whether it is the one shown. */
export interface LanguageLink {
  language: string;
  name: string;
  href: string;
  current: boolean;
}

/** The form a page shows (a stored form has these and more). */
export interface PageForm {
  id: string;
  name: string;
  theme: Theme;
  steps: StoredStep[];
  /** BCP 47 tag of the page's own words (buttons, messages, screens). */
  locale: string;
}

export interface EmbedChrome {
  /** The embedding page's origin (`fl-origin`): the only one the page's messages go to; none: no messages. */
  hostOrigin: string | undefined;
  /** `fl-transparent=1`: no page background, the host's shows through. */
  transparent: boolean;
}

/** A link to the form's page: `/s/<id>?<query>` plus what the page carries (embed mode). */
export const pageHref = (formId: string, query: string, chrome: Pick<PageChrome, 'carry'>): string => `/s/${formId}?${query}${chrome.carry ?? ''}`;

export interface StepPageInput extends PageChrome {
  form: PageForm;
  stepIndex: number;
  /** Answers to show, in the answer shape, by component id. */
  values: Map<string, unknown>;
  errors: FieldMessages;
  /** Problems that are not about a field of this step (e.g. unanswered questions on earlier steps). */
  notices: { message: string; href?: string | undefined; linkText?: string | undefined }[];
  /** What earlier steps collected, for schedulers with `prefillEmail`. */
  prefill: { email?: string | undefined; name?: string | undefined };
  /** Host of the page (Calendly wants it to post booking events). */
  host: string;
  /** The step before this one on the respondent's path (the back link); undefined on the first. */
  backStep?: number | undefined;
  /** More of the query the step's form posts to (the hidden fields a new response brings), `&name=value…`. */
  actionQuery?: string | undefined;
  /** The captcha providers' site keys from the configuration. */
  captcha?: { turnstile: { siteKey: string | undefined }; recaptcha: { siteKey: string | undefined } } | undefined;
}

/** What a component's markup may use: the page being rendered and its step. */
export interface RenderContext extends StepPageInput {
  step: StoredStep;
  isLast: boolean;
}

export const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
export const asObject = (value: unknown): Content => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Content) : {});
export const asStrings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : typeof value === 'string' && value !== '' ? [value] : [];
export const inputValue = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');

export const domId = (component: StoredComponent, part?: string) => (part ? `f-${component.id}-${part}` : `f-${component.id}`);

export function errorsOf(ctx: RenderContext, key: string): string[] {
  return ctx.errors.get(key) ?? [];
}

/** Every message about a component, whichever part it names. */
export function allErrorsOf(ctx: RenderContext, component: StoredComponent): string[] {
  return [...ctx.errors].filter(([key]) => key === component.id || key.startsWith(`${component.id}.`)).flatMap(([, messages]) => messages);
}

export function errorText(id: string, messages: string[]): Html | string {
  return messages.length ? html`<p class="fl-error" id="${id}-error">${messages.join(' ')}</p>` : '';
}

export function box(component: StoredComponent, invalid: boolean, inner: Html, extra: { className?: string; scheduler?: boolean } = {}): Html {
  return html`<div class="fl-c fl-t-${component.type}${invalid ? ' fl-invalid' : ''}${extra.className ?? ''}" id="q-${component.id}"${extra.scheduler ? ' data-scheduler' : ''}>${inner}</div>`;
}

export function label(component: StoredComponent, forId: string, hidden = false): Html | string {
  const question = str(component.content.question);
  if (!question) return '';
  return html`<label class="${hidden ? 'sr-only' : 'fl-label'}" for="${forId}">${question}${component.content.required === true ? html`<span aria-hidden="true"> *</span>` : ''}</label>`;
}

export function describedBy(id: string, messages: string[]) {
  return messages.length ? html` aria-invalid="true" aria-describedby="${id}-error"` : '';
}

/** A type without answers or markup of its own (e.g. AiChatbot): its text content, as text. */
export function textOnly(component: StoredComponent): Html | string {
  const c = component.content;
  const text = str(c.title) ?? str(c.question) ?? str(c.message) ?? str(c.greeting) ?? str(c.text);
  return text ? box(component, false, html`<p class="fl-note">${text}</p>`) : '';
}

/**
 * The common attributes and box of a one-line control (ShortInput, LongInput, EmailForm, the password
 * types): `control` gets the attributes every such input carries.
 */
export function singleInput(component: StoredComponent, ctx: RenderContext, control: (common: Html) => Html, defaults: { placeholder?: string } = {}): Html {
  const { content } = component;
  const id = domId(component);
  const messages = errorsOf(ctx, component.id);
  const placeholder = str(content.placeholder) ?? defaults.placeholder;
  const aria = str(content.question) ? '' : html` aria-label="${placeholder ?? pageWords(ctx.form.locale).yourAnswer}"`;
  const common = html`id="${id}" name="c.${component.id}" class="fl-input"${placeholder ? html` placeholder="${placeholder}"` : ''}${content.required === true ? ' required' : ''}${aria}${describedBy(id, messages)}`;
  return box(component, messages.length > 0, html`${label(component, id)}${control(common)}${errorText(id, messages)}`);
}

/** The required marker after a question (screen readers learn it from `required` / `aria-required`). */
export const requiredMark = (required: boolean): Html | string => (required ? html`<span aria-hidden="true"> *</span>` : '');

/**
 * The attributes of a group of choices that must be answered: a group of radio buttons is a required
 * `radiogroup`; ARIA has no required group of check boxes, whose legend carries the marker alone.
 */
export const requiredGroup = (required: boolean, radios: boolean): Html | string => (required && radios ? html` role="radiogroup" aria-required="true"` : '');
