/**
 * Read replicas (src/db/replicas.ts): how far behind a replica is, judged from the primary's WAL
 * positions over time; and, against the suite's PostgreSQL, which is no replica, that a server not in
 * recovery or not reachable is never used: every read goes to the primary. A real streaming replica is
 * in test/process/db-cluster.test.ts.
 */
import { sql } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/db/client.ts';
import { CHECK_INTERVAL_MS, lsnValue, openReplicaReads, primaryReads, serverOf, WalPositions } from '../../src/db/replicas.ts';
import { freePort } from '../support/server-process.ts';

describe('replica lag from WAL positions', () => {
  it('reads pg_lsn text as a number', () => {
    expect(lsnValue('0/0')).toBe(0n);
    expect(lsnValue('0/3001D18')).toBe(0x3001d18n);
    expect(lsnValue('16/B374D848')).toBe((0x16n << 32n) | 0xb374d848n);
    expect(lsnValue('1/0') > lsnValue('0/FFFFFFFF')).toBe(true);
  });

  it('is 0 once a replica has the latest position, however old; else the age of the newest position it has', () => {
    const positions = new WalPositions();
    expect(positions.lagOf(100n, 1_000)).toBe(Number.POSITIVE_INFINITY); // nothing known yet
    positions.record(100n, 1_000);
    expect(positions.lagOf(100n, 60_000)).toBe(0); // an idle primary: caught up, not a minute behind
    positions.record(150n, 1_250);
    positions.record(150n, 1_500);
    positions.record(200n, 1_750);
    expect(positions.lagOf(200n, 1_800)).toBe(0);
    expect(positions.lagOf(199n, 1_800)).toBe(300); // has 150 (at 1,500), not 200
    expect(positions.lagOf(120n, 1_800)).toBe(800); // has 100 (at 1,000)
    expect(positions.lagOf(99n, 1_800)).toBe(Number.POSITIVE_INFINITY); // behind everything kept
  });

  it('forgets positions after a minute', () => {
    const positions = new WalPositions();
    positions.record(100n, 0);
    positions.record(200n, 30_000);
    positions.record(300n, 70_000);
    expect(positions.lagOf(150n, 70_000)).toBe(Number.POSITIVE_INFINITY);
    expect(positions.lagOf(250n, 70_000)).toBe(40_000);
  });

  it('names a server by its hosts and ports, never its password', () => {
    expect(serverOf('postgres://u:secret@db1:5432,db2:5433/x?target_session_attrs=read-write')).toBe('db1:5432,db2:5433');
    expect(serverOf('postgresql://replica.internal/x')).toBe('replica.internal');
  });
});

const databaseUrl = inject('testDatabaseUrl');

describe.skipIf(!databaseUrl)('replicas that cannot serve reads', () => {
  let primary: DatabaseHandle;
  beforeAll(async () => {
    primary = await openDatabase({ databaseUrl: databaseUrl!, maxConnections: 2 });
  });
  afterAll(() => primary?.close());

  const serverPort = (db: Parameters<Parameters<ReturnType<typeof primaryReads>['run']>[0]>[0]) =>
    db.execute(sql`select inet_server_port() as port, pg_is_in_recovery() as recovery`);

  it('skips a server that is not in recovery, and one that is unreachable: every read goes to the primary', async () => {
    const unreachable = `postgres://postgres@127.0.0.1:${await freePort()}/postgres`;
    const logger = pino({ level: 'silent' });
    // The suite's server itself as a "replica": reachable, but it is the primary, not a replica of it.
    const reads = await openReplicaReads(primary.db, { urls: [databaseUrl!, unreachable], maxLagMs: 1_000, connectTimeoutMs: 500, logger });
    try {
      await new Promise((resolve) => setTimeout(resolve, 2 * CHECK_INTERVAL_MS));
      expect(reads.status()).toEqual([
        expect.objectContaining({ usable: false, reason: expect.stringContaining('not in recovery') }),
        expect.objectContaining({ usable: false, reason: expect.stringContaining('check failed') }),
      ]);
      expect(reads.pick()).toBe(primary.db);
      let ranOn: unknown;
      await reads.run(async (db) => void (ranOn = db));
      expect(ranOn).toBe(primary.db);
      expect(await reads.run(serverPort)).toEqual(await serverPort(primary.db));
    } finally {
      await reads.close();
    }
  });

  it('without replicas, reads run on the handle given', async () => {
    const reads = primaryReads(primary.db);
    expect(reads.pick()).toBe(primary.db);
    expect(await reads.run(async (db) => db === primary.db)).toBe(true);
  });
});
