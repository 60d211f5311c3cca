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
const cellText = fc.string({ unit: fc.oneof(fc.constantFrom('"', ',', '\r', '\n', ' ', '=', "'", 'ü', '😀'), fc.string({ minLength: 1, maxLength: 1, unit: 'binary' })), maxLength: 40 });

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
    const texts = ((Array.isArray(result) ? result : (result as unknown as { rows: unknown[] }).rows) as { t: string }[]).map((row) => row.t);
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
    const values = [-1, { 0: 'a', b: 1 }, [], 'a,b', [{ q: '"'.repeat(40) }], { '"k"': ['"', '\\"', 'ü"😀'], n: [1e21, 1.5] }, ...fc.sample(fc.jsonValue(), { numRuns: 1000, seed: 8 })];
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
