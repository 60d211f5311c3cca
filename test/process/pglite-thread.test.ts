/**
 * The embedded database on its worker thread (src/db/pglite-thread.ts): transactions keep the one
 * connection to themselves, errors keep PostgreSQL's fields, notifications and dumps cross the thread,
 * and the worker neither outlives close() nor keeps a process alive.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGliteThread } from '../../src/db/pglite-thread.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
let thread: PGliteThread;

beforeAll(async () => {
  thread = await PGliteThread.create(undefined);
  await thread.exec('create table items (id int primary key, name text not null)');
});
afterAll(() => thread.close());

describe('PGliteThread', () => {
  it('runs a statement sent during a transaction after it, never inside it', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let inserted!: () => void;
    const insertedYet = new Promise<void>((resolve) => (inserted = resolve));
    const transaction = thread
      .transaction(async (tx) => {
        await tx.query('insert into items values (1, $1)', ['uncommitted']);
        inserted();
        await gate;
        throw new Error('roll back');
      })
      .catch((error: Error) => error.message);
    await insertedYet;
    // Sent while the transaction holds the connection: inside it, it would count the uncommitted row.
    const outside = thread.query<{ n: number }>('select count(*)::int as n from items');
    release();
    expect(await transaction).toBe('roll back');
    expect((await outside).rows).toEqual([{ n: 0 }]);
  });

  it('keeps transactions whole when many run at once', async () => {
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        thread.transaction(async (tx) => {
          const { rows } = await tx.query<{ n: number }>('select count(*)::int as n from items');
          await tx.query('insert into items values ($1, $2)', [100 + i, `seen ${rows[0]!.n}`]);
        }),
      ),
    );
    const { rows } = await thread.query<{ name: string }>('select name from items where id >= 100 order by name');
    // Each transaction saw the ones committed before it: counts 0..19, each once.
    expect(rows.map((row) => row.name).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `seen ${i}`).sort());
  });

  it("rejects with PostgreSQL's fields (code, constraint, detail), and the connection stays usable", async () => {
    await thread.query('insert into items values (2, $1)', ['first']);
    const error = (await thread.query('insert into items values (2, $1)', ['again']).catch((e: unknown) => e)) as Record<string, unknown>;
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ code: '23505', constraint: 'items_pkey', detail: expect.stringContaining('(id)=(2)') });
    const failedTransaction = await thread
      .transaction(async (tx) => {
        await tx.query('insert into items values (3, $1)', ['in a failed transaction']);
        await tx.query('insert into items values (2, $1)', ['duplicate']);
      })
      .catch((e: { code?: string }) => e.code);
    expect(failedTransaction).toBe('23505');
    expect((await thread.query('select * from items where id = 3')).rows).toEqual([]);
  });

  it('keeps result types and row modes (arrays, objects, json, raw timestamps as text)', async () => {
    const asArrays = await thread.query(`select 1::int as a, '{"b":[1]}'::jsonb as j`, [], { rowMode: 'array' });
    expect(asArrays.rows).toEqual([[1, { b: [1] }]]);
    const timestamp = await thread.query<{ t: unknown }>(`select '2026-01-02T03:04:05Z'::timestamptz as t`, [], {
      parsers: { 1184: (value: string) => value },
    });
    expect(typeof timestamp.rows[0]!.t).toBe('string');
  });

  it('delivers notifications until unlistened', async () => {
    const received: string[] = [];
    const unlisten = await thread.listen('feed', (payload) => received.push(payload));
    await thread.query(`select pg_notify('feed', 'one')`);
    await expect.poll(() => received).toEqual(['one']);
    await unlisten();
    await thread.query(`select pg_notify('feed', 'two')`);
    await thread.query('select 1');
    expect(received).toEqual(['one']);
  });

  it('dumps the data dir into a tar another instance loads', async () => {
    const dump = await thread.dumpDataDir('none');
    const copy = await PGliteThread.create(undefined, { loadDataDir: dump });
    try {
      expect((await copy.query<{ name: string }>('select name from items where id = 2')).rows).toEqual([{ name: 'first' }]);
    } finally {
      await copy.close();
    }
  });

  it('refuses statements once closed', async () => {
    const closing = await PGliteThread.create(undefined);
    await closing.close();
    await expect(closing.query('select 1')).rejects.toThrow('PGlite is closed');
  });

  it('does not keep a process alive: a script that never closes its database still exits', () => {
    const script = `
      const { PGliteThread } = await import(${JSON.stringify(new URL('../../src/db/pglite-thread.ts', import.meta.url).href)});
      const db = await PGliteThread.create(undefined);
      const { rows } = await db.query('select 41 + 1 as n');
      console.log(rows[0].n);
    `;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe('42');
    expect(run.status).toBe(0);
  });
});
