/** src/db/jsonb-text.ts: PostgreSQL's jsonb text written as JSON.stringify writes the parsed value. */
import { fc } from '@fast-check/vitest';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.ts';
import { compactJsonbText, isJsonStringifyText, jsonOfJsonbText, writeCompactJsonbText } from '../../src/db/jsonb-text.ts';
import { sampleAnswers } from '../support/factories.ts';
import { openTestDatabase } from '../support/helpers.ts';

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openTestDatabase();
});
afterAll(() => handle.close());

/** Each value stored as jsonb and read back as text (jsonb_out), in one statement. */
async function jsonbTexts(values: unknown[]): Promise<string[]> {
  const result = await handle.db.execute(sql`select v::text as t from jsonb_array_elements(${JSON.stringify(values)}::jsonb) with ordinality as e(v, n) order by n`);
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { t: string }[];
  return rows.map((row) => row.t);
}

describe('jsonOfJsonbText', () => {
  it('writes what JSON.stringify(JSON.parse(text)) writes, for generated values', async () => {
    // jsonb refuses \u0000 in strings.
    const values = fc.sample(fc.jsonValue(), { numRuns: 2000, seed: 12 }).filter((value) => !JSON.stringify(value).includes('\\u0000'));
    const texts = await jsonbTexts(values);
    expect(texts.length).toBe(values.length);
    for (const text of texts) expect(jsonOfJsonbText(text)).toBe(JSON.stringify(JSON.parse(text)));
  });

  it('falls back where the text and JavaScript differ: numbers written otherwise, array-index keys', async () => {
    // eslint-disable-next-line no-loss-of-precision -- a number JavaScript cannot hold exactly is the point
    const texts = await jsonbTexts([{ b: 1, 10: 2, 9: 3 }, { '0': 'a' }, 1e21, 1e-7, 0.1 + 0.2, 12345678901234567890, [1.5, -2, 0]]);
    texts.push('1.50', '{"a": 1.0}');
    for (const text of texts) expect(jsonOfJsonbText(text)).toBe(JSON.stringify(JSON.parse(text)));
    expect(texts.map((text) => compactJsonbText(text) === undefined)).toEqual([true, true, true, true, false, false, false, true, true]);
  });

  it('takes the fast path for answers and metadata as the app stores them', async () => {
    const meta = { source: 'page', userAgent: 'Mozilla/5.0 "quoted", ünï: \\ \n\t \u2028', leadId: 'x' };
    // Quotes and backslashes at a string's end: a closing quote after an escaped backslash is not escaped.
    const escapes = { 'key\\': 'ends with a backslash \\', quoted: '\\"x\\" and "y"', '\\\\"': ['\\\\', '"', 'a\\\\'] };
    const texts = await jsonbTexts([sampleAnswers(), meta, [], {}, 'a, b: c', [{ k: [null, true, false, -1.25] }], escapes]);
    for (const text of texts) {
      expect(compactJsonbText(text)).toBeDefined();
      expect(compactJsonbText(text)).toBe(JSON.stringify(JSON.parse(text)));
    }
  });

  it('writes the compact text as UTF-8 into a buffer at an offset, keeping what is before it', async () => {
    const texts = await jsonbTexts([sampleAnswers(), { note: 'ünï 😀 "q" \\ a, b: c', n: [0, -1, 25, 1.5] }, ['\u2028', { k: '' }]]);
    for (const text of texts) {
      const out = Buffer.alloc(7 + text.length * 3, 0x41);
      const end = writeCompactJsonbText(text, out, 7);
      expect(out.subarray(0, 7).toString()).toBe('AAAAAAA');
      expect(out.subarray(7, end).toString('utf8')).toBe(JSON.stringify(JSON.parse(text)));
    }
    const [refused] = await jsonbTexts([{ '1': 'digit key' }]);
    expect(writeCompactJsonbText(refused!, Buffer.alloc(100), 0)).toBe(-1);
  });
});

/** Whether JSON.stringify's text of `value` has a `,` or `:` between tokens. */
const hasSeparator = (value: unknown): boolean =>
  Array.isArray(value) ? value.length > 1 || (value.length === 1 && hasSeparator(value[0])) : value !== null && typeof value === 'object' && Object.keys(value).length > 0;

describe("JSON.stringify's text (the answers, stored as json)", () => {
  const values = fc.sample(fc.jsonValue(), { numRuns: 2000, seed: 21 }).filter((value) => !JSON.stringify(value).includes('\\u0000'));

  it('is told from jsonb_out text by its first separator: every jsonb_out text is refused, JSON.stringify text with a separator taken', async () => {
    for (const text of await jsonbTexts(values)) expect(isJsonStringifyText(text)).toBe(false);
    for (const value of values) expect(isJsonStringifyText(JSON.stringify(value))).toBe(hasSeparator(value));
    expect(values.filter(hasSeparator).length).toBeGreaterThan(500);
  });

  it('passes through unchanged, as a string and into a buffer at an offset', () => {
    for (const value of [...values, sampleAnswers(), [{ s: 'a, b: c \\"q\\" 😀', n: [1e21, 1e-7, -0.5] }]]) {
      const text = JSON.stringify(value);
      expect(jsonOfJsonbText(text)).toBe(text);
      const out = Buffer.alloc(3 + text.length * 3, 0x41);
      const end = writeCompactJsonbText(text, out, 3);
      expect(out.subarray(0, 3).toString()).toBe('AAA');
      expect(out.subarray(3, end).toString('utf8')).toBe(text);
    }
  });
});
