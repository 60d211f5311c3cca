/**
 * The read side of responses: keyset-paginated listings of one form's responses and of a whole
 * environment's, newest first.
 *
 * Every query filters by the caller's environment. Ordering is `created_at DESC, id DESC`, which the
 * listing indexes of db/schema.ts match column for column (NULLS FIRST included), so both listings
 * are index scans that stop after `limit + 1` rows at any table size. Pages continue from a cursor
 * with a row comparison `(created_at, id) < (cursor)` — the index seeks to it — never with OFFSET
 * (cursors and positions: src/keyset.ts).
 */
import { responseLanguageSql } from './language-filter.ts';
import { and, asc, desc, eq, fillPlaceholders, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.ts';
import { forEachRow, preparedQuery } from '../db/prepared.ts';
import { notFound, type FieldError } from '../errors.ts';
import { forms, leads, responses } from '../db/schema.ts';
import { findForm } from '../forms/forms.service.ts';
import { afterPosition, microsOf, newestFirst, pagesPerParent, type KeysetPosition } from '../keyset.ts';
import type { ResponseRecord } from './model.ts';

/** Responses per request of the per-form listing: the 10 most recent, as the v1 contract has it. */
export const FORM_PAGE_SIZE = 10;

export type ResponseDateField = 'createdAt' | 'updatedAt';

/** Filters shared by both listings. */
export interface ResponseFilter {
  /** Include unfinished (partial) responses; completed ones only when false. */
  includePartials?: boolean;
  /** Inclusive lower bound on `dateField`. */
  since?: Date | undefined;
  /** Exclusive upper bound on `dateField`. */
  until?: Date | undefined;
  /** The timestamp `since`/`until` apply to (the order is always by creation). */
  dateField?: ResponseDateField;
  /** Only the responses answered in this language (language-filter.ts). */
  language?: string | undefined;
}

export interface ListResponsesInput extends ResponseFilter {
  environmentId: string;
  /** Only this form's responses; the form must be a live form of the environment. */
  formId?: string | undefined;
  /** Only responses to these forms (a key's form limit). */
  formIds?: readonly string[] | undefined;
  after?: KeysetPosition | undefined;
  /** Page size, 1..MAX_PAGE_SIZE. */
  limit: number;
}

export interface ListedResponse extends ResponseRecord {
  /** `created_at` to the microsecond: where this row sits in the listing order (see `cursorOf`). */
  position: string;
}

export interface ResponsePage {
  responses: ListedResponse[];
  hasNextPage: boolean;
}

// ---------------------------------------------------------------- arguments

/** Whether a `since`/`until` instant is one PostgreSQL's timestamptz and ISO 8601 both hold (years 1-9999 UTC). */
export function isListableInstant(date: Date): boolean {
  const year = date.getUTCFullYear();
  return !Number.isNaN(date.getTime()) && year >= 1 && year <= 9999;
}

/** What a listing says of a `since`/`until` that `isListableInstant` refuses (after the argument's name). */
export const UNLISTABLE_INSTANT = 'must be between years 0001 and 9999 (UTC)';

/**
 * The checks of a date range every listing, export, summary and deletion by filter makes, through
 * GraphQL and REST alike: `since` and `until` each a listable instant, `until` later than `since`.
 * Each API reports a bound where its caller gave it (`at`: `["filter", "since"]` in GraphQL, `["since"]`
 * as a REST query parameter).
 */
export function dateRangeProblems(
  range: { since?: Date | null | undefined; until?: Date | null | undefined },
  at: (bound: 'since' | 'until') => (string | number)[],
): FieldError[] {
  const errors: FieldError[] = [];
  for (const bound of ['since', 'until'] as const) {
    const date = range[bound];
    if (date && !isListableInstant(date)) errors.push({ message: `${bound} ${UNLISTABLE_INSTANT}`, path: at(bound) });
  }
  if (range.since && range.until && range.since >= range.until) errors.push({ message: 'until must be later than since', path: at('until') });
  return errors;
}

// ---------------------------------------------------------------- queries

const createdAtMicros = microsOf(responses.createdAt);

/** Which optional conditions a listing has: each combination is one prepared statement. */
interface ListingShape {
  form: boolean;
  /** Limited to some forms (`formIds`). */
  forms: boolean;
  partials: boolean;
  since: boolean;
  until: boolean;
  after: boolean;
  dateField: ResponseDateField;
  language: boolean;
  /** Answers and metadata as jsonb text (`streamedColumns`). */
  text: boolean;
  /** A stream's batch, read in the table's order (`buildBatchListing`). */
  batch: boolean;
}

const shapeOf = (input: ListResponsesInput, text = false, batch = false): ListingShape => ({
  form: input.formId !== undefined,
  forms: input.formIds !== undefined,
  partials: input.includePartials === true,
  since: input.since !== undefined,
  until: input.until !== undefined,
  after: input.after !== undefined,
  dateField: input.dateField ?? 'createdAt',
  language: input.language !== undefined,
  text,
  batch,
});

const shapeKey = (shape: ListingShape) =>
  `${+shape.form}${shape.forms ? 'f' : ''}${+shape.partials}${+shape.since}${+shape.until}${+shape.after}${shape.dateField === 'updatedAt' ? 'u' : 'c'}${shape.language ? 'l' : ''}${shape.text ? 't' : ''}${shape.batch ? 'b' : ''}`;

const p = (name: string) => sql.placeholder(name);

/** The stored columns of a listed response (the REST object's fields). */
const storedColumns = {
  id: responses.id,
  formId: responses.formId,
  leadId: responses.leadId,
  finished: responses.finished,
  data: responses.data,
  meta: responses.meta,
  ip: responses.ip,
  country: responses.country,
  visitedForm: responses.visitedForm,
  completedForm: responses.completedForm,
  version: responses.version,
  createdAt: responses.createdAt,
  updatedAt: responses.updatedAt,
  dataUpdatedAt: responses.dataUpdatedAt,
};

/** The columns of a listed response, plus the cursor position. */
const responseColumns = { ...storedColumns, position: createdAtMicros.as('position') };

/**
 * A timestamp as JavaScript's `toISOString` writes it (UTC, milliseconds; PostgreSQL truncates the
 * microseconds as JavaScript's Date does), independent of the session's TimeZone and DateStyle.
 */
const isoText = (column: AnyPgColumn, name: string) => sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`.as(name);

/** A column under the name of its property: the text listing's rows are used as the driver returns them. */
const named = <T>(column: AnyPgColumn, name: string) => sql<T>`${column}`.as(name);

/** The stored columns of the table or of a stream's batch (`buildBatchListing`). */
type StoredColumns = { [K in keyof typeof storedColumns]: AnyPgColumn };

/**
 * The same columns as PostgreSQL writes them, of the table or of a stream's batch: answers and metadata
 * as jsonb text, timestamps as ISO 8601 text, which the REST listing and the streams write out without
 * parsing them (db/jsonb-text.ts). Every column is named as its property, so the rows are read with
 * drizzle's `.all()` as the driver returns them: drizzle's mapping of each value was a seventh of a
 * stream's CPU.
 */
const streamedColumnsOf = (row: StoredColumns) => ({
  id: named<string>(row.id, 'id'),
  formId: named<string>(row.formId, 'formId'),
  leadId: named<string>(row.leadId, 'leadId'),
  finished: named<boolean>(row.finished, 'finished'),
  data: sql<string>`${row.data}::text`.as('data'),
  meta: sql<string>`${row.meta}::text`.as('meta'),
  ip: named<string>(row.ip, 'ip'),
  country: named<string>(row.country, 'country'),
  visitedForm: named<number>(row.visitedForm, 'visitedForm'),
  completedForm: named<number>(row.completedForm, 'completedForm'),
  version: named<string>(row.version, 'version'),
  createdAt: isoText(row.createdAt, 'createdAt'),
  updatedAt: isoText(row.updatedAt, 'updatedAt'),
  dataUpdatedAt: isoText(row.dataUpdatedAt, 'dataUpdatedAt'),
  position: microsOf(row.createdAt).as('position'),
});
const streamedColumns = streamedColumnsOf(storedColumns);

/** A listed response as text: `data` and `meta` as jsonb text, the timestamps as ISO 8601 (`toISOString`). */
export type StreamedResponse = Omit<ListedResponse, 'data' | 'meta' | 'createdAt' | 'updatedAt' | 'dataUpdatedAt'> & {
  data: string;
  meta: string;
  createdAt: string;
  updatedAt: string;
  dataUpdatedAt: string;
};

/**
 * The listing query of one shape, with placeholders for its values. Completed-only listings say
 * `WHERE finished` as a literal — not `finished = $n` — so that generic plans of the prepared
 * statement still prove the partial indexes' predicate.
 */
function buildListing(db: Db, shape: ListingShape) {
  return db
    .select(shape.text ? streamedColumns : responseColumns)
    .from(responses)
    .where(and(...listingConditions(shape)))
    .orderBy(...newestFirst(responses.createdAt, responses.id))
    .limit(p('limit'));
}

/** The conditions of a listing of one shape (`buildListing`), with placeholders for its values. */
function listingConditions(shape: ListingShape): (SQL | undefined)[] {
  const dateColumn = shape.dateField === 'updatedAt' ? responses.updatedAt : responses.createdAt;
  return [
    shape.form ? sql`${responses.formId} = ${p('formId')}` : undefined,
    // The forms as a JSON array: one placeholder both drivers bind the same way.
    shape.forms ? sql`${responses.formId} in (select jsonb_array_elements_text(${p('formIds')}::jsonb))` : undefined,
    sql`${responses.environmentId} = ${p('environmentId')}`,
    shape.partials ? undefined : sql`${responses.finished}`,
    shape.since ? sql`${dateColumn} >= ${p('since')}::timestamptz` : undefined,
    shape.until ? sql`${dateColumn} < ${p('until')}::timestamptz` : undefined,
    shape.language ? sql`${responseLanguageSql(sql`${responses.meta}`, sql`${responses.formId}`)} = ${p('language')}` : undefined,
    // A row comparison the index seeks to: everything after the cursor in (created_at, id) DESC order.
    shape.after ? afterPosition(responses.createdAt, responses.id, { createdAt: p('afterCreatedAt'), id: p('afterId') }) : undefined,
    // The form must be live in this environment: evaluated once (an InitPlan), not per row, so a
    // deleted form or another environment's form answers nothing without a second round trip.
    shape.form ? sql`exists (select 1 from forms f where f.id = ${p('formId')} and f.environment_id = ${p('environmentId')} and f.deleted_at is null)` : undefined,
  ];
}

/**
 * A stream's batch: the rows of `buildListing`'s text listing, read oldest first and sorted newest first
 * by PostgreSQL. Rows are stored roughly in the order they were created, so walking the index newest
 * first reads the table's pages backwards, one 8 KB read at a time, which the kernel's read-ahead does
 * not help: once the table outgrew the page cache, a stream ran at half the rate (bench, 10M, cold
 * cache: 14,402 → 28,114 responses/s). Where the batch starts (`bound`: the row after the batch, or
 * the oldest one) is found in the index alone (`readsForwards` says when it can be). The inner LIMIT
 * keeps the planner on the index (without it, a parallel bitmap scan whose workers cost more to start
 * than the batch); the text is made above the sort, so rows are sent as it is made, not after all of it.
 */
function buildBatchListing(db: Db, shape: ListingShape) {
  const conditions = listingConditions(shape);
  const bound = db.$with('bound').as(
    db
      .select({ createdAt: responses.createdAt, id: responses.id })
      .from(responses)
      .where(and(...conditions))
      .orderBy(...newestFirst(responses.createdAt, responses.id))
      .offset(p('boundOffset'))
      .limit(1),
  );
  const oldestFirst = db
    .select(storedColumns)
    .from(responses)
    .where(and(...conditions, sql`(${responses.createdAt}, ${responses.id}) >= (coalesce((select created_at from bound), '-infinity'), coalesce((select id from bound), ''))`))
    .orderBy(asc(responses.createdAt), asc(responses.id))
    .limit(p('limit'))
    .as('batch');
  const sorted = db.select(oldestFirst._.selectedFields).from(oldestFirst).orderBy(desc(oldestFirst.createdAt), desc(oldestFirst.id)).as('sorted');
  return db.with(bound).select(streamedColumnsOf(sorted)).from(sorted).orderBy(desc(sorted.createdAt), desc(sorted.id));
}

/** The placeholder values of a listing. */
function valuesOf(input: ListResponsesInput): Record<string, unknown> {
  return {
    formId: input.formId,
    formIds: input.formIds === undefined ? undefined : JSON.stringify(input.formIds),
    environmentId: input.environmentId,
    since: input.since?.toISOString(),
    until: input.until?.toISOString(),
    language: input.language,
    afterCreatedAt: input.after?.createdAt,
    afterId: input.after?.id,
    // One more than the page, to learn whether another page follows.
    limit: input.limit + 1,
    // A stream's batch starts at that row (`buildBatchListing`).
    boundOffset: input.limit,
  };
}

/**
 * drizzle's prepared query returning the driver's rows unmapped: `all()`, which both drivers' prepared
 * queries have (drizzle-orm 0.45, pinned) but its types leave out as internal. The listing tests run it
 * on PGlite and PostgreSQL.
 */
interface RawRows {
  all(values: Record<string, unknown>): Promise<unknown[]>;
}

/** The listing statement of a shape: a stream's batch read forwards, or the newest-first listing. */
const buildShape = (db: Db, shape: ListingShape) => (shape.batch ? buildBatchListing(db, shape) : buildListing(db, shape));

const preparedListing = (db: Db, shape: ListingShape) => {
  const name = `responses_listing_${shapeKey(shape)}`;
  return preparedQuery(db, name, (handle) => buildShape(handle, shape).prepare(name));
};

/** The listing's SQL and its values, exactly as listResponses (or, `batch`, readListingBatch) runs it (tests EXPLAIN it). */
export function listingSql(db: Db, input: ListResponsesInput, batch = false): { sql: string; params: unknown[] } {
  const query = buildShape(db, batch ? batchShapeOf(input) : shapeOf(input)).toSQL();
  return { sql: query.sql, params: fillPlaceholders(query.params, valuesOf(input)) };
}

/**
 * One page of responses, newest first. With `formId`, null when that form is not a live form of
 * the environment (deleted, another environment's, or nonexistent).
 */
export async function listResponses(db: Db, input: ListResponsesInput): Promise<ResponsePage | null> {
  return runListing(db, input, false) as Promise<ResponsePage | null>;
}

/** `listResponses` as text (`StreamedResponse`: jsonb text, ISO timestamps), which the REST listing writes out unparsed. */
export async function listResponseTexts(db: Db, input: ListResponsesInput): Promise<{ responses: StreamedResponse[]; hasNextPage: boolean } | null> {
  return runListing(db, input, true) as Promise<{ responses: StreamedResponse[]; hasNextPage: boolean } | null>;
}

async function runListing(db: Db, input: ListResponsesInput, text: boolean): Promise<{ responses: unknown[]; hasNextPage: boolean } | null> {
  const query = preparedListing(db, shapeOf(input, text));
  const rows: unknown[] = await (text ? (query as unknown as RawRows).all(valuesOf(input)) : query.execute(valuesOf(input)));
  if (rows.length === 0 && input.formId !== undefined && !(await findForm(db, input.environmentId, input.formId))) return null;
  const hasNextPage = rows.length > input.limit;
  // The rows are returned as they come (no copy): cursors are encoded only for those asked for.
  return { hasNextPage, responses: hasNextPage ? rows.slice(0, input.limit) : rows };
}

/**
 * Rows per statement of `readListingBatch`: enough that the per-statement cost (a round trip, an index
 * seek, the batch's sort) is small beside the rows' and a forward read (`buildBatchListing`) is long
 * enough for the kernel's read-ahead to grow, few enough that a stream keeps little in hand (~1.7 MB of
 * these responses). 1,000 against 200: 10M from a cold cache 28,114 → 34,732 responses/s, 1M 50,689 /
 * 50,900 → 58,292 / 50,519 (bench, stream only).
 */
export const LISTING_BATCH_SIZE = 1000;

/**
 * Whether a stream's batch is read forwards (`buildBatchListing`): when the index alone finds where it
 * starts, that is for the environment's listing unless it is filtered by `updatedAt`. A form's index
 * lacks the environment, which the listing checks on every row, and its rows are spread over the table.
 */
const readsForwards = (input: ListResponsesInput) => input.formId === undefined && !(input.dateField === 'updatedAt' && (input.since !== undefined || input.until !== undefined));

/** The shape of a stream's batch (`readListingBatch`): text, read forwards when it can be. */
const batchShapeOf = (input: ListResponsesInput) => shapeOf(input, true, readsForwards(input));

/**
 * The responses of a listing after `input.after`, newest first, at most `input.limit` (answers and
 * metadata as jsonb text, `StreamedResponse`), each passed to `onRow` as the driver reads it and kept
 * by nobody (db/prepared.ts, `forEachRow`, says why): the keyset listing of `listResponses`. Answers
 * where the next batch starts, or null after the last one. With `formId`, a form that is no longer live
 * (deleted, another environment's) ends the listing with NOT_FOUND once no row comes.
 */
export async function readListingBatch(db: Db, input: ListResponsesInput, onRow: (row: StreamedResponse) => void): Promise<KeysetPosition | null> {
  let count = 0;
  let last: KeysetPosition | null = null;
  await forEachRow<StreamedResponse>(preparedListing(db, batchShapeOf(input)), valuesOf(input), (row) => {
    // The row after the batch (valuesOf asks for one more) only says that another batch follows.
    if (++count > input.limit) return;
    onRow(row);
    last = { createdAt: row.position, id: row.id };
  });
  if (count === 0 && input.formId !== undefined && !(await findForm(db, input.environmentId, input.formId))) throw notFound('Form not found');
  return count > input.limit ? last : null;
}

// ---------------------------------------------------------------- the graph: per-parent pages and lookups

/** The filter conditions of a listing, with values inline (the per-parent pages are not prepared). */
function filterConditions(filter: ResponseFilter, after: KeysetPosition | undefined): (SQL | undefined)[] {
  const dateColumn = filter.dateField === 'updatedAt' ? responses.updatedAt : responses.createdAt;
  return [
    filter.includePartials ? undefined : sql`${responses.finished}`,
    filter.since ? sql`${dateColumn} >= ${filter.since.toISOString()}::timestamptz` : undefined,
    filter.until ? sql`${dateColumn} < ${filter.until.toISOString()}::timestamptz` : undefined,
    filter.language === undefined ? undefined : sql`${responseLanguageSql(sql`${responses.meta}`, sql`${responses.formId}`)} = ${filter.language}`,
    afterPosition(responses.createdAt, responses.id, after),
  ];
}

/**
 * A page of responses for each parent (forms or leads of `scope`; null: any environment), newest first,
 * in one statement: a lateral scan of the listing index per parent. Parents outside the scope (or
 * deleted forms) get an empty page. In the order of `parentIds`.
 */
export async function responsePagesByParent(
  db: Db,
  parent: 'form' | 'lead',
  scope: string | null,
  parentIds: readonly string[],
  input: ResponseFilter & { after?: KeysetPosition | undefined; limit: number; formIds?: readonly string[] | undefined },
): Promise<{ responses: ListedResponse[]; hasNextPage: boolean }[]> {
  const table = parent === 'form' ? forms : leads;
  const link = parent === 'form' ? responses.formId : responses.leadId;
  const pages = await pagesPerParent<ListedResponse>(
    db,
    { table, id: table.id, where: and(scope === null ? undefined : eq(table.environmentId, scope), parent === 'form' ? isNull(forms.deletedAt) : undefined) },
    {
      table: responses,
      columns: responseColumns,
      createdAt: responses.createdAt,
      id: responses.id,
      where: and(
        eq(link, table.id),
        eq(responses.environmentId, table.environmentId),
        input.formIds === undefined ? undefined : inArray(responses.formId, [...input.formIds, '']),
        ...filterConditions(input, input.after),
      ),
    },
    parentIds,
    input.limit,
  );
  return pages.map((page) => ({ responses: page.rows, hasNextPage: page.hasNextPage }));
}

/** Responses by id, in one statement; each a response of `scope` (null: any environment), else null. */
export async function loadResponses(db: Db, scope: string | null, ids: readonly string[], formIds: readonly string[] | null = null): Promise<(ListedResponse | null)[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select(responseColumns)
    .from(responses)
    .where(
      and(
        inArray(responses.id, [...ids]),
        scope === null ? undefined : eq(responses.environmentId, scope),
        formIds === null ? undefined : inArray(responses.formId, [...formIds, '']),
      ),
    );
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id) ?? null);
}
