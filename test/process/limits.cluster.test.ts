/**
 * A response limit on two nodes: two real `src/main.ts` processes on one fresh PostgreSQL database, each
 * with its own pool. With one place left, 40 respondents finishing at once, their finishes spread over
 * both nodes: exactly one finishes and counts, the others get 409, and both nodes read the same count
 * (docs/logic.md, Limits). Needs PostgreSQL: skipped when the suite runs on PGlite.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dropTestDatabase, START_TIMEOUT_MS, startServer, stopChildren, type ServerProcess } from '../support/server-process.ts';

const testDatabaseUrl = inject('testDatabaseUrl');
const RESPONDENTS = 40;

describe.skipIf(!testDatabaseUrl)('a response limit on two nodes sharing PostgreSQL', () => {
  const databaseName = `formloom_limits_${randomBytes(6).toString('hex')}`;
  const children: ChildProcess[] = [];
  const dirs: string[] = [];
  let a: ServerProcess;
  let b: ServerProcess;
  let apiKey: string;
  let formId: string;
  let questionIds: string[];

  const json = (node: ServerProcess, method: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${node.url}${path}`, { method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  beforeAll(async () => {
    const url = new URL(testDatabaseUrl!);
    const { default: postgres } = await import('postgres');
    const server = postgres(url.toString(), { max: 1, onnotice: () => {} });
    await server.unsafe(`create database ${databaseName}`);
    await server.end();
    url.pathname = `/${databaseName}`;
    const env = { DATABASE_URL: url.toString(), PUBLIC_RATE_LIMIT: '100000', PAGE_RATE_LIMIT: '100000', API_RATE_LIMIT: '100000', FONTS_CSS_URL: 'none' };
    const start = () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'formloom-limits-'));
      dirs.push(dataDir);
      return startServer({ ...env, DATA_DIR: dataDir });
    };
    [a, b] = await Promise.all([start(), start()]);
    children.push(a.child, b.child);
    const demo = (a.demo ?? b.demo)!;
    apiKey = demo.apiKey;
    const steps = ['Name', 'Role'].map((name) => ({ name, components: [{ type: 'ShortInput', content: { question: `${name}?` } }] }));
    const generated = await json(
      a,
      'POST',
      `/api/v1/environments/${demo.environmentId}/forms/generate`,
      { sourceFormId: demo.templateId, name: 'Last seat', steps, limits: { maxResponses: 3 } },
      { 'x-api-key': apiKey },
    );
    expect(generated.status).toBe(200);
    formId = ((await generated.json()) as { result: { form: { id: string } } }).result.form.id;
    const definition = (await (await fetch(`${b.url}/s/${formId}/definition`)).json()) as { steps: { components: { id: string }[] }[] };
    questionIds = definition.steps.map((step) => step.components[0]!.id);
  }, 2 * START_TIMEOUT_MS);

  afterAll(async () => {
    await stopChildren(children);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    await dropTestDatabase(testDatabaseUrl!, databaseName);
  });

  const start = async (node: ServerProcess, name: string, finished = false) => {
    const response = await json(node, 'POST', `/s/${formId}/responses`, {
      answers: { [questionIds[0]!]: name, ...(finished ? { [questionIds[1]!]: 'x' } : {}) },
      finished,
    });
    expect(response.status).toBe(201);
    return (await response.json()) as { id: string; resumeToken: string; finished: boolean };
  };
  const finishedResponses = async (node: ServerProcess) =>
    ((await (await fetch(`${node.url}/api/v1/forms/${formId}`, { headers: { 'x-api-key': apiKey } })).json()) as { data: { finishedResponses: number } }).data.finishedResponses;

  it(`gives the last place to exactly one of ${RESPONDENTS} finishes spread over both nodes`, async () => {
    expect((await start(a, 'first', true)).finished).toBe(true);
    expect((await start(b, 'second', true)).finished).toBe(true);
    // Started on either node, each with its last step left; then all finishing at once, on the other node.
    const nodes = [a, b];
    const started = await Promise.all(Array.from({ length: RESPONDENTS }, (_, i) => start(nodes[i % 2]!, `p${i}`)));
    const finishing = await Promise.all(
      started.map(async (s, i) => {
        const response = await json(
          nodes[(i + 1) % 2]!,
          'PATCH',
          `/s/${formId}/responses/${s.id}`,
          { answers: { [questionIds[1]!]: 'x' }, finished: true },
          { authorization: `Bearer ${s.resumeToken}` },
        );
        return { status: response.status, body: (await response.json()) as Record<string, unknown> };
      }),
    );
    const statuses = finishing.map((f) => f.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(RESPONDENTS - 1);
    for (const refused of finishing.filter((f) => f.status === 409)) expect(refused.body).toEqual({ message: 'This form is no longer accepting responses' });
    expect(finishing.find((f) => f.status === 200)!.body).toMatchObject({ finished: true });
    expect(await finishedResponses(a)).toBe(3);
    expect(await finishedResponses(b)).toBe(3);
    // Full on both nodes: the page shows the closed screen.
    for (const node of nodes) expect((await fetch(`${node.url}/s/${formId}`)).status).toBe(410);
  });
});
