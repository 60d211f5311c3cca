/** Language negotiation, table-tested: `?lang=`, the session's choice, Accept-Language with qualities and region fallback, the default. */
import { describe, expect, it } from 'vitest';
import { acceptedLanguages, negotiateLanguage } from '../../src/i18n/negotiate.ts';

const FORM = ['en', 'de', 'ar'];

describe('negotiateLanguage', () => {
  const table: [string, Parameters<typeof negotiateLanguage>[1], string][] = [
    ['nothing asked: the default', {}, 'en'],
    ["?lang= one of the form's", { asked: 'ar' }, 'ar'],
    ['?lang= in another case, with a region', { asked: 'DE-at' }, 'de'],
    ["?lang= not one of the form's: Accept-Language decides", { asked: 'fr', acceptLanguage: 'de' }, 'de'],
    ['?lang= malformed: ignored', { asked: '<script>', acceptLanguage: 'ar' }, 'ar'],
    ['?lang= beats the session and the browser', { asked: 'en', remembered: 'de', acceptLanguage: 'ar' }, 'en'],
    ["the session's choice beats the browser", { remembered: 'de', acceptLanguage: 'ar' }, 'de'],
    ['a region falls back to its language', { acceptLanguage: 'de-CH' }, 'de'],
    ['the best quality first', { acceptLanguage: 'fr;q=0.9, ar;q=0.8, de;q=0.85' }, 'de'],
    ["equal qualities in the header's order", { acceptLanguage: 'ar, de' }, 'ar'],
    ['q=0 means not', { acceptLanguage: 'de;q=0, ar;q=0.1' }, 'ar'],
    ['* and unknown languages: the default', { acceptLanguage: 'fr, *' }, 'en'],
    ['garbage: the default', { acceptLanguage: ';;;,,q=,de;q=abc' }, 'en'],
    ['a huge header is cut, not walked', { acceptLanguage: `${'xx, '.repeat(10_000)}de` }, 'en'],
  ];
  for (const [what, request, expected] of table) it(what, () => expect(negotiateLanguage(FORM, request)).toBe(expected));

  it('reads at most 20 ranges, ordered by quality', () => {
    expect(acceptedLanguages('de;q=0.5, en, ar;q=0.7')).toEqual(['en', 'ar', 'de']);
    expect(acceptedLanguages(Array.from({ length: 30 }, (_, i) => `l${i}`).join(','))).toHaveLength(0);
    expect(acceptedLanguages(Array.from({ length: 30 }, () => 'de').join(','))).toHaveLength(20);
  });
});
