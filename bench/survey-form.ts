/**
 * The bench's survey form: one question of each survey type (Rating, NPS, OpinionScale, Number, Date,
 * Matrix, Ranking) on one step, and a closing step. bench/survey-summary.ts summarises it, bench/survey-page.ts
 * serves its page.
 */
import { readTemplateExample } from '../src/bootstrap.ts';
import type { Db } from '../src/db/client.ts';
import { createEnvironment } from '../src/environments/environments.service.ts';
import { generateFormInputSchema } from '../src/forms/components.ts';
import { generateForm, importForm, type Form } from '../src/forms/forms.service.ts';

export const SURVEY_STEPS = [
  {
    name: 'Survey',
    components: [
      { type: 'Rating', content: { question: 'Rate us', lowLabel: 'Poor', highLabel: 'Great', required: true } },
      { type: 'NPS', content: { question: 'Recommend us?', required: true } },
      { type: 'OpinionScale', content: { question: 'Clear?', to: 7, labels: { left: 'No', center: 'So so', right: 'Yes' } } },
      { type: 'Number', content: { question: 'Seats', decimals: 1, min: 0, max: 500, unit: 'seats' } },
      { type: 'Date', content: { question: 'Start', min: '2026-01-01', max: '2026-12-31' } },
      { type: 'Matrix', content: { question: 'Grid', rows: ['Speed', 'Price', 'Support'], columns: ['Low', 'Mid', 'High'], required: true } },
      { type: 'Ranking', content: { question: 'Order', options: ['A', 'B', 'C', 'D'] } },
    ],
  },
  { name: 'End', components: [{ type: 'Header', content: { title: 'Thanks' } }] },
];

/**
 * A new environment (its id, to remove it afterwards) and the survey form generated from the example
 * template (its theme and styles), with `extra` added to the generate input (e.g. `limits`).
 */
export async function createSurveyForm(db: Db, extra: Record<string, unknown> = {}): Promise<{ environmentId: string; form: Form }> {
  const environment = await createEnvironment(db, { name: 'Bench survey' });
  const template = readTemplateExample();
  const source = await importForm(db, { environmentId: environment.id, name: template.name, theme: template.theme!, steps: template.steps });
  const form = await generateForm(db, environment.id, generateFormInputSchema.parse({ sourceFormId: source.id, name: 'Survey', steps: SURVEY_STEPS, ...extra }));
  return { environmentId: environment.id, form };
}
