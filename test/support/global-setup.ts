/**
 * Prepares one migrated database per test run:
 * - DATABASE_URL set: a throwaway database on that server (dropped afterwards), so the suite never
 *   touches the database the URL names;
 * - otherwise: a migrated PGlite cluster dumped to a file that each test file loads (far cheaper than
 *   creating a cluster per file).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
  const dir = mkdtempSync(join(tmpdir(), 'formloom-test-'));
  const handle = await openDatabase({ pgliteThread: 'inline' });
  await handle.migrate();
  const client = (handle.db as unknown as { $client: import('@electric-sql/pglite').PGlite }).$client;
  const dump = await client.dumpDataDir('none');
  const file = join(dir, 'migrated.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await handle.close();
  project.provide('testDatabaseUrl', undefined);
  project.provide('pgliteDumpFile', file);
  return () => rmSync(dir, { recursive: true, force: true });
}
