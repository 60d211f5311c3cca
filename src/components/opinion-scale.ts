/**
 * OpinionScale: agreement or opinion on numbered buttons from `from` (0 or 1, default 1) to `to` (2–10,
 * default 5), with `labels` under the left end, the middle and the right end. Stored as `value`. The
 * scale itself is the shared core (scale.ts).
 */
import { z } from 'zod';
import { asInt as int, asString as jsonStr } from '../graphql/json-fields.ts';
import { shortText, text, type ContentRules } from './content.ts';
import { asObject, str } from './markup.ts';
import type { ComponentModule } from './module.ts';
import { renderScale, SCALE_CSS, scaleAnswerRules, scaleAnswerType, scaleConditions, scaleExport, scaleSummary, type ScaleRange } from './scale.ts';
import type { StoredComponent } from '../db/json-columns.ts';

export const OPINION_SCALE = { from: [0, 1], defaultFrom: 1, minTo: 2, maxTo: 10, defaultTo: 5 } as const;

const opinionContent: ContentRules = {
  schema: z.strictObject({
    question: text.optional(),
    from: z.union([z.literal(0), z.literal(1)], 'from must be 0 or 1').optional(),
    to: z.number().int(`to must be a whole number from ${OPINION_SCALE.minTo} to ${OPINION_SCALE.maxTo}`).min(OPINION_SCALE.minTo).max(OPINION_SCALE.maxTo).optional(),
    labels: z.strictObject({ left: shortText.optional(), center: shortText.optional(), right: shortText.optional() }).optional(),
    required: z.boolean().optional(),
  }),
  normalise: (content) => ({
    ...content,
    from: content.from ?? OPINION_SCALE.defaultFrom,
    to: content.to ?? OPINION_SCALE.defaultTo,
  }),
};

const rangeOf = ({ content }: StoredComponent): ScaleRange => ({
  from: int(content.from) ?? OPINION_SCALE.defaultFrom,
  to: int(content.to) ?? OPINION_SCALE.defaultTo,
});

export const opinionScale: ComponentModule = {
  texts: ['question', 'labels.left', 'labels.center', 'labels.right'],
  types: { OpinionScale: opinionContent },
  answer: scaleAnswerRules(rangeOf, { from: 0, to: OPINION_SCALE.maxTo }, "from the OpinionScale's `from` (0 or 1) to its `to` (2–10)"),
  render(component, ctx) {
    const labels = asObject(component.content.labels);
    return renderScale(component, ctx, {
      range: rangeOf(component),
      shape: 'number',
      labels: { low: str(labels.left), center: str(labels.center), high: str(labels.right) },
    });
  },
  graphql(kit) {
    const Labels = kit.builder.objectRef<Record<string, unknown>>('OpinionScaleLabels').implement({
      description: 'The words under the left end, the middle and the right end of an OpinionScale.',
      fields: (t) => ({
        left: t.string({ nullable: true, resolve: (l) => jsonStr(l.left) }),
        center: t.string({ nullable: true, resolve: (l) => jsonStr(l.center) }),
        right: t.string({ nullable: true, resolve: (l) => jsonStr(l.right) }),
      }),
    });
    return {
      components: {
        OpinionScale: kit.component('OpinionScale', 'Numbered buttons from `from` to `to`, labelled at the ends and the middle.', (t) => ({
          question: kit.text(t, 'question'),
          from: t.int({ description: 'The lowest value (0 or 1).', resolve: (c) => rangeOf(c).from }),
          to: t.int({ description: 'The highest value (2–10).', resolve: (c) => rangeOf(c).to }),
          labels: t.field({
            type: Labels,
            nullable: true,
            resolve: (c) => (typeof c.content.labels === 'object' && c.content.labels !== null ? asObject(c.content.labels) : null),
          }),
          required: kit.bool(t, 'required'),
        })),
      },
      answers: { OpinionScale: scaleAnswerType(kit, 'OpinionScale', 'Answer to an OpinionScale.') },
    };
  },
  export: scaleExport,
  summary: scaleSummary('OpinionScale', rangeOf),
  style: { css: SCALE_CSS },
  conditions: scaleConditions(rangeOf),
};
