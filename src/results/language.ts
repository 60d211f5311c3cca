/**
 * The language a results page is read in, and its figures shown in it. A multilingual form's page is
 * read in `?lang=` when it is one of the form's languages, else the best match of `Accept-Language`,
 * else the default (src/i18n/negotiate.ts, as the form's own page); a one-language form's in its locale.
 * The figures are counted in the default language (answers are stored in it): only what is shown is
 * put into the language read, each text where it is translated (the form's name, step names, questions,
 * options, rows and columns).
 */
import type { StoredComponent } from '../db/json-columns.ts';
import { answerInLanguage, defaultLanguageOf, languagesOf, localizeForm } from '../forms/translations.ts';
import { acceptedLanguages, matchLanguage, negotiateLanguage } from '../i18n/negotiate.ts';
import { SUPPORTED_LANGUAGES } from '../i18n/locales.ts';
import type { Results } from '../insights/results.service.ts';
import type { QuestionSummary } from '../responses/summary.service.ts';

export interface ResultsLanguageRequest {
  lang: string | undefined;
  acceptLanguage: string | undefined;
}

/** The language `form`'s results page is read in (one of its languages). */
export const resultsLanguage = (form: Results['form'], request: ResultsLanguageRequest): string =>
  negotiateLanguage(languagesOf(form), { asked: request.lang, acceptLanguage: request.acceptLanguage });

/** The language of a message page without a form (an unknown link, too many requests): the reader's, else English. */
export function messageLanguage(request: ResultsLanguageRequest): string {
  const asked = matchLanguage(request.lang, SUPPORTED_LANGUAGES);
  if (asked) return asked;
  for (const range of acceptedLanguages(request.acceptLanguage)) {
    const match = matchLanguage(range, SUPPORTED_LANGUAGES);
    if (match) return match;
  }
  return 'en';
}

/** `results` as read in `language`: the form localized, and the texts of its figures in that language. */
export function resultsIn(results: Results, language: string): Results {
  if (language === defaultLanguageOf(results.form)) return results;
  const form = localizeForm(results.form, language);
  const components = new Map<string, { stored: StoredComponent; shown: StoredComponent }>();
  results.form.steps.forEach((step, s) => step.components.forEach((component, c) => components.set(component.id, { stored: component, shown: form.steps[s]!.components[c]! })));
  const steps = results.insights.steps.map((step, index) => ({ ...step, name: form.steps[index]?.name ?? step.name }));
  const questions = results.questions.map((question) => {
    const found = components.get(question.questionId);
    return found ? questionIn(question, found.stored, found.shown, language) : question;
  });
  return { ...results, form, insights: { ...results.insights, steps }, questions };
}

function questionIn(question: QuestionSummary, stored: StoredComponent, shown: StoredComponent, language: string): QuestionSummary {
  const text = (value: string) => answerInLanguage(stored, value, language) as string;
  const headline = shown.content.question ?? shown.content.text ?? shown.content.title;
  return {
    ...question,
    headline: typeof headline === 'string' ? headline : question.headline,
    options: question.options?.map((option) => ({ ...option, option: text(option.option) })) ?? null,
    rows: question.rows?.map((row) => ({ ...row, row: text(row.row), options: row.options.map((option) => ({ ...option, option: text(option.option) })) })) ?? null,
  };
}
