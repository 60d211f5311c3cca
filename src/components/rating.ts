/**
 * Rating: "Rate the onboarding", answered with a whole number from 1 to `scale` (3–10, default 5), drawn
 * as stars (`shape: "star"`, the default) or numbered buttons, with optional labels under both ends.
 * Stored as `value`. The scale itself is the shared core (scale.ts).
 */
import { z } from 'zod';
import { asInt as int, asString as jsonStr } from '../graphql/json-fields.ts';
import { shortText, text, type ContentRules } from './content.ts';
import { str } from './markup.ts';
import type { ComponentModule } from './module.ts';
import { renderScale, SCALE_CSS, scaleAnswerRules, scaleAnswerType, scaleConditions, scaleExport, scaleSummary, type ScaleRange } from './scale.ts';
import { pageWords } from '../i18n/locales.ts';
import type { StoredComponent } from '../db/json-columns.ts';

export const RATING_SCALE = { min: 3, max: 10, default: 5 } as const;

const ratingContent: ContentRules = {
  schema: z.strictObject({
    question: text.optional(),
    scale: z.number().int(`scale must be a whole number from ${RATING_SCALE.min} to ${RATING_SCALE.max}`).min(RATING_SCALE.min).max(RATING_SCALE.max).optional(),
    shape: z.enum(['star', 'number']).optional(),
    lowLabel: shortText.optional(),
    highLabel: shortText.optional(),
    required: z.boolean().optional(),
  }),
  normalise: (content) => ({
    ...content,
    scale: content.scale ?? RATING_SCALE.default,
    shape: content.shape ?? 'star',
  }),
};

const rangeOf = ({ content }: StoredComponent): ScaleRange => ({
  from: 1,
  to: int(content.scale) ?? RATING_SCALE.default,
});

export const rating: ComponentModule = {
  texts: ['question', 'lowLabel', 'highLabel'],
  types: { Rating: ratingContent },
  answer: scaleAnswerRules(rangeOf, { from: 1, to: RATING_SCALE.max }, "from 1 to the Rating's `scale` (3–10)"),
  render(component, ctx) {
    const range = rangeOf(component);
    const { content } = component;
    const words = pageWords(ctx.form.locale);
    return renderScale(component, ctx, {
      range,
      shape: content.shape === 'number' ? 'number' : 'star',
      labels: { low: str(content.lowLabel), high: str(content.highLabel) },
      valueName: (value) => words.ratingValue(value, range.to),
    });
  },
  graphql: (kit) => ({
    components: {
      Rating: kit.component('Rating', 'A rating from 1 to `scale`, as stars or numbers.', (t) => ({
        question: kit.text(t, 'question'),
        scale: t.int({ description: 'The highest value (3–10).', resolve: (c) => rangeOf(c).to }),
        shape: t.string({ description: '"star" or "number".', resolve: (c) => jsonStr(c.content.shape) ?? 'star' }),
        lowLabel: kit.text(t, 'lowLabel'),
        highLabel: kit.text(t, 'highLabel'),
        required: kit.bool(t, 'required'),
      })),
    },
    answers: { Rating: scaleAnswerType(kit, 'Rating', 'Answer to a Rating.') },
  }),
  export: scaleExport,
  summary: scaleSummary('Rating', rangeOf),
  style: { css: SCALE_CSS },
  conditions: scaleConditions(rangeOf),
};
