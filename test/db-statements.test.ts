/**
 * What drizzle sends to PostgreSQL runs as named prepared statements (src/db/statements.ts): after a
 * connection's first use of a text, a statement with parameters is one round trip (Bind + Execute),
 * not two (Parse + Describe, then Bind + Execute once the server has described the parameters).
 */
import { Socket } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../src/db/client.ts';
import { forms } from '../src/db/schema.ts';

const databaseUrl = inject('testDatabaseUrl');

describe.skipIf(!databaseUrl)('statements sent to PostgreSQL', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openDatabase({ databaseUrl: databaseUrl!, maxConnections: 1 });
  });
  afterAll(() => handle?.close());

  /** Writes to the database that follow one of its replies: the round trips `run` takes. */
  async function roundTrips(run: () => Promise<unknown>): Promise<number> {
    const port = Number(new URL(databaseUrl!).port || 5432);
    const { emit, write } = Socket.prototype;
    let trips = 0;
    let answered = true;
    Socket.prototype.emit = function (this: Socket, event: string, ...args: unknown[]) {
      if (event === 'data' && this.remotePort === port) answered = true;
      return emit.apply(this, [event, ...args] as Parameters<typeof emit>);
    } as typeof emit;
    Socket.prototype.write = function (this: Socket, ...args: unknown[]) {
      if (this.remotePort === port && answered) {
        trips++;
        answered = false;
      }
      return write.apply(this, args as Parameters<typeof write>);
    } as typeof write;
    try {
      await run();
    } finally {
      Object.assign(Socket.prototype, { emit, write });
    }
    return trips;
  }

  it('sends a repeated statement with parameters in one round trip', async () => {
    const lookup = (id: string) => handle.db.select({ id: forms.id }).from(forms).where(eq(forms.id, id));
    await lookup('first-use-prepares');
    expect(await roundTrips(() => lookup('no-such-form'))).toBe(1);
    expect(await lookup('still-no-such-form')).toEqual([]);
  });
});
