/**
 * ShortInput and LongInput answers (docs/security.md, "Answer normalisation"): the length limit is checked on the
 * answer as sent, before any normalisation, and the LongInput trim is linear string work with the same result as
 * the rule it implements (leading blank lines and trailing whitespace dropped, first-line indentation kept).
 */
import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { textInputs, trimLongInput } from '../../src/components/text-input.ts';
import { Problems } from '../../src/components/answers.ts';
import type { StoredComponent } from '../../src/db/json-columns.ts';

const longInput = { id: 'c1', type: 'LongInput', content: {} } as unknown as StoredComponent;
const shortInput = { id: 'c2', type: 'ShortInput', content: {} } as unknown as StoredComponent;

function parse(component: StoredComponent, raw: unknown) {
  const problems = new Problems();
  const fields = textInputs.answer!.parse(component, raw, problems, false);
  return { fields, messages: problems.list.map((p) => p.message) };
}

/** Every character `\s` matches (and `trim` removes). */
const WHITESPACE = ['\t', '\n', '\v', '\f', '\r', ' ', '\u00a0', '\u1680', '\u2000', '\u200a', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff'];

describe('text answers: the limit before normalisation', () => {
  it('refuses a LongInput answer over its limit only by trailing whitespace (the limit counts what was sent)', () => {
    const { fields, messages } = parse(longInput, 'a'.repeat(10_000) + ' \n');
    expect(fields).toEqual({ input: 'a'.repeat(10_000) + ' \n' });
    expect(messages).toEqual(['Must be at most 10000 characters']);
  });

  it('refuses a ShortInput answer over its limit only by surrounding spaces', () => {
    expect(parse(shortInput, ` ${'a'.repeat(1_000)}`).messages).toEqual(['Must be at most 1000 characters']);
  });

  it.each(WHITESPACE.map((ch) => [JSON.stringify(ch), ch]))('refuses a 60,000-long run of %s inside an answer', (_name, ch) => {
    expect(parse(longInput, `a${ch.repeat(60_000)}b`).messages).toEqual(['Must be at most 10000 characters']);
  });

  it('keeps an answer within its limit, trimmed', () => {
    expect(parse(longInput, '\n \n  indented\nsecond \t\n').fields).toEqual({ input: '  indented\nsecond' });
    expect(parse(longInput, `a${'\u3000'.repeat(9_000)}b`).fields).toEqual({ input: `a${'\u3000'.repeat(9_000)}b` });
  });
});

describe('trimLongInput', () => {
  // The rule as a regular expression (quadratic on long whitespace runs, so only fed short strings here).
  const byRegex = (value: string) => value.replace(/^\s*\n|\s+$/g, ''); // eslint-disable-line regexp/no-super-linear-move
  const text = fc.string({ unit: fc.constantFrom('a', 'b', ...WHITESPACE), maxLength: 30 });
  test.prop([text], { numRuns: 500 })('matches the regular-expression rule', (value) => {
    expect(trimLongInput(value)).toBe(byRegex(value));
  });
});
