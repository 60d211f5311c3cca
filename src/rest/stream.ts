/**
 * The streamed REST bodies: the unpaged environment listing (`GET /api/v1/responses`) and the exports.
 *
 * The first page decides the status (access, tenancy, arguments) before anything is sent: an export's
 * comes from its GraphQL operation, the listing's from the service (rest/responses.ts says why). The rest
 * is read by the service directly (`listingBatches`,
 * LISTING_BATCH_SIZE rows per statement, from the first page's cursor, in the environment and form the
 * operation was answered for) and written as the operation writes a response: `responseJson` builds the
 * JSON of `toResponseObject` from the row, with the answers and metadata as PostgreSQL's jsonb text
 * made compact (db/jsonb-text.ts) instead of parsed and stringified again; CSV parses them. Tests hold
 * the stream to the paged listing byte for byte (test/responses.rest.test.ts). A departure from "REST
 * goes through GraphQL operations" (DESIGN.md) for this one path: walking millions of rows through the
 * 100-row connection cost a statement and a GraphQL execution per 100 rows and a parse and a stringify
 * of every answer, which were most of the stream's time.
 *
 * Pull-based: the next batch is read while the client takes the current one (written CHUNK_ROWS rows per
 * chunk, turned into text only then), and no further, so a slow client holds about two batches in
 * memory, never the export.
 */
import type { Db } from '../db/client.ts';
import type { EnvironmentResponsesPageQuery, ResponseFilter as OperationFilter } from '../graphql/generated/graphql.ts';
import { jsonOfJsonbText } from '../db/jsonb-text.ts';
import { metaJsonOfText, responseStatus, toResponseObject, type ResponseAnswer, type ResponseMeta } from '../responses/model.ts';
import { decodeCursor, listingBatches, type ListResponsesInput, type ResponseFilter, type StreamedResponse } from '../responses/responses.service.ts';

/** A response as the REST API writes it (a node of the REST operations). */
export type RestResponse = EnvironmentResponsesPageQuery['environmentResponses']['edges'][number]['node'];

/** The cursor of the page after this one, or null on the last page (a listing's `nextCursor`). */
export const nextCursorOf = (pageInfo: { hasNextPage: boolean; endCursor?: string | null }) => (pageInfo.hasNextPage ? (pageInfo.endCursor ?? null) : null);

/** The first page of a stream: the operation's answer (exports) or the service's rows (the listing). */
export interface FirstPage {
  nodes: readonly StreamItem[];
  /** Where the next page starts; null when this page is the last. */
  nextCursor: string | null;
}

/** What the batches after the first page read: the environment (and form) and filters of the operation. */
export type Listing = Omit<ListResponsesInput, 'after' | 'limit'>;

/** The operation's filter as the service takes it (what the GraphQL listing makes of it). */
export function listingFilterOf(filter: OperationFilter): ResponseFilter {
  return {
    includePartials: filter.returnPartials ?? false,
    since: filter.since ? new Date(filter.since) : undefined,
    until: filter.until ? new Date(filter.until) : undefined,
    dateField: filter.dateField === 'UPDATED_AT' ? 'updatedAt' : 'createdAt',
  };
}

/** A streamed response as its JSON: what JSON.stringify writes for its `toResponseObject`, without parsing its answers. */
export function responseJson(row: StreamedResponse, now: Date, dropOffMs: number): string {
  return (
    `{"id":${JSON.stringify(row.id)},"createdAt":"${row.createdAt}","updatedAt":"${row.updatedAt}",` +
    `"dataUpdatedAt":"${row.dataUpdatedAt}","finished":${row.finished},"status":${responseStatus(row, now, dropOffMs)},` +
    `"formId":${JSON.stringify(row.formId)},"version":${JSON.stringify(row.version)},"data":${jsonOfJsonbText(row.data)},"meta":${metaJsonOfText(row.meta, row.leadId)},` +
    `"personAttributes":{"ip":${JSON.stringify(row.ip)},"country":${JSON.stringify(row.country)},` +
    `"visitedForm":${JSON.stringify(row.visitedForm)},"completedForm":${JSON.stringify(row.completedForm)}}}`
  );
}

/** A response of a stream: an object of the operation's first page, or a row of a later batch (jsonb text). */
export type StreamItem = RestResponse | StreamedResponse;

const isRow = (item: StreamItem): item is StreamedResponse => 'position' in item;

/** A stream's response as its JSON text. */
export const jsonOfItem = (item: StreamItem, now: Date, dropOffMs: number): string =>
  isRow(item) ? responseJson(item, now, dropOffMs) : JSON.stringify(item);

/** A stream's response as the object the operations answer (`toResponseObject`). */
export const objectOfItem = (item: StreamItem, now: Date, dropOffMs: number): RestResponse =>
  isRow(item) ? toResponseObject({ ...item, data: JSON.parse(item.data) as ResponseAnswer[], meta: JSON.parse(item.meta) as ResponseMeta }, now, dropOffMs) : item;

/**
 * The first page's responses, then every later one of the listing `rest` describes (its environment,
 * form and filters; the operation's), in batches. Rows are turned into text only as each chunk is
 * written (`jsonOfItem`, `objectOfItem`): text made for a whole batch up front outlives the young
 * generation and made garbage collection most of the stream's time.
 */
export async function* responsesAfter(db: Db, first: FirstPage, rest: Listing): AsyncGenerator<readonly StreamItem[], void, undefined> {
  yield first.nodes;
  const after = first.nextCursor === null ? undefined : decodeCursor(first.nextCursor);
  if (!after) return;
  yield* listingBatches(db, { ...rest, after });
}

/** How a body is written: `head`, each chunk of rows, then `tail`. */
export interface BodyFormat<T> {
  head: string;
  /** The text of some rows; `first` when no rows came before them. */
  rows(rows: readonly T[], first: boolean): string;
  tail: string;
}

/**
 * Rows per chunk written: a batch goes out in several, so each stays small. A chunk's text (~1.7 KB a
 * response) is built, encoded and dropped young: 16 rows streamed 33,700 responses/s at 24.7 µs of
 * CPU each, 32 rows 25,700/s, 100 rows 14,600/s at 46 µs (bench, 1M, one run each); 8 was no better.
 */
const CHUNK_ROWS = 16;

/**
 * `batches` written as a body in `format`, as the client reads. A failure after the headers are sent
 * is passed to `onError` and cuts the stream (the client sees an incomplete body, never the tail).
 */
export function streamBody<T>(batches: AsyncIterator<readonly T[]>, format: BodyFormat<T>, onError: (error: unknown) => void): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const fetchNext = () => {
    const next = batches.next();
    next.catch(() => {}); // awaited in pull; not unhandled while it waits there
    return next;
  };
  let pending: Promise<IteratorResult<readonly T[]>> | undefined = fetchNext();
  let batch: readonly T[] = [];
  let at = 0;
  let wroteRows = false;
  let text = format.head;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        while (at >= batch.length) {
          if (!pending) {
            controller.enqueue(encoder.encode(text + format.tail));
            controller.close();
            return;
          }
          const result = await pending;
          if (result.done) {
            pending = undefined;
            continue;
          }
          batch = result.value;
          at = 0;
          // The next batch loads while this one is written.
          pending = fetchNext();
        }
        const rows = batch.slice(at, at + CHUNK_ROWS);
        at += rows.length;
        text += format.rows(rows, !wroteRows);
        wroteRows = true;
        controller.enqueue(encoder.encode(text));
        text = '';
      } catch (error) {
        onError(error);
        throw error;
      }
    },
    async cancel() {
      await batches.return?.().catch(() => {});
    },
  });
}
