/**
 * A pool connection that PostgreSQL closes in the middle of a transaction or of a reserved session (a
 * restart, a failover, `pg_terminate_backend`) fails what runs on it with CONNECTION_CLOSED and leaves
 * the pool working. Unpatched postgres.js 3.4.9 instead wrote the next statement to the closed socket
 * from a timer: an uncaught TypeError that ends the process, and a statement that never settles
 * (porsager/postgres#1208; patches/postgres+3.4.9.patch). Vitest fails a file on an uncaught error.
 */
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/db/client.ts';
import { runExclusively } from '../../src/db/locks.ts';
import { rowsOf } from '../../src/db/rows.ts';
import { LISTING_BATCH_SIZE } from '../../src/responses/responses.service.ts';
import { appWith, createTenant } from '../support/helpers.ts';
import { bulkInsertResponses, createForm, createLead } from '../support/factories.ts';
import { readToEnd } from '../support/streams.ts';

const databaseUrl = inject('testDatabaseUrl');

describe.skipIf(!databaseUrl)('a PostgreSQL connection closed under a transaction or a reserved session', () => {
  let handle: DatabaseHandle;
  let killer: postgres.Sql;
  beforeAll(async () => {
    handle = await openDatabase({ databaseUrl: databaseUrl!, maxConnections: 2 });
    killer = postgres(databaseUrl!, { max: 1, onnotice: () => {} });
  });
  afterAll(async () => {
    await handle?.close();
    await killer?.end();
  });

  const terminate = async (pid: number) => {
    const [row] = await killer<{ done: boolean }[]>`select pg_terminate_backend(${pid}) as done`;
    expect(row?.done).toBe(true);
    // The backend's close reaches the client's socket a moment later.
    await new Promise((resolve) => setTimeout(resolve, 200));
  };
  const backendPid = async (db: DatabaseHandle['db']) => Number(rowsOf<{ pid: number }>(await db.execute(sql`select pg_backend_pid() as pid`))[0]!.pid);
  const poolStillAnswers = async () => {
    for (let i = 0; i < 4; i++) expect(await handle.db.execute(sql`select ${i}::int as n`)).toEqual([{ n: i }]);
  };

  it('a statement after the transaction lost its connection fails with CONNECTION_CLOSED, and the pool goes on', async () => {
    // The transaction fails as soon as its connection closes; its callback runs on to its end.
    let statementAfter: (value: { result: Promise<unknown> }) => void;
    const statement = new Promise<{ result: Promise<unknown> }>((resolve) => (statementAfter = resolve));
    const outcome = await handle.db
      .transaction(async (tx) => {
        await terminate(await backendPid(tx));
        const after = tx.execute(sql`select 1`);
        statementAfter({ result: after });
        await after;
      })
      .then(
        () => 'committed',
        (error: { code?: string }) => error.code,
      );
    expect(outcome).toBe('CONNECTION_CLOSED');
    await expect((await statement).result).rejects.toMatchObject({ cause: { code: 'CONNECTION_CLOSED' } });
    await poolStillAnswers();
  });

  // A form's export reads newest first; the environment's reads each batch forwards (responses.service.ts).
  it.each([
    ['a form', true],
    ['the environment', false],
  ])("%s's streamed export whose connection closes mid-way is cut, never completed, and the pool goes on", async (_, byForm) => {
    // A pool of one connection, so the stream's statements run on the backend terminated here.
    const single = await openDatabase({ databaseUrl: databaseUrl!, maxConnections: 1 });
    try {
      const tenant = await createTenant(single.db);
      const form = await createForm(single.db, tenant.environmentId);
      const lead = await createLead(single.db, tenant.environmentId);
      const count = 2 * LISTING_BATCH_SIZE + 100; // two batches after the first page, each ~10 MB: well past what the stream queues (256 KB)
      await bulkInsertResponses(single.db, { environmentId: tenant.environmentId, formIds: [form.id], count, leadId: lead.id });
      // Answers of 10 KB: a batch's statement takes long enough that the backend is ended in the middle of it.
      await single.db.execute(sql`update responses set data = jsonb_build_array(jsonb_build_object('questionId', 'q', 'response', repeat('x', 10000))) where form_id = ${form.id}`);
      const pid = await backendPid(single.db);
      const app = appWith(single.db);
      // app.fetch: the tests' app.request reads a copy of the body whole before answering.
      const res = await app.fetch(
        new Request(`http://localhost/api/v1/responses/export?format=ndjson&returnPartials=true${byForm ? `&formId=${form.id}` : ''}`, { headers: { 'x-api-key': tenant.apiKey } }),
      );
      expect(res.status).toBe(200);
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      let text = '';
      // What reading the body to its end came to: undefined when it completed, else the failure (taken
      // at once, since the body may be cut while the backend is still being ended below).
      // Each response ~10 KB: an export that went on past all of them fails instead of running on.
      const outcome = readToEnd(reader, count * 16_384, (chunk) => (text += decoder.decode(chunk, { stream: true }))).then(
        () => undefined,
        (error: unknown) => error,
      );
      // The backend is ended while one of the stream's batches runs on it (ended between two
      // statements, the next one would just run on a new connection).
      for (let polls = 0; ; polls++) {
        const [row] = await killer<{ state: string; query: string }[]>`select state, query from pg_stat_activity where pid = ${pid}`;
        if (row?.state === 'active' && row.query.includes('"responses"')) break;
        expect(polls, 'a batch of the stream ran on the backend').toBeLessThan(10_000);
      }
      await terminate(pid);
      expect(await outcome, 'the body was cut').toBeInstanceOf(Error);
      expect(text.split('\n').length - 1).toBeLessThan(count);
      // postgres.js hands the terminated backend's late FATAL (57P01, which the API answers 503) to the
      // next statement at most (unpatched too); the one after runs on a new connection.
      const select = () =>
        single.db.execute(sql`select 1::int as n`).then(
          (rows) => rows,
          (error: { cause?: { code?: string } }) => error.cause?.code,
        );
      expect([[{ n: 1 }], '57P01']).toContainEqual(await select());
      expect(await select()).toEqual([{ n: 1 }]);
    } finally {
      await single.close();
    }
  });

  it('a job whose lock connection closes while it runs ends with an error; the lock and the pool are usable again', async () => {
    const job = `connection-loss-${process.pid}-${Date.now()}`;
    const run = runExclusively(handle, job, async () => {
      const [holder] = await killer<{ pid: number }[]>`select pid from pg_locks
        where locktype = 'advisory' and classid = ${0x666c6d} and objid = hashtext(${job})::oid and granted`;
      expect(holder).toBeDefined();
      await terminate(holder!.pid);
      return 'done';
    });
    await expect(run).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
    await poolStillAnswers();
    // The lock went with its session: the job can run again at once.
    await expect(runExclusively(handle, job, async () => 'again')).resolves.toEqual({ ran: true, value: 'again' });
    await poolStillAnswers();
  });

  it('a job waiting for a connection gets the one that reconnects after PostgreSQL closed it (a queued reserve is not lost)', async () => {
    // One connection, held by a reservation; the job's reservation queues behind it. Unpatched, the
    // pool handed the queued reservation to the closed connection as its first query when it
    // reconnected, which a reservation never runs: the job waited forever and the connection was lost
    // to the pool (patches/postgres+3.4.9.patch).
    const single = await openDatabase({ databaseUrl: databaseUrl!, maxConnections: 1 });
    try {
      const client = (single.db as unknown as { $client: postgres.Sql }).$client;
      const held = await client.reserve();
      const [row] = await held<{ pid: number }[]>`select pg_backend_pid() as pid`;
      const job = runExclusively(single, `queued-reserve-${process.pid}-${Date.now()}`, async () => 'ran');
      await terminate(row!.pid);
      const outcome = await Promise.race([job, new Promise((resolve) => setTimeout(() => resolve('still waiting after 5 s'), 5000))]);
      expect(outcome).toEqual({ ran: true, value: 'ran' });
      held.release(); // a no-op: the pool owns the closed connection again
      // The pool's one connection is free again: a statement and another job both run.
      expect(await single.db.execute(sql`select 1 as n`)).toEqual([{ n: 1 }]);
      await expect(runExclusively(single, 'queued-reserve-again', async () => 'again')).resolves.toEqual({ ran: true, value: 'again' });
    } finally {
      await single.close();
    }
  });
});
