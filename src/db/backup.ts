/**
 * Backups of the embedded database (PGlite): a consistent dump of the running server's data dir, and
 * its restore into a stopped data dir. PostgreSQL deployments back up with pg_dump (docs/operations.md, "Backups").
 *
 * Consistency: PGlite is one connection. Every drizzle transaction holds PGlite's transaction lock from
 * BEGIN to COMMIT, and every statement outside one takes it too; `dumpDataDir` takes the query lock, so
 * no statement writes while the files are copied. The dump is taken inside a transaction of our own,
 * which waits for any open transaction to end and keeps new ones out, after a CHECKPOINT, so the dumped
 * files hold every committed write and no half-done transaction (restoring replays no WAL).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { openDatabase, type Db } from './client.ts';
import { dataDirHolder, DataDirInUseError, lockDataDir } from './data-dir-lock.ts';

/** The PGlite instance under a drizzle handle, or undefined on PostgreSQL. */
function pgliteOf(db: Db): PGlite | undefined {
  const client = (db as unknown as { $client?: unknown }).$client;
  return client && typeof (client as Partial<PGlite>).dumpDataDir === 'function' ? (client as PGlite) : undefined;
}

/** Whether the database can be backed up by the server (embedded PGlite) rather than with pg_dump. */
export function supportsServerBackup(db: Db): boolean {
  return pgliteOf(db) !== undefined;
}

/**
 * A consistent dump of the embedded database as a gzip-compressed tar stream. The dump itself (a
 * snapshot in memory, about 40 MB for a small database) holds the database for a few hundred
 * milliseconds; compression happens afterwards, as the stream is read, with the database free.
 */
export async function dumpDatabase(db: Db): Promise<ReadableStream<Uint8Array>> {
  const pglite = pgliteOf(db);
  if (!pglite) throw new Error('dumpDatabase needs the embedded (PGlite) database');
  const tar = await pglite.transaction(async (tx) => {
    await tx.exec('CHECKPOINT');
    return pglite.dumpDataDir('none');
  });
  return tar.stream().pipeThrough(new CompressionStream('gzip'));
}

export class RestoreError extends Error {
  override name = 'RestoreError';
}

const GZIP_MAGIC = [0x1f, 0x8b];

/** The dump's tar bytes: a `formloom backup` file is gzip-compressed; a plain tar is accepted too. */
function readDump(file: string): Buffer<ArrayBuffer> {
  let bytes: Buffer<ArrayBuffer>;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    throw new RestoreError(`Cannot read ${file}: ${(error as Error).message}`);
  }
  if (bytes[0] !== GZIP_MAGIC[0] || bytes[1] !== GZIP_MAGIC[1]) return bytes;
  try {
    return gunzipSync(bytes); // never shared memory
  } catch (error) {
    throw new RestoreError(`${file} is not a complete gzip file: ${(error as Error).message}`);
  }
}

/** Entries that don't make a data dir "in use": the admin token the operator may have put there first. */
const KEPT_ENTRIES = new Set(['admin-token']);
const STAGING_PREFIX = '.restore-';
/** What a restore killed half-way leaves: its staging dir and its (stale) lock. */
const isRestoreLeftover = (entry: string) => entry.startsWith(STAGING_PREFIX) || entry === 'pglite.lock';

export interface RestoreOptions {
  /** The backup file (`formloom backup --out`). */
  file: string;
  /** The formloom data dir (DATA_DIR); the database goes to `<dataDir>/pglite`. */
  dataDir: string;
  /** Replace an existing database in the data dir. */
  force?: boolean;
}

/**
 * Restores a backup into a stopped data dir. Refuses a dir a running server holds, and one that
 * holds anything but an `admin-token` file unless `force`, which replaces only its database. Nothing
 * is half-done on failure: the dump is loaded and checked in a staging dir beside the target, which
 * then replaces it by rename. Returns how many migrations the backup's schema had applied.
 */
export async function restoreDataDir({ file, dataDir, force = false }: RestoreOptions): Promise<{ dataDir: string; migrations: number }> {
  const target = join(dataDir, 'pglite');
  const holder = dataDirHolder(target);
  if (holder !== undefined) throw new RestoreError(new DataDirInUseError(dataDir, holder).message);
  const existing = existsSync(dataDir) ? readdirSync(dataDir).filter((entry) => !KEPT_ENTRIES.has(entry) && !isRestoreLeftover(entry)) : [];
  if (existing.length > 0 && !force) {
    throw new RestoreError(`The data dir ${dataDir} is not empty (${existing.slice(0, 3).join(', ')}${existing.length > 3 ? ', …' : ''}); use --force to replace its database`);
  }
  const dump = readDump(file);

  mkdirSync(dataDir, { recursive: true });
  // Kept out of reach of a server starting meanwhile, and of another restore.
  let lock;
  try {
    lock = lockDataDir(target);
  } catch (error) {
    if (error instanceof DataDirInUseError) throw new RestoreError(new DataDirInUseError(dataDir, error.pid).message);
    throw error;
  }
  // Holding the lock, no other restore runs here: staging dirs of killed ones can go.
  for (const entry of readdirSync(dataDir)) if (entry.startsWith(STAGING_PREFIX)) rmSync(join(dataDir, entry), { recursive: true, force: true });
  const staging = join(dataDir, `${STAGING_PREFIX}${randomBytes(6).toString('hex')}`);
  try {
    let migrations: number;
    const handle = await openDatabase({ dataDir: join(staging, 'pglite'), loadDataDir: new Blob([dump]) }).catch((error: unknown) => {
      throw new RestoreError(`${file} is not a formloom backup (PGlite could not load it: ${(error as Error).message})`);
    });
    try {
      const rows = await handle.db.execute<{ count: number }>(sql`select count(*)::int as count from drizzle.__drizzle_migrations`).catch(() => {
        throw new RestoreError(`${file} is a database dump, but not of formloom (no migration history)`);
      });
      migrations = (rows as { rows: { count: number }[] }).rows[0]!.count;
    } finally {
      await handle.close();
    }
    // Swap in: the old database (with --force) is moved aside first and removed only once the new one is in place.
    const aside = join(staging, 'replaced');
    if (existsSync(target)) renameSync(target, aside);
    try {
      renameSync(join(staging, 'pglite'), target);
    } catch (error) {
      if (existsSync(aside)) renameSync(aside, target);
      throw error;
    }
    return { dataDir, migrations };
  } finally {
    rmSync(staging, { recursive: true, force: true });
    lock.release();
  }
}
