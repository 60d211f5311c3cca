/**
 * Named prepared statements for what drizzle sends to postgres.js.
 *
 * drizzle runs every query that was not built with `.prepare(name)` through `sql.unsafe(text, params,
 * {prepare: false})`. postgres.js then sends an unnamed statement and, when it has parameters, first
 * asks the server for their types (Parse + Describe, wait, then Bind + Execute): two round trips, and a
 * parse and plan by the server, for every statement of every request. With `prepare: true` each
 * connection parses a text once and afterwards sends only Bind + Execute (one round trip), as the
 * baseline of `npm run bench` does with tagged templates.
 *
 * Statement texts come from code (values are always parameters), but a few vary with their input's
 * size (`in ($1, …, $n)`, multi-row inserts), so the texts prepared are bounded: past
 * MAX_PREPARED_TEXTS distinct texts, new ones run unprepared as before. postgres.js re-runs a prepared
 * statement unprepared when the server dropped or invalidated it (a migration by another node).
 *
 * Behind a transaction pooler the pool is opened with `prepare: false` (db/client.ts), which overrides
 * this: no statement is prepared there, since the next one may run on another server connection.
 */
const MAX_PREPARED_TEXTS = 2_000;
const preparedTexts = new Set<string>();

/** The options `unsafe(text, params, options)` runs with: prepared unless the bound is reached. */
export function withPreparedStatement(text: unknown, params: unknown, options: unknown): unknown {
  if (typeof text !== 'string' || !Array.isArray(params) || params.length === 0) return options;
  if (!preparedTexts.has(text)) {
    if (preparedTexts.size >= MAX_PREPARED_TEXTS) return options;
    preparedTexts.add(text);
  }
  return { ...(options as object | undefined), prepare: true };
}
