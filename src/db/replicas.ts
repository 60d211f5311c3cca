/**
 * Reads that tolerate a little lag (the responses listings, export, the environment stream, summaries)
 * served by streaming replicas (DATABASE_REPLICA_URLS) when they are close enough behind the primary.
 *
 * - Lag, checked every CHECK_INTERVAL_MS (never per read), from the WAL positions PostgreSQL reports,
 *   as PostgreSQL's own `pg_stat_replication.replay_lag` is: each check reads the primary's position
 *   (`pg_current_wal_lsn()`) and keeps it with the time, then each replica's replay position
 *   (`pg_last_wal_replay_lsn()`). A replica that has replayed the primary's latest position is not
 *   behind at all, however long ago the last transaction was (an idle database); else it is as far
 *   behind as the newest kept position it has replayed is old (a conservative figure, to within one
 *   check interval). That grows while replay is paused, or while its WAL does not arrive (compared with
 *   the primary, not with what the replica itself received). The age of the last replayed transaction
 *   (`pg_last_xact_replay_timestamp()`) would not do: a primary writes WAL without transactions too
 *   (pages pruned by readers), so a replica that keeps up looked seconds behind after a quiet moment.
 * - A replica is used while its last check (no older than STALE_AFTER_MS) found it in recovery and at
 *   most `maxLagMs` behind. Unreachable, too far behind, no longer in recovery (promoted: it is a
 *   replica of nothing), or its check failed or is late: skipped, and the read goes to the primary.
 * - A read that fails on a replica because of the replica (unreachable, or cancelled by a conflict with
 *   recovery) runs again on the primary, and the replica is skipped until its next good check. So does
 *   a read whose answer says the replica has not seen a recent write yet (`retryOnPrimary`, e.g. a
 *   form created a moment ago not found).
 * - Freshness: a response committed on the primary reaches a listing within `maxLagMs` plus about one
 *   check interval, since a replica further behind is skipped by then.
 *
 * Without replicas, `primaryReads(db)` runs every read on the primary handle.
 */
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { isDatabaseUnavailable } from './availability.ts';
import { openDatabase, type Database, type DatabaseHandle, type Db, type OpenOptions } from './client.ts';
import { rowsOf } from './rows.ts';

export interface LagTolerantReads {
  /** The handle for a read (several statements may follow): a fresh replica, else the primary. */
  pick(): Db;
  /**
   * Runs `read` on a fresh replica, else on the primary; on the primary again when the replica fails
   * it, or when `retryOnPrimary(result)` says the replica's answer may be stale.
   */
  run<T>(read: (db: Db) => Promise<T>, retryOnPrimary?: (result: T) => boolean): Promise<T>;
  /** Each replica's state at its last check (none without replicas). */
  status?(): ReplicaStatus[];
}

/** Every read on `db` (no replicas configured). */
export function primaryReads(db: Db): LagTolerantReads {
  return { pick: () => db, run: (read) => read(db) };
}

/** How often each replica's lag is checked. */
export const CHECK_INTERVAL_MS = 250;
/** A good check vouches for a replica this long: past it (the next checks hang), it is skipped. */
const STALE_AFTER_MS = 4 * CHECK_INTERVAL_MS;
/** The primary's positions are kept this long: a replica behind all of them is "at least this" behind. */
const POSITIONS_KEPT_MS = 60_000;

/** A pg_lsn's text (`16/B374D848`) as a number. */
export function lsnValue(text: string): bigint {
  const [high = '0', low = '0'] = text.split('/');
  return (BigInt(`0x${high}`) << 32n) | BigInt(`0x${low}`);
}

/** The primary's WAL positions over time, oldest first; how far behind a replay position is. */
export class WalPositions {
  private readonly kept: { at: number; lsn: bigint }[] = [];

  record(lsn: bigint, at = Date.now()): void {
    this.kept.push({ at, lsn });
    while (this.kept.length > 1 && this.kept[0]!.at < at - POSITIONS_KEPT_MS) this.kept.shift();
  }

  /**
   * Milliseconds a replica that has replayed up to `replayed` is behind: 0 once it has the latest
   * position; else the age of the newest position it has; Infinity when it has none of them.
   */
  lagOf(replayed: bigint, now = Date.now()): number {
    const newest = this.kept.at(-1);
    if (!newest || replayed >= newest.lsn) return newest ? 0 : Number.POSITIVE_INFINITY;
    for (let i = this.kept.length - 2; i >= 0; i--) if (this.kept[i]!.lsn <= replayed) return now - this.kept[i]!.at;
    return Number.POSITIVE_INFINITY;
  }
}

/** SQLSTATE 40001 on a standby: "canceling statement due to conflict with recovery". */
const RECOVERY_CONFLICT = '40001';

export interface ReplicaStatus {
  /** host:port, never the URL (it may hold a password). */
  server: string;
  usable: boolean;
  /** Replay lag at the last check, in milliseconds (undefined: unknown). */
  lagMs: number | undefined;
  /** Why it is skipped, when it is. */
  reason: string | undefined;
}

interface Replica {
  server: string;
  handle: DatabaseHandle;
  usableUntil: number;
  lagMs: number | undefined;
  reason: string | undefined;
}

export interface ReplicaReads extends LagTolerantReads {
  status(): ReplicaStatus[];
  close(): Promise<void>;
}

export interface ReplicaOptions extends Pick<OpenOptions, 'statementTimeoutMs' | 'connectTimeoutMs' | 'transactionPooler' | 'maxConnections'> {
  urls: string[];
  maxLagMs: number;
  logger: Logger;
}

/** host:port of each host of a postgres:// URL, for logs. */
export function serverOf(url: string): string {
  const hosts = /^postgres(?:ql)?:\/\/(?:[^@/]*@)?([^/?#]*)/.exec(url)?.[1] ?? '?';
  return hosts || 'localhost';
}

/**
 * Opens a pool on each replica and starts checking them. `primary` is the primary's handle (its
 * pool, through the pooler if there is one): the fallback of every read, and where the WAL position
 * the replicas are compared with is read.
 */
export async function openReplicaReads(primary: Database, options: ReplicaOptions): Promise<ReplicaReads> {
  const replicas: Replica[] = [];
  for (const url of options.urls) {
    const handle = await openDatabase({
      databaseUrl: url,
      maxConnections: options.maxConnections,
      statementTimeoutMs: options.statementTimeoutMs,
      connectTimeoutMs: options.connectTimeoutMs,
      transactionPooler: options.transactionPooler,
    });
    replicas.push({ server: serverOf(url), handle, usableUntil: 0, lagMs: undefined, reason: 'not checked yet' });
  }
  const { logger, maxLagMs } = options;

  function mark(replica: Replica, usable: boolean, lagMs: number | undefined, reason: string | undefined) {
    const wasUsable = replica.reason === undefined;
    replica.lagMs = lagMs;
    replica.reason = usable ? undefined : reason;
    replica.usableUntil = usable ? Date.now() + STALE_AFTER_MS : 0;
    if (usable && !wasUsable) logger.info({ replica: replica.server, lagMs }, 'replica in use for lag-tolerant reads');
    if (!usable && wasUsable) logger.warn({ replica: replica.server, lagMs, reason }, 'replica skipped: lag-tolerant reads go to the primary');
  }

  const positions = new WalPositions();

  async function checkOne(replica: Replica) {
    try {
      const [row] = rowsOf<{ recovery: boolean; replayed: string | null }>(
        await replica.handle.db.execute(sql`select pg_is_in_recovery() as "recovery", pg_last_wal_replay_lsn()::text as "replayed"`),
      );
      if (!row?.recovery || row.replayed === null) return mark(replica, false, undefined, 'not in recovery (promoted, or not a replica)');
      const lagMs = positions.lagOf(lsnValue(row.replayed));
      mark(replica, lagMs <= maxLagMs, lagMs, `${lagMs === Number.POSITIVE_INFINITY ? 'over a minute' : `${Math.round(lagMs)} ms`} behind (REPLICA_MAX_LAG_MS ${maxLagMs})`);
    } catch (error) {
      mark(replica, false, undefined, `check failed: ${(error as Error).message}`);
    }
  }

  async function checkAll() {
    try {
      const [row] = rowsOf<{ lsn: string }>(await primary.execute(sql`select pg_current_wal_lsn()::text as "lsn"`));
      positions.record(lsnValue(row!.lsn));
    } catch (error) {
      // Without the primary's position no lag can be judged (and the primary is failing reads anyway).
      for (const replica of replicas) mark(replica, false, undefined, `the primary's WAL position is unknown: ${(error as Error).message}`);
      return;
    }
    await Promise.all(replicas.map((replica) => checkOne(replica)));
  }

  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  // One round at a time: a round that hangs (a server that stopped answering) holds the next back, and
  // the replicas it vouched for are skipped once STALE_AFTER_MS has passed.
  async function loop() {
    const started = Date.now();
    await checkAll();
    if (!closed) timer = setTimeout(() => void loop(), Math.max(0, CHECK_INTERVAL_MS - (Date.now() - started))).unref();
  }
  // The first round runs in the background: until it vouches for a replica, reads go to the primary.
  void loop();

  let next = 0;
  function freshReplica(): Replica | undefined {
    const now = Date.now();
    for (let i = 0; i < replicas.length; i++) {
      const replica = replicas[(next + i) % replicas.length]!;
      if (replica.usableUntil > now) {
        next = (next + i + 1) % replicas.length;
        return replica;
      }
    }
    return undefined;
  }

  return {
    pick: () => freshReplica()?.handle.db ?? primary,
    async run<T>(read: (db: Db) => Promise<T>, retryOnPrimary?: (result: T) => boolean): Promise<T> {
      const replica = freshReplica();
      if (!replica) return read(primary);
      let result: T;
      try {
        result = await read(replica.handle.db);
      } catch (error) {
        const code = (error as { code?: unknown; cause?: { code?: unknown } }).cause?.code ?? (error as { code?: unknown }).code;
        if (!isDatabaseUnavailable(error) && code !== RECOVERY_CONFLICT) throw error;
        mark(replica, false, replica.lagMs, `a read failed: ${(error as Error).message}`);
        return read(primary);
      }
      return retryOnPrimary?.(result) ? read(primary) : result;
    },
    status: () =>
      replicas.map((replica) => ({
        server: replica.server,
        usable: replica.usableUntil > Date.now(),
        lagMs: replica.lagMs,
        reason: replica.reason ?? (replica.usableUntil > Date.now() ? undefined : 'check late'),
      })),
    async close() {
      closed = true;
      clearTimeout(timer);
      await Promise.all(replicas.map((replica) => replica.handle.close()));
    },
  };
}
