/** A response's values as recall placeholders take them (src/forms/recall.ts). */
import { moduleOf } from '../components/catalogue.ts';
import type { ResponseAnswer, ResponseMeta, StoredComponent } from '../db/json-columns.ts';
import type { RecallLookup } from '../forms/recall.ts';
import { answerInLanguage, localizeForm, type FormTexts } from '../forms/translations.ts';
import { formatNumber } from '../i18n/locales.ts';
import { answerCell } from './export.ts';
import { headlineOf } from './shapes.ts';

/** The form a response's values are recalled into, and the language its respondent reads. */
export interface RecallShown {
  form: FormTexts;
  language: string;
  /** Numbers, days and times written as the language writes them (the page, e-mails); else as stored (the JSON API). */
  written?: boolean;
}

/**
 * A response's values for recall: its answers by component key (as the CSV export writes them; an
 * IdentityInfo field by its key; a password never), its hidden fields and variables. Given the form and
 * the respondent's language (`shown`), a choice shows the text the respondent saw: its option in their
 * language (a GraphicOptions option's label, not its value); where `shown.written`, numbers, days and
 * times are written as that language writes them.
 */
export function recallLookup(response: { data: readonly ResponseAnswer[]; meta: ResponseMeta }, shown?: RecallShown): RecallLookup {
  const byKey = new Map(response.data.flatMap((answer) => (answer.key === undefined ? [] : [[answer.key, answer] as const])));
  const hidden = response.meta.hiddenFields ?? {};
  const variables = response.meta.variables ?? {};
  const components = shown ? componentsBy(shown) : undefined;
  return ({ kind, name, field }) => {
    if (kind === 'hidden') return Object.hasOwn(hidden, name) && hidden[name] !== '' ? hidden[name] : undefined;
    if (kind === 'variable') return Object.hasOwn(variables, name) ? variableText(variables[name], shown) : undefined;
    const answer = byKey.get(name);
    const found = components?.get(name);
    const text = !answer ? '' : found && shown ? shownText(found, answer.response, shown, field) : answerCell(answer.response.type, answer.response, field);
    return text === '' ? undefined : text;
  };
}

/** A variable's value: a number in the respondent's language where values are written in it. */
const variableText = (value: unknown, shown: RecallShown | undefined): string =>
  typeof value === 'number' && shown?.written && Number.isFinite(value) ? formatNumber(shown.language, value) : String(value);

/** Each component of the form by its key (`by: 'key'`, keyed ones only) or its id, stored and as its respondent reads it. */
function componentsBy(shown: RecallShown, by: 'key' | 'id' = 'key'): Map<string, { stored: StoredComponent; read: StoredComponent }> {
  const read = localizeForm(shown.form, shown.language).steps.flatMap((step) => step.components);
  const found = new Map<string, { stored: StoredComponent; read: StoredComponent }>();
  shown.form.steps
    .flatMap((step) => step.components)
    .forEach((stored, index) => {
      const name = stored[by];
      if (name !== undefined && !found.has(name)) found.set(name, { stored, read: read[index] ?? stored });
    });
  return found;
}

/**
 * A response's answers as its respondent saw them (what a confirmation lists): each one's question in
 * their language (undefined for a question the form no longer has) and its answer as recall shows it.
 */
export function answersAsShown(shown: RecallShown): (answer: ResponseAnswer) => { question: string | undefined; value: string } {
  const components = componentsBy(shown, 'id');
  return (answer) => {
    const found = components.get(answer.questionId);
    if (!found) return { question: undefined, value: answerCell(answer.response.type, answer.response) };
    return { question: headlineOf(found.read) || undefined, value: shownText(found, answer.response, shown, undefined) };
  };
}

/** An answer as its respondent saw it: the module's own text, else the export's cell, a choice's options in `language`. */
function shownText(component: { stored: StoredComponent; read: StoredComponent }, response: ResponseAnswer['response'], shown: RecallShown, field: string | undefined): string {
  const { language } = shown;
  const module = moduleOf(component.stored.type);
  if (field === undefined) {
    const own = module?.recall?.(component.read, response, shown.written ? language : undefined);
    if (own !== undefined) return own;
  }
  const subject = module?.conditions?.subject(component.stored, field);
  const isChoice = typeof subject === 'object' && (subject.kind === 'choice' || subject.kind === 'choices');
  const seen = isChoice ? (answerInLanguage(component.stored, response, language) as ResponseAnswer['response']) : response;
  return answerCell(response.type, seen, field);
}
