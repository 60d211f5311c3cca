/**
 * What drizzle sends to PostgreSQL runs as named prepared statements (src/db/statements.ts): after a
 * connection's first use of a text, a statement with parameters is one round trip (Bind + Execute),
 * not two (Parse + Describe, then Bind + Execute once the server has described the parameters).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/db/client.ts';
import { forms } from '../../src/db/schema.ts';
import { watchRoundTrips } from '../../bench/round-trips.ts';

const databaseUrl = inject('testDatabaseUrl');

describe.skipIf(!databaseUrl)('statements sent to PostgreSQL', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openDatabase({ databaseUrl: databaseUrl!, maxConnections: 1 });
  });
  afterAll(() => handle?.close());

  /** Writes to the database that follow one of its replies: the round trips `run` takes. */
  async function roundTrips(run: () => Promise<unknown>): Promise<number> {
    const watch = watchRoundTrips(Number(new URL(databaseUrl!).port || 5432));
    try {
      await run();
      return watch.count();
    } finally {
      watch.stop();
    }
  }

  it('sends a repeated statement with parameters in one round trip', async () => {
    const lookup = (id: string) => handle.db.select({ id: forms.id }).from(forms).where(eq(forms.id, id));
    await lookup('first-use-prepares');
    expect(await roundTrips(() => lookup('no-such-form'))).toBe(1);
    expect(await lookup('still-no-such-form')).toEqual([]);
  });
});
