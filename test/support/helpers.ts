/** Shared test fixtures: a real database per test file, the app on it, and factories. */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { inject } from 'vitest';
import { checkAgainstOpenApi } from './openapi-check.ts';
import { createApp } from '../../src/app.ts';
import { createApiKey } from '../../src/auth/auth.service.ts';
import { readTemplateExample } from '../../src/bootstrap.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { openDatabase, type Database, type DatabaseHandle, type OpenOptions } from '../../src/db/client.ts';
import { createEnvironment } from '../../src/environments/environments.service.ts';
import { importForm } from '../../src/forms/forms.service.ts';
import { createId } from '../../src/ids.ts';
import { onFileEnd } from './cleanup.ts';
import type { Theme } from '../../src/db/json-columns.ts';
import { preloadedFilesystem, readTar } from './pglite-preload.ts';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';

/**
 * Where the test files' PGlite runs. The server runs it on a worker thread (src/db/pglite-thread.ts);
 * the suite's in-process files run it on their own thread by default: their statements are many, small
 * and sequential, where a thread hop per statement made four API test files take 1.1–1.8× as long.
 * The worker's own behaviour is tested in test/process/pglite-thread.test.ts and through every test of the real
 * server process; FORMLOOM_TEST_PGLITE_THREAD=worker runs the whole suite on worker threads.
 */
const testPgliteThread = process.env.FORMLOOM_TEST_PGLITE_THREAD === 'worker' ? 'worker' : 'inline';

/** Opens this file's database: the run's PostgreSQL database, or a PGlite loaded from the migrated dump. */
export async function openTestDatabase(options: Pick<OpenOptions, 'logger'> = {}): Promise<DatabaseHandle> {
  const databaseUrl = inject('testDatabaseUrl');
  if (databaseUrl) return openDatabase({ databaseUrl, maxConnections: 4, ...options });
  if (testPgliteThread === 'inline') return openDatabase({ pgliteFs: preloadedFilesystem(migratedDump().parsed), pgliteThread: 'inline', ...options });
  return openDatabase({ loadDataDir: migratedDump().blob, pgliteThread: 'worker', ...options });
}

/** The migrated dump, read and parsed once per worker: the in-process tier's workers run many files. */
let dump: { file: string; blob: Blob; parsed: ReturnType<typeof readTar> } | undefined;
function migratedDump() {
  const file = inject('pgliteDumpFile')!;
  if (dump?.file !== file) {
    const bytes = readFileSync(file);
    dump = { file, blob: new Blob([bytes]), parsed: readTar(bytes) };
  }
  return dump;
}

/**
 * A database no other test file writes to, for tests that count rows: on PostgreSQL a private
 * database created and migrated for the file (the run's shared one sees every file's writes), on
 * PGlite an instance of the file's own. Dropped (closed) after the file's tests.
 */
export async function setupIsolatedTestApp(overrides: Partial<Config> = {}): Promise<TestContext> {
  const shared = inject('testDatabaseUrl');
  if (!shared) {
    const handle = await openTestDatabase();
    onFileEnd(() => handle.close());
    return { handle, db: handle.db, app: appWith(handle.db, overrides) };
  }
  const { default: postgres } = await import('postgres');
  const name = `formloom_isolated_${randomBytes(6).toString('hex')}`;
  const admin = postgres(shared, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(shared);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ databaseUrl: url.toString(), maxConnections: 4 });
  await handle.migrate();
  onFileEnd(async () => {
    await handle.close();
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  });
  return { handle, db: handle.db, app: appWith(handle.db, overrides), databaseUrl: url.toString() };
}

/**
 * The defaults of an empty environment, with overrides; the data directory (uploaded files) is the
 * test file's own temporary one, removed when the file ends, never the checkout's `.data/`.
 */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return { ...loadConfig({}), dataDir: fileDataDir(), ...overrides };
}

let dataDir: string | undefined;
function fileDataDir(): string {
  if (dataDir === undefined) {
    const created = mkdtempSync(join(tmpdir(), 'formloom-test-data-'));
    dataDir = created;
    onFileEnd(() => {
      dataDir = undefined;
      rmSync(created, { recursive: true, force: true });
    });
  }
  return dataDir;
}

export interface TestContext {
  handle: DatabaseHandle;
  db: Database;
  app: ReturnType<typeof createApp>;
  /** PostgreSQL only, for an isolated database: its URL (e.g. for pg_dump). */
  databaseUrl?: string;
}

/** The app on `db` with the test defaults and some settings changed (e.g. a second app on a file's database). */
export function appWith(db: Database, overrides: Partial<Config> = {}): TestContext['app'] {
  return checkedApp(createApp({ config: testConfig(overrides), db, logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }), adminToken: ADMIN_TOKEN }));
}

/**
 * The app with every /api/v1 answer checked against /api/v1/openapi.json (test/support/openapi-check.ts): an
 * undocumented status, media type or field fails the test that received it.
 */
export function checkedApp<T extends { request: (...args: any[]) => Response | Promise<Response> }>(app: T): T {
  const request = app.request.bind(app);
  app.request = (async (...args: Parameters<T['request']>) => {
    const response = await request(...args);
    const [input, init] = args as unknown as [string | Request | URL, RequestInit | undefined];
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    const url = input instanceof Request ? input.url : String(input);
    await checkAgainstOpenApi(method, url, response.clone());
    return response;
  }) as T['request'];
  return app;
}

/** A database and the app on it (the test defaults, with `overrides`) for one test file; closed after the file's tests. */
export async function setupTestApp(overrides: Partial<Config> = {}): Promise<TestContext> {
  const handle = await sharedTestDatabase();
  return { handle, db: handle.db, app: appWith(handle.db, overrides) };
}

/**
 * The database files share, as the run's PostgreSQL database is shared: on PostgreSQL a pool of the
 * file's own on it, on PGlite one instance per worker, opened by the worker's first file and used by
 * every file after it (opening a PGlite costs ~0.3 s of CPU; the in-process tier's workers run dozens of
 * files). A file that counts rows or needs a database nobody else writes takes setupIsolatedTestApp.
 */
let workerPglite: Promise<DatabaseHandle> | undefined;
async function sharedTestDatabase(): Promise<DatabaseHandle> {
  if (inject('testDatabaseUrl')) {
    const handle = await openTestDatabase();
    onFileEnd(() => handle.close());
    return handle;
  }
  workerPglite ??= openTestDatabase();
  return workerPglite;
}

export interface TestTenant {
  environmentId: string;
  apiKey: string;
  apiKeyId: string;
  templateId: string;
  template: ReturnType<typeof readTemplateExample>;
}

/** A fresh environment with an API key and the example template imported into it. */
export async function createTenant(db: Database, overrides: { theme?: Theme } = {}): Promise<TestTenant> {
  const environment = await createEnvironment(db, { name: `Tenant ${createId().slice(0, 6)}` });
  const key = await createApiKey(db, { environmentId: environment.id, name: 'test' });
  const template = readTemplateExample();
  const form = await importForm(db, {
    environmentId: environment.id,
    name: template.name,
    theme: overrides.theme ?? template.theme!,
    steps: template.steps,
  });
  return { environmentId: environment.id, apiKey: key.key, apiKeyId: key.id, templateId: form.id, template };
}

/** A valid two-step generate body. */
export function validBody(sourceFormId: string, steps?: unknown[]) {
  return {
    sourceFormId,
    name: 'Generated form',
    steps: steps ?? [
      {
        name: 'Contact',
        components: [
          { type: 'IdentityInfo', content: { fields: [{ key: 'emailAddress', label: 'E-mail' }] } },
          { type: 'NextButton', content: { label: 'Next' } },
        ],
      },
      { name: 'Book', components: [{ type: 'CalendlyScreen', content: { url: 'https://calendly.com/acme/intro' } }] },
    ],
  };
}

export function jsonRequest(method: string, body: unknown, headers: Record<string, string> = {}): RequestInit {
  return { method, headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) };
}

/** POSTs a GraphQL operation to /graphql. */
export async function graphql(
  app: TestContext['app'],
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<{ status: number; body: { data?: any; errors?: any[] } }> {
  const response = await app.request('/graphql', jsonRequest('POST', { query, variables }, headers));
  return { status: response.status, body: (await response.json()) as { data?: any; errors?: any[] } };
}
