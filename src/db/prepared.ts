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
  if (!byName) builtByDriver.set(session.constructor, (byName = new Map()));
  let built = byName.get(name);
  if (!built) byName.set(name, (built = build(db) as Bound));
  if (built.client === session.client) return built as Q;
  return Object.create(built, { client: { value: session.client } }) as Q;
}
