/** Disclaimer: legal text with a check box. The answer is a boolean, stored as `check`. */
import { sql } from 'drizzle-orm';
import { html } from 'hono/html';
import { z } from 'zod';
import { asBoolean as bool } from '../graphql/json-fields.ts';
import { cellText } from './answers.ts';
import { loose, shortText, text } from './content.ts';
import { fieldName } from './fields.ts';
import { box, describedBy, domId, errorsOf, errorText, str } from './markup.ts';
import { fieldless } from './conditions.ts';
import type { ComponentModule } from './module.ts';
import { pageWords } from '../i18n/locales.ts';

const TICK = 'Please tick the box to continue';

export const disclaimer: ComponentModule = {
  texts: ['text', 'checkboxLabel'],
  types: { Disclaimer: loose({ text: text.optional(), checkboxLabel: shortText.optional(), required: z.boolean().optional() }) },
  answer: {
    shapes: { answer: z.boolean().meta({ description: 'Whether the box is ticked (it must be when `required`).' }), stored: { check: z.boolean() } },
    parse(_component, raw, problems, required) {
      if (raw === null || raw === undefined) {
        if (required) problems.add([], TICK);
        return null;
      }
      if (typeof raw !== 'boolean') {
        problems.add([], 'Must be a boolean');
        return null;
      }
      if (required && !raw) problems.add([], TICK);
      return { check: raw };
    },
    fromFields: (component, fields) => fields.one(fieldName(component)) !== '',
    toAnswer: (_component, response) => response.check,
  },
  headline: (component) => (typeof component.content.text === 'string' ? component.content.text : ''),
  // A consent that must be given.
  guards: (component) => component.content.required === true,
  render(component, ctx) {
    const id = domId(component);
    const messages = errorsOf(ctx, component.id);
    const body = str(component.content.text);
    const checked = ctx.values.get(component.id) === true;
    const required = component.content.required === true;
    return box(
      component,
      messages.length > 0,
      html`${body ? html`<p class="fl-disclaimer-text">${body}</p>` : ''}<label class="fl-check" for="${id}"><input type="checkbox" id="${id}" name="${fieldName(component)}" value="on"${checked ? ' checked' : ''}${required ? ' required' : ''}${describedBy(id, messages)}><span>${str(component.content.checkboxLabel) ?? pageWords(ctx.form.locale).agree}</span></label>${errorText(id, messages)}`,
    );
  },
  graphql: (kit) => ({
    components: { Disclaimer: kit.component('Disclaimer', 'Legal text with a check box.', (t) => ({ text: kit.text(t, 'text') })) },
    answers: {
      Disclaimer: kit.answer('DisclaimerAnswer', 'Answer to a Disclaimer.', (t) => ({
        check: t.boolean({ nullable: true, description: 'The box was ticked.', resolve: (r) => bool(r.check) }),
      })),
    },
  }),
  export: { cell: (response) => cellText(response.check) },
  summary: {
    field: 'check',
    options: () => ['checked', 'unchecked'],
    option: (response) => sql`case when ${response}->>'type' = 'Disclaimer' then case when ${response}->'check' = 'true'::jsonb then 'checked' else 'unchecked' end end`,
  },
  style: { defaults: (colors) => ({ textColor: colors.text, fontSize: 13 }) },
  conditions: {
    subject: fieldless(() => ({ kind: 'boolean' })),
    value: (_component, response) => (typeof response.check === 'boolean' ? response.check : undefined),
  },
};
