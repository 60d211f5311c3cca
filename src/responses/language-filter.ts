/**
 * The `language` filter of listings, exports and summaries: only the responses answered in one
 * language. A response's language is its `meta.language` (a multilingual form's records it), else its
 * form's default language (a one-language form's, or a response from before the form had languages),
 * as the summary's `languages` counts them. The value is a built-in language, a region allowed and
 * read as its language (`de-CH` → `de`); anything else is refused with the parameter's path.
 */
import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { canonicalLocale, languageOf, SUPPORTED_LANGUAGES } from '../i18n/locales.ts';

export const LANGUAGE_FILTER_MESSAGE = `must be one of the built-in languages: ${SUPPORTED_LANGUAGES.join(', ')} (a region may follow, e.g. de-CH)`;

/** The language a filter's value names (`DE-ch` → `de`), or undefined when it names none of the built-in ones. */
export function filterLanguage(value: string): string | undefined {
  const canonical = canonicalLocale(value);
  return canonical === undefined ? undefined : languageOf(canonical);
}

/** A `language` query parameter: the language it names. */
export const languageFilterSchema = z.string().transform((value, ctx) => {
  const language = filterLanguage(value);
  if (language === undefined) {
    ctx.addIssue({ code: 'custom', message: LANGUAGE_FILTER_MESSAGE });
    return z.NEVER;
  }
  return language;
});

/**
 * The language a response was answered in, of a responses row (`meta` and `form_id` its columns): its
 * `meta.language`, else its form's default language (looked up only for the rows without one).
 */
export const responseLanguageSql = (meta: SQL, formId: SQL): SQL =>
  sql`coalesce(${meta}->>'language', (select coalesce(lf.languages->>'default', split_part(lower(lf.locale), '-', 1)) from forms lf where lf.id = ${formId}))`;
