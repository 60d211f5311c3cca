/**
 * A lock file beside an embedded (PGlite) data dir, `<dir>.lock`, holding the owning process's id.
 * Two processes on one PGlite data dir would corrupt it, and `formloom restore` must not replace a
 * dir a server is using, so the server holds the lock while the database is open and restore holds it
 * while it works. PGlite's own postmaster.pid can't serve: its pid is the WebAssembly runtime's, not
 * the process's. A lock whose process is gone (a crash, `kill -9`) is stale and taken over.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { withoutTrailingSlashes } from '../paths.ts';

export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(`The data dir ${dataDir} is in use by process ${pid} (a running formloom server?); stop it first`);
    this.name = 'DataDirInUseError';
  }
}

const lockFileOf = (dataDir: string) => `${withoutTrailingSlashes(dataDir)}.lock`;

interface LockRecord {
  pid: number;
  host: string;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readLock(file: string): LockRecord | undefined {
  try {
    const record = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockRecord>;
    return typeof record.pid === 'number' ? { pid: record.pid, host: String(record.host ?? '') } : undefined;
  } catch {
    return undefined; // missing, or half-written by a process that died: not a holder
  }
}

/** The live process (other than this one) holding `dataDir`, if any. */
export function dataDirHolder(dataDir: string): number | undefined {
  const record = readLock(lockFileOf(dataDir));
  if (!record || record.pid === process.pid) return undefined;
  // A lock from another machine (a shared volume) can't be checked: count it as held.
  if (record.host !== hostname() || isAlive(record.pid)) return record.pid;
  return undefined;
}

/** Takes the lock on `dataDir` for this process; throws DataDirInUseError when another live process holds it. */
export function lockDataDir(dataDir: string): { release(): void } {
  const file = lockFileOf(dataDir);
  const content = JSON.stringify({ pid: process.pid, host: hostname() } satisfies LockRecord);
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(file, content, { flag: 'wx', mode: 0o600 });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 2) throw error;
      const holder = dataDirHolder(dataDir);
      if (holder !== undefined) throw new DataDirInUseError(dataDir, holder);
      rmSync(file, { force: true }); // stale, or already ours
    }
  }
  return {
    release() {
      if (readLock(file)?.pid === process.pid) rmSync(file, { force: true });
    },
  };
}
