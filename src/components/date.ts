/**
 * Date: a calendar day, picked with the browser's date input (`type="date"` with `min` and `max`). The
 * answer is `YYYY-MM-DD`, a day that exists (no 2026-02-30) within `min`…`max` (a hint under the field
 * gives them in the page's language). Stored as `value`; the summary gives the earliest and latest days
 * and the count per month.
 */
import { sql, type SQL } from 'drizzle-orm';
import { html } from 'hono/html';
import { z } from 'zod';
import { cellText, isEmpty, REQUIRED, type Fields, type Problems } from './answers.ts';
import { isCalendarDate, textValue } from './conditions.ts';
import { contentString, text, type Content, type ContentRules } from './content.ts';
import { fieldName } from './fields.ts';
import { box, domId, errorsOf, errorText, label, str } from './markup.ts';
import type { ComponentModule } from './module.ts';
import { localizeDate, pageWords } from '../i18n/locales.ts';

const DATE_FORMAT = 'Must be a date written YYYY-MM-DD';
/** The most months a summary lists between `min` and `max` when no answer falls in them. */
const MAX_LISTED_MONTHS = 240;

const calendarDate = z.string().refine(isCalendarDate, 'must be a date written YYYY-MM-DD that exists');

const dateContent: ContentRules = {
  schema: z.strictObject({
    question: text.optional(),
    min: calendarDate.optional(),
    max: calendarDate.optional(),
    required: z.boolean().optional(),
  }),
  rules: (raw) => (isCalendarDate(raw.min) && isCalendarDate(raw.max) && raw.min > raw.max ? [{ path: ['min'], message: 'min must not be after max' }] : []),
};

export function dateAnswer(content: Content, raw: unknown, problems: Problems, required: boolean): Fields {
  if (isEmpty(raw)) {
    if (required) problems.add([], REQUIRED);
    return null;
  }
  if (!isCalendarDate(raw)) {
    problems.add([], DATE_FORMAT);
    return null;
  }
  const min = contentString(content.min);
  const max = contentString(content.max);
  if (min !== undefined && raw < min) problems.add([], `Must be on or after ${min}`);
  else if (max !== undefined && raw > max) problems.add([], `Must be on or before ${max}`);
  return problems.any ? null : { value: raw };
}

/** The months (`YYYY-MM`) from `min`'s to `max`'s, when both are set and not too far apart; else none. */
export function monthsBetween(min: string | undefined, max: string | undefined): string[] {
  if (!isCalendarDate(min) || !isCalendarDate(max)) return [];
  const [fromYear, fromMonth] = min.split('-').map(Number) as [number, number];
  const [toYear, toMonth] = max.split('-').map(Number) as [number, number];
  const count = (toYear - fromYear) * 12 + (toMonth - fromMonth) + 1;
  if (count > MAX_LISTED_MONTHS) return [];
  return Array.from({ length: count }, (_, i) => {
    const month = fromMonth - 1 + i;
    return `${String(fromYear + Math.floor(month / 12)).padStart(4, '0')}-${String((month % 12) + 1).padStart(2, '0')}`;
  });
}

/** The hint under a field with limits: its days in the page's language ("Between 1 March 2026 and …"); none without limits. */
function limitsHint(locale: string, min: string | undefined, max: string | undefined): string | undefined {
  const words = pageWords(locale);
  const day = (date: string) => localizeDate(locale, date);
  if (min && max) return words.dateBetween(day(min), day(max));
  if (min) return words.dateFrom(day(min));
  return max ? words.dateUntil(day(max)) : undefined;
}

const storedDay = z.iso.date().meta({ description: 'A day, `YYYY-MM-DD`, from `min` to `max`.' });

const storedDate = (response: SQL): SQL => sql`case when ${response}->>'type' = 'Date' and jsonb_typeof(${response}->'value') = 'string' then ${response}->>'value' end`;

export const dateQuestion: ComponentModule = {
  types: { Date: dateContent },
  answer: {
    shapes: { answer: storedDay, stored: { value: storedDay } },
    parse: ({ content }, raw, problems, required) => dateAnswer(content, raw, problems, required),
    fromFields: (component, fields) => fields.one(fieldName(component)).trim(),
    toAnswer: (_component, response) => response.value,
  },
  render(component, ctx) {
    const { content } = component;
    const id = domId(component);
    const messages = errorsOf(ctx, component.id);
    const current = ctx.values.get(component.id);
    const min = str(content.min);
    const max = str(content.max);
    const hint = limitsHint(ctx.form.locale, min, max);
    const described = [hint ? `${id}-hint` : '', messages.length > 0 ? `${id}-error` : ''].filter(Boolean).join(' ');
    const attributes = html`${min ? html` min="${min}"` : ''}${max ? html` max="${max}"` : ''}${content.required === true ? html` required aria-required="true"` : ''}${messages.length > 0 ? html` aria-invalid="true"` : ''}${described ? html` aria-describedby="${described}"` : ''}${str(content.question) ? '' : html` aria-label="${pageWords(ctx.form.locale).yourAnswer}"`}`;
    return box(
      component,
      messages.length > 0,
      html`${label(component, id)}<input type="date" id="${id}" name="${fieldName(component)}" class="fl-input fl-date" value="${typeof current === 'string' ? current : ''}"${attributes}>${hint ? html`<p class="fl-note" id="${id}-hint">${hint}</p>` : ''}${errorText(id, messages)}`,
    );
  },
  graphql: (kit) => ({
    components: {
      Date: kit.component('DateQuestion', 'A calendar day (type "Date"), YYYY-MM-DD, within min…max.', (t) => ({
        question: kit.text(t, 'question'),
        // Not `min`/`max`: NumberQuestion's are Floats, and union members' fields of one name must agree.
        minDate: t.string({
          nullable: true,
          description: 'The earliest day accepted (content `min`).',
          resolve: (c) => textValue(c.content.min) ?? null,
        }),
        maxDate: t.string({
          nullable: true,
          description: 'The latest day accepted (content `max`).',
          resolve: (c) => textValue(c.content.max) ?? null,
        }),
        required: kit.bool(t, 'required'),
      })),
    },
    answers: {
      Date: kit.answer('DateAnswer', 'Answer to a Date question.', (t) => ({
        date: t.string({
          nullable: true,
          description: 'The day answered, YYYY-MM-DD (stored as `value`).',
          resolve: (r) => textValue(r.value) ?? null,
        }),
      })),
    },
  }),
  export: { cell: (response) => cellText(response.value) },
  summary: {
    field: 'value',
    options: ({ content }) => monthsBetween(contentString(content.min), contentString(content.max)),
    option: (response) => sql`substr(${storedDate(response)}, 1, 7)`,
    date: storedDate,
  },
  style: { css: '.fl-date { max-width: 16em; }' },
  recall: (_shown, response, writtenIn) => (writtenIn !== undefined && isCalendarDate(response.value) ? localizeDate(writtenIn, response.value) : undefined),
  conditions: {
    subject: (component, field) => (field === undefined ? { kind: 'date' } : `A ${component.type} has no fields: leave out "field"`),
    value: (_component, response) => (isCalendarDate(response.value) ? response.value : undefined),
  },
};
