/** src/responses/csv.ts and ChunkWriter.jsonbCsvField: the exports' CSV, held to csv-stringify's output. */
import { fc, test } from '@fast-check/vitest';
import { stringify } from 'csv-stringify/sync';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.ts';
import { csvField, csvRecord, neutralizeCell } from '../../src/responses/csv.ts';
import { ChunkWriter } from '../../src/responses/stream.ts';
import { openTestDatabase } from '../support/helpers.ts';

/** The oracle: what the exports wrote through csv-stringify before responses/csv.ts. */
const stringified = (records: string[][]) => stringify(records, { record_delimiter: 'windows', quoted_match: /[\r\n]/ });

/** Text rich in what CSV must quote, beside any other character. */
const cellText = fc.string({
  unit: fc.oneof(fc.constantFrom('"', ',', '\r', '\n', ' ', '=', "'", 'ü', '😀'), fc.string({ minLength: 1, maxLength: 1, unit: 'binary' })),
  maxLength: 40,
});

describe('csvRecord', () => {
  test.prop([fc.array(fc.array(cellText, { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 6 })], { numRuns: 500 })(
    'writes what csv-stringify writes, record by record',
    (records) => {
      expect(records.map(csvRecord).join('')).toBe(stringified(records));
    },
  );

  it('quotes a lone CR or LF, a comma and a quote, and leaves empty and plain fields bare', () => {
    expect(csvRecord(['a\rb', 'a\nb', 'a,b', 'say "hi"', '', 'plain'])).toBe('"a\rb","a\nb","a,b","say ""hi""",,plain\r\n');
  });
});

describe('ChunkWriter.jsonbCsvField', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase();
  });
  afterAll(() => handle.close());

  it('writes the CSV field of the compact JSON for generated values as PostgreSQL writes them (jsonb_out)', async () => {
    // jsonb refuses \u0000 in strings; -1, 1.50 and an array-index key take the string path; texts of
    // quotes alone double the most.
    const values = [-1, { 0: 'a', b: 1 }, [], '', 'a,b', '"'.repeat(40), { '"k"': ['"', '\\"', 'ü"😀'] }, ...fc.sample(fc.jsonValue(), { numRuns: 1000, seed: 7 })].filter(
      (value) => !JSON.stringify(value).includes('\\u0000'),
    );
    const result = await handle.db.execute(sql`select v::text as t from jsonb_array_elements(${JSON.stringify(values)}::jsonb) with ordinality as e(v, n) order by n`);
    const texts = ((Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { t: string }[]).map((row) => row.t);
    texts.push('1.50');
    expect(texts.length).toBe(values.length + 1);
    const out = new ChunkWriter(64); // small, so writing grows the buffer too
    const expected: string[] = [];
    for (const text of texts) {
      out.text('x,');
      out.jsonbCsvField(text);
      out.text('\r\n');
      expected.push(`x,${csvField(neutralizeCell(JSON.stringify(JSON.parse(text))))}\r\n`);
    }
    expect(Buffer.from(out.take()).toString('utf8')).toBe(expected.join(''));
  });

  it("writes the CSV field of JSON.stringify's text (answers stored as json) with only its quotes doubled", () => {
    const values = [
      -1,
      { 0: 'a', b: 1 },
      [],
      'a,b',
      [{ q: '"'.repeat(40) }],
      { '"k"': ['"', '\\"', 'ü"😀'], n: [1e21, 1.5] },
      ...fc.sample(fc.jsonValue(), { numRuns: 1000, seed: 8 }),
    ];
    const out = new ChunkWriter(64);
    const expected: string[] = [];
    for (const value of values) {
      const text = JSON.stringify(value);
      out.text('x,');
      out.jsonbCsvField(text);
      out.text('\r\n');
      expected.push(`x,${csvField(neutralizeCell(text))}\r\n`);
    }
    expect(Buffer.from(out.take()).toString('utf8')).toBe(expected.join(''));
  });
});

describe('neutralizeCell (OWASP CSV injection)', () => {
  // What a spreadsheet skips or a reader does not see before a formula, and what starts one.
  const skipped = [
    '\t',
    '\n',
    '\r',
    ' ',
    '\u00a0',
    '\u1680',
    '\u2000',
    '\u2007',
    '\u200a',
    '\u200b',
    '\u200c',
    '\u200d',
    '\u2028',
    '\u2029',
    '\u202f',
    '\u205f',
    '\u2060',
    '\u3000',
    '\ufeff',
  ];
  const triggers = ['=', '+', '-', '@', '\uff1d', '\uff0b', '\uff0d', '\uff20'];
  // U+2000 to U+200D in full: the en/em spaces between those listed count as skipped too.
  const skippedSet = new Set([...skipped, ...Array.from({ length: 0x200e - 0x2000 }, (_, i) => String.fromCharCode(0x2000 + i))]);
  const triggerSet = new Set(triggers);
  /** The oracle, written without the module's regular expression. */
  const looksLikeFormula = (value: string): boolean => {
    const chars = [...value];
    if (chars[0] === '\t' || chars[0] === '\r' || chars[0] === '\n') return true;
    const first = chars.find((c) => !skippedSet.has(c));
    return first !== undefined && triggerSet.has(first);
  };
  const rest = fc.string({ unit: fc.oneof(fc.constantFrom(...skipped, ...triggers, 'a', '1', '"'), fc.string({ minLength: 1, maxLength: 1, unit: 'grapheme' })), maxLength: 20 });

  test.prop([fc.array(fc.constantFrom(...skipped), { maxLength: 6 }), fc.constantFrom(...triggers), rest], { numRuns: 500 })(
    'prefixes every cell whose first visible character starts a formula, after any skipped run',
    (prefix, trigger, tail) => {
      const value = `${prefix.join('')}${trigger}${tail}`;
      expect(neutralizeCell(value)).toBe(`'${value}`);
    },
  );

  test.prop([rest], { numRuns: 1000 })('changes a cell exactly when it looks like a formula, and then only by a leading quote', (value) => {
    expect(neutralizeCell(value)).toBe(looksLikeFormula(value) ? `'${value}` : value);
  });

  it('neutralises the shapes OWASP lists and leaves ordinary text alone', () => {
    for (const value of ['\n=1+1', ' =HYPERLINK("http://evil.example")', '\u00a0+1', '\u200b@SUM(A1)', '\uff1dcmd|calc', '\uff0b1', '\uff0d1', '\uff20A1', '\t', '\r=1'])
      expect(neutralizeCell(value)).toBe(`'${value}`);
    for (const value of ['', 'plain', ' a=b', '1-2', 'a@example.com', '\u00a0text', "'=already"]) expect(neutralizeCell(value)).toBe(value);
  });
});
