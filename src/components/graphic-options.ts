/**
 * GraphicOptions: options with pictures, one to pick. The answer is the option's index (number) or
 * value (string); stored as `index` and `value`.
 */
import { sql } from 'drizzle-orm';
import { html } from 'hono/html';
import { z } from 'zod';
import { asInt as int, asString as jsonStr } from '../graphql/json-fields.ts';
import { cellText, isEmpty, REQUIRED } from './answers.ts';
import { contentString, httpUrl, isHttpUrl, LIMITS, loose, shortText, text, type Content } from './content.ts';
import { fieldName } from './fields.ts';
import { box, describedBy, domId, errorsOf, errorText, requiredGroup, requiredMark, str } from './markup.ts';
import { fieldless, textValue } from './conditions.ts';
import type { ComponentModule } from './module.ts';

export interface GraphicOption {
  label: string;
  value: string;
  imageUrl: string | undefined;
}
function graphicOptions(content: Content): GraphicOption[] {
  if (!Array.isArray(content.options)) return [];
  return content.options.map((raw, index) => {
    const option = (typeof raw === 'object' && raw !== null ? raw : {}) as Content;
    const value = contentString(option.value) ?? contentString(option.label) ?? String(index);
    return { label: contentString(option.label) ?? value, value, imageUrl: contentString(option.imageUrl) };
  });
}

export const graphicOptionsModule: ComponentModule = {
  texts: ['question', 'options.*.label'],
  types: {
    GraphicOptions: loose({
      question: text.optional(),
      options: z
        .array(z.looseObject({ label: shortText.optional(), value: shortText.optional(), imageUrl: httpUrl.optional() }))
        .max(LIMITS.maxOptions)
        .optional(),
    }),
  },
  answer: {
    shapes: {
      answer: z.union([z.number().int().min(0), z.string()]).meta({ description: "The option's index, or its `value`." }),
      stored: { index: z.number().int().min(0), value: z.string() },
    },
    parse({ content }, raw, problems, required) {
      const options = graphicOptions(content);
      if (isEmpty(raw)) {
        if (required) problems.add([], REQUIRED);
        return null;
      }
      let index: number;
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
    },
    fromFields(component, fields) {
      const value = fields.one(fieldName(component));
      return /^\d+$/.test(value) ? Number(value) : value;
    },
    toAnswer: (_component, response) => response.index,
  },
  render(component, ctx) {
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
      html`<fieldset class="fl-fieldset"${requiredGroup(component.content.required === true, true)}${describedBy(id, messages)}>${question ? html`<legend class="fl-question">${question}${requiredMark(component.content.required === true)}</legend>` : ''}<div class="fl-graphic">${options}</div></fieldset>${errorText(id, messages)}`,
    );
  },
  graphql: (kit) => ({
    answers: {
      GraphicOptions: kit.answer('GraphicOptionsAnswer', 'Answer to GraphicOptions: the picked option.', (t) => ({
        index: t.int({ nullable: true, resolve: (r) => int(r.index) }),
        value: t.string({ nullable: true, resolve: (r) => jsonStr(r.value) }),
      })),
    },
  }),
  export: { cell: (response) => cellText(response.value ?? response.index) },
  summary: {
    field: 'value',
    options: (component) => graphicOptions(component.content).map((option) => option.value),
    option: (response) => sql`case when ${response}->>'type' = 'GraphicOptions' and jsonb_typeof(${response}->'value') = 'string' then ${response}->>'value' end`,
  },
  // The option's label as the page showed it, not its value.
  recall: (shown, response) => (typeof response.index === 'number' ? graphicOptions(shown.content)[response.index]?.label : undefined),
  conditions: {
    subject: fieldless(({ content }) => ({ kind: 'choice', options: graphicOptions(content).map((option) => option.value) })),
    value: (_component, response) => textValue(response.value),
  },
};
