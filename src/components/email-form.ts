/** EmailForm: one e-mail address, stored as `emailAddress`; `blockPersonalEmails` refuses free-mail domains. */
import { z } from 'zod';
import { html } from 'hono/html';
import { ANSWER_LIMITS, isEmail, isPersonalEmail, stringAnswer } from './answers.ts';
import { loose, shortText, text } from './content.ts';
import { fieldName } from './fields.ts';
import { inputValue, singleInput } from './markup.ts';
import { fieldless, textValue } from './conditions.ts';
import type { ComponentModule } from './module.ts';

export const emailForm: ComponentModule = {
  types: { EmailForm: loose({ question: text.optional(), placeholder: shortText.optional(), blockPersonalEmails: z.boolean().optional() }) },
  answer: {
    shapes: {
      answer: z.string().meta({ description: 'An e-mail address (not a free-mail one with `blockPersonalEmails`).' }),
      stored: { emailAddress: z.string() },
    },
    parse(component, raw, problems, required) {
      const answer = stringAnswer(raw, required, problems);
      if (answer === undefined) return null;
      const value = answer.trim();
      if (!isEmail(value)) problems.add([], 'Enter a valid e-mail address');
      else if (component.content.blockPersonalEmails === true && isPersonalEmail(value)) problems.add([], 'Please use your work e-mail address');
      return { emailAddress: value };
    },
    fromFields: (component, fields) => fields.one(fieldName(component)),
    toAnswer: (_component, response) => response.emailAddress,
  },
  render: (component, ctx) =>
    singleInput(
      component,
      ctx,
      (common) => html`<input type="email" ${common} autocomplete="email" maxlength="${ANSWER_LIMITS.email}" value="${inputValue(ctx.values.get(component.id))}">`,
    ),
  conditions: { subject: fieldless(() => ({ kind: 'text' })), value: (_component, response) => textValue(response.emailAddress) },
  confirmationEmailFields: ['emailAddress'],
};
