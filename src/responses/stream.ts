/**
 * The streamed REST bodies: the unpaged environment listing (`GET /api/v1/responses`) and the exports.
 *
 * The first page decides the status (access, tenancy, arguments) before anything is sent: an export's
 * comes from its GraphQL operation, the listing's from the service (rest/responses.ts says why). The rest
 * is read by the service directly (`readListingBatch`, LISTING_BATCH_SIZE rows per statement, from the
 * first page's cursor, in the environment and form the operation was answered for) and written as the
 * operation writes a response: `writeResponseJson` writes the JSON of `toResponseObject` from the row
 * as UTF-8 into the chunk's buffer (`ChunkWriter`), with the answers and metadata as PostgreSQL's jsonb
 * text made compact there (db/jsonb-text.ts) instead of parsed and stringified again. The environment's
 * CSV writes its `data` cell the same way, quoted (`jsonbCsvField`); a form's CSV parses the answers.
 * Tests hold the stream to the paged listing byte for byte (test/responses/responses.rest.test.ts). A departure from "REST
 * goes through GraphQL operations" (docs/architecture.md) for this one path: walking millions of rows through the
 * 100-row connection would cost a statement and a GraphQL execution per 100 rows and a parse and a stringify
 * of every answer, most of the stream's time.
 *
 * Pull-based: each pull reads one batch and writes its rows into chunks as the driver reads them
 * (db/prepared.ts, `forEachRow`: no batch is held as an array of rows), while the client takes the
 * chunks queued before; reading stops once QUEUED_BYTES wait, so a slow client holds about that and
 * one batch, never the export.
 */
import type { Db } from '../db/client.ts';
import { COMMA, jsonOfJsonbText, MINUS, QUOTE, reparsedJsonbText, writeCompactJsonbText } from '../db/jsonb-text.ts';
import { csvField, neutralizeCell } from './csv.ts';
import { metaJsonOfText, responseStatus } from './model.ts';
import { decodeCursor, type KeysetPosition } from '../keyset.ts';
import { LISTING_BATCH_SIZE, readListingBatch, type ListResponsesInput, type StreamedResponse } from './responses.service.ts';

/**
 * The first page of a stream: the operation's response objects (exports), written as they are, or the
 * service's rows (the listing).
 */
export interface FirstPage<T extends object> {
  nodes: readonly StreamItem<T>[];
  /** Where the next page starts; null when this page is the last. */
  nextCursor: string | null;
}

/** What the batches after the first page read: the environment (and form) and filters of the operation. */
export type Listing = Omit<ListResponsesInput, 'after' | 'limit'>;

const NO_BYTES = Buffer.alloc(0);

/**
 * A chunk is taken once this much is written: ~19 responses of ~1.7 KB. (When chunks were strings
 * encoded afterwards, 16 rows a chunk streamed 33,700 responses/s at 24.7 µs of CPU each, 32 rows
 * 25,700/s, 100 rows 14,600/s at 46 µs: bench, 1M, one run each.)
 */
const CHUNK_TARGET = 32 * 1024;

/** A chunk's buffer: the target, with room for the next response's worst-case UTF-8 (3 bytes a unit). */
const CHUNK_BYTES = 64 * 1024;

/**
 * Text written as UTF-8 into one buffer, taken as a chunk of a body. Answers and metadata are compacted
 * in the buffer itself (db/jsonb-text.ts): no string is built for them, and none is encoded again.
 */
export class ChunkWriter {
  private buffer = NO_BYTES;
  private at = 0;

  /** `capacity`: the size of each chunk's buffer, grown when a chunk needs more. */
  constructor(private readonly capacity = CHUNK_BYTES) {}

  /** Makes room for `units` UTF-16 code units as UTF-8 (3 bytes each at most), keeping what is written. */
  private reserve(units: number) {
    const needed = this.at + units * 3;
    if (needed <= this.buffer.length) return;
    const larger = Buffer.allocUnsafeSlow(Math.max(needed, this.capacity, this.buffer.length * 2));
    this.buffer.copy(larger, 0, 0, this.at);
    this.buffer = larger;
  }

  text(text: string): void {
    this.reserve(text.length);
    this.at += this.buffer.write(text, this.at);
  }

  /** Bytes written since the last chunk was taken. */
  get length(): number {
    return this.at;
  }

  /** jsonb text (jsonb_out) as JSON.stringify writes its value. */
  jsonb(text: string): void {
    this.reserve(text.length);
    const end = writeCompactJsonbText(text, this.buffer, this.at);
    if (end === -1) this.text(reparsedJsonbText(text));
    else this.at = end;
  }

  /**
   * jsonb text as one CSV field of its compact JSON (`csvField(neutralizeCell(json))`): compacted with
   * its quotes doubled in the buffer itself, inside quotes unless it holds neither a quote nor a comma
   * (compact JSON has no raw line breaks). It starts with `-` only as a bare negative number, which
   * neutralizeCell would prefix: that case, and texts the compaction refuses, take the string path.
   */
  jsonbCsvField(text: string): void {
    this.reserve(text.length * 2 + 1); // the opening quote, the room doubling needs (text.length), the UTF-8, the closing quote
    const buffer = this.buffer;
    const start = this.at;
    const end = writeCompactJsonbText(text, buffer, start + 1, true);
    if (end === -1 || buffer[start + 1] === MINUS) return this.text(csvField(neutralizeCell(jsonOfJsonbText(text))));
    let quoted = false;
    for (let i = start + 1; i < end && !quoted; i++) quoted = buffer[i] === QUOTE || buffer[i] === COMMA;
    if (quoted) {
      buffer[start] = QUOTE;
      buffer[end] = QUOTE;
      this.at = end + 1;
    } else {
      buffer.copyWithin(start, start + 1, end);
      this.at = end - 1;
    }
  }

  /** What was written, as a chunk of its own; the writer starts over in a new buffer. */
  take(): Uint8Array {
    const chunk = this.buffer.subarray(0, this.at);
    this.buffer = NO_BYTES;
    this.at = 0;
    return chunk;
  }
}

/** A streamed response as JSON.stringify writes its `toResponseObject`, without parsing its answers. */
export function writeResponseJson(out: ChunkWriter, row: StreamedResponse, now: Date, dropOffMs: number): void {
  out.text(
    `{"id":${JSON.stringify(row.id)},"createdAt":"${row.createdAt}","updatedAt":"${row.updatedAt}",` +
      `"dataUpdatedAt":"${row.dataUpdatedAt}","finished":${row.finished},"status":${responseStatus(row, now, dropOffMs)},` +
      `"formId":${JSON.stringify(row.formId)},"version":${JSON.stringify(row.version)},"data":`,
  );
  out.jsonb(row.data);
  out.text(
    `,"meta":${metaJsonOfText(row.meta, row.leadId)},"personAttributes":{"ip":${JSON.stringify(row.ip)},"country":${JSON.stringify(row.country)},` +
      `"visitedForm":${JSON.stringify(row.visitedForm)},"completedForm":${JSON.stringify(row.completedForm)}}}`,
  );
}

/** A response of a stream: an object of the operation's first page, or a row of a later batch (jsonb text). */
export type StreamItem<T extends object> = T | StreamedResponse;

export const isRow = <T extends object>(item: StreamItem<T>): item is StreamedResponse => 'position' in item;

/** A stream's response as its JSON text. */
export function writeItemJson<T extends object>(out: ChunkWriter, item: StreamItem<T>, now: Date, dropOffMs: number): void {
  if (isRow(item)) writeResponseJson(out, item, now, dropOffMs);
  else out.text(JSON.stringify(item));
}

/** How a body is written: `head`, each response, then `tail`. */
export interface BodyFormat<T extends object> {
  head: string;
  /** Writes one response; `first` when none came before it. */
  row(out: ChunkWriter, item: StreamItem<T>, first: boolean, now: Date): void;
  tail: string;
}

/** `{"data":[…]}`, the body of `GET /api/v1/responses`. */
export function jsonListingFormat<T extends object>(dropOffMs: number): BodyFormat<T> {
  return {
    head: '{"data":[',
    row: (out, item, first, now) => {
      if (!first) out.text(',');
      writeItemJson(out, item, now, dropOffMs);
    },
    tail: ']}',
  };
}

/**
 * Bytes a stream queues before it stops reading: the client takes them while the next batch is read,
 * and a slow client holds this much and one batch, never the export.
 */
const QUEUED_BYTES = 256 * 1024;

/**
 * The first page's responses, then every later one of the listing `rest` describes (its environment,
 * form and filters; the operation's), written as a body in `format` as the client reads: each pull
 * reads one batch (`readListingBatch`, LISTING_BATCH_SIZE rows) and writes its rows as they arrive,
 * while the client takes what was queued before. A failure after the headers are sent is passed to
 * `onError` and cuts the stream (the client sees an incomplete body, never the tail).
 */
export function streamBody<T extends object>(db: Db, first: FirstPage<T>, rest: Listing, format: BodyFormat<T>, onError: (error: unknown) => void): ReadableStream<Uint8Array> {
  const out = new ChunkWriter();
  let after: KeysetPosition | null | undefined; // undefined until the first page is written
  let written = 0;
  let cancelled = false;
  const take = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    if (!cancelled) controller.enqueue(out.take());
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const now = new Date();
          const write = (item: StreamItem<T>) => {
            format.row(out, item, written === 0, now);
            written++;
            if (out.length >= CHUNK_TARGET) take(controller);
          };
          if (after === undefined) {
            out.text(format.head);
            first.nodes.forEach(write);
            after = first.nextCursor === null ? null : decodeCursor(first.nextCursor);
          } else if (after !== null) {
            after = await readListingBatch(db, { ...rest, after, limit: LISTING_BATCH_SIZE }, write);
          }
          if (after === null) {
            out.text(format.tail);
            take(controller);
            if (!cancelled) controller.close();
          } else if (out.length > 0) take(controller);
        } catch (error) {
          onError(error);
          throw error;
        }
      },
      cancel() {
        cancelled = true;
      },
    },
    { highWaterMark: QUEUED_BYTES, size: (chunk) => chunk.byteLength },
  );
}
