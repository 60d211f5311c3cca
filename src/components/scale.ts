/**
 * The numeric-scale core that Rating, NPS and OpinionScale share: a question answered with one whole
 * number of a range (`from`…`to`), stored as `value`. Each type's module says what its range and labels
 * are; the answer rules, the page's radio group, the export cell, the summary (count per value, mean,
 * median) and the condition subject (a number within the range) are written once here.
 */
import { sql, type SQL } from 'drizzle-orm';
import { html } from 'hono/html';
import { z } from 'zod';
import { asInt as int } from '../graphql/json-fields.ts';
import { cellText, isEmpty, REQUIRED, type Fields, type Problems } from './answers.ts';
import { numberValue } from './conditions.ts';
import { fieldName } from './fields.ts';
import { box, domId, errorsOf, errorText, str, type Html, type RenderContext } from './markup.ts';
import type { AnswerRules, AnswerShapes, ConditionRules, ExportRules, GraphQLKit, SummaryRules } from './module.ts';
import type { StoredComponent } from '../db/json-columns.ts';

/** The whole numbers a scale question offers, both ends included. */
export interface ScaleRange {
  from: number;
  to: number;
}

export const scaleValues = ({ from, to }: ScaleRange): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

export const wholeNumberMessage = ({ from, to }: ScaleRange) => `Must be a whole number from ${from} to ${to}`;

/** One answer of a scale: an integer within the range, or no answer (`null`, `""`). */
export function scaleAnswer(range: ScaleRange, raw: unknown, problems: Problems, required: boolean): Fields {
  if (isEmpty(raw)) {
    if (required) problems.add([], REQUIRED);
    return null;
  }
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < range.from || raw > range.to) {
    problems.add([], wholeNumberMessage(range));
    return null;
  }
  return { value: raw };
}

/** A scale's answer, and its stored `value`: a whole number within `bounds` (the widest range of the type), narrowed as `range` says. */
function scaleShapes(bounds: ScaleRange, range: string): AnswerShapes {
  const value = z
    .number()
    .int()
    .min(bounds.from)
    .max(bounds.to)
    .meta({ description: `A whole number, ${range}.` });
  return { answer: value, stored: { value } };
}

/** The answer rules of a scale whose range its content gives; `bounds` and `range` say what it can be, for the OpenAPI document. */
export function scaleAnswerRules(rangeOf: (component: StoredComponent) => ScaleRange, bounds: ScaleRange, range: string): AnswerRules {
  return {
    shapes: scaleShapes(bounds, range),
    parse: (component, raw, problems, required) => scaleAnswer(rangeOf(component), raw, problems, required),
    // A posted value is a number when it is written as one; anything else goes on as text, which the answer refuses.
    fromFields(component, fields) {
      const posted = fields.one(fieldName(component));
      return /^-?\d{1,4}$/.test(posted) ? Number(posted) : posted;
    },
    toAnswer: (_component, response) => response.value,
  };
}

export interface ScaleMarkup {
  range: ScaleRange;
  /** Stars (a row of ★ filled up to the choice) or numbered buttons. */
  shape: 'star' | 'number';
  /** Under the first, middle and last values. */
  labels: { low?: string | undefined; center?: string | undefined; high?: string | undefined };
  /** The accessible name of one value (a star's "3 of 5"); default: the number. */
  valueName?: (value: number) => string;
}

/**
 * A scale on the page without JavaScript: a radio group (a fieldset whose legend is the question), one
 * visually hidden radio button over each value's target, the labels below it tied to the group.
 */
export function renderScale(component: StoredComponent, ctx: RenderContext, markup: ScaleMarkup): Html {
  const { content } = component;
  const id = domId(component);
  const messages = errorsOf(ctx, component.id);
  const current = ctx.values.get(component.id);
  const required = content.required === true;
  const question = str(content.question);
  const invalid = messages.length > 0;
  const { low, center, high } = markup.labels;
  const hasLabels = Boolean(low || center || high);
  const described = [hasLabels ? `${id}-labels` : '', invalid ? `${id}-error` : ''].filter(Boolean).join(' ');
  const options = scaleValues(markup.range).map((value) => {
    const inputId = `${id}-${value}`;
    const name = markup.valueName?.(value);
    const face = markup.shape === 'star' ? html`<span aria-hidden="true">★</span><span class="sr-only">${name ?? value}</span>` : html`<span>${value}</span>`;
    return html`<label class="fl-scale-option" for="${inputId}"><input type="radio" class="fl-scale-input" id="${inputId}" name="${fieldName(component)}" value="${value}"${current === value ? ' checked' : ''}${required ? ' required' : ''}>${face}</label>`;
  });
  const labels = hasLabels ? html`<div class="fl-scale-labels" id="${id}-labels"><span>${low ?? ''}</span><span>${center ?? ''}</span><span>${high ?? ''}</span></div>` : '';
  const attributes = html`${required ? html` aria-required="true"` : ''}${invalid ? html` aria-invalid="true"` : ''}${described ? html` aria-describedby="${described}"` : ''}`;
  const legend = html`<legend class="fl-question">${question ?? ''}${required ? html`<span aria-hidden="true"> *</span>` : ''}</legend>`;
  return box(
    component,
    invalid,
    html`<fieldset class="fl-fieldset fl-scale fl-scale-${markup.shape}" id="${id}" role="radiogroup"${attributes}>${legend}<div class="fl-scale-options">${options}</div>${labels}</fieldset>${errorText(id, messages)}`,
  );
}

/** The stylesheet rules every scale shares (styles.ts writes each distinct module rule once). */
export const SCALE_CSS = `
.fl-scale-options { display: flex; flex-wrap: wrap; gap: 6px; }
.fl-scale-option { position: relative; display: inline-flex; align-items: center; justify-content: center; min-width: 44px; min-height: 44px; padding: 0 10px;
  background: var(--c-bg); color: var(--c-field-fg); border: 1px solid var(--c-border); border-radius: var(--c-radius); font-weight: 600; cursor: pointer; }
.fl-scale-input { position: absolute; inset: 0; width: 100%; height: 100%; margin: 0; opacity: 0; cursor: pointer; }
.fl-scale-option:has(input:checked) { border-color: var(--c-accent); box-shadow: inset 0 0 0 2px var(--c-accent); }
.fl-scale-option:has(input:focus-visible) { outline: 3px solid var(--c-link); outline-offset: 2px; }
.fl-invalid .fl-scale-option { border-color: var(--c-error, #dc2626); }
.fl-scale-star .fl-scale-option { border: 0; background: transparent; box-shadow: none; padding: 0; font-size: 32px; line-height: 1; color: var(--c-border); }
.fl-scale-star .fl-scale-option:has(input:checked), .fl-scale-star .fl-scale-option:has(~ .fl-scale-option input:checked) { color: var(--c-accent); box-shadow: none; }
.fl-scale-labels { display: flex; justify-content: space-between; gap: 8px; margin: 6px 0 0; font-size: 14px; color: var(--c-muted); }
.fl-scale-labels span:nth-child(2) { text-align: center; }
.fl-scale-labels span:last-child { text-align: end; }
`;

/** A scale's answers in the export: its number. */
export const scaleExport: ExportRules = { cell: (response) => cellText(response.value) };

/** The number of a stored answer of `type` (NULL for any other answer). */
export const storedNumberSql =
  (type: string) =>
  (response: SQL): SQL =>
    sql`case when ${response}->>'type' = ${type} and jsonb_typeof(${response}->'value') = 'number' then (${response}->>'value')::float8 end`;

/** A scale's summary: every value counted, and the statistics of its numbers. */
export function scaleSummary(type: string, rangeOf: (component: StoredComponent) => ScaleRange): SummaryRules {
  return {
    field: 'value',
    options: (component) => scaleValues(rangeOf(component)).map(String),
    option: (response) => sql`case when ${response}->>'type' = ${type} and jsonb_typeof(${response}->'value') = 'number' then ${response}->>'value' end`,
    number: storedNumberSql(type),
  };
}

/** A scale as a condition's subject: a number within its range. */
export function scaleConditions(rangeOf: (component: StoredComponent) => ScaleRange): ConditionRules {
  return {
    subject: (component, field) =>
      field === undefined ? { kind: 'number', min: rangeOf(component).from, max: rangeOf(component).to } : `A ${component.type} has no fields: leave out "field"`,
    value: (_component, response) => numberValue(response.value),
  };
}

/** A scale's GraphQL answer: its value. */
export const scaleAnswerType = (kit: GraphQLKit, type: string, description: string) =>
  kit.answer(`${type}Answer`, description, (t) => ({
    // Not `value`: GraphicOptionsAnswer.value is a String, and union members' fields of one name must agree.
    score: t.int({ nullable: true, description: 'The value chosen (stored as `value`).', resolve: (r) => int(r.value) }),
  }));
