/** ShortInput and LongInput: one line or a text area; the answer is a string, stored as `input`. */
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { html } from 'hono/html';
import { asString as str } from '../graphql/json-fields.ts';
import { ANSWER_LIMITS, stringAnswer } from './answers.ts';
import { LIMITS, text, shortText, type ContentRules } from './content.ts';
import { fieldName } from './fields.ts';
import { inputValue, singleInput } from './markup.ts';
import { fieldless, textValue } from './conditions.ts';
import type { ComponentModule, GraphQLKit } from './module.ts';
import type { StoredComponent } from '../db/json-columns.ts';

const inputContent: ContentRules = {
  schema: z.looseObject({
    question: text.optional(),
    placeholder: shortText.optional(),
    required: z.boolean().optional(),
    maxLength: z.number().int().min(1).max(LIMITS.maxTextLength).optional(),
  }),
};

/** The longest answer: content `maxLength` (capped), else the type's default. */
function maxLengthOf(component: StoredComponent): number {
  const fallback = component.type === 'LongInput' ? ANSWER_LIMITS.longInput : ANSWER_LIMITS.shortInput;
  const configured = component.content.maxLength;
  return typeof configured === 'number' && configured > 0 ? Math.min(configured, ANSWER_LIMITS.longInput) : fallback;
}

const graphql = (kit: GraphQLKit) => {
  const component = (name: string, description: string) =>
    kit.component(name, description, (t) => ({ question: kit.text(t, 'question'), placeholder: kit.text(t, 'placeholder'), required: kit.bool(t, 'required') }));
  const answer = (name: string, description: string) => kit.answer(name, description, (t) => ({ input: t.string({ nullable: true, resolve: (r) => str(r.input) }) }));
  return {
    components: {
      ShortInput: component('ShortInput', 'Single-line text input.'),
      LongInput: component('LongInput', 'Multi-line text area.'),
    },
    answers: {
      ShortInput: answer('ShortInputAnswer', 'Answer to a ShortInput.'),
      LongInput: answer('LongInputAnswer', 'Answer to a LongInput.'),
    },
  };
};

/**
 * A LongInput answer without its leading blank lines (the first line keeps its indentation) and trailing
 * whitespace. String methods only: a regular expression for this backtracks quadratically on long runs of
 * whitespace.
 */
export function trimLongInput(text: string): string {
  const trimmed = text.trimEnd();
  const leading = trimmed.length - trimmed.trimStart().length;
  const lastBlankLine = trimmed.lastIndexOf('\n', leading - 1);
  return leading > 0 && lastBlankLine >= 0 ? trimmed.slice(lastBlankLine + 1) : trimmed;
}

export const textInputs: ComponentModule = {
  types: { ShortInput: inputContent, LongInput: inputContent },
  summary: {
    freeText: (response) => sql`case when ${response}->>'type' in ('ShortInput', 'LongInput') and jsonb_typeof(${response}->'input') = 'string' then ${response}->>'input' end`,
  },
  answer: {
    shapes: {
      answer: z.string().meta({ description: 'The text (at most `maxLength` characters; by default 1,000 for ShortInput, 10,000 for LongInput).' }),
      stored: { input: z.string().meta({ description: 'The text as stored: a ShortInput trimmed, a LongInput without its blank first and last lines.' }) },
    },
    parse(component, raw, problems, required) {
      const answer = stringAnswer(raw, required, problems);
      if (answer === undefined) return null;
      // The limit applies to the answer as sent, before any normalisation touches it.
      const max = maxLengthOf(component);
      if (answer.length > max) {
        problems.add([], `Must be at most ${max} characters`);
        return { input: answer };
      }
      return { input: component.type === 'LongInput' ? trimLongInput(answer) : answer.trim() };
    },
    fromFields: (component, fields) => fields.one(fieldName(component)),
    toAnswer: (_component, response) => response.input,
  },
  render(component, ctx) {
    const value = inputValue(ctx.values.get(component.id));
    const max = maxLengthOf(component);
    return singleInput(component, ctx, (common) =>
      component.type === 'LongInput' ? html`<textarea ${common} maxlength="${max}">${value}</textarea>` : html`<input type="text" ${common} maxlength="${max}" value="${value}">`,
    );
  },
  graphql,
  conditions: { subject: fieldless(() => ({ kind: 'text' })), value: (_component, response) => textValue(response.input) },
};
