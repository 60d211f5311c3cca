/**
 * Keyset paging, shared by every newest-first listing (forms, leads, responses, the audit log): the
 * position of a row (`created_at` to the microsecond, and its id), the opaque cursor that carries it,
 * the condition that continues after it, and pages of rows.
 *
 * A cursor is client input like any other: it is decoded and checked here, completely, before any
 * statement sees it. A position PostgreSQL would refuse (30 February, year 0000, a NUL in the id) or
 * that no listing could have written (extra keys, wrong types, an id longer than any id) is refused as
 * "not a valid cursor" (a 400 on REST, BAD_USER_INPUT in GraphQL), never a failed statement.
 *
 * Positions carry `created_at` with PostgreSQL's full microsecond precision (read as text by
 * `microsOf`), since a JavaScript Date keeps only milliseconds and two rows may share a millisecond.
 */
import { and, desc, inArray, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable, SelectedFields } from 'drizzle-orm/pg-core';
import type { Db } from './db/client.ts';
import { z } from 'zod';
import { unsafeStringProblem } from './limits/json-safety.ts';

/** A row's place in a newest-first listing (`created_at DESC, id DESC`): the last row a page returned. */
export interface KeysetPosition {
  /** `created_at` as ISO 8601 UTC with 6 fractional digits, as `microsOf` writes it. */
  createdAt: string;
  id: string;
}

/** Largest page a caller may ask for (GraphQL `first`, REST `limit`). */
export const MAX_PAGE_SIZE = 100;

/** Longest id a position may carry: longer than any id stored (24-character ids, 64-character Site IDs). */
const MAX_ID_LENGTH = 128;
/** Longest cursor text decoded: the base64url of the longest valid position, with room to spare. */
const MAX_CURSOR_LENGTH = 512;

const MICROS_ISO = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.\d{6}Z$/;

const isLeapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Whether `text` is of MICROS_ISO's shape and names a real instant of years 0001-9999 UTC, the
 * range PostgreSQL's timestamptz and ISO 8601 both hold: no 30 February, no hour 24, no second 60.
 * (Date.parse would take 2024-02-30 as 1 March; PostgreSQL refuses it.)
 */
function isRealInstant(text: string): boolean {
  const match = MICROS_ISO.exec(text);
  if (!match) return false;
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number) as [number, number, number, number, number, number];
  if (year < 1 || month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return false;
  const days = month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1]!;
  return day <= days;
}

/** A position as a cursor carries it: exactly these two keys, each a value a listing could have written. */
const positionSchema = z.strictObject({
  createdAt: z.string().refine(isRealInstant),
  id: z
    .string()
    .min(1)
    .max(MAX_ID_LENGTH)
    .refine((id) => unsafeStringProblem(id) === undefined),
});

/** The opaque cursor of a position: base64url of its JSON. */
export function encodeCursor(position: KeysetPosition): string {
  return Buffer.from(JSON.stringify({ createdAt: position.createdAt, id: position.id })).toString('base64url');
}

/** The cursor of a listed row (its `position` is `created_at` as `microsOf` reads it). */
export const cursorOf = (row: { position: string; id: string }): string => encodeCursor({ createdAt: row.position, id: row.id });

/** The position a cursor names, or undefined when it is not a cursor a listing wrote (see the module comment). */
export function decodeCursor(value: string): KeysetPosition | undefined {
  if (value.length > MAX_CURSOR_LENGTH || !/^[\w-]+$/.test(value)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  const result = positionSchema.safeParse(parsed);
  return result.success ? result.data : undefined;
}

/** What a listing says of a cursor it refuses (`after` is the argument's or parameter's name). */
export const INVALID_CURSOR = 'is not a valid cursor (pass the endCursor or nextCursor of a previous page)';

/** A cursor parameter (REST), refused with INVALID_CURSOR unless `decodeCursor` reads it. */
export const cursorParam = z.string().refine((value) => decodeCursor(value) !== undefined, INVALID_CURSOR);

// ---------------------------------------------------------------- statements

/** `created_at` of `column`'s table to the microsecond, independent of the session's TimeZone and DateStyle. */
export const microsOf = (column: AnyPgColumn) => sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** The listing order: newest first, the id breaking ties (the listing indexes match it column for column). */
export const newestFirst = (createdAt: AnyPgColumn, id: AnyPgColumn) => [desc(createdAt), desc(id)];

/**
 * The rows after `position` in `newestFirst` order: a row comparison the listing index seeks to, never
 * OFFSET. Its values may be placeholders (a prepared listing's). No condition without a position.
 */
export function afterPosition(createdAt: AnyPgColumn, id: AnyPgColumn, position: { createdAt: unknown; id: unknown } | undefined): SQL | undefined {
  return position === undefined ? undefined : sql`(${createdAt}, ${id}) < (${position.createdAt}::timestamptz, ${position.id})`;
}

// ---------------------------------------------------------------- pages

export interface Page<T> {
  rows: T[];
  hasNextPage: boolean;
}

/** A page of `limit` rows from a statement that asked for `limit + 1` (the extra row says whether another page follows). */
export const pageOf = <T>(rows: T[], limit: number): Page<T> => ({ hasNextPage: rows.length > limit, rows: rows.slice(0, limit) });

/** The columns of a (lateral) subquery, selected under the names they had inside it. */
function fieldsOf<K extends string>(subquery: object, columns: Record<K, unknown>): Record<K, AnyPgColumn> {
  return Object.fromEntries(Object.keys(columns).map((key) => [key, (subquery as Record<string, AnyPgColumn>)[key]])) as Record<K, AnyPgColumn>;
}

/**
 * A newest-first page of `child` rows for each of `parentIds`, in one statement: the child's page (its
 * `where` correlated to the parent's columns, `limit + 1` rows in `newestFirst` order) runs as a lateral
 * subquery per parent, an index scan each. A parent outside the parent's `where` gets an empty page.
 * In the order of `parentIds`.
 */
export async function pagesPerParent<T>(
  db: Db,
  parent: { table: PgTable; id: AnyPgColumn; where?: SQL | undefined },
  child: { table: PgTable; columns: SelectedFields; createdAt: AnyPgColumn; id: AnyPgColumn; where: SQL | undefined },
  parentIds: readonly string[],
  limit: number,
): Promise<Page<T>[]> {
  if (parentIds.length === 0) return [];
  const page = db
    .select(child.columns)
    .from(child.table)
    .where(child.where)
    .orderBy(...newestFirst(child.createdAt, child.id))
    .limit(limit + 1)
    .as('page');
  const rows = await db
    .select({ parentId: parent.id, row: fieldsOf(page, child.columns) })
    .from(parent.table)
    .crossJoinLateral(page)
    .where(and(inArray(parent.id, [...parentIds]), parent.where));
  // Rows arrive in listing order per parent.
  const byParent = new Map<unknown, T[]>();
  for (const { parentId, row } of rows) {
    let list = byParent.get(parentId);
    if (!list) byParent.set(parentId, (list = []));
    list.push(row as T);
  }
  return parentIds.map((id) => pageOf(byParent.get(id) ?? [], limit));
}
