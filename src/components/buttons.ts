/**
 * NextButton and NextBackButtons: the step's submit button (and a link back); take no answer.
 * `buttonText` is an alias of NextButton's `label`, `nextButtonText`/`backButtonText` of
 * NextBackButtons' `nextLabel`/`backLabel`. A step without either gets a plain Next/Submit button.
 */
import { html } from 'hono/html';
import { z } from 'zod';
import { shortText, withDefined } from './content.ts';
import { pageHref, str, type Html, type RenderContext } from './markup.ts';
import { pageWords } from '../i18n/locales.ts';
import type { ComponentModule } from './module.ts';

/** The type whose style the plain submit button takes: a step with no button component gets one. */
export const PLAIN_BUTTON_TYPE = 'NextButton';

/** The step's actions: back link (to the step before on the respondent's path) and the submit button. */
export function actions(ctx: RenderContext, nextLabel: string | undefined, backLabel: string | undefined, type = PLAIN_BUTTON_TYPE): Html {
  const words = pageWords(ctx.form.locale);
  const back = ctx.backStep !== undefined ? html`<a class="fl-back" href="${pageHref(ctx.form.id, `step=${ctx.backStep}`, ctx)}">← ${backLabel ?? words.back}</a>` : '';
  return html`<div class="fl-actions">${back}<button type="submit" class="fl-button fl-t-${type}">${nextLabel ?? (ctx.isLast ? words.submit : words.next)}</button></div>`;
}

export const buttons: ComponentModule = {
  texts: ['label', 'nextLabel', 'backLabel'],
  types: {
    NextButton: {
      schema: z.looseObject({ label: shortText.optional(), buttonText: shortText.optional() }),
      normalise: ({ label, buttonText, ...rest }) => withDefined(rest, { label: label ?? buttonText }),
    },
    NextBackButtons: {
      schema: z.looseObject({
        nextLabel: shortText.optional(),
        backLabel: shortText.optional(),
        nextButtonText: shortText.optional(),
        backButtonText: shortText.optional(),
      }),
      normalise: ({ nextLabel, backLabel, nextButtonText, backButtonText, ...rest }) =>
        withDefined(rest, { nextLabel: nextLabel ?? nextButtonText, backLabel: backLabel ?? backButtonText }),
    },
  },
  render: (component, ctx) =>
    component.type === 'NextButton'
      ? actions(ctx, str(component.content.label), undefined, component.type)
      : actions(ctx, str(component.content.nextLabel), str(component.content.backLabel), component.type),
  graphql: (kit) => ({
    components: {
      NextButton: kit.component('NextButton', 'The button to the next step.', (t) => ({ label: kit.text(t, 'label') })),
      NextBackButtons: kit.component('NextBackButtons', 'Next and back buttons.', (t) => ({
        nextLabel: kit.text(t, 'nextLabel'),
        backLabel: kit.text(t, 'backLabel'),
      })),
    },
  }),
  submitsStep: true,
  style: {
    defaults: (colors) => ({ backgroundColor: colors.primary, textColor: colors.buttonText, borderRadius: 8, fontSize: 16 }),
    button: true,
  },
};
