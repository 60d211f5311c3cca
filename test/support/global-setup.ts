/**
 * Prepares one migrated database per test run:
 * - DATABASE_URL set: a throwaway database on that server (dropped afterwards), so the suite never
 *   touches the database the URL names;
 * - otherwise: a migrated PGlite cluster dumped to a file that each test file loads (far cheaper than
 *   creating a cluster per file). The dump is kept in node_modules/.cache/formloom/ under a hash of what
 *   it is made from (the migrations, PGlite's version, its settings, this file): a fresh cluster and the
 *   migrations cost several seconds at the start of every run, before any test file can start.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/client.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabaseUrl: string | undefined;
    pgliteDumpFile: string | undefined;
  }
}

export default async function setup(project: TestProject) {
  const { databaseUrl } = loadConfig();
  if (databaseUrl) {
    const { default: postgres } = await import('postgres');
    const name = `formloom_test_${randomBytes(6).toString('hex')}`;
    const admin = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    const url = new URL(databaseUrl);
    url.pathname = `/${name}`;
    const handle = await openDatabase({ databaseUrl: url.toString(), maxConnections: 1 });
    await handle.migrate();
    await handle.close();
    project.provide('testDatabaseUrl', url.toString());
    project.provide('pgliteDumpFile', undefined);
    return async () => {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    };
  }
  const file = join(CACHE_DIR, `migrated-${dumpKey()}.tar`);
  if (!existsSync(file)) {
    const handle = await openDatabase({ pgliteThread: 'inline' });
    await handle.migrate();
    const client = (handle.db as unknown as { $client: import('@electric-sql/pglite').PGlite }).$client;
    const dump = await client.dumpDataDir('none');
    await handle.close();
    mkdirSync(CACHE_DIR, { recursive: true });
    // Written aside and renamed: another run may be reading or writing the same file.
    const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, file);
    for (const name of readdirSync(CACHE_DIR)) {
      if (name.startsWith('migrated-') && name.endsWith('.tar') && join(CACHE_DIR, name) !== file) rmSync(join(CACHE_DIR, name), { force: true });
    }
  }
  project.provide('testDatabaseUrl', undefined);
  project.provide('pgliteDumpFile', file);
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CACHE_DIR = join(ROOT, 'node_modules', '.cache', 'formloom');

/** A hash of everything the migrated dump depends on. */
function dumpKey(): string {
  const hash = createHash('sha256');
  const add = (path: string) => hash.update(path).update(readFileSync(join(ROOT, path)));
  const migrations = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { withFileTypes: true })
      .flatMap((entry) => (entry.isDirectory() ? migrations(join(dir, entry.name)) : [join(dir, entry.name)]))
      .sort();
  for (const path of migrations('drizzle')) add(path);
  for (const path of ['node_modules/@electric-sql/pglite/package.json', 'src/db/pglite-settings.ts', 'src/db/client.ts', 'test/support/global-setup.ts']) add(path);
  return hash.digest('hex').slice(0, 16);
}
