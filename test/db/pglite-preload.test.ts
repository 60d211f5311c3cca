/**
 * The in-process files' PGlite databases (test/support/pglite-preload.ts): each starts as the migrated
 * cluster, whatever the files before it wrote to theirs in the same worker, in new pages or in the pages
 * the dump holds.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, inject, it } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import { rowsOf } from '../../src/db/rows.ts';
import { openTestDatabase } from '../support/helpers.ts';

const count = async (db: Database, table: string) => rowsOf<{ n: number }>(await db.execute(sql.raw(`select count(*)::int as n from ${table}`)))[0]!.n;

describe.skipIf(Boolean(inject('testDatabaseUrl')))('a test database on PGlite', () => {
  it('starts as the migrated cluster after another one wrote to its own', async () => {
    const first = await openTestDatabase();
    const migrations = await count(first.db, 'drizzle.__drizzle_migrations');
    expect(migrations).toBeGreaterThan(0);
    // A row in a page the dump holds (the migrations table's), and a table grown by many pages.
    await first.db.execute(sql`insert into drizzle.__drizzle_migrations (hash, created_at) values ('not a migration', 0)`);
    await first.db.execute(sql`insert into environments (id, name) select 'env_' || n, 'Environment ' || n from generate_series(1, 5000) as n`);
    await first.db.execute(sql`checkpoint`);
    await first.close();

    const second = await openTestDatabase();
    try {
      expect(await count(second.db, 'drizzle.__drizzle_migrations')).toBe(migrations);
      expect(await count(second.db, 'environments')).toBe(0);
    } finally {
      await second.close();
    }
  });
});
