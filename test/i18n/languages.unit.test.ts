/**
 * The built-in languages beyond the first four (src/i18n/languages/): each translates every validation
 * message and refusal, in order, with the pattern's groups; the page's words of every language are
 * filled in; right-to-left and language names; sizes and messages in each language's own words.
 */
import { describe, expect, it } from 'vitest';
import { directionOf, formatSize, languageName, languagePack, localizeMessage, MESSAGE_PATTERNS, pageWords, SUPPORTED_LANGUAGES } from '../../src/i18n/locales.ts';

const groupsOf = (pattern: RegExp) => new RegExp(`${pattern.source}|`).exec('')!.length - 1;
const placeholders = (text: string) => [...new Set(text.match(/\$\d/g) ?? [])].sort();
const PACKED = SUPPORTED_LANGUAGES.filter((language) => languagePack(language));

describe('the language modules', () => {
  it('cover the six languages beyond en, de, fr, es, one of them right to left', () => {
    expect(PACKED).toEqual(['it', 'nl', 'pt', 'pl', 'ja', 'ar']);
    expect(SUPPORTED_LANGUAGES.filter((language) => directionOf(language) === 'rtl')).toEqual(['ar']);
    expect(directionOf('ar-EG')).toBe('rtl');
    expect(directionOf('de')).toBe('ltr');
  });

  for (const language of PACKED) {
    it(`${language}: every message and refusal, in order, with the pattern's groups`, () => {
      const pack = languagePack(language)!;
      for (const list of ['messages', 'refusals'] as const) {
        expect(pack[list]).toHaveLength(MESSAGE_PATTERNS[list].length);
        MESSAGE_PATTERNS[list].forEach((pattern, index) => {
          const expected = Array.from({ length: groupsOf(pattern) }, (_, group) => `$${group + 1}`);
          expect(placeholders(pack[list][index]!), `${language} ${list}[${index}] for ${pattern.source}`).toEqual(expected);
        });
      }
    });
  }

  it('translate the page words of every language (none left as English, but for words that are the same)', () => {
    const english = pageWords('en');
    for (const language of SUPPORTED_LANGUAGES.filter((l) => l !== 'en')) {
      const words = pageWords(language);
      expect(words.next).not.toBe(english.next);
      expect(words.thanksTitle).not.toBe(english.thanksTitle);
      expect(words.language).not.toBe(english.language);
      expect(words.stepOf(2, 5)).toContain('2');
      expect(words.stepOf(2, 5)).toContain('5');
    }
  });

  it('write messages and sizes in each language', () => {
    expect(localizeMessage('ar', 'This question requires an answer')).toBe('هذا السؤال يتطلب إجابة');
    expect(localizeMessage('it', 'Choose at most 3 options')).toBe('Scegli al massimo 3 opzioni');
    expect(localizeMessage('pl', 'photo.exe cannot be accepted: it holds more than 10 files')).toBe('Nie można przyjąć photo.exe: archiwum zawiera ponad 10 plików');
    expect(localizeMessage('ja', 'scan.pdf is too large (at most 2.5 MB)')).toBe('scan.pdf は大きすぎます (最大 2.5 MB)');
    expect(formatSize(2.5 * 1024 * 1024, 'nl')).toBe('2,5 MB');
    expect(formatSize(2.5 * 1024 * 1024, 'en')).toBe('2.5 MB');
    expect(formatSize(2.5 * 1024 * 1024, 'ar')).toMatch(/^2.5 ميغابايت$/);
  });

  it('name each language in itself, for the switcher', () => {
    expect(languageName('de')).toBe('Deutsch');
    expect(languageName('ar')).toBe('العربية');
    expect(languageName('ja')).toBe('日本語');
    expect(languageName('fr')).toBe('Français');
  });
});

describe('dates and numbers in the messages', () => {
  it("writes a Number question's bounds in each language's format, English's too", () => {
    expect(localizeMessage('en', 'Must be at least 1500.5')).toBe('Must be at least 1,500.5');
    expect(localizeMessage('de', 'Must be at most 0.25')).toBe('Höchstens 0,25');
    expect(localizeMessage('fr', 'Must be at least 1500.5')).toBe('Au moins 1\u202f500,5');
    expect(localizeMessage('en', 'Must be at least 1e+400')).toBe('Must be at least 1e+400');
  });

  it("writes a Date question's bounds in each language's format", () => {
    expect(localizeMessage('en', 'Must be on or after 2026-03-05')).toBe('Must be on or after March 5, 2026');
    expect(localizeMessage('de', 'Must be on or after 2026-03-05')).toBe('Frühestens am 5. März 2026');
    expect(localizeMessage('fr-CA', 'Must be on or before 2026-03-05')).toBe('Au plus tard le 5 mars 2026');
    expect(localizeMessage('ja', 'Must be on or after 2026-03-05')).toContain('2026年3月5日');
    expect(localizeMessage('pl', 'Must be on or before 2026-03-05')).toContain('5 marca 2026');
    for (const language of PACKED) expect(localizeMessage(language, 'Must be on or after 2026-03-05'), language).not.toContain('2026-03-05');
  });
});
