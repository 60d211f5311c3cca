/**
 * What every answer to hostile input must be, for the property tests: never a 5xx; a 4xx with the
 * documented body (JSON `{message, errors?: [{message, path}]}`, or GraphQL `{errors}` whose codes are
 * not INTERNAL_SERVER_ERROR); no stack, SQL, file path or engine message in any body; and a refused
 * request stores nothing (the row counts of every table unchanged).
 */
import { sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { expect } from 'vitest';
import { fc } from '@fast-check/vitest';
import type { Database } from '../../src/db/client.ts';
import { rowsOf } from '../../src/db/rows.ts';
import { apiKeys, auditLog, environments, erasures, forms, leads, responses, uploads, webhookDeliveries, webhookEndpoints } from '../../src/db/schema.ts';
import type { TestContext } from './helpers.ts';

export const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfff',
  '<img src=x onerror=alert(1)>',
  "'; drop table forms; --",
  '../../etc/passwd',
  '%00',
  '1e309',
  'null',
  '𝟘🙂',
  '\u202e\u2066',
];

/** Strings an attacker sends: the classics, any text, text made of troublesome characters, and huge ones. */
export const hostileString = fc.oneof(
  fc.constantFrom(...HOSTILE_STRINGS),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: fc.constantFrom('a', '\u0000', '\ud800', '\udc00', 'é', '<', '"', '\\', '\n', '{', '['), maxLength: 20 }),
  fc.constantFrom('a'.repeat(70_000), '\u0000'.repeat(1000)),
);

/** JSON values with hostile strings, numbers and nesting. */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, -1, 2 ** 31, 2 ** 53 + 1, 1e308)),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(hostileString, tie('value'), { maxKeys: 4 }),
  ),
})).value;

const digits = (n: number, width: number) => String(n).padStart(width, '0');
const near = (min: number, max: number, edges: number[]) => fc.oneof(fc.integer({ min, max }), fc.constantFrom(...edges));
/**
 * Timestamps in the cursors' shape (`2024-02-29T23:59:59.999999Z`) with any field value, possible or not:
 * years 0000-10000, months 00-13, days 00-32, hours 00-25, minutes and seconds 00-61, edges more often.
 */
export const cursorTimestamp = fc
  .tuple(
    near(0, 10_000, [0, 1, 1900, 2000, 2023, 2024, 9999, 10_000]),
    near(0, 13, [0, 1, 2, 4, 12, 13]),
    near(0, 32, [0, 1, 28, 29, 30, 31, 32]),
    near(0, 25, [0, 23, 24]),
    near(0, 61, [59, 60]),
    near(0, 61, [59, 60]),
    fc.integer({ min: 0, max: 999_999 }),
  )
  .map(([y, mo, d, h, mi, s, us]) => `${digits(y, 4)}-${digits(mo, 2)}-${digits(d, 2)}T${digits(h, 2)}:${digits(mi, 2)}:${digits(s, 2)}.${digits(us, 6)}Z`);

/** Generated cases per hostile property: HOSTILE_RUNS (default 40), so CI time stays flat and a hunt can ask for more. */
export const HOSTILE_RUNS = Number(process.env.HOSTILE_RUNS ?? 40);
/** fast-check options of the hostile properties: HOSTILE_RUNS cases, and the first failure ends the run. */
export const HOSTILE_OPTIONS = { numRuns: HOSTILE_RUNS, endOnFailure: true } as const;

const LEAKS = [
  /\bat .*\.(ts|js|mjs):\d+/,
  /node_modules/,
  /\/work\//,
  /\bselect\b.+\bfrom\b/i,
  /\binsert into\b/i,
  /PostgresError/i,
  /invalid byte sequence/i,
  /date\/time field value out of range/i,
  /invalid input syntax/i,
  /Maximum call stack/i,
  /Unexpected error/,
  /originalError/,
  /SyntaxError/,
  /in JSON at position/,
];

async function tableCounts(db: Database) {
  return rowCounts(db, [environments, apiKeys, forms, responses, leads, webhookEndpoints, webhookDeliveries, auditLog, erasures, uploads]);
}

/** The row count of each table, in one statement (the property tests take them before and after every request). */
export async function rowCounts(db: Database, tables: PgTable[]): Promise<number[]> {
  const columns = sql.join(
    tables.map((table, i) => sql`(select count(*)::int from ${table}) as ${sql.identifier(`n${i}`)}`),
    sql`, `,
  );
  const [row] = rowsOf<Record<string, number>>(await db.execute(sql`select ${columns}`));
  return tables.map((_, i) => row![`n${i}`]!);
}

export interface Answer {
  status: number;
  /** The parsed JSON body (the text for a successful non-JSON answer: an export). */
  body: unknown;
  label: string;
}

/**
 * Sends the request to the app and checks what every answer must be (see the module comment). `kind`:
 * `json` (REST), `graphql`, or `text` (a successful answer that is not JSON, e.g. an export).
 */
export async function sendHostile(ctx: { db: Database; app: TestContext['app'] }, path: string, init: RequestInit, kind: 'json' | 'graphql' | 'text'): Promise<Answer> {
  const before = await tableCounts(ctx.db);
  const response = await ctx.app.request(path, init);
  const text = await response.text();
  const label = `${init.method ?? 'GET'} ${path.slice(0, 160)} → ${response.status}: ${text.slice(0, 300)}`;
  expect(response.status, label).toBeLessThan(500);
  for (const leak of LEAKS) expect(text, label).not.toMatch(leak);
  if (response.status >= 400) expect(text, `${label}: a 4xx needs a body`).not.toBe('');
  const body: unknown = kind === 'text' && response.status < 400 ? text : JSON.parse(text);
  if (kind === 'graphql') {
    const errors = (body as { errors?: { message: unknown; extensions?: { code?: unknown } }[] }).errors;
    if (response.status >= 400) expect(errors?.length, label).toBeGreaterThan(0);
    for (const error of errors ?? []) {
      expect(typeof error.message, label).toBe('string');
      expect(error.extensions?.code, label).not.toBe('INTERNAL_SERVER_ERROR');
    }
  } else if (response.status >= 400) {
    expectDocumentedError(body, label);
  }
  const refused = response.status >= 400 || (kind === 'graphql' && (body as { data?: unknown }).data == null);
  if (refused) expect(await tableCounts(ctx.db), `${label}: a refused request stored something`).toEqual(before);
  return { status: response.status, body, label };
}

/** The documented REST error body: `{message, errors?: [{message, path}]}`. */
export function expectDocumentedError(body: unknown, label: string) {
  expect(body, label).toEqual({ message: expect.any(String), ...((body as { errors?: unknown }).errors ? { errors: expect.any(Array) } : {}) });
  for (const error of (body as { errors?: unknown[] }).errors ?? []) {
    expect(error, label).toEqual({ message: expect.any(String), path: expect.any(Array) });
    for (const segment of (error as { path: unknown[] }).path) expect(['string', 'number'], label).toContain(typeof segment);
  }
}
