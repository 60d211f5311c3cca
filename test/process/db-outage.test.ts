/**
 * PostgreSQL going away under the real server process: a throwaway cluster of its own (the machine's
 * initdb/pg_ctl, run as the `postgres` user, on a free port), stopped with `pg_ctl stop -m immediate`
 * and started again. Every API and public request answers 503 quickly, health stays up, readiness goes
 * down, the process stays up, and after the restart everything works again with nothing lost. And
 * restarted three times (`-m fast`) under a load of public submissions: the process stays up and every
 * request is answered (unpatched postgres.js ended the process there: patches/postgres+3.4.9.patch).
 * And in-process, a job's lock reservation refused during an outage leaves the pool whole after it.
 * Runs whatever database the suite uses (it brings its own); skipped when initdb is not installed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.ts';
import { runExclusively } from '../../src/db/locks.ts';
import { ownDir, pgBin, pgTool, pgToolInBackground, stopAll } from '../support/pg-cluster.ts';
import { freePort, killLeftovers, startServer, wireRequest, type ServerProcess, type WireResult } from '../support/server-process.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const cleanups: (() => void)[] = [];
afterAll(async () => {
  killLeftovers();
  for (const cleanup of cleanups.reverse()) cleanup();
  await stopAll();
});

/** A PostgreSQL cluster of our own, started; stopped and removed after the file. */
async function startCluster() {
  const dir = ownDir('formloom-outage-');
  const data = join(dir, 'data');
  const port = await freePort();
  pgTool('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '--no-instructions']);
  const pgCtlArgs = (...args: string[]) => ['-D', data, '-w', '-t', '30', ...args];
  const startArgs = pgCtlArgs('-l', join(dir, 'log'), '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`, 'start');
  const pgCtl = (...args: string[]) => pgTool('pg_ctl', pgCtlArgs(...args));
  const start = () => pgTool('pg_ctl', startArgs);
  /** Stops and starts the cluster while the test's own requests go on through the outage. */
  const restart = async (mode: 'fast' | 'immediate') => {
    await pgToolInBackground('pg_ctl', pgCtlArgs('-m', mode, 'stop'));
    await pgToolInBackground('pg_ctl', startArgs);
  };
  start();
  cleanups.push(() => {
    try {
      pgCtl('-m', 'immediate', 'stop');
    } catch {
      // already stopped
    }
  });
  return { dir, pgCtl, start, restart, url: `postgres://postgres@127.0.0.1:${port}/postgres` };
}

/** A PostgreSQL cluster of our own, started, and a formloom server process on it. */
async function clusterAndServer() {
  const { dir, pgCtl, start, restart, url } = await startCluster();
  const server: ServerProcess = await startServer({
    DATABASE_URL: url,
    DATA_DIR: join(dir, 'formloom'),
    PUBLIC_RATE_LIMIT: '1000000',
    API_RATE_LIMIT: '1000000',
  });
  return { dir, pgCtl, start, restart, server };
}

/** A two-step form with a short question on each step, generated from the demo template; its question ids. */
async function twoStepForm(server: ServerProcess) {
  const { apiKey, environmentId, templateId } = server.demo!;
  const generated = await wireRequest(`${server.url}/api/v1/environments/${environmentId}/forms/generate`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey },
    body: JSON.stringify({
      sourceFormId: templateId,
      name: 'Restart form',
      steps: [
        { name: 'One', components: [{ type: 'ShortInput', content: { question: 'Name?' } }] },
        { name: 'Two', components: [{ type: 'ShortInput', content: { question: 'City?' } }] },
      ],
    }),
  });
  expect(generated.status, generated.body).toBe(200);
  const formId = (JSON.parse(generated.body!) as { result: { form: { id: string } } }).result.form.id;
  const definition = JSON.parse((await wireRequest(`${server.url}/s/${formId}/definition`)).body!) as { steps: { components: { id: string }[] }[] };
  const [nameId, cityId] = definition.steps.map((step) => step.components[0]!.id) as [string, string];
  return { formId, nameId, cityId };
}

describe.skipIf(!pgBin)(`PostgreSQL going away${pgBin ? '' : ' (skipped: no initdb under /usr/lib/postgresql)'}`, () => {
  it('restarting PostgreSQL under a write load: the process stays up, each submission answers or gets 503, and all works after', async () => {
    const { restart, server } = await clusterAndServer();
    const { formId, nameId, cityId } = await twoStepForm(server);
    const statuses = new Map<string, number>();
    const count = (what: string, result: WireResult) => {
      const key = `${what} ${result.status ?? result.error}`;
      statuses.set(key, (statuses.get(key) ?? 0) + 1);
      return result;
    };
    // The requests on their way, so a request left without an answer is named in the failure.
    const inFlight = new Set<{ what: string; startedAt: number }>();
    const tracked = async (what: string, request: Promise<WireResult>) => {
      const entry = { what, startedAt: performance.now() };
      inFlight.add(entry);
      try {
        return count(what, await request);
      } finally {
        inFlight.delete(entry);
      }
    };
    // Respondents start, update and finish responses one after another: transactions are always open,
    // some of them between two statements, when PostgreSQL's fast shutdown closes their connections.
    let loading = true;
    const respondent = async () => {
      while (loading) {
        const started = await tracked('start', wireRequest(`${server.url}/s/${formId}/responses`, { method: 'POST', body: JSON.stringify({ answers: { [nameId]: 'Ada' } }) }));
        if (started.status !== 201) continue;
        const { id, resumeToken } = JSON.parse(started.body!) as { id: string; resumeToken: string };
        const patch = (body: unknown) =>
          wireRequest(`${server.url}/s/${formId}/responses/${id}`, { method: 'PATCH', headers: { authorization: `Bearer ${resumeToken}` }, body: JSON.stringify(body) });
        if ((await tracked('update', patch({ answers: { [cityId]: 'Paris' } }))).status !== 200) continue;
        await tracked('finish', patch({ answers: {}, finished: true }));
      }
    };
    const load = Array.from({ length: 16 }, respondent);
    for (let round = 0; round < 3; round++) {
      await sleep(800);
      // In the background: run synchronously, pg_ctl froze this process's respondents for the whole
      // outage, so only requests already in the server could meet it (on a fast host, none did).
      await restart('fast');
    }
    await sleep(1_000);
    loading = false;
    const settled = await Promise.race([Promise.all(load).then(() => true), sleep(20_000).then(() => false)]);

    expect(server.running(), `the process stays up; its stderr ends:\n${server.stderr().slice(-2_000)}`).toBe(true);
    const seen = [...statuses].map(([key, n]) => `${key}: ${n}`).join(', ');
    const warnings = server
      .logs()
      .filter((line) => typeof line.level === 'number' && line.level >= 40)
      .slice(-5)
      .map((line) => JSON.stringify(line))
      .join('\n');
    const pending = [...inFlight].map(({ what, startedAt }) => `${what} for ${Math.round(performance.now() - startedAt)} ms`).join(', ');
    expect(settled, `every request was answered within 20 s of the load's end: ${seen}; unanswered: ${pending}; the server's last warnings:\n${warnings}`).toBe(true);
    console.info(`[restart under load] ${seen}`);
    // Every submission answered: 201/200, or 503 while the database was away (never a 500 or a reset).
    for (const key of statuses.keys()) expect(key, `${seen}; the server's last warnings:\n${warnings}`).toMatch(/^(start (201|503)|update (200|503)|finish (200|503))$/);
    expect(statuses.get('finish 200') ?? 0, seen).toBeGreaterThan(0);
    expect(
      [...statuses.keys()].some((key) => key.endsWith(' 503')),
      `some submissions met the restarts: ${seen}`,
    ).toBe(true);
    // After it, a whole session works.
    const after = await wireRequest(`${server.url}/s/${formId}/responses`, {
      method: 'POST',
      body: JSON.stringify({ answers: { [nameId]: 'Grace', [cityId]: 'Rome' }, finished: true }),
    });
    expect(after.status, after.body).toBe(201);
    expect(server.logs().filter((line) => line.msg === 'formloom listening')).toHaveLength(1);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 120_000);

  it('every request answers 503 quickly during the outage; all works again after it, nothing lost', async () => {
    const { dir, pgCtl, start, server } = await clusterAndServer();
    const { apiKey, environmentId, templateId } = server.demo!;
    const withKey = { 'x-api-key': apiKey };
    const json = (body: unknown) => JSON.stringify(body);

    // ---- before the outage: a form, a finished response, a respondent half-way
    const generateBody = json({
      sourceFormId: templateId,
      name: 'Outage form',
      steps: [
        { name: 'One', components: [{ type: 'ShortInput', content: { question: 'Name?' } }] },
        { name: 'Two', components: [{ type: 'ShortInput', content: { question: 'City?' } }] },
      ],
    });
    const generateUrl = `${server.url}/api/v1/environments/${environmentId}/forms/generate`;
    const { formId, nameId, cityId } = await twoStepForm(server);
    const submit = (body: unknown) => wireRequest(`${server.url}/s/${formId}/responses`, { method: 'POST', body: json(body) });
    const finished = await submit({ answers: { [nameId]: 'Ada', [cityId]: 'London' }, finished: true });
    expect(finished.status, finished.body).toBe(201);
    const acknowledged = JSON.parse(finished.body!) as { id: string };
    const started = await submit({ answers: { [nameId]: 'Grace' } });
    expect(started.status, started.body).toBe(201);
    const halfWay = JSON.parse(started.body!) as { id: string; resumeToken: string };
    const patchHalfWay = (body: unknown) =>
      wireRequest(`${server.url}/s/${formId}/responses/${halfWay.id}`, { method: 'PATCH', headers: { authorization: `Bearer ${halfWay.resumeToken}` }, body: json(body) });
    expect((await wireRequest(`${server.url}/readyz`)).status).toBe(200);

    // ---- the outage
    pgCtl('-m', 'immediate', 'stop');
    const uncachedKey = `fl_${'a'.repeat(12)}_${'A'.repeat(43)}`; // authentication itself must ask the database
    const graphqlBody = json({ query: `query { formResponses(formId: "${formId}") { edges { node { id } } } }` });
    const requests: [string, () => Promise<WireResult>, 'json' | 'graphql' | 'html'][] = [
      ['REST generate', () => wireRequest(generateUrl, { method: 'POST', headers: withKey, body: generateBody }), 'json'],
      ['REST generate, key not cached', () => wireRequest(generateUrl, { method: 'POST', headers: { 'x-api-key': uncachedKey }, body: generateBody }), 'json'],
      ['REST responses of a form', () => wireRequest(`${server.url}/api/v1/responses?formId=${formId}`, { headers: withKey }), 'json'],
      ['REST environment stream', () => wireRequest(`${server.url}/api/v1/responses`, { headers: withKey }), 'json'],
      ['GraphQL', () => wireRequest(`${server.url}/graphql`, { method: 'POST', headers: withKey, body: graphqlBody }), 'graphql'],
      ['GraphQL, key not cached', () => wireRequest(`${server.url}/graphql`, { method: 'POST', headers: { 'x-api-key': uncachedKey }, body: graphqlBody }), 'graphql'],
      ['page GET', () => wireRequest(`${server.url}/s/${formId}`), 'html'],
      [
        'page POST',
        () =>
          wireRequest(`${server.url}/s/${formId}?step=0`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: `c.${nameId}=Alan`,
          }),
        'html',
      ],
      ['public definition', () => wireRequest(`${server.url}/s/${formId}/definition`), 'json'],
      ['public submission', () => submit({ answers: { [nameId]: 'Alan' } }), 'json'],
      ['public resume', () => patchHalfWay({ answers: { [cityId]: 'Paris' }, finished: true }), 'json'],
    ];
    const seen: string[] = [];
    // Twice: first on the pool's dead connections, then on fresh connection attempts.
    for (let round = 0; round < 2; round++) {
      for (const [name, send, kind] of requests) {
        const result = await send();
        seen.push(`${name}: ${result.status ?? result.error} in ${Math.round(result.ms)} ms`);
        expect(result.status, `${name}: ${result.body ?? result.error}`).toBe(503);
        expect(result.ms, name).toBeLessThan(2_000);
        if (kind === 'json') expect(JSON.parse(result.body!), name).toEqual({ message: 'Service unavailable' });
        if (kind === 'graphql') {
          expect(JSON.parse(result.body!), name).toMatchObject({ errors: [{ message: 'Service unavailable', extensions: { code: 'UNAVAILABLE' } }] });
        }
        if (kind === 'html') {
          expect(result.headers!['content-type'], name).toMatch(/^text\/html/);
          expect(result.body, name).toContain('Service unavailable');
        }
      }
      const ready = await wireRequest(`${server.url}/readyz`);
      const health = await wireRequest(`${server.url}/healthz`);
      seen.push(`readyz: ${ready.status} in ${Math.round(ready.ms)} ms`, `healthz: ${health.status} in ${Math.round(health.ms)} ms`);
      expect(ready.status).toBe(503);
      expect(ready.ms).toBeLessThan(2_000);
      expect(health.status).toBe(200);
    }
    expect(server.running(), 'the process stays up').toBe(true);

    // ---- the database is back
    start();
    const backAt = performance.now();
    let recoveredMs: number | undefined;
    for (let i = 0; i < 100 && recoveredMs === undefined; i++) {
      const listing = await wireRequest(`${server.url}/api/v1/responses?formId=${formId}`, { headers: withKey });
      if (listing.status === 200) recoveredMs = performance.now() - backAt;
      else await sleep(100);
    }
    console.info(`[outage figures] ${seen.join('; ')}; recovered ${recoveredMs === undefined ? 'never' : `${Math.round(recoveredMs)} ms`} after pg_ctl start returned`);
    expect(recoveredMs, 'requests succeed again within 5 s').toBeLessThan(5_000);
    expect((await wireRequest(`${server.url}/readyz`)).status).toBe(200);

    // Nothing acknowledged before the outage is lost; the respondent half-way can finish.
    const resumed = await patchHalfWay({ answers: { [cityId]: 'Paris' }, finished: true });
    expect(resumed.status, resumed.body).toBe(200);
    expect(JSON.parse(resumed.body!)).toMatchObject({ id: halfWay.id, finished: true });
    const listing = await wireRequest(`${server.url}/api/v1/responses?formId=${formId}`, { headers: withKey });
    const rows = (JSON.parse(listing.body!) as { data: { id: string; finished: boolean }[] }).data;
    expect(rows.map((row) => row.id).sort()).toEqual([acknowledged.id, halfWay.id].sort());
    expect(rows.every((row) => row.finished)).toBe(true);
    expect(JSON.parse((await wireRequest(generateUrl, { method: 'POST', headers: withKey, body: generateBody })).body!)).toMatchObject({ success: true });

    // No restart happened, and none of it was an unexpected error.
    expect(server.logs().filter((line) => line.msg === 'formloom listening')).toHaveLength(1);
    expect(server.logs().filter((line) => /^(?:unhandled error|unexpected error|unexpected GraphQL error)$/.test(String(line.msg)))).toEqual([]);
    expect(server.logs().filter((line) => line.msg === 'request' && Number(line.status) >= 500 && line.status !== 503)).toEqual([]);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(readFileSync(join(dir, 'log'), 'utf8')).toContain('database system is ready to accept connections');
  }, 120_000);

  it('a job whose connection cannot be opened during the outage fails; after it the pool has its connection back', async () => {
    // One connection. The job's reservation asks for it while PostgreSQL is down and is refused. With
    // patches/postgres+3.4.9.patch a queued reservation waits in the queue while a connection reconnects
    // for it, so a refused one must leave the queue: else the pool would hand it the connection once
    // PostgreSQL is back, nobody would release it, and every later statement would wait forever.
    const { pgCtl, start, url } = await startCluster();
    const handle = await openDatabase({ databaseUrl: url, maxConnections: 1, connectTimeoutMs: 2_000 });
    try {
      expect(await handle.db.execute(sql`select 1 as n`)).toEqual([{ n: 1 }]);
      pgCtl('-m', 'immediate', 'stop');
      await sleep(500); // the pool sees its connection closed, so the job's reservation opens a new one
      await expect(runExclusively(handle, 'outage-job', async () => 'ran')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
      start();
      const outcome = await Promise.race([handle.db.execute(sql`select 2 as n`), sleep(5_000).then(() => 'still waiting after 5 s')]);
      expect(outcome).toEqual([{ n: 2 }]);
      await expect(runExclusively(handle, 'outage-job', async () => 'ran')).resolves.toEqual({ ran: true, value: 'ran' });
      expect(await handle.db.execute(sql`select 3 as n`)).toEqual([{ n: 3 }]);
    } finally {
      await handle.close();
    }
  }, 60_000);
});
