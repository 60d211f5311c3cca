/** Searching a whole database's stored text: which tables hold a value (a secret that must not be there). */
import { sql } from 'drizzle-orm';
import type { Database } from '../../src/db/client.ts';
import { rowsOf } from '../../src/db/rows.ts';

/** Every table (any schema but the catalogues) whose rows, written as text, contain `needle` or its UTF-8 hex. */
export async function tablesHolding(db: Database, needle: string): Promise<string[]> {
  const tables = rowsOf<{ schema: string; name: string }>(
    await db.execute(sql`select table_schema as schema, table_name as name from information_schema.tables
      where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`),
  );
  if (!tables.some((t) => t.name === 'instance_secrets')) throw new Error('the scan found no formloom tables');
  const hex = Buffer.from(needle, 'utf8').toString('hex');
  const holding: string[] = [];
  for (const { schema, name } of tables) {
    const table = sql.raw(`"${schema.replaceAll('"', '""')}"."${name.replaceAll('"', '""')}"`);
    const [row] = rowsOf<{ n: number | string }>(await db.execute(sql`select count(*) as n from ${table} t where strpos(t::text, ${needle}) > 0 or strpos(t::text, ${hex}) > 0`));
    if (Number(row!.n) > 0) holding.push(`${schema}.${name}`);
  }
  return holding;
}
