/**
 * NPS: "How likely are you to recommend us?", answered with a whole number from 0 to 10 on eleven
 * numbered buttons, labelled "Not at all likely" and "Extremely likely" in the form's language unless
 * the content says otherwise. Stored as `value`; the summary gives promoters (9–10), passives (7–8),
 * detractors (0–6) and the score. The scale itself is the shared core (scale.ts).
 */
import { z } from 'zod';
import { shortText, text, type ContentRules } from './content.ts';
import { str } from './markup.ts';
import type { ComponentModule, PromoterScore } from './module.ts';
import { renderScale, SCALE_CSS, scaleAnswerRules, scaleAnswerType, scaleConditions, scaleExport, scaleSummary, type ScaleRange } from './scale.ts';
import { pageWords } from '../i18n/locales.ts';

const NPS_RANGE: ScaleRange = { from: 0, to: 10 };

const npsContent: ContentRules = {
  schema: z.strictObject({
    question: text.optional(),
    lowLabel: shortText.optional(),
    highLabel: shortText.optional(),
    required: z.boolean().optional(),
  }),
};

/** Promoters answer 9 or 10, passives 7 or 8, detractors 0 to 6; the score is % promoters − % detractors. */
export function promoterScore(counts: ReadonlyMap<string, number>): PromoterScore {
  let promoters = 0;
  let passives = 0;
  let detractors = 0;
  for (const [value, count] of counts) {
    const n = Number(value);
    if (n >= 9) promoters += count;
    else if (n >= 7) passives += count;
    else detractors += count;
  }
  const total = promoters + passives + detractors;
  return {
    promoters,
    passives,
    detractors,
    score: total === 0 ? null : Math.round(((promoters - detractors) / total) * 1000) / 10,
  };
}

const range = () => NPS_RANGE;

export const nps: ComponentModule = {
  texts: ['question', 'lowLabel', 'highLabel'],
  types: { NPS: npsContent },
  answer: scaleAnswerRules(range, NPS_RANGE, 'from 0 to 10'),
  render(component, ctx) {
    const words = pageWords(ctx.form.locale);
    return renderScale(component, ctx, {
      range: NPS_RANGE,
      shape: 'number',
      labels: {
        low: str(component.content.lowLabel) ?? words.npsLow,
        high: str(component.content.highLabel) ?? words.npsHigh,
      },
    });
  },
  graphql: (kit) => ({
    components: {
      NPS: kit.component('NPS', 'How likely, from 0 to 10, a respondent is to recommend something (Net Promoter Score).', (t) => ({
        question: kit.text(t, 'question'),
        lowLabel: kit.text(t, 'lowLabel'),
        highLabel: kit.text(t, 'highLabel'),
        required: kit.bool(t, 'required'),
      })),
    },
    answers: { NPS: scaleAnswerType(kit, 'NPS', 'Answer to an NPS question.') },
  }),
  export: scaleExport,
  summary: { ...scaleSummary('NPS', range), promoterScore },
  style: {
    css: `${SCALE_CSS}
.fl-t-NPS .fl-scale-options { display: grid; grid-template-columns: repeat(11, minmax(24px, 1fr)); gap: 4px; }
.fl-t-NPS .fl-scale-option { min-width: 24px; padding: 0; }`,
  },
  conditions: scaleConditions(range),
};
