/**
 * IdentityInfo: collects identity fields (name, e-mail, company, …), each keyed by one of 18 keys.
 * The answer is an object keyed by field key; the stored response holds each filled key (and
 * `fullName` from first + last name when the component doesn't ask for it).
 */
import { html } from 'hono/html';
import { z } from 'zod';
import { asString as str } from '../graphql/json-fields.ts';
import { dialCountry, DIAL_COUNTRIES, splitPhone } from './dial-codes.ts';
import { ANSWER_LIMITS, isEmail, isPersonalEmail, isPhoneNumber, isWebsite, type Fields, type Problems } from './answers.ts';
import { isHttpUrl, isObject, shortText, type Content, type ContentRules, type Problem } from './content.ts';
import { fieldName } from './fields.ts';
import { box, describedBy, domId, errorsOf, errorText, inputValue, asObject, type Html } from './markup.ts';
import { textValue } from './conditions.ts';
import type { AnswerShapes, ComponentModule } from './module.ts';
import type { StoredComponent } from '../db/json-columns.ts';
import { pageWords, type PageWords } from '../i18n/locales.ts';

export const IDENTITY_FIELD_KEYS = [
  'firstName',
  'lastName',
  'fullName',
  'emailAddress',
  'workEmailAddress',
  'phoneNumber',
  'companyName',
  'numberOfEmployees',
  'websiteUrl',
  'title',
  'streetAddress',
  'aptSuiteEtc',
  'city',
  'state',
  'country',
  'zipCode',
  'companyRevenue',
  'profilePictureUrl',
] as const;
export type IdentityFieldKey = (typeof IDENTITY_FIELD_KEYS)[number];

// ---------------------------------------------------------------- content

const identityFieldSchema = z.strictObject({
  key: z.enum(IDENTITY_FIELD_KEYS, {
    error: (issue) => `Unknown IdentityInfo field key ${JSON.stringify(issue.input)}; expected one of: ${IDENTITY_FIELD_KEYS.join(', ')}`,
  }),
  label: shortText,
  placeholder: shortText.optional(),
  required: z.boolean().optional(),
  includeDialCode: z.boolean().optional(),
  defaultDialCodeCountry: z
    .string()
    .regex(/^[A-Z]{2}$/i, 'must be an ISO 3166-1 alpha-2 country code, e.g. "US"')
    .transform((code) => code.toUpperCase())
    .optional(),
  blockPersonalEmails: z.boolean().optional(),
  revealAfter: z.enum(IDENTITY_FIELD_KEYS).optional(),
});
export type IdentityField = z.output<typeof identityFieldSchema>;

/** Older clients send `{type, name, label, required}` with `name` in place of `key`, and `phone` for `phoneNumber`. */
const legacyIdentityFieldSchema = z
  .strictObject({
    type: z.enum(['text', 'email', 'tel', 'phone', 'number', 'url']).optional(),
    name: z.string(),
    label: shortText,
    required: z.boolean().optional(),
    placeholder: shortText.optional(),
  })
  .transform((legacy, ctx) => {
    const key = legacy.name === 'phone' ? 'phoneNumber' : legacy.name;
    const parsed = identityFieldSchema.shape.key.safeParse(key);
    if (!parsed.success) {
      ctx.addIssue({ code: 'custom', path: ['name'], input: legacy.name, message: parsed.error.issues[0]!.message });
      return z.NEVER;
    }
    const field: IdentityField = { key: parsed.data, label: legacy.label };
    if (legacy.placeholder !== undefined) field.placeholder = legacy.placeholder;
    if (legacy.required !== undefined) field.required = legacy.required;
    return field;
  });

const anyIdentityField = z.unknown().transform((raw, ctx): IdentityField => {
  const isLegacy = isObject(raw) && !('key' in raw) && 'name' in raw;
  const parsed = (isLegacy ? legacyIdentityFieldSchema : identityFieldSchema).safeParse(raw);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, code: 'custom', input: raw } as never);
  return z.NEVER;
});

const identityContent: ContentRules = {
  schema: z.strictObject({ fields: z.array(anyIdentityField).min(1, 'IdentityInfo needs at least 1 field') }),
  rules: (raw) => {
    if (!Array.isArray(raw.fields)) return [];
    const problems: Problem[] = [];
    const keyOf = (field: unknown) => (isObject(field) ? (field.key ?? (field.name === 'phone' ? 'phoneNumber' : field.name)) : undefined);
    const keys = raw.fields.map(keyOf);
    raw.fields.forEach((field, index) => {
      const key = keys[index];
      if (typeof key === 'string' && keys.indexOf(key) !== index) {
        problems.push({ path: ['fields', index, 'key'], message: `Duplicate IdentityInfo field key "${key}"` });
      }
      const revealAfter = isObject(field) ? field.revealAfter : undefined;
      if (typeof revealAfter === 'string' && (revealAfter === key || !keys.includes(revealAfter))) {
        problems.push({
          path: ['fields', index, 'revealAfter'],
          message: `revealAfter must name another field of this IdentityInfo, got "${revealAfter}"`,
        });
      }
    });
    return problems;
  },
};

function identityFields(content: Content): IdentityField[] {
  return Array.isArray(content.fields) ? (content.fields as IdentityField[]) : [];
}
/** IdentityInfo fields are required unless `required: false` (lead capture); see docs/components.md. */
const isFieldRequired = (field: IdentityField): boolean => field.required !== false;

// ---------------------------------------------------------------- answers

/** The answer, an object keyed by the question's field keys, and the stored fields: each filled key's text (and `fullName`). */
function identityShapes(): AnswerShapes {
  const key = z.enum(IDENTITY_FIELD_KEYS);
  return {
    answer: z
      .partialRecord(key, z.union([z.string(), z.number()]).nullable())
      .meta({ description: "By field key (the question's `fields`), each a text (a number is taken as its digits); empty or left out: not given." }),
    stored: Object.fromEntries(IDENTITY_FIELD_KEYS.map((name) => [name, z.string().optional()])),
  };
}

function parse(component: StoredComponent, raw: unknown, problems: Problems): Fields {
  const fields = identityFields(component.content);
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
    const problem = fieldProblem(field, v);
    if (problem) problems.add([key], problem);
    out[key] = v;
  }
  if (Object.keys(out).length === 0) return null;
  if (!known.has('fullName') && (out.firstName !== undefined || out.lastName !== undefined)) {
    out.fullName = [out.firstName, out.lastName].filter((part) => typeof part === 'string' && part !== '').join(' ');
  }
  return out;
}

function fieldProblem(field: IdentityField, value: string): string | undefined {
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

// ---------------------------------------------------------------- markup

const INPUT_KIND: Partial<Record<string, { type: string; autocomplete: string }>> = {
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

function renderField(component: StoredComponent, field: IdentityField, value: string, messages: string[], words: PageWords): Html {
  const id = domId(component, field.key);
  const kind = INPUT_KIND[field.key] ?? { type: 'text', autocomplete: 'on' };
  const required = isFieldRequired(field);
  const maxLength = field.key.includes('mail') ? ANSWER_LIMITS.email : field.key.endsWith('Url') ? ANSWER_LIMITS.url : ANSWER_LIMITS.identityField;
  const reveal = field.revealAfter ? html` data-reveal-after="${domId(component, field.revealAfter)}"` : '';
  const attrs = html`id="${id}" name="${fieldName(component, field.key)}" class="fl-input" type="${kind.type}" autocomplete="${kind.autocomplete}" maxlength="${maxLength}"${field.placeholder ? html` placeholder="${field.placeholder}"` : ''}${required && !field.revealAfter ? ' required' : ''}${describedBy(id, messages)}`;
  let control: Html;
  if (field.key === 'phoneNumber' && field.includeDialCode) {
    const { country, number } = splitPhone(value, field.defaultDialCodeCountry);
    const selected = country?.code ?? dialCountry(field.defaultDialCodeCountry)?.code ?? 'US';
    control = html`<div class="fl-phone"><select class="fl-input" name="${fieldName(component, 'phoneNumber.country')}" aria-label="${words.dialCode}" data-dial-for="${id}">${DIAL_COUNTRIES.map(
      (c) => html`<option value="${c.code}" data-dial="${c.dial.slice(1)}"${c.code === selected ? ' selected' : ''}>${c.code} ${c.dial}</option>`,
    )}</select><input ${attrs} value="${number}"></div>`;
  } else {
    control = html`<input ${attrs} value="${value}">`;
  }
  return html`<div class="fl-field${messages.length ? ' fl-invalid' : ''}"${reveal}><label class="fl-label" for="${id}">${field.label}${required ? html`<span aria-hidden="true"> *</span>` : ''}</label>${control}${errorText(id, messages)}</div>`;
}

// ---------------------------------------------------------------- module

export const identityInfo: ComponentModule = {
  texts: ['question', 'fields.*.label', 'fields.*.placeholder'],
  types: { IdentityInfo: identityContent },
  answer: {
    shapes: identityShapes(),
    parse: (component, raw, problems) => parse(component, raw, problems),
    fromFields(component, fields) {
      const answer: Record<string, string> = {};
      for (const field of identityFields(component.content)) {
        let value = fields.one(fieldName(component, field.key)).trim();
        if (field.key === 'phoneNumber' && field.includeDialCode && value !== '' && !value.startsWith('+')) {
          const country = dialCountry(fields.one(fieldName(component, 'phoneNumber.country'))) ?? dialCountry(field.defaultDialCodeCountry);
          if (country) value = `${country.dial} ${value}`;
        }
        answer[field.key] = value;
      }
      return answer;
    },
    toAnswer(component, response) {
      const out: Content = {};
      for (const field of identityFields(component.content)) if (response[field.key] !== undefined) out[field.key] = response[field.key];
      return out;
    },
    isRequired: (component) => identityFields(component.content).some((f) => isFieldRequired(f) && !f.revealAfter),
  },
  headline: (component) =>
    identityFields(component.content)
      .map((f) => f.label)
      .join(', '),
  render(component, ctx) {
    const values = asObject(ctx.values.get(component.id));
    const fields = identityFields(component.content);
    const words = pageWords(ctx.form.locale);
    const rendered = fields.map((field) => renderField(component, field, inputValue(values[field.key]), errorsOf(ctx, `${component.id}.${field.key}`), words));
    // Each field marks itself invalid; the box only when the answer as a whole is.
    const whole = errorsOf(ctx, component.id);
    return box(component, whole.length > 0, html`<div class="fl-fields">${rendered}</div>${errorText(domId(component), whole)}`);
  },
  graphql(kit) {
    const IdentityFieldRef = kit.builder.objectRef<IdentityField>('IdentityField').implement({
      description: 'One field of an IdentityInfo component.',
      fields: (t) => ({
        key: t.exposeString('key', { description: 'One of the 18 identity keys, e.g. emailAddress.' }),
        label: t.exposeString('label'),
        placeholder: t.exposeString('placeholder', { nullable: true }),
        required: t.exposeBoolean('required', { nullable: true }),
        includeDialCode: t.exposeBoolean('includeDialCode', { nullable: true }),
        defaultDialCodeCountry: t.exposeString('defaultDialCodeCountry', { nullable: true }),
        blockPersonalEmails: t.exposeBoolean('blockPersonalEmails', { nullable: true }),
        revealAfter: t.exposeString('revealAfter', { nullable: true, description: 'Key of the field that must be filled first.' }),
      }),
    });
    return {
      components: {
        IdentityInfo: kit.component('IdentityInfo', 'Collects identity fields (name, e-mail, company, …).', (t) => ({
          fields: t.field({ type: [IdentityFieldRef], resolve: (c) => identityFields(c.content) }),
        })),
      },
      answers: {
        IdentityInfo: kit.answer('IdentityInfoAnswer', 'The identity fields collected; `fullName` is first + last name when not given.', (t) =>
          Object.fromEntries(
            IDENTITY_FIELD_KEYS.map((key) => [
              key,
              t.string({
                nullable: true,
                resolve: (r) => (key === 'fullName' ? (str(r.fullName) ?? ([str(r.firstName), str(r.lastName)].filter(Boolean).join(' ') || null)) : str(r[key])),
              }),
            ]),
          ),
        ),
      },
    };
  },
  // One column per collected field.
  errorAnchor: (component, part) => domId(component, part),
  export: { columns: (component) => identityFields(component.content).map((field) => ({ label: field.label, key: field.key })) },
  // The response's e-mail: an IdentityInfo's e-mail address, then its work e-mail address, before any other answer's.
  emails: (response) => [
    { rank: 0, value: response.emailAddress },
    { rank: 1, value: response.workEmailAddress },
  ],
  confirmationEmailFields: ['emailAddress', 'workEmailAddress'],
  conditions: {
    // Without `field`: whether the component was answered at all; with it, that field's text.
    subject(component, field) {
      if (field === undefined) return { kind: 'presence' };
      const keys = identityFields(component.content).map((f) => f.key as string);
      return keys.includes(field) ? { kind: 'text' } : `This IdentityInfo does not collect "${field}"; it collects: ${keys.join(', ')}`;
    },
    value: (_component, response, field) => (field === undefined ? true : textValue(response[field])),
  },
};
