/** FileUploader: the answer is the file's http(s) URL, stored as `fileUrl`. */
import { html } from 'hono/html';
import { asString as str } from '../graphql/json-fields.ts';
import { ANSWER_LIMITS, stringAnswer } from './answers.ts';
import { isHttpUrl, loose, text } from './content.ts';
import { fieldName } from './fields.ts';
import { inputValue, singleInput } from './markup.ts';
import type { ComponentModule } from './module.ts';

export const fileUploader: ComponentModule = {
  types: { FileUploader: loose({ question: text.optional() }) },
  answer: {
    parse(_component, raw, problems, required) {
      const answer = stringAnswer(raw, required, problems);
      if (answer === undefined) return null;
      const value = answer.trim();
      if (!isHttpUrl(value)) problems.add([], 'Enter the http(s) link of your file');
      return { fileUrl: value };
    },
    fromFields: (component, fields) => fields.one(fieldName(component)),
    toAnswer: (_component, response) => response.fileUrl,
  },
  render: (component, ctx) =>
    singleInput(
      component,
      ctx,
      (common) =>
        html`<input type="url" ${common} maxlength="${ANSWER_LIMITS.url}" value="${inputValue(ctx.values.get(component.id))}"><p class="fl-note">Paste a link to your file (for example a shared drive link).</p>`,
      { placeholder: 'https://… (link to your file)' },
    ),
  graphql: (kit) => ({
    answers: {
      FileUploader: kit.answer('FileUploaderAnswer', 'Answer to a FileUploader.', (t) => ({
        fileUrl: t.string({ nullable: true, resolve: (r) => str(r.fileUrl) }),
      })),
    },
  }),
};
