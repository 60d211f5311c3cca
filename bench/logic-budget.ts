/**
 * What the costliest rules cost a submission (`npx tsx bench/logic-budget.ts`): starts the server as `npm start`
 * does (PGlite in a temporary data dir, rate limits off), generates two forms whose first step's rules test a
 * 10,000-character answer with `in` lists of numbers (none holds), and prints, for each, whether it was
 * accepted and, if so, the median time of a JSON API submission of that answer and of a page GET:
 * - the worst shape: 20 rules, each an `any` of 45 `in` leaves of 500 values (450,000 listed values, a 0.9 MB body);
 * - the largest the rule budget takes: 20 rules of one `in` leaf of 500 values (10,000 listed values);
 * - the same form without rules.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../test/support/server-process.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);

/** Two steps; the first's rules: `rules` rules, each an `any` of `leaves` `in` leaves of 500 numbers. */
function ruleSteps(rules: number, leaves: number) {
  const values = () => Array.from({ length: 500 }, (_, i) => i % 10);
  return [
    {
      name: 'Tell us',
      components: [{ type: 'LongInput', key: 'story', content: { question: 'Your story?', maxLength: 10_000 } }],
      logic: {
        next: 'end',
        rules: Array.from({ length: rules }, () => ({
          if: {
            any: Array.from({ length: leaves }, () => ({
              question: 'story',
              op: 'in',
              value: values(),
            })),
          },
          then: { goTo: 'end' },
        })),
      },
    },
    { name: 'End', key: 'end', components: [{ type: 'Header', content: { title: 'Thanks' } }] },
  ];
}

const median = (list: number[]) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
// Digits but one: the numeric test reads every character of it before it fails.
const answer = `${'1'.repeat(9_999)}x`;

const dataDir = mkdtempSync(join(tmpdir(), 'formloom-bench-logic-budget-'));
const server = await startServer({
  DATA_DIR: dataDir,
  API_RATE_LIMIT: '0',
  PUBLIC_RATE_LIMIT: '0',
  PAGE_RATE_LIMIT: '0',
});
try {
  const { apiKey, environmentId, templateId } = server.demo!;
  for (const [what, rules, leaves] of [
    ['20 rules × 45 leaves × 500 values', 20, 45],
    ['20 rules × 1 leaf × 500 values', 20, 1],
    ['no rules', 0, 0],
  ] as const) {
    const body = JSON.stringify({ sourceFormId: templateId, name: what, steps: ruleSteps(rules, leaves) });
    const made = await fetch(`${server.url}/api/v1/environments/${environmentId}/forms/generate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body,
    });
    const result = (await made.json()) as {
      result?: { form: { id: string } };
      errors?: { message: string; path: unknown[] }[];
    };
    if (made.status !== 200 || !result.result) {
      console.log(`${what} (${(body.length / 1e6).toFixed(2)} MB body): generate HTTP ${made.status} ${JSON.stringify(result.errors?.[0])}`);
      continue;
    }
    const form = result.result.form;
    const read = (await (await fetch(`${server.url}/api/v1/forms/${form.id}`, { headers: { 'x-api-key': apiKey } })).json()) as {
      data: { steps: { components: { id: string }[] }[] };
    };
    const questionId = read.data.steps[0]!.components[0]!.id;
    const posts: number[] = [];
    const gets: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      let started = performance.now();
      const posted = await fetch(`${server.url}/s/${form.id}/responses`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ answers: { [questionId]: answer } }),
      });
      posts.push(performance.now() - started);
      if (posted.status !== 201) console.log(`submission: HTTP ${posted.status} ${(await posted.text()).slice(0, 200)}`);
      else await posted.body?.cancel();
      started = performance.now();
      const page = await fetch(`${server.url}/s/${form.id}`);
      await page.text();
      gets.push(performance.now() - started);
    }
    console.log(`${what} (${(body.length / 1e6).toFixed(2)} MB body): submission median ${median(posts).toFixed(0)} ms, page GET median ${median(gets).toFixed(0)} ms`);
  }
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
