/**
 * Number: an amount, a count or a measure, typed into a text field with `inputmode="decimal"` (the phone's
 * number keyboard, without the spinner and scroll-wheel changes of `type="number"`) and the `unit` after it.
 * The answer is a number within `min`…`max` with at most `decimals` places (default 0: a whole number);
 * the page also takes a decimal comma ("2,5"). Stored as `value`.
 */
import { html } from 'hono/html';
import { z } from 'zod';
import { asInt as int } from '../graphql/json-fields.ts';
import { ANSWER_LIMITS, cellText, isEmpty, REQUIRED, type Fields, type Problems } from './answers.ts';
import { numberValue } from './conditions.ts';
import { shortText, text, type Content, type ContentRules } from './content.ts';
import { fieldName } from './fields.ts';
import { box, domId, errorsOf, errorText, label, str } from './markup.ts';
import type { AnswerShapes, ComponentModule } from './module.ts';
import { storedNumberSql } from './scale.ts';
import type { StoredComponent } from '../db/json-columns.ts';
import { formatNumber, pageWords } from '../i18n/locales.ts';

export const NUMBER_DECIMALS = { max: 6, default: 0 } as const;

const bound = z.number().min(-ANSWER_LIMITS.numberMagnitude).max(ANSWER_LIMITS.numberMagnitude);

const numberContent: ContentRules = {
  schema: z.strictObject({
    question: text.optional(),
    min: bound.optional(),
    max: bound.optional(),
    decimals: z.number().int(`decimals must be a whole number from 0 to ${NUMBER_DECIMALS.max}`).min(0).max(NUMBER_DECIMALS.max).optional(),
    placeholder: shortText.optional(),
    unit: shortText.optional(),
    required: z.boolean().optional(),
  }),
  rules: (raw) => (typeof raw.min === 'number' && typeof raw.max === 'number' && raw.min > raw.max ? [{ path: ['min'], message: 'min must not be above max' }] : []),
  normalise: (content) => ({ ...content, decimals: content.decimals ?? NUMBER_DECIMALS.default }),
};

interface NumberRules {
  min: number;
  max: number;
  decimals: number;
}
const rulesOf = (content: Content): NumberRules => ({
  min: numberValue(content.min) ?? -ANSWER_LIMITS.numberMagnitude,
  max: numberValue(content.max) ?? ANSWER_LIMITS.numberMagnitude,
  decimals: int(content.decimals) ?? NUMBER_DECIMALS.default,
});

/** Whether `value` is written with at most `decimals` places (within the answer limit, toFixed is exact enough). */
const hasAtMostDecimals = (value: number, decimals: number) => Number(value.toFixed(decimals)) === value;

export function numberAnswer(content: Content, raw: unknown, problems: Problems, required: boolean): Fields {
  if (isEmpty(raw)) {
    if (required) problems.add([], REQUIRED);
    return null;
  }
  if (typeof raw !== 'number' || !Number.isFinite(raw)) {
    problems.add([], 'Must be a number');
    return null;
  }
  const { min, max, decimals } = rulesOf(content);
  if (raw < min) problems.add([], `Must be at least ${min}`);
  else if (raw > max) problems.add([], `Must be at most ${max}`);
  else if (!hasAtMostDecimals(raw, decimals)) problems.add([], decimals === 0 ? 'Must be a whole number' : `Must have at most ${decimals} decimal places`);
  return problems.any ? null : { value: raw };
}

/** A number as the page posts it: digits with a decimal point or comma, a sign; anything else is passed on as text (and refused). */
const NUMBER_FIELD = /^[+-]?\d{1,16}(?:[.,]\d{1,16})?$/;
function postedNumber(posted: string): number | string {
  const trimmed = posted.trim();
  return NUMBER_FIELD.test(trimmed) ? Number(trimmed.replace(',', '.')) : trimmed;
}

function numberShapes(): AnswerShapes {
  const value = bound.meta({ description: 'A number from `min` to `max` with at most `decimals` places (0, the default: a whole number).' });
  return { answer: value, stored: { value } };
}

export const numberQuestion: ComponentModule = {
  texts: ['question', 'placeholder', 'unit'],
  types: { Number: numberContent },
  answer: {
    shapes: numberShapes(),
    parse: ({ content }, raw, problems, required) => numberAnswer(content, raw, problems, required),
    fromFields: (component, fields) => postedNumber(fields.one(fieldName(component))),
    toAnswer: (_component, response) => response.value,
  },
  render(component, ctx) {
    const { content } = component;
    const id = domId(component);
    const messages = errorsOf(ctx, component.id);
    const current = ctx.values.get(component.id);
    const shown = typeof current === 'number' ? String(current) : typeof current === 'string' ? current : '';
    const unit = str(content.unit);
    const placeholder = str(content.placeholder);
    const described = [unit ? `${id}-unit` : '', messages.length > 0 ? `${id}-error` : ''].filter(Boolean).join(' ');
    const attributes = html`${placeholder ? html` placeholder="${placeholder}"` : ''}${content.required === true ? html` required aria-required="true"` : ''}${messages.length > 0 ? html` aria-invalid="true"` : ''}${described ? html` aria-describedby="${described}"` : ''}${str(content.question) ? '' : html` aria-label="${placeholder ?? pageWords(ctx.form.locale).yourAnswer}"`}`;
    const control = html`<input type="text" inputmode="decimal" autocomplete="off" id="${id}" name="${fieldName(component)}" class="fl-input" maxlength="40" value="${shown}"${attributes}>`;
    return box(
      component,
      messages.length > 0,
      html`${label(component, id)}<div class="fl-number">${control}${unit ? html`<span class="fl-unit" id="${id}-unit">${unit}</span>` : ''}</div>${errorText(id, messages)}`,
    );
  },
  graphql: (kit) => ({
    components: {
      Number: kit.component('NumberQuestion', 'A number (type "Number"): an amount, a count or a measure, within min…max with at most `decimals` places.', (t) => ({
        question: kit.text(t, 'question'),
        min: t.float({ nullable: true, resolve: (c) => numberValue(c.content.min) ?? null }),
        max: t.float({ nullable: true, resolve: (c) => numberValue(c.content.max) ?? null }),
        decimals: t.int({
          description: 'Decimal places an answer may have (0–6).',
          resolve: (c) => rulesOf(c.content).decimals,
        }),
        placeholder: kit.text(t, 'placeholder'),
        unit: kit.text(t, 'unit'),
        required: kit.bool(t, 'required'),
      })),
    },
    answers: {
      Number: kit.answer('NumberAnswer', 'Answer to a Number question.', (t) => ({
        number: t.float({
          nullable: true,
          description: 'The number answered (stored as `value`).',
          resolve: (r) => numberValue(r.value) ?? null,
        }),
      })),
    },
  }),
  export: { cell: (response) => cellText(response.value) },
  summary: { field: 'value', number: storedNumberSql('Number') },
  style: {
    css: '.fl-number { display: flex; align-items: center; gap: 8px; }\n.fl-unit { flex: 0 0 auto; color: var(--c-fg); }',
  },
  recall: (_shown, response, writtenIn) => (writtenIn !== undefined && typeof response.value === 'number' ? formatNumber(writtenIn, response.value) : undefined),
  conditions: {
    subject: (component: StoredComponent, field) => {
      if (field !== undefined) return `A ${component.type} has no fields: leave out "field"`;
      const { min, max } = rulesOf(component.content);
      return { kind: 'number', min, max };
    },
    value: (_component, response) => numberValue(response.value),
  },
};
