/**
 * Insights on two nodes: two real `src/main.ts` processes on one fresh PostgreSQL database and one
 * Redis. Views (the JSON API's, the page's and the embed's) and submissions sent to both nodes at once
 * are each counted exactly once, both nodes answer the same figures, and a share link revoked on one
 * node is 404 on the other at its next request. Needs PostgreSQL: skipped when the suite runs on PGlite.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dropTestDatabase, START_TIMEOUT_MS, startServer, stopChildren, type ServerProcess } from '../support/server-process.ts';

const testDatabaseUrl = inject('testDatabaseUrl');
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

describe.skipIf(!testDatabaseUrl)('insights on two nodes sharing PostgreSQL and Redis', () => {
  const databaseName = `formloom_insights_${randomBytes(6).toString('hex')}`;
  const children: ChildProcess[] = [];
  const dirs: string[] = [];
  let a: ServerProcess;
  let b: ServerProcess;
  let apiKey: string;
  let formId: string;
  let questionIds: string[];

  const call = (node: ServerProcess, path: string, init: RequestInit = {}) =>
    fetch(`${node.url}${path}`, {
      ...init,
      headers: { 'user-agent': BROWSER, ...(init.headers as Record<string, string>) },
      redirect: 'manual',
    });
  const json = (node: ServerProcess, method: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
    call(node, path, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  const withKey = () => ({ 'x-api-key': apiKey });

  beforeAll(async () => {
    const url = new URL(testDatabaseUrl!);
    const { default: postgres } = await import('postgres');
    const server = postgres(url.toString(), { max: 1, onnotice: () => {} });
    await server.unsafe(`create database ${databaseName}`);
    await server.end();
    url.pathname = `/${databaseName}`;
    const env = {
      DATABASE_URL: url.toString(),
      REDIS_URL: 'redis://127.0.0.1:6379',
      REDIS_KEY_PREFIX: `formloom-test-${randomBytes(6).toString('hex')}:`,
      PUBLIC_RATE_LIMIT: '100000',
      PAGE_RATE_LIMIT: '100000',
      API_RATE_LIMIT: '100000',
      FONTS_CSS_URL: 'none',
    };
    const start = () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'formloom-insights-'));
      dirs.push(dataDir);
      return startServer({ ...env, DATA_DIR: dataDir });
    };
    [a, b] = await Promise.all([start(), start()]);
    children.push(a.child, b.child);
    const demo = (a.demo ?? b.demo)!;
    apiKey = demo.apiKey;
    const steps = ['One', 'Two', 'Three'].map((name) => ({
      name,
      components: [{ type: 'ShortInput', content: { question: `${name}?` } }],
    }));
    const generated = await json(a, 'POST', `/api/v1/environments/${demo.environmentId}/forms/generate`, { sourceFormId: demo.templateId, name: 'Two nodes', steps }, withKey());
    expect(generated.status).toBe(200);
    formId = ((await generated.json()) as { result: { form: { id: string } } }).result.form.id;
    const definition = (await (await call(b, `/s/${formId}/definition`)).json()) as {
      steps: { components: { id: string }[] }[];
    };
    questionIds = definition.steps.map((step) => step.components[0]!.id);
  }, 2 * START_TIMEOUT_MS);

  afterAll(async () => {
    await stopChildren(children);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    await dropTestDatabase(testDatabaseUrl!, databaseName);
  });

  /** A respondent on `first` who answers step one, and (on the other node) step two, and finishes when `finish`. */
  async function respond(first: ServerProcess, other: ServerProcess, finish: boolean) {
    const started = await json(first, 'POST', `/s/${formId}/responses`, { answers: { [questionIds[0]!]: 'a' } });
    expect(started.status).toBe(201);
    const { id, resumeToken } = (await started.json()) as { id: string; resumeToken: string };
    if (!finish) return;
    const patched = await json(
      other,
      'PATCH',
      `/s/${formId}/responses/${id}`,
      { answers: { [questionIds[1]!]: 'b', [questionIds[2]!]: 'c' }, finished: true },
      { authorization: `Bearer ${resumeToken}` },
    );
    expect(patched.status).toBe(200);
  }

  it('counts concurrent views and submissions on both nodes exactly once, and both nodes answer the same', async () => {
    const nodes = [a, b];
    const work: Promise<unknown>[] = [];
    for (let i = 0; i < 40; i++) work.push(json(nodes[i % 2]!, 'POST', `/s/${formId}/views`, {}).then(async (res) => expect(await res.json()).toEqual({ counted: true })));
    for (let i = 0; i < 20; i++) work.push(call(nodes[i % 2]!, `/s/${formId}`).then((res) => expect(res.status).toBe(200)));
    for (let i = 0; i < 10; i++) work.push(call(nodes[i % 2]!, `/s/${formId}?embed=1`).then((res) => expect(res.status).toBe(200)));
    for (let i = 0; i < 24; i++) work.push(respond(nodes[i % 2]!, nodes[(i + 1) % 2]!, i % 3 === 0));
    await Promise.all(work);
    const read = async (node: ServerProcess) =>
      (
        (await (await call(node, `/api/v1/forms/${formId}/insights`, { headers: withKey() })).json()) as {
          data: Record<string, any>;
        }
      ).data;
    const [onA, onB] = await Promise.all([read(a), read(b)]);
    expect(onA).toEqual(onB);
    expect({ views: onA.views, starts: onA.starts, finishes: onA.finishes }).toEqual({
      views: 70,
      starts: 24,
      finishes: 8,
    });
    expect(onA.steps.map((step: { reached: number; leftHere: number }) => [step.reached, step.leftHere])).toEqual([
      [24, 0],
      [24, 16],
      [8, 0],
    ]);
  });

  it('a share link made on one node opens on the other; revoked there, it is 404 on both at once', async () => {
    const made = await json(a, 'POST', `/api/v1/forms/${formId}/share-links`, {}, withKey());
    expect(made.status).toBe(201);
    const { id, url } = (await made.json()) as { id: string; url: string };
    const page = await call(b, url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Two nodes');
    const revoked = await call(b, `/api/v1/forms/${formId}/share-links/${id}`, {
      method: 'DELETE',
      headers: withKey(),
    });
    expect(revoked.status).toBe(200);
    expect([(await call(a, url)).status, (await call(b, url)).status]).toEqual([404, 404]);
  });
});
