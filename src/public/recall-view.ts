/**
 * Recall on the page: the texts of the step shown, with the respondent's own values in place of their
 * placeholders (src/forms/recall.ts). Values go into texts only, never into attributes or URLs: the
 * options (whose texts are the fields' values) and every other content field keep their placeholders as
 * written, and the page's templates escape the recalled texts as they escape every text.
 */
import type { StoredStep } from '../db/json-columns.ts';
import type { Form } from '../forms/forms.service.ts';
import { recall, type RecallLookup } from '../forms/recall.ts';

/** The content fields that are texts shown as such (question, titles, labels of buttons and boxes). */
const RECALLED_TEXTS = ['question', 'subheading', 'title', 'text', 'label', 'backLabel', 'nextLabel', 'checkboxLabel'] as const;

const hasPlaceholder = (step: StoredStep) =>
  step.name.includes('{{') || step.components.some((c) => RECALLED_TEXTS.some((key) => typeof c.content[key] === 'string' && c.content[key].includes('{{')));

function recalledStep(step: StoredStep, lookup: RecallLookup): StoredStep {
  return {
    ...step,
    name: recall(step.name, lookup),
    components: step.components.map((component) => {
      const content = { ...component.content };
      for (const key of RECALLED_TEXTS) if (typeof content[key] === 'string') content[key] = recall(content[key], lookup);
      return { ...component, content };
    }),
  };
}

/** The form with step `index`'s texts recalled (the form itself when they hold no placeholder). */
export function withRecall(form: Form, index: number, lookup: RecallLookup): Form {
  const step = form.steps[index];
  if (!step || !hasPlaceholder(step)) return form;
  return { ...form, steps: form.steps.map((other, i) => (i === index ? recalledStep(other, lookup) : other)) };
}
