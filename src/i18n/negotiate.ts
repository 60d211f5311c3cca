/**
 * Which of a form's languages a respondent reads: the one asked for (`?lang=`, the page's switcher, an
 * embed's `data-formloom-lang`), else the one the session chose before, else the best match of the
 * browser's `Accept-Language` (by quality, a region falling back to its language: `de-CH` → `de`), else
 * the form's default. What is asked for is matched the same way, so `?lang=de-AT` reads German.
 */

/** Longest Accept-Language header read, and most ranges taken from it (a browser sends a handful). */
const MAX_HEADER_LENGTH = 1024;
const MAX_RANGES = 20;

/** The form language a tag means (`DE-ch` → `de` when the form has `de`), or undefined. */
export function matchLanguage(tag: string | undefined | null, languages: readonly string[]): string | undefined {
  if (!tag || tag.length > 35 || !/^[a-z]{2,3}(?:-[a-z0-9]{1,8})*$/i.test(tag)) return undefined;
  const lower = tag.toLowerCase();
  return languages.find((language) => language === lower) ?? languages.find((language) => language === lower.split('-')[0]);
}

/** The ranges of an Accept-Language header, best first (equal qualities in the header's order); `*` and malformed ranges left out. */
export function acceptedLanguages(header: string | undefined | null): string[] {
  if (!header) return [];
  const ranges = header
    .slice(0, MAX_HEADER_LENGTH)
    .split(',')
    .slice(0, MAX_RANGES)
    .map((part, index) => {
      const [range = '', ...params] = part.trim().split(';');
      // A range with a weight that is not one (`q=abc`, `q=2`) is left out, as malformed.
      const weight = params.find((param) => /^\s*q\s*=/i.test(param));
      const q = weight === undefined ? ['', '1'] : /^\s*q\s*=\s*(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)\s*$/i.exec(weight);
      return { range: range.trim(), quality: q ? Number(q[1]) : 0, index };
    })
    .filter(({ range, quality }) => range !== '*' && quality > 0 && /^[a-z]{1,8}(?:-[a-z0-9]{1,8})*$/i.test(range));
  return ranges.sort((a, b) => b.quality - a.quality || a.index - b.index).map(({ range }) => range);
}

export interface LanguageRequest {
  /** `?lang=` (or the API's `language`): a choice, honoured when it is one of the form's languages. */
  asked?: string | undefined | null;
  /** The language the session chose before. */
  remembered?: string | undefined | null;
  acceptLanguage?: string | undefined | null;
}

/** The language to show, one of `languages` (the default first). */
export function negotiateLanguage(languages: readonly string[], request: LanguageRequest): string {
  const asked = matchLanguage(request.asked, languages) ?? matchLanguage(request.remembered, languages);
  if (asked) return asked;
  for (const range of acceptedLanguages(request.acceptLanguage)) {
    const match = matchLanguage(range, languages);
    if (match) return match;
  }
  return languages[0]!;
}
