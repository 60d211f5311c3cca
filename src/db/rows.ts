/** The rows of a `db.execute(sql…)` result: postgres.js returns the rows as the result; PGlite as `{rows}`. */
export function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : ((result as { rows?: T[] }).rows ?? []);
}
