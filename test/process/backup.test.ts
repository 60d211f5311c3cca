/**
 * Backups of the embedded database. The round trip runs real processes: a server (`src/main.ts`) on a
 * fresh DATA_DIR, the real `formloom` command to back it up and to restore into a new data dir, and a
 * second server on the restored dir that must serve everything the first had. The server processes
 * always use PGlite (backups are the embedded default's); the in-process checks of the endpoint run on
 * the suite's database, so on PostgreSQL they check the answer pointing to pg_dump.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runCli } from '../../src/cli.ts';
import { openDatabase } from '../../src/db/client.ts';
import { rowsOf } from '../../src/db/rows.ts';
import { POSTGRES_BACKUP_MESSAGE } from '../../src/rest/admin.ts';
import { killLeftovers, startServer as startServerProcess } from '../support/server-process.ts';
import { ADMIN_TOKEN, createTenant, jsonRequest, setupTestApp, validBody, type TestContext } from '../support/helpers.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TEMPLATE_FILE = fileURLToPath(new URL('../../examples/template.json', import.meta.url));
const START_TIMEOUT_MS = 60_000;
const SERVER_ADMIN_TOKEN = 'backup-test-admin-token-0123456789';
/** Variables src/config.ts reads that a child must not inherit from the suite (DATABASE_URL above all). */
const INHERITED_CONFIG = ['PORT', 'HOST', 'DATABASE_URL', 'DATA_DIR', 'ADMIN_TOKEN', 'LOG_LEVEL'];

const tempRoot = mkdtempSync(join(tmpdir(), 'formloom-backup-'));
const children = new Set<ChildProcess>();

afterAll(() => {
  killLeftovers();
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(tempRoot, { recursive: true, force: true });
});

function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const result: NodeJS.ProcessEnv = { ...process.env };
  for (const name of INHERITED_CONFIG) delete result[name];
  return { ...result, ...env };
}

interface Server {
  url: string;
  dataDir: string;
  pid: number;
  stdout: () => string;
  stop: () => Promise<number | null>;
}

/** Starts the real server on `dataDir` (PGlite) and waits for its "listening" log line. */
async function startServer(dataDir: string): Promise<Server> {
  const server = await startServerProcess({ DATA_DIR: dataDir, ADMIN_TOKEN: SERVER_ADMIN_TOKEN });
  return { url: server.url, dataDir, pid: server.child.pid!, stdout: server.stdout, stop: server.stop };
}

/** Runs the real `formloom` command (bin/formloom.mjs) with --json; resolves with its exit code and parsed output. */
function formloom(args: string[], env: Record<string, string> = {}): Promise<{ code: number; out: any; err: any }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['bin/formloom.mjs', ...args, '--json'], { cwd: ROOT, env: childEnv(env), timeout: START_TIMEOUT_MS }, (error, stdout, stderr) => {
      const parse = (text: string) => (text.trim() ? JSON.parse(text) : undefined);
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, out: parse(stdout), err: parse(stderr) });
    });
  });
}

/** The admin commands, in-process, against a running server. */
const admin = async (server: Server, ...args: string[]) =>
  (await runCli([...args, '--url', server.url, '--admin-token', SERVER_ADMIN_TOKEN, '--json'])).output as Record<string, any>;

async function getJson(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers });
  return { status: response.status, body: await response.json() };
}

async function sendJson(method: string, url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, jsonRequest(method, body, headers));
  return { status: response.status, body: await response.json() };
}

describe('formloom backup and restore, real processes on PGlite', () => {
  const original = join(tempRoot, 'original');
  const restored = join(tempRoot, 'restored');
  const backupFile = join(tempRoot, 'formloom.tar.gz');
  let server: Server | undefined;
  /** What the first server holds, to be read back from the restored one. */
  let before: {
    environmentId: string;
    key: string;
    revokedKey: string;
    formId: string;
    definition: unknown;
    responses: any[];
    unfinished: { id: string; resumeToken: string; visitorToken: string; leadId: string };
  };

  afterAll(async () => {
    await server?.stop();
  });

  it(
    'backup writes a gzip dump of the running server, taken with the admin token',
    async () => {
      server = await startServer(original);
      const environmentId = String((await admin(server, 'env', 'create', '--name', 'Backed up')).id);
      const key = String((await admin(server, 'key', 'create', '--env', environmentId, '--name', 'kept')).key);
      const revoked = await admin(server, 'key', 'create', '--env', environmentId, '--name', 'revoked');
      await admin(server, 'key', 'revoke', String(revoked.id));
      const template = String((await admin(server, 'form', 'import', '--env', environmentId, '--file', TEMPLATE_FILE)).id);

      const generated = await sendJson('POST', `${server.url}/api/v1/environments/${environmentId}/forms/generate`, validBody(template), { 'x-api-key': key });
      expect(generated.status).toBe(200);
      const formId = String(generated.body.result.form.id);
      const definition = await getJson(`${server.url}/s/${formId}/definition`);
      expect(definition.status).toBe(200);
      const identity = definition.body.steps[0].components.find((c: { type: string }) => c.type === 'IdentityInfo').id;

      // One respondent stops half-way (an unfinished response; their e-mail makes them a lead), one finishes.
      const started = await sendJson('POST', `${server.url}/s/${formId}/responses`, { answers: { [identity]: { emailAddress: 'ada@example.com' } } });
      expect(started.status).toBe(201);
      const finished = await sendJson('POST', `${server.url}/s/${formId}/responses`, { answers: { [identity]: { emailAddress: 'bob@example.com' } }, finished: true });
      expect(finished.status).toBe(201);

      const listed = await getJson(`${server.url}/api/v1/responses?returnPartials=true`, { 'x-api-key': key });
      expect(listed.status).toBe(200);
      expect(listed.body.data).toHaveLength(2);
      const leadId = String(listed.body.data.find((r: { id: string }) => r.id === started.body.id).meta.leadId);
      before = {
        environmentId,
        key,
        revokedKey: String(revoked.key),
        formId,
        definition: definition.body,
        responses: listed.body.data,
        unfinished: { id: started.body.id, resumeToken: started.body.resumeToken, visitorToken: started.body.visitorToken, leadId },
      };

      const backup = await formloom(['backup', '--out', backupFile, '--url', server.url, '--admin-token', SERVER_ADMIN_TOKEN]);
      expect(backup.err).toBeUndefined();
      expect(backup).toMatchObject({ code: 0, out: { file: backupFile, bytes: expect.any(Number) } });
      const bytes = readFileSync(backupFile);
      expect(bytes.length).toBe(backup.out.bytes);
      expect([...bytes.subarray(0, 2)]).toEqual([0x1f, 0x8b]); // gzip
      expect(gunzipSync(bytes).subarray(257, 262).toString()).toBe('ustar'); // a tar inside
    },
    4 * START_TIMEOUT_MS,
  );

  it('backup with a wrong admin token, or an API key, is refused and writes nothing', async () => {
    expect(server, 'needs the first test').toBeDefined();
    const refusedFile = join(tempRoot, 'refused.tar.gz');
    const wrong = await formloom(['backup', '--out', refusedFile, '--url', server!.url, '--admin-token', 'not-the-admin-token-0000']);
    expect(wrong).toMatchObject({ code: 1, out: undefined, err: { error: { message: 'Invalid admin token', status: 401 } } });
    const withKey = await formloom(['backup', '--out', refusedFile, '--url', server!.url, '--admin-token', before.key]);
    expect(withKey).toMatchObject({ code: 1, err: { error: { message: 'This operation needs the admin token', status: 403 } } });
    const anonymous = await fetch(`${server!.url}/api/v1/admin/backup`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ message: 'Missing admin token' });
    expect(readdirSync(tempRoot).filter((name) => name.startsWith('refused'))).toEqual([]);
  });

  it(
    'restore refuses the data dir of a running server and leaves it alone',
    async () => {
      expect(server, 'needs the first test').toBeDefined();
      const refused = await formloom(['restore', '--in', backupFile, '--data-dir', original, '--force']);
      expect(refused.code).toBe(1);
      expect(refused.err.error.message).toBe(`The data dir ${original} is in use by process ${server!.pid} (a running formloom server?); stop it first`);
      expect(readdirSync(original).sort()).toEqual(['pglite', 'pglite.lock']);
      const still = await getJson(`${server!.url}/api/v1/responses?returnPartials=true`, { 'x-api-key': before.key });
      expect(still).toEqual({ status: 200, body: { data: before.responses } });
      expect(await server!.stop()).toBe(0);
      server = undefined;
    },
    START_TIMEOUT_MS,
  );

  it(
    'restore into a new data dir brings back forms, responses, leads and API keys for a new server',
    async () => {
      expect(before, 'needs the first test').toBeDefined();
      const restore = await formloom(['restore', '--in', backupFile, '--data-dir', restored]);
      expect(restore.err).toBeUndefined();
      expect(restore).toMatchObject({ code: 0, out: { dataDir: restored, file: backupFile } });
      expect(readdirSync(restored)).toEqual(['pglite']); // no staging dir or lock left behind

      server = await startServer(restored);
      expect(server.stdout()).not.toContain('formloom is set up'); // it found the data, not an empty database
      const { key, formId, unfinished } = before;

      // Forms and responses, exactly as they were; the key made before works, the revoked one still doesn't.
      expect(await getJson(`${server.url}/s/${formId}/definition`)).toEqual({ status: 200, body: before.definition });
      expect(await getJson(`${server.url}/api/v1/responses?returnPartials=true`, { 'x-api-key': key })).toEqual({ status: 200, body: { data: before.responses } });
      expect(await getJson(`${server.url}/api/v1/responses?formId=${formId}`, { 'x-api-key': before.revokedKey })).toEqual({
        status: 401,
        body: { message: 'Invalid API key' },
      });
      const generated = await sendJson('POST', `${server.url}/api/v1/environments/${before.environmentId}/forms/generate`, validBody(formId), { 'x-api-key': key });
      expect(generated.status).toBe(200);

      // The respondent who stopped half-way finishes, and comes back as the same lead with their visit counted.
      const resumed = await sendJson(
        'PATCH',
        `${server.url}/s/${formId}/responses/${unfinished.id}`,
        { answers: {}, finished: true },
        { authorization: `Bearer ${unfinished.resumeToken}` },
      );
      expect(resumed).toMatchObject({ status: 200, body: { id: unfinished.id, finished: true } });
      const again = await sendJson('POST', `${server.url}/s/${formId}/responses`, { answers: {}, visitorToken: unfinished.visitorToken });
      expect(again.status).toBe(201);
      const after = await getJson(`${server.url}/api/v1/responses?formId=${formId}&returnPartials=true`, { 'x-api-key': key });
      const revisit = after.body.data.find((r: { id: string }) => r.id === again.body.id);
      expect(revisit.meta.leadId).toBe(unfinished.leadId);
      expect(revisit.personAttributes).toMatchObject({ visitedForm: 2, completedForm: 1 });
      expect(await server.stop()).toBe(0);
      server = undefined;
    },
    4 * START_TIMEOUT_MS,
  );

  it(
    'restore refuses a data dir that already has a database unless --force',
    async () => {
      expect(existsSync(join(restored, 'pglite')), 'needs the restore test').toBe(true);
      const refused = await formloom(['restore', '--in', backupFile, '--data-dir', restored]);
      expect(refused.code).toBe(1);
      expect(refused.err.error.message).toBe(`The data dir ${restored} is not empty (pglite); use --force to replace its database`);
      const forced = await formloom(['restore', '--in', backupFile, '--data-dir', restored, '--force']);
      expect(forced).toMatchObject({ code: 0, out: { dataDir: restored } });
      expect(readdirSync(restored)).toEqual(['pglite']);
    },
    2 * START_TIMEOUT_MS,
  );

  it(
    "a lock left by a process that died (a crash) does not block a restore, nor do a killed restore's leftovers",
    async () => {
      expect(existsSync(backupFile), 'needs the backup test').toBe(true);
      const dead = spawn(process.execPath, ['-e', '']);
      await once(dead, 'exit');
      const target = join(tempRoot, 'after-crash');
      mkdirSync(join(target, '.restore-0123456789ab', 'pglite'), { recursive: true });
      writeFileSync(join(target, 'pglite.lock'), JSON.stringify({ pid: dead.pid, host: hostname() }));
      const restore = await formloom(['restore', '--in', backupFile, '--data-dir', target]);
      expect(restore.err).toBeUndefined();
      expect(restore.code).toBe(0);
      expect(readdirSync(target)).toEqual(['pglite']);
    },
    2 * START_TIMEOUT_MS,
  );

  it(
    'restore of a file that is no backup fails and leaves the data dir as it was',
    async () => {
      const notBackup = join(tempRoot, 'not-a-backup.tar.gz');
      writeFileSync(notBackup, 'hello');
      const target = join(tempRoot, 'untouched');
      mkdirSync(target);
      writeFileSync(join(target, 'admin-token'), `${SERVER_ADMIN_TOKEN}\n`); // prepared by the operator: kept
      const failed = await formloom(['restore', '--in', notBackup, '--data-dir', target]);
      expect(failed.code).toBe(1);
      expect(failed.err.error.message).toMatch(new RegExp(`^${notBackup.replace(/\./g, '\\.')} is not a formloom backup`));
      expect(readdirSync(target)).toEqual(['admin-token']);

      // A cut-off download: a gzip file missing its end.
      const truncated = join(tempRoot, 'truncated.tar.gz');
      const full = readFileSync(backupFile);
      writeFileSync(truncated, full.subarray(0, full.length >> 1));
      const cut = await formloom(['restore', '--in', truncated, '--data-dir', target]);
      expect(cut.code).toBe(1);
      expect(cut.err.error.message).toMatch(/is not a complete gzip file/);
      expect(readdirSync(target)).toEqual(['admin-token']);
    },
    2 * START_TIMEOUT_MS,
  );
});

describe('GET /api/v1/admin/backup in process', () => {
  const onPglite = !inject('testDatabaseUrl');
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await setupTestApp();
  });
  const asAdmin = { authorization: `Bearer ${ADMIN_TOKEN}` };

  it('needs the admin token: an API key is 403', async () => {
    const tenant = await createTenant(ctx.db);
    const response = await ctx.app.request('/api/v1/admin/backup', { headers: { 'x-api-key': tenant.apiKey } });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ message: 'This operation needs the admin token' });
  });

  it.runIf(onPglite)('dumps every write acknowledged before it, with no half-done submission, while submissions run', async () => {
    const tenant = await createTenant(ctx.db);
    const generated = await ctx.app.request(
      `/api/v1/environments/${tenant.environmentId}/forms/generate`,
      jsonRequest('POST', validBody(tenant.templateId), { 'x-api-key': tenant.apiKey }),
    );
    const formId = ((await generated.json()) as { result: { form: { id: string } } }).result.form.id;
    const definition = (await (await ctx.app.request(`/s/${formId}/definition`)).json()) as { steps: { components: { id: string; type: string }[] }[] };
    const identity = definition.steps[0]!.components.find((c) => c.type === 'IdentityInfo')!.id;
    const submit = async (i: number) => {
      const response = await ctx.app.request(`/s/${formId}/responses`, jsonRequest('POST', { answers: { [identity]: { emailAddress: `p${i}@example.com` } }, finished: true }));
      return { status: response.status, id: ((await response.json()) as { id: string }).id };
    };

    const acknowledged = await Promise.all(Array.from({ length: 5 }, (_, i) => submit(i)));
    const racing = Array.from({ length: 20 }, (_, i) => submit(100 + i));
    const backup = await ctx.app.request('/api/v1/admin/backup', { headers: asAdmin });
    const raced = await Promise.all(racing);
    expect(backup.status).toBe(200);
    expect(backup.headers.get('content-type')).toBe('application/gzip');
    expect(backup.headers.get('content-disposition')).toMatch(/^attachment; filename="formloom-backup-\d{8}T\d{6}Z\.tar\.gz"$/);
    expect([...acknowledged, ...raced].map((r) => r.status)).toEqual(Array(25).fill(201));

    const copy = await openDatabase({ loadDataDir: new Blob([gunzipSync(Buffer.from(await backup.arrayBuffer()))]), pgliteThread: 'inline' });
    try {
      const rows = rowsOf<{ id: string; finished: boolean; data: unknown[]; lead: string | null; email: string | null }>(
        await copy.db.execute(sql`
        select r.id, r.finished, r.data, l.id as lead, l.email, s.visits, s.completions
        from responses r
        left join leads l on l.id = r.lead_id
        left join lead_form_stats s on s.lead_id = r.lead_id and s.form_id = r.form_id
        where r.form_id = ${formId}`),
      );
      const ids = rows.map((row) => row.id);
      for (const { id } of acknowledged) expect(ids).toContain(id);
      // Each submission is one transaction (response, lead, e-mail, visit counts): in the dump whole or absent.
      for (const row of rows) {
        expect(row).toMatchObject({ finished: true, lead: expect.any(String), email: expect.stringMatching(/^p\d+@example\.com$/), visits: 1, completions: 1 });
      }
      expect(rows.every((row) => row.data.length === 1)).toBe(true);
    } finally {
      await copy.close();
    }
  });

  it.runIf(!onPglite)('on PostgreSQL answers 409 pointing to pg_dump', async () => {
    const response = await ctx.app.request('/api/v1/admin/backup', { headers: asAdmin });
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({ message: POSTGRES_BACKUP_MESSAGE });
    expect(POSTGRES_BACKUP_MESSAGE).toMatch(/pg_dump/);
  });
});
