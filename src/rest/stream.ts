/**
 * The streamed REST bodies: the unpaged environment listing (`GET /api/v1/responses`) and the exports.
 *
 * The first page comes from the adapter's GraphQL operation, which decides the status (access, tenancy,
 * arguments) before anything is sent. The rest is read by the service directly (`listingBatches`, 1,000
 * rows per statement, from the first page's cursor, in the environment the operation was answered for)
 * and written as `toResponseObject` writes a response: the same object, field for field, that the
 * operation's nodes are (test/responses.rest.test.ts compares the stream with the paged listing). A
 * departure from "REST goes through GraphQL operations" (DESIGN.md) for this one path: walking millions
 * of rows through the 100-row connection cost a statement and a GraphQL execution per 100 rows, which
 * was most of the stream's time.
 *
 * Pull-based: the next batch is read while the client takes the current one (written 100 rows per
 * chunk), and no further, so a slow client holds about two batches in memory, never the export.
 */
import type { Db } from '../db/client.ts';
import type { EnvironmentResponsesPageQuery, ResponseFilter as OperationFilter } from '../graphql/generated/graphql.ts';
import { toResponseObject } from '../responses/model.ts';
import { decodeCursor, listingBatches, type ListResponsesInput, type ResponseFilter } from '../responses/responses.service.ts';

/** A response as the REST API writes it (a node of the REST operations). */
export type RestResponse = EnvironmentResponsesPageQuery['environmentResponses']['edges'][number]['node'];

/** The cursor of the page after this one, or null on the last page (a listing's `nextCursor`). */
export const nextCursorOf = (pageInfo: { hasNextPage: boolean; endCursor?: string | null }) => (pageInfo.hasNextPage ? (pageInfo.endCursor ?? null) : null);

/** The first page of a stream, as the operation answered it. */
export interface FirstPage {
  nodes: readonly RestResponse[];
  /** Where the next page starts; null when this page is the last. */
  nextCursor: string | null;
}

/** The operation's filter as the service takes it (what the GraphQL listing makes of it). */
export function listingFilterOf(filter: OperationFilter): ResponseFilter {
  return {
    includePartials: filter.returnPartials ?? false,
    since: filter.since ? new Date(filter.since) : undefined,
    until: filter.until ? new Date(filter.until) : undefined,
    dateField: filter.dateField === 'UPDATED_AT' ? 'updatedAt' : 'createdAt',
  };
}

/**
 * The first page's responses, then every later one of the listing `rest` describes (its environment,
 * form and filters; the operation's), in batches.
 */
export async function* responsesAfter(
  db: Db,
  first: FirstPage,
  rest: Omit<ListResponsesInput, 'after' | 'limit'>,
  dropOffMs: number,
): AsyncGenerator<readonly RestResponse[], void, undefined> {
  yield first.nodes;
  const after = first.nextCursor === null ? undefined : decodeCursor(first.nextCursor);
  if (!after) return;
  for await (const batch of listingBatches(db, { ...rest, after })) {
    const now = new Date();
    yield batch.map((row) => toResponseObject(row, now, dropOffMs));
  }
}

/** How a body is written: `head`, each chunk of rows, then `tail`. */
export interface BodyFormat<T> {
  head: string;
  /** The text of some rows; `first` when no rows came before them. */
  rows(rows: readonly T[], first: boolean): string;
  tail: string;
}

/** Rows per chunk written: a batch goes out in several, so each stays small. */
const CHUNK_ROWS = 100;

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
