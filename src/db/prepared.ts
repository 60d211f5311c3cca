import { fillPlaceholders } from 'drizzle-orm';
import type { Db } from './client.ts';

/**
 * drizzle queries built once and then only executed (`.prepare(name)` with `sql.placeholder` values):
 * building a query walks its tables and conditions on every call, a noticeable share of a short
 * request's CPU (a submission's statements were a tenth of its CPU in building alone).
 *
 * A query is built on the first handle of its driver that asks for it. On any other handle (another
 * database, or a transaction, which is a handle of its own) the same built query runs with that
 * handle's driver client: the prepared queries of both drivers (drizzle-orm 0.45, pinned) keep it in
 * `client`, taken from the handle's session, and read nothing else of the handle. The submission and
 * listing tests run this on PGlite and PostgreSQL, in transactions and out.
 */
interface Bound {
  client: unknown;
}
interface Handle {
  session: Bound;
}

/** Built queries by name, per driver (session class): the SQL text and the result mapping are the driver's. */
const builtByDriver = new Map<unknown, Map<string, Bound>>();

export function preparedQuery<Q>(db: Db, name: string, build: (db: Db) => Q): Q {
  const { session } = db as unknown as Handle;
  let byName = builtByDriver.get(session.constructor);
  if (!byName) builtByDriver.set(session.constructor, (byName = new Map<string, Bound>()));
  let built = byName.get(name);
  if (!built) byName.set(name, (built = build(db) as Bound));
  if (built.client === session.client) return built as Q;
  return Object.create(built, { client: { value: session.client } }) as Q;
}

/** What `forEachRow` reads of a built query: drizzle's prepared query of either driver (drizzle-orm 0.45, pinned). */
interface BuiltQuery {
  client: unknown;
  queryString: string;
  params: unknown[];
  prepare?: boolean;
  /** The driver's rows unmapped (internal in drizzle's types). */
  all(values: Record<string, unknown>): Promise<unknown[]>;
}

interface PostgresJsClient {
  unsafe(query: string, params: unknown[], options: { prepare?: boolean }): { forEach(onRow: (row: unknown) => void): PromiseLike<unknown> };
}

const isPostgresJs = (client: unknown): client is PostgresJsClient => typeof (client as { unsafe?: unknown } | null)?.unsafe === 'function';

/**
 * Runs a built query (`preparedQuery`) and passes each of the driver's rows, unmapped, to `onRow` as it
 * is read, keeping none. On postgres.js this is its `forEach`: rows collected in a result array were
 * kept alive by it across young-generation collections and nearly all promoted to the old generation
 * (whole batches of a stream, ~1.5 KB a response), which then grew to ~4 × the live heap before a full
 * collection. On PGlite the rows arrive together from its thread and are passed on one by one.
 */
export async function forEachRow<Row>(query: unknown, values: Record<string, unknown>, onRow: (row: Row) => void): Promise<void> {
  const built = query as BuiltQuery;
  if (!isPostgresJs(built.client)) {
    for (const row of await built.all(values)) onRow(row as Row);
    return;
  }
  // onRow runs inside postgres.js's reading of the socket: a failure there is kept and thrown once the
  // statement has ended, not left to the driver mid-message. The rows after it are skipped.
  let failure: { error: unknown } | undefined;
  const guarded = (row: unknown) => {
    if (failure) return;
    try {
      onRow(row as Row);
    } catch (error) {
      failure = { error };
    }
  };
  await built.client.unsafe(built.queryString, fillPlaceholders(built.params, values), { prepare: built.prepare }).forEach(guarded);
  if (failure) throw failure.error;
}
