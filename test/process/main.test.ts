/**
 * The real process (`src/main.ts`): first-start bootstrap and its banner, a second start that prints no
 * secrets, health endpoints, structured request logs, graceful SIGTERM, and configuration errors.
 * Runs on PGlite in a fresh DATA_DIR; when the suite runs on PostgreSQL it also runs against a fresh
 * database on that server.
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { killLeftovers, spawnServer, startServer, START_TIMEOUT_MS, wireRequest, type ServerProcess } from '../support/server-process.ts';

interface Started extends ServerProcess {
  /** The "formloom listening" log record. */
  listening: Record<string, unknown>;
}

const tempDirs: string[] = [];

afterAll(() => {
  killLeftovers();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'formloom-main-'));
  tempDirs.push(dir);
  return dir;
}

/** Starts src/main.ts and waits until it logs that it listens. */
async function startMain(env: Record<string, string>): Promise<Started> {
  const server = await startServer(env);
  return { ...server, listening: server.logs().find((line) => line.msg === 'formloom listening')! };
}

/** Waits until `predicate` holds for one of the process's log records. */
async function waitForLog(started: Started, predicate: (line: Record<string, unknown>) => boolean) {
  for (let i = 0; i < 100; i++) {
    const found = started.logs().find(predicate);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no such log line in:\n${started.stdout()}`);
}

interface Curl {
  url: string;
  apiKey: string;
  body: string;
}

/** The copy-paste curl of the banner, taken apart. */
function parseCurl(banner: string): Curl {
  const url = /^curl -s -X POST (\S+) \\$/m.exec(banner)?.[1];
  const apiKey = /-H 'x-api-key: ([^']+)'/.exec(banner)?.[1];
  const body = /^ {2}-d '(.+)'$/m.exec(banner)?.[1];
  if (!url || !apiKey || !body) throw new Error(`no curl command in:\n${banner}`);
  return { url, apiKey, body };
}

function runCurl(curl: Curl) {
  return fetch(curl.url, { method: 'POST', headers: { 'x-api-key': curl.apiKey, 'content-type': 'application/json' }, body: curl.body });
}

/**
 * A POST whose headers go out at once (`Expect: 100-continue`) and whose body waits for `finish()`.
 * Once the server has answered `100 Continue` it has taken the request and its handler is waiting for
 * the body, so the request is in flight, for as long as the test likes, on a connection of its own.
 */
async function heldPost(url: string, headers: Record<string, string>, body: string) {
  const request = httpRequest(url, {
    method: 'POST',
    agent: false,
    headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), expect: '100-continue' },
  });
  const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
    request.on('error', reject);
    request.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, text }));
      res.on('error', reject);
    });
  });
  response.catch(() => {}); // reported by finish(); not unhandled when the test fails earlier
  await once(request, 'continue');
  return {
    finish: () => {
      request.end(body);
      return response;
    },
  };
}

interface Variant {
  name: string;
  database: 'pglite' | 'postgres';
  /** Extra environment of the child and the clean-up of what it used. */
  setup: () => Promise<{ env: Record<string, string>; teardown: () => Promise<void> }>;
}

const variants: Variant[] = [{ name: 'PGlite (no DATABASE_URL)', database: 'pglite', setup: async () => ({ env: {}, teardown: async () => {} }) }];

const serverUrl = loadConfig().databaseUrl;
if (serverUrl) {
  variants.push({
    name: 'PostgreSQL (DATABASE_URL)',
    database: 'postgres',
    setup: async () => {
      // A database of its own: the first start must find it empty.
      const { default: postgres } = await import('postgres');
      const name = `formloom_main_${randomBytes(6).toString('hex')}`;
      const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
      await admin.unsafe(`create database ${name}`);
      const url = new URL(serverUrl);
      url.pathname = `/${name}`;
      return {
        env: { DATABASE_URL: url.toString() },
        teardown: async () => {
          await admin.unsafe(`drop database if exists ${name} with (force)`);
          await admin.end();
        },
      };
    },
  });
}

describe.each(variants)('formloom on $name', ({ database, setup }) => {
  const dataDir = tempDir();
  let env: Record<string, string>;
  let teardown: (() => Promise<void>) | undefined;
  let firstCurl: Curl | undefined;
  let firstAdminToken: string | undefined;
  /** The second start, left running for the drain test to stop (one start fewer). */
  let second: Started | undefined;

  afterAll(async () => {
    await second?.stop();
    await teardown?.();
  });

  it(
    'first start prints the demo setup once, and its curl generates a form',
    async () => {
      const prepared = await setup();
      teardown = prepared.teardown;
      env = { PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info', ...prepared.env };
      const server = await startMain(env);
      try {
        expect(server.listening).toMatchObject({ level: 30, service: 'formloom', database, msg: 'formloom listening' });
        expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
        expect(server.url).not.toMatch(/:0$/);

        const out = server.stdout();
        expect(out).toContain('formloom is set up (shown once)');
        const siteId = /^environment \(Site ID\): (\S+)$/m.exec(out)?.[1];
        const templateId = /^template form: +(\S+)$/m.exec(out)?.[1];
        const apiKey = /^API key: +(fl_[a-z0-9]{12}_[\w-]{43})$/m.exec(out)?.[1];
        const adminToken = /^admin token: +(fladm_[\w-]{43}) {2}\(also kept in the data dir\)$/m.exec(out)?.[1];
        expect(siteId).toBeDefined();
        expect(templateId).toBeDefined();
        expect(apiKey).toBeDefined();
        expect(adminToken).toBeDefined();

        // The walk-through's variables, in one line to paste into a shell (test/process/docs.examples.test.ts runs it).
        expect(out).toContain(`\nexport BASE=${server.url} FORMLOOM_URL=${server.url} SITE=${siteId} TEMPLATE=${templateId} KEY=${apiKey}\n`);

        const curl = parseCurl(out);
        expect(curl.url).toBe(`${server.url}/api/v1/environments/${siteId}/forms/generate`);
        expect(curl.apiKey).toBe(apiKey);
        expect(JSON.parse(curl.body)).toMatchObject({ sourceFormId: templateId });

        const response = await runCurl(curl);
        expect(response.status).toBe(200);
        const body = (await response.json()) as { success: boolean; result: { form: { id: string; url: string } } };
        expect(body).toEqual({ success: true, result: { form: { id: body.result.form.id, url: `/s/${body.result.form.id}` } } });

        // The generated admin token is kept in the data dir, readable by its owner only, and works.
        const tokenFile = join(dataDir, 'admin-token');
        expect(readFileSync(tokenFile, 'utf8').trim()).toBe(adminToken);
        expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
        const created = await fetch(`${server.url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
          body: JSON.stringify({ query: 'mutation { createEnvironment(input: {name: "From test"}) { name } }' }),
        });
        expect(await created.json()).toEqual({ data: { createEnvironment: { name: 'From test' } } });

        firstCurl = curl;
        firstAdminToken = adminToken;
      } finally {
        expect(await server.stop()).toBe(0);
      }
    },
    2 * START_TIMEOUT_MS,
  );

  it(
    'a second start on the same data prints no secrets, and what the first made still works',
    async () => {
      expect(firstCurl, 'needs the first start').toBeDefined();
      const server = (second = await startMain(env));
      const out = server.stdout();
      expect(out).not.toContain('formloom is set up');
      expect(out).not.toContain('API key');
      expect(out).not.toContain('admin token');
      expect(out).not.toContain(firstCurl!.apiKey);
      expect(out).not.toContain(firstAdminToken!);
      expect(out).not.toMatch(/fl_[a-z0-9]{12}_|fladm_/);
      expect(server.stderr()).not.toMatch(/fl_[a-z0-9]{12}_|fladm_/);
      expect(server.listening).toMatchObject({ msg: 'formloom listening', database });

      const response = await runCurl({ ...firstCurl!, url: firstCurl!.url.replace(/^http:\/\/[^/]+/, server.url) });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { success: boolean }).success).toBe(true);
    },
    2 * START_TIMEOUT_MS,
  );

  it(
    'serves /healthz and /readyz, logs each request as JSON with a request id, and drains on SIGTERM',
    async () => {
      expect(env, 'needs the first start').toBeDefined();
      expect(firstCurl, 'needs the first start').toBeDefined();
      // The second start's server, still running (a start of its own when that test did not get so far).
      const server = second ?? (await startMain(env));
      second = undefined;
      const health = await fetch(`${server.url}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok' });
      const requestId = health.headers.get('x-request-id');
      expect(requestId).toMatch(/\S/);

      const ready = await fetch(`${server.url}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'ready' });

      const logged = await waitForLog(server, (line) => line.msg === 'request' && line.path === '/healthz');
      expect(logged).toMatchObject({ level: 30, service: 'formloom', method: 'GET', path: '/healthz', status: 200, reqId: requestId });
      expect(typeof logged.time).toBe('string');
      expect(Number.isNaN(Date.parse(String(logged.time)))).toBe(false);

      // Draining: a generate request is in flight (its body not yet sent) when SIGTERM arrives.
      const inFlight = await heldPost(firstCurl!.url.replace(/^http:\/\/[^/]+/, server.url), { 'x-api-key': firstCurl!.apiKey }, firstCurl!.body);
      const exited = server.stop();
      await waitForLog(server, (line) => line.msg === 'draining');
      // (No drain delay here: DRAIN_DELAY_MS is 0.) A request on the keep-alive connection fetch already
      // has is still answered, with Connection: close; then no connection is accepted any more. It waits
      // for the request in flight, however long it takes (here a second; the cut-off is after 9 s).
      const onKeptConnection = await fetch(`${server.url}/healthz`);
      expect(onKeptConnection.status).toBe(200);
      expect(onKeptConnection.headers.get('connection')).toBe('close');
      await onKeptConnection.text();
      const onNewConnection = await wireRequest(`${server.url}/healthz`, { agent: false });
      expect(onNewConnection.error).toBe('ECONNREFUSED');
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(server.child.exitCode).toBeNull();
      expect(server.child.signalCode).toBeNull();
      const late = await inFlight.finish();
      expect(late.status).toBe(200);
      const body = JSON.parse(late.text) as { success: boolean; result: { form: { id: string; url: string } } };
      expect(body).toEqual({ success: true, result: { form: { id: expect.stringMatching(/^[a-z0-9]{10,}$/), url: `/s/${body.result.form.id}` } } });
      expect(await exited).toBe(0);

      const messages = server.logs().map((line) => line.msg);
      const drainedAt = messages.indexOf('draining');
      // The generate request held in flight (the second start's own generate came before the signal).
      const served = server.logs().findIndex((line, i) => i > drainedAt && line.msg === 'request' && line.method === 'POST' && line.status === 200);
      expect(drainedAt).toBeGreaterThanOrEqual(0);
      expect(served).toBeGreaterThan(drainedAt);
      expect(messages.at(-1)).toBe('stopped');
      expect(server.stderr()).toBe('');
    },
    2 * START_TIMEOUT_MS,
  );
});

describe('configuration errors', () => {
  it(
    'stop start-up with exit code 1 and a message naming every bad variable',
    async () => {
      const run = spawnServer({ PORT: 'abc', LOG_LEVEL: 'loud', HOST: '127.0.0.1', DATA_DIR: tempDir() });
      const code = await run.exited;
      expect(code).toBe(1);
      const stderr = run.stderr();
      expect(stderr).toMatch(/^Invalid configuration:\n/);
      expect(stderr).toMatch(/^ {2}- PORT: .*\(got "abc"\)$/m);
      expect(stderr).toMatch(/^ {2}- LOG_LEVEL: .*\(got "loud"\)$/m);
      expect(stderr).not.toMatch(/HOST|DATA_DIR/);
      // A message for people, not a crash: no stack trace.
      expect(stderr).not.toMatch(/^[ \t]+at /m);
      expect(run.stdout()).not.toContain('formloom listening');
    },
    START_TIMEOUT_MS,
  );
});
