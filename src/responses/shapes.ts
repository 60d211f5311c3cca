/**
 * The response shape of every component type: how a submitted answer is validated against its
 * component and turned into the stored `response` object (`type`, `componentShapeVersion`,
 * `headline` and the type's fields, SPEC-NOTES.md "Responses").
 *
 * Answers arrive in the public JSON API's shape (the page turns its form fields into the same
 * shape first), so both paths share every rule:
 *
 * | type | answer |
 * |---|---|
 * | ShortInput, LongInput | string |
 * | EmailForm | string (an e-mail address) |
 * | PasswordInput | string |
 * | PasswordCreatorInput | string, or `{password, confirmation}` |
 * | IdentityInfo | object keyed by field key, string values |
 * | Dropdown | string; array of strings when `isMulti` |
 * | MultipleOptionsQuestion | string or array of strings, or `{selected, other}` |
 * | Scheduler, `<Provider>Screen`, DynamicScheduler | boolean, or `{eventScheduled, uri, meetingTime, meetingEndTime, ownerEmails, guestEmails}` |
 * | Disclaimer | boolean |
 * | GraphicOptions | option index (number), or the option's value (string) |
 * | FileUploader | http(s) URL of the file |
 *
 * `null`, `""` or `[]` is "no answer": an error when the component is required, otherwise the
 * component's earlier answer (if any) is removed. Header, NextButton, NextBackButtons, Recaptcha,
 * TurnstileWidget and AiChatbot take no answer and record nothing.
 */
import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { z } from 'zod';
import type { FieldError, IdentityField, IdentityFieldKey, StoredComponent } from '../forms/components.ts';
import { httpUrl, isBookingType, isHttpUrl, toFieldErrors } from '../forms/components.ts';
import { COMPONENT_SHAPE_VERSION, type ResponseAnswer } from './model.ts';

export type StoredResponse = ResponseAnswer['response'];

/** Longest accepted answers (documented in the README). */
export const ANSWER_LIMITS = {
  shortInput: 1_000,
  longInput: 10_000,
  identityField: 300,
  email: 254,
  url: 2_048,
  otherText: 500,
  password: 256,
  passwordCreatorMin: 8,
  emailList: 50,
} as const;

/** Answer of a component: a stored response, `null` for "no answer", or the problems found. */
export type AnswerResult = { ok: true; response: StoredResponse | null } | { ok: false; errors: FieldError[] };

const NON_ANSWERABLE = new Set(['Header', 'NextButton', 'NextBackButtons', 'Recaptcha', 'TurnstileWidget', 'AiChatbot']);

/** Whether a component of this type takes an answer (and so records one). */
export function isAnswerable(type: string): boolean {
  return !NON_ANSWERABLE.has(type) && (ANSWER_TYPES.has(type) || isBookingType(type));
}

const ANSWER_TYPES = new Set([
  'ShortInput',
  'LongInput',
  'EmailForm',
  'PasswordInput',
  'PasswordCreatorInput',
  'IdentityInfo',
  'Dropdown',
  'MultipleOptionsQuestion',
  'Disclaimer',
  'GraphicOptions',
  'FileUploader',
]);

// ---------------------------------------------------------------- content accessors

type Content = Record<string, unknown>;
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

export function identityFields(content: Content): IdentityField[] {
  return Array.isArray(content.fields) ? (content.fields as IdentityField[]) : [];
}
/** IdentityInfo fields are required unless `required: false` (lead capture); see the README. */
export const isFieldRequired = (field: IdentityField): boolean => field.required !== false;

export const dropdownOptions = (content: Content): string[] => strings(content.options);
export const multipleChoices = (content: Content): string[] => strings(content.choices);
/** MultipleOptionsQuestion with `allowOther: true` offers an "Other" choice with a text box. */
export const allowsOther = (content: Content): boolean => content.allowOther === true;

export interface GraphicOption {
  label: string;
  value: string;
  imageUrl: string | undefined;
}
export function graphicOptions(content: Content): GraphicOption[] {
  if (!Array.isArray(content.options)) return [];
  return content.options.map((raw, index) => {
    const option = (typeof raw === 'object' && raw !== null ? raw : {}) as Content;
    const value = str(option.value) ?? str(option.label) ?? String(index);
    return { label: str(option.label) ?? value, value, imageUrl: str(option.imageUrl) };
  });
}

/** Whether the component must be answered before a response can finish. */
export function isRequired(component: StoredComponent): boolean {
  if (!isAnswerable(component.type)) return false;
  if (component.type === 'IdentityInfo') return identityFields(component.content).some((f) => isFieldRequired(f) && !f.revealAfter);
  if (isBookingType(component.type)) return false;
  return component.content.required === true;
}

/** The question text a response carries as `headline`. */
export function headlineOf(component: StoredComponent): string {
  const c = component.content;
  switch (component.type) {
    case 'IdentityInfo':
      return identityFields(c)
        .map((f) => f.label)
        .join(', ');
    case 'Disclaimer':
      return str(c.text) ?? '';
    case 'Header':
      return str(c.title) ?? '';
    default:
      if (isBookingType(component.type)) return str(c.message) ?? str(c.question) ?? 'Book a meeting';
      return str(c.question) ?? '';
  }
}

export function maxLengthOf(component: StoredComponent): number {
  const fallback = component.type === 'LongInput' ? ANSWER_LIMITS.longInput : ANSWER_LIMITS.shortInput;
  const configured = component.content.maxLength;
  return typeof configured === 'number' && configured > 0 ? Math.min(configured, ANSWER_LIMITS.longInput) : fallback;
}

// ---------------------------------------------------------------- value checks

const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[A-Za-z]{2,}$/;
export function isEmail(value: string): boolean {
  return value.length <= ANSWER_LIMITS.email && EMAIL.test(value) && !value.includes('..');
}

/** Free-mail domains blocked where `blockPersonalEmails` is set. */
const PERSONAL_DOMAINS = new Set([
  'gmail.com', 'googlemail.com', 'icloud.com', 'me.com', 'mac.com', 'aol.com', 'msn.com', 'proton.me', 'protonmail.com',
  'pm.me', 'mail.com', 'web.de', 'yopmail.com', 'mail.ru', 'qq.com', '163.com', 'fastmail.com', 'tutanota.com',
]);
/** Providers with a domain per country (`yahoo.co.uk`, `gmx.de`, `hotmail.fr`, …). */
const PERSONAL_FAMILIES = ['yahoo', 'ymail', 'hotmail', 'outlook', 'live', 'gmx', 'yandex'];
export function isPersonalEmail(email: string): boolean {
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  if (PERSONAL_DOMAINS.has(domain)) return true;
  const dot = domain.indexOf('.');
  return PERSONAL_FAMILIES.includes(domain.slice(0, dot)) && /^[a-z]{2,}(\.[a-z]{2,})?$/.test(domain.slice(dot + 1));
}

/** A website may be written without its scheme ("acme.com"). */
function isWebsite(value: string): boolean {
  if (/\s/.test(value)) return false;
  const candidate = /^[a-z][a-z0-9+.-]*:/i.test(value) ? value : `https://${value}`;
  if (!isHttpUrl(candidate)) return false;
  const host = new URL(candidate).hostname;
  return host.includes('.') || host === 'localhost';
}

const PHONE = /^\+?[0-9 ()./-]{4,32}$/;
export function isPhoneNumber(value: string): boolean {
  const digits = value.replace(/\D/g, '').length;
  return PHONE.test(value) && digits >= 4 && digits <= 20;
}

const isoDateTime = z.iso.datetime({ offset: true });

// ---------------------------------------------------------------- passwords

const SCRYPT = { N: 16_384, r: 8, p: 1, keylen: 32 } as const;
function scrypt(password: string, salt: Buffer, options: ScryptOptions, keylen: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCallback(password.normalize('NFKC'), salt, keylen, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/** `scrypt$N$r$p$salt$hash` (base64url); the clear text is never stored. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p }, SCRYPT.keylen);
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) }, expected.length);
  return timingSafeEqual(actual, expected);
}

// ---------------------------------------------------------------- building responses

type Path = (string | number)[];
class Problems {
  readonly list: FieldError[] = [];
  add(path: Path, message: string) {
    this.list.push({ message, path });
  }
  get any() {
    return this.list.length > 0;
  }
}

const isEmpty = (value: unknown) =>
  value === null || value === undefined || (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0);

const REQUIRED = 'This question requires an answer';

/** A password that passed validation, hashed only once the whole submission is valid (scrypt is costly). */
class PendingPassword {
  constructor(readonly clear: string) {}
}

/**
 * Validates `raw` against `component` and builds its stored response, with any password still in
 * clear (`sealResponse` hashes it). Errors carry paths relative to the answer (`[]` for the whole
 * answer, `["emailAddress"]` for an IdentityInfo field).
 */
export function validateAnswer(component: StoredComponent, raw: unknown): AnswerResult {
  const { type } = component;
  if (!isAnswerable(type)) return { ok: false, errors: [{ message: `A ${type} component takes no answer`, path: [] }] };
  const problems = new Problems();
  const fields = buildFields(component, raw, problems);
  if (problems.any) return { ok: false, errors: problems.list };
  if (fields === null) return { ok: true, response: null };
  const response: StoredResponse = { type, componentShapeVersion: COMPONENT_SHAPE_VERSION, headline: headlineOf(component), ...fields };
  const leadAttribute = str(component.content.leadAttribute);
  if (leadAttribute) response.leadAttribute = leadAttribute;
  return { ok: true, response };
}

/** Whether a validated response still holds a password in clear (it costs a hash to store). */
export const holdsPassword = (response: StoredResponse | null): boolean => response?.input instanceof PendingPassword;

/** The response as stored: a validated password replaced by its hash (`hash`: bounded, see password-hashing.ts). */
export async function sealResponse(response: StoredResponse, hash: (clear: string) => Promise<string> = hashPassword): Promise<StoredResponse> {
  return response.input instanceof PendingPassword ? { ...response, input: await hash(response.input.clear) } : response;
}

/** Validates and builds the stored response of one answer. */
export async function buildResponse(component: StoredComponent, raw: unknown): Promise<AnswerResult> {
  const result = validateAnswer(component, raw);
  return result.ok && result.response ? { ok: true, response: await sealResponse(result.response) } : result;
}

type Fields = Record<string, unknown> | null;

function buildFields(component: StoredComponent, raw: unknown, problems: Problems): Fields {
  const { type, content } = component;
  const required = isRequired(component);
  if (type === 'IdentityInfo') return identityInfo(content, raw, problems);
  if (type === 'MultipleOptionsQuestion') return multipleOptions(content, raw, required, problems);
  if (type === 'Dropdown') return dropdown(content, raw, required, problems);
  if (isBookingType(type)) return scheduler(raw, problems);
  if (type === 'Disclaimer') return disclaimer(raw, required, problems);
  if (type === 'GraphicOptions') return graphic(content, raw, required, problems);
  if (type === 'PasswordCreatorInput' || type === 'PasswordInput') return password(type, raw, required, problems);

  // One string: ShortInput, LongInput, EmailForm, FileUploader.
  if (isEmpty(raw)) {
    if (required) problems.add([], REQUIRED);
    return null;
  }
  if (typeof raw !== 'string') {
    problems.add([], 'Must be a string');
    return null;
  }
  const value = type === 'LongInput' ? raw.replace(/^\s*\n|\s+$/g, '') : raw.trim();
  if (type === 'EmailForm') {
    if (!isEmail(value)) problems.add([], 'Enter a valid e-mail address');
    else if (content.blockPersonalEmails === true && isPersonalEmail(value)) problems.add([], 'Please use your work e-mail address');
    return { emailAddress: value };
  }
  if (type === 'FileUploader') {
    if (!isHttpUrl(value)) problems.add([], 'Enter the http(s) link of your file');
    return { fileUrl: value };
  }
  const max = maxLengthOf(component);
  if (value.length > max) problems.add([], `Must be at most ${max} characters`);
  return { input: value };
}

function identityInfo(content: Content, raw: unknown, problems: Problems): Fields {
  const fields = identityFields(content);
  if (raw === null || raw === undefined) raw = {};
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    problems.add([], 'Must be an object keyed by field key');
    return null;
  }
  const answer = raw as Content;
  const known = new Set(fields.map((f) => f.key));
  for (const key of Object.keys(answer)) if (!known.has(key as IdentityFieldKey)) problems.add([key], `"${key}" is not a field of this question`);
  const text = (key: string): string => {
    const value = answer[key];
    return typeof value === 'string' ? value.trim() : typeof value === 'number' && Number.isFinite(value) ? String(value) : '';
  };
  const out: Content = {};
  for (const field of fields) {
    const { key } = field;
    const value = answer[key];
    if (value !== undefined && value !== null && typeof value !== 'string' && typeof value !== 'number') {
      problems.add([key], 'Must be a string');
      continue;
    }
    // A field revealed after another one only counts once that one is filled.
    if (field.revealAfter && text(field.revealAfter) === '') continue;
    const v = text(key);
    if (v === '') {
      if (isFieldRequired(field)) problems.add([key], `${field.label || key} is required`);
      continue;
    }
    const problem = identityProblem(field, v);
    if (problem) problems.add([key], problem);
    out[key] = v;
  }
  if (Object.keys(out).length === 0) return null;
  if (!known.has('fullName') && (out.firstName !== undefined || out.lastName !== undefined)) {
    out.fullName = [out.firstName, out.lastName].filter((part) => typeof part === 'string' && part !== '').join(' ');
  }
  return out;
}

function identityProblem(field: IdentityField, value: string): string | undefined {
  switch (field.key) {
    case 'emailAddress':
    case 'workEmailAddress':
      if (!isEmail(value)) return 'Enter a valid e-mail address';
      if (field.blockPersonalEmails === true && isPersonalEmail(value)) return 'Please use your work e-mail address';
      return undefined;
    case 'phoneNumber':
      return isPhoneNumber(value) ? undefined : 'Enter a valid phone number';
    case 'websiteUrl':
      return value.length <= ANSWER_LIMITS.url && isWebsite(value) ? undefined : 'Enter a valid website address';
    case 'profilePictureUrl':
      return isHttpUrl(value) ? undefined : 'Enter an http(s) link';
    default:
      return value.length > ANSWER_LIMITS.identityField ? `Must be at most ${ANSWER_LIMITS.identityField} characters` : undefined;
  }
}

function selection(raw: unknown, problems: Problems, path: Path = []): string[] | undefined {
  if (typeof raw === 'string') return raw === '' ? [] : [raw];
  if (Array.isArray(raw) && raw.every((v) => typeof v === 'string')) return [...new Set(raw.filter((v) => v !== ''))];
  problems.add(path, 'Must be a string or an array of strings');
  return undefined;
}

function dropdown(content: Content, raw: unknown, required: boolean, problems: Problems): Fields {
  const options = dropdownOptions(content);
  const multi = content.isMulti === true;
  if (isEmpty(raw)) {
    if (required) problems.add([], REQUIRED);
    return null;
  }
  const chosen = selection(raw, problems);
  if (!chosen) return null;
  // More values than options can't all be options: one message, not one per value.
  if (chosen.length > Math.max(options.length, 1)) {
    problems.add([], multi ? `Choose at most ${options.length} options` : 'Choose one option');
    return null;
  }
  if (!multi && chosen.length > 1) problems.add([], 'Choose one option');
  chosen.forEach((value) => {
    if (!options.includes(value)) problems.add([], `"${clip(value)}" is not one of the options`);
  });
  if (chosen.length === 0) {
    if (required) problems.add([], REQUIRED);
    return null;
  }
  const ordered = options.filter((option) => chosen.includes(option));
  return { selected: multi ? ordered : ordered[0] ?? chosen[0] };
}

function multipleOptions(content: Content, raw: unknown, required: boolean, problems: Problems): Fields {
  const choices = multipleChoices(content);
  const multi = content.isMulti === true;
  let selectedRaw: unknown = raw;
  let other: string | undefined;
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
    const { selected, other: otherRaw, ...rest } = raw as Content;
    for (const key of Object.keys(rest)) problems.add([key], `Unknown key "${key}"; expected "selected" and "other"`);
    selectedRaw = selected ?? [];
    if (otherRaw !== undefined && otherRaw !== null) {
      if (typeof otherRaw !== 'string') problems.add(['other'], 'Must be a string');
      else if (!allowsOther(content)) problems.add(['other'], 'This question has no "Other" choice');
      else if (otherRaw.trim() === '') problems.add(['other'], 'Tell us what "Other" means for you');
      else if (otherRaw.trim().length > ANSWER_LIMITS.otherText) problems.add(['other'], `Must be at most ${ANSWER_LIMITS.otherText} characters`);
      else other = otherRaw.trim();
    }
  } else if (isEmpty(raw)) {
    selectedRaw = [];
  }
  const chosen = selection(selectedRaw, problems, typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? ['selected'] : []);
  if (!chosen) return null;
  const at: Path = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? ['selected'] : [];
  if (chosen.length > Math.max(choices.length, 1)) {
    problems.add(multi ? at : [], multi ? `Choose at most ${choices.length} choices` : 'Choose one answer');
    return null;
  }
  chosen.forEach((value) => {
    if (!choices.includes(value)) problems.add(at, `"${clip(value)}" is not one of the choices`);
  });
  if (!multi && chosen.length + (other !== undefined ? 1 : 0) > 1) problems.add([], 'Choose one answer');
  if (chosen.length === 0 && other === undefined) {
    if (required && !problems.any) problems.add([], REQUIRED);
    return null;
  }
  const out: Content = {
    choices: choices.map((key, index) => ({ key, value: chosen.includes(key), index })),
    selectedOther: other !== undefined,
  };
  if (other !== undefined) out.other = other;
  return out;
}

const schedulerAnswer = z.strictObject({
  eventScheduled: z.boolean({ error: 'eventScheduled must be a boolean' }),
  uri: httpUrl.optional(),
  meetingTime: isoDateTime.optional(),
  meetingEndTime: isoDateTime.optional(),
  ownerEmails: z.array(z.string().refine(isEmail, 'must be an e-mail address')).max(ANSWER_LIMITS.emailList).optional(),
  guestEmails: z.array(z.string().refine(isEmail, 'must be an e-mail address')).max(ANSWER_LIMITS.emailList).optional(),
});

function scheduler(raw: unknown, problems: Problems): Fields {
  if (raw === null || raw === undefined) return null;
  if (typeof raw === 'boolean') return { eventScheduled: raw };
  const parsed = schedulerAnswer.safeParse(raw);
  if (!parsed.success) {
    for (const { path, message } of toFieldErrors(parsed.error.issues)) problems.add(path, message);
    return null;
  }
  const out: Content = { eventScheduled: parsed.data.eventScheduled };
  for (const key of ['uri', 'meetingTime', 'meetingEndTime', 'ownerEmails', 'guestEmails'] as const) {
    if (parsed.data[key] !== undefined) out[key] = parsed.data[key];
  }
  return out;
}

function disclaimer(raw: unknown, required: boolean, problems: Problems): Fields {
  if (raw === null || raw === undefined) {
    if (required) problems.add([], 'Please tick the box to continue');
    return null;
  }
  if (typeof raw !== 'boolean') {
    problems.add([], 'Must be a boolean');
    return null;
  }
  if (required && !raw) problems.add([], 'Please tick the box to continue');
  return { check: raw };
}

function graphic(content: Content, raw: unknown, required: boolean, problems: Problems): Fields {
  const options = graphicOptions(content);
  if (isEmpty(raw)) {
    if (required) problems.add([], REQUIRED);
    return null;
  }
  let index = -1;
  if (typeof raw === 'number' && Number.isInteger(raw)) index = raw;
  else if (typeof raw === 'string') index = options.findIndex((o) => o.value === raw);
  else {
    problems.add([], 'Must be an option index (number) or value (string)');
    return null;
  }
  const option = options[index];
  if (!option) {
    problems.add([], 'Not one of the options');
    return null;
  }
  return { index, value: option.value };
}

function password(type: string, raw: unknown, required: boolean, problems: Problems): Fields {
  let value = raw;
  if (type === 'PasswordCreatorInput' && typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
    const { password: pw, confirmation } = raw as Content;
    value = pw;
    if (typeof pw === 'string' && pw !== '' && confirmation !== pw) problems.add(['confirmation'], 'The passwords do not match');
  }
  if (isEmpty(value)) {
    if (required) problems.add([], REQUIRED);
    return null;
  }
  if (typeof value !== 'string') {
    problems.add([], 'Must be a string');
    return null;
  }
  if (value.length > ANSWER_LIMITS.password) problems.add([], `Must be at most ${ANSWER_LIMITS.password} characters`);
  if (type === 'PasswordCreatorInput' && [...value].length < ANSWER_LIMITS.passwordCreatorMin) {
    problems.add([], `Must be at least ${ANSWER_LIMITS.passwordCreatorMin} characters`);
  }
  if (problems.any) return null;
  return { input: new PendingPassword(value) };
}

const clip = (value: string) => (value.length > 60 ? `${value.slice(0, 57)}…` : value);

// ---------------------------------------------------------------- reading stored answers back

/**
 * The e-mail a response collected, lower-cased: IdentityInfo `emailAddress`, then its
 * `workEmailAddress`, then an EmailForm answer.
 */
export function emailOf(data: readonly ResponseAnswer[]): string | undefined {
  const candidates = [
    ...data.filter((a) => a.response.type === 'IdentityInfo').map((a) => a.response.emailAddress),
    ...data.filter((a) => a.response.type === 'IdentityInfo').map((a) => a.response.workEmailAddress),
    ...data.filter((a) => a.response.type !== 'IdentityInfo').map((a) => a.response.emailAddress),
  ];
  const email = candidates.find((value): value is string => typeof value === 'string' && isEmail(value));
  return email?.toLowerCase();
}

/** A display name collected so far (for scheduler prefill). */
export function nameOf(data: readonly ResponseAnswer[]): string | undefined {
  for (const answer of data) {
    const value = answer.response.fullName;
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

/** A stored response turned back into the answer shape (to prefill a step). Passwords are never returned. */
export function answerOf(component: StoredComponent, response: StoredResponse | undefined): unknown {
  if (!response) return undefined;
  const { type } = component;
  switch (type) {
    case 'ShortInput':
    case 'LongInput':
      return response.input;
    case 'EmailForm':
      return response.emailAddress;
    case 'FileUploader':
      return response.fileUrl;
    case 'Dropdown':
      return response.selected;
    case 'Disclaimer':
      return response.check;
    case 'GraphicOptions':
      return response.index;
    case 'MultipleOptionsQuestion': {
      const choices = Array.isArray(response.choices) ? (response.choices as { key: string; value: boolean }[]) : [];
      return { selected: choices.filter((c) => c.value).map((c) => c.key), other: response.other };
    }
    case 'IdentityInfo': {
      const out: Content = {};
      for (const field of identityFields(component.content)) if (response[field.key] !== undefined) out[field.key] = response[field.key];
      return out;
    }
    default:
      if (isBookingType(type)) {
        const { type: _t, componentShapeVersion: _v, headline: _h, leadAttribute: _l, ...rest } = response;
        return rest;
      }
      return undefined;
  }
}
