import type { Db } from './client.ts';

/**
 * drizzle queries built once per database handle and then only executed (`.prepare(name)` with
 * `sql.placeholder` values): building a query walks its tables and conditions on every call, a
 * noticeable share of a short request's CPU. A transaction is its own handle (its prepared queries run
 * in it), so inside one the query is built once per transaction, as before.
 */
const preparedByHandle = new WeakMap<Db, Map<string, unknown>>();

export function preparedQuery<Q>(db: Db, name: string, build: (db: Db) => Q): Q {
  let byName = preparedByHandle.get(db);
  if (!byName) preparedByHandle.set(db, (byName = new Map()));
  let query = byName.get(name) as Q | undefined;
  if (query === undefined) byName.set(name, (query = build(db)));
  return query;
}
