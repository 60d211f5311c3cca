/**
 * What conditional logic costs a submission: a 10-step form with 20 rules on each step, next to the
 * same form without logic, both answered by the same JSON API sessions (a start, nine updates and a
 * finish: 11 submissions walking all 10 steps).
 *
 * - Rule evaluation, in-process: the walks one submission makes at most (the path before the request and
 *   after it, src/responses/submissions.service.ts) over the whole 10-step path, every rule of every
 *   step evaluated (none holds: each condition is an `any` of four leaves, all false), timed over many
 *   runs: µs per submission; and compiling the form's rules, which the server does once per form.
 * - The server's CPU per submission (user + system of its process, /proc) under load, the two forms
 *   taking turns: µs per submission with logic and without.
 * The target: rule evaluation within 10 % of the submission's server CPU.
 *
 * `npm run bench` runs it on its 10k dataset's database; alone: `npx tsx bench/logic.ts` (DATABASE_URL,
 * default postgres://postgres@127.0.0.1:5432/formloom_logic_bench, created and migrated when missing;
 * BENCH_DURATION, BENCH_ROUNDS, BENCH_CONNECTIONS). Its environment, forms and responses are removed afterwards.
 */
import autocannon, { type Request as AutocannonRequest } from 'autocannon';
import { createApiKey } from '../src/auth/auth.service.ts';
import { readTemplateExample } from '../src/bootstrap.ts';
import { openDatabase } from '../src/db/client.ts';
import { environments } from '../src/db/schema.ts';
import { createEnvironment } from '../src/environments/environments.service.ts';
import { generateFormInputSchema } from '../src/forms/components.ts';
import { generateForm, importForm, type Form } from '../src/forms/forms.service.ts';
import { formLogicKey, logicIndex, walkPath } from '../src/responses/path.ts';
import { eq } from 'drizzle-orm';
import { preparedBenchDatabase, startBenchServer } from './server-child.ts';

export const LOGIC_STEPS = 10;
export const RULES_PER_STEP = 20;

const key = (kind: 't' | 'd', step: number) => `${kind}${step}`;

/** The bench form's steps: a text and a choice on each; with logic, 20 rules per step (none holds) and an explicit `next`. */
export function logicBenchSteps(withLogic: boolean) {
  return Array.from({ length: LOGIC_STEPS }, (_, step) => {
    const last = step === LOGIC_STEPS - 1;
    const rules = Array.from({ length: RULES_PER_STEP }, (_, rule) => {
      const earlier = rule % (step + 1);
      return {
        if: {
          any: [
            { question: key('t', earlier), op: 'equals', value: `never ${rule}` },
            { question: key('d', earlier), op: 'in', value: ['c', 'd'] },
            { question: key('t', step), op: 'contains', value: `#${rule}` },
            { not: { question: key('d', step), op: 'answered' } },
          ],
        },
        then: last ? { complete: true } : { goTo: `s${LOGIC_STEPS - 1}` },
      };
    });
    return {
      name: `Step ${step + 1}`,
      key: `s${step}`,
      components: [
        { type: 'ShortInput', key: key('t', step), content: { question: `Text ${step + 1}` } },
        { type: 'Dropdown', key: key('d', step), content: { question: `Choice ${step + 1}`, options: ['a', 'b', 'c', 'd'] } },
      ],
      ...(withLogic ? { logic: { rules, ...(last ? {} : { next: `s${step + 1}` }) } } : {}),
    };
  });
}

/** One step's answers, by questionId. */
const stepAnswers = (form: Form, step: number) => Object.fromEntries(form.steps[step]!.components.map((c) => [c.id, c.type === 'ShortInput' ? `hello ${step}` : 'a']));

/** A session: the first step's answers (start), one update per later step, then the finish. */
export function logicSessionRequests(form: Form): AutocannonRequest[] {
  const json = { 'content-type': 'application/json' };
  type Context = Record<string, unknown>;
  const patch = (body: unknown): AutocannonRequest => ({
    method: 'PATCH',
    setupRequest: (request: AutocannonRequest, context: Context) => ({
      ...request,
      path: context.path as string,
      headers: { ...json, authorization: context.auth as string },
      body: JSON.stringify(body),
    }),
  });
  return [
    {
      method: 'POST',
      path: `/s/${form.id}/responses`,
      headers: json,
      body: JSON.stringify({ answers: stepAnswers(form, 0) }),
      onResponse: (status: number, body: string, context: Context) => {
        if (status !== 201) return;
        const started = JSON.parse(body) as { id: string; resumeToken: string };
        context.path = `/s/${form.id}/responses/${started.id}`;
        context.auth = `Bearer ${started.resumeToken}`;
      },
    },
    ...Array.from({ length: LOGIC_STEPS - 1 }, (_, i) => patch({ answers: stepAnswers(form, i + 1) })),
    patch({ answers: {}, finished: true }),
  ];
}

/**
 * µs of rule evaluation per submission: the two walks over the whole answered path, every rule
 * evaluated, on a fresh copy of the steps (each request reads the form anew) whose compiled rules the
 * server keeps per form (formLogicKey: its id and version); and, apart, compiling them (once per form and process).
 */
export function evaluationMicros(form: Pick<Form, 'id' | 'version' | 'steps'>, runs = 500): { walks: number; compile: number } {
  const answers = new Map(
    form.steps.flatMap((step, index) =>
      step.components.map((c) => [c.id, { type: c.type, ...(c.type === 'ShortInput' ? { input: `hello ${index}` } : { selected: 'a' }) }] as const),
    ),
  );
  const all = () => true;
  const submission = (steps: Form['steps'], key: string) => {
    for (let walk = 0; walk < 2; walk++) {
      const walked = walkPath(steps, answers, {}, all, key);
      if (walked.path.length !== LOGIC_STEPS) throw new Error(`the bench path went through ${walked.path.length} steps`);
    }
  };
  // Fresh copies of the steps, made before the clock starts.
  const copies = (n: number) => Array.from({ length: n }, () => structuredClone(form.steps));
  const key = formLogicKey(form);
  for (const steps of copies(100)) submission(steps, key); // warm-up (optimised code)
  // CPU time (user + system), as the server's is measured: on a busy host the wall clock also counts waiting.
  const cpu = () => {
    const { user, system } = process.cpuUsage();
    return user + system;
  };
  const fresh = copies(runs);
  let started = cpu();
  for (const steps of fresh) submission(steps, key);
  const walks = (cpu() - started) / runs;
  const uncached = copies(Math.ceil(runs / 5));
  started = cpu();
  for (const steps of uncached) logicIndex(steps);
  const compile = (cpu() - started) / uncached.length;
  return { walks, compile };
}

export interface LogicFigures {
  /** Rule evaluation per submission, in-process (µs). */
  evaluationMicros: number;
  /** Compiling the form's rules, once per form and process (µs). */
  compileMicros: number;
  /** The server's CPU per submission (µs) with the 20 × 10 rules, and for the same form without them. */
  withLogic: { cpuMicros: number; rps: number; errors: number };
  withoutLogic: { cpuMicros: number; rps: number; errors: number };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Runs the measurement on the PostgreSQL database at `url` (its own environment, removed after). */
export async function measureLogic(url: string, options: { duration?: number; rounds?: number; connections?: number; log?: (line: string) => void } = {}): Promise<LogicFigures> {
  const { duration = 10, rounds = 3, connections = 10, log = () => {} } = options;
  const handle = await openDatabase({ databaseUrl: url, maxConnections: 2 });
  const environment = await createEnvironment(handle.db, { name: 'Logic bench' });
  try {
    await createApiKey(handle.db, { environmentId: environment.id, name: 'logic bench' });
    const template = readTemplateExample();
    const source = await importForm(handle.db, { environmentId: environment.id, name: template.name, theme: template.theme!, steps: template.steps });
    const generate = (withLogic: boolean) =>
      generateForm(handle.db, environment.id, generateFormInputSchema.parse({ sourceFormId: source.id, name: `Logic bench ${withLogic}`, steps: logicBenchSteps(withLogic) }));
    const [logicForm, plainForm] = [await generate(true), await generate(false)];
    const evaluation = evaluationMicros(logicForm);
    log(
      `  rule evaluation in-process: ${evaluation.walks.toFixed(1)} µs per submission (2 walks × ${LOGIC_STEPS} steps × ${RULES_PER_STEP} rules of 4 leaves); compiling the form's rules ${evaluation.compile.toFixed(0)} µs, once per form and process`,
    );

    const server = await startBenchServer(url);
    const { port } = server;
    try {
      const cpu = server.cpuMicros;
      const run = async (form: Form, seconds: number) => {
        const before = cpu();
        const result = await autocannon({ url: `http://127.0.0.1:${port}`, connections, duration: seconds, requests: logicSessionRequests(form) });
        const total = Math.max(result.requests.total, 1);
        return { cpuMicros: (cpu() - before) / total, rps: result.requests.average, errors: result.errors + result.timeouts + result['4xx'] + result['5xx'] };
      };
      await run(logicForm, Math.min(3, duration));
      await run(plainForm, Math.min(3, duration));
      const measured: { with: Awaited<ReturnType<typeof run>>[]; without: Awaited<ReturnType<typeof run>>[] } = { with: [], without: [] };
      for (let round = 0; round < rounds; round++) {
        measured.without.push(await run(plainForm, duration));
        measured.with.push(await run(logicForm, duration));
      }
      const combine = (runs: Awaited<ReturnType<typeof run>>[]) => ({
        cpuMicros: median(runs.map((r) => r.cpuMicros)),
        rps: median(runs.map((r) => r.rps)),
        errors: runs.reduce((sum, r) => sum + r.errors, 0),
      });
      return { evaluationMicros: evaluation.walks, compileMicros: evaluation.compile, withLogic: combine(measured.with), withoutLogic: combine(measured.without) };
    } finally {
      await server.stop();
    }
  } finally {
    // Its forms, responses, leads and events go with it (foreign keys cascade).
    await handle.db.delete(environments).where(eq(environments.id, environment.id));
    await handle.close();
  }
}

/** The figures as the bench prints them, and whether the target is met. */
export function describeLogic(f: LogicFigures): { value: string; met: boolean } {
  const share = f.evaluationMicros / f.withLogic.cpuMicros;
  const overhead = f.withLogic.cpuMicros / f.withoutLogic.cpuMicros - 1;
  return {
    value:
      `evaluation ${f.evaluationMicros.toFixed(1)} µs = ${(100 * share).toFixed(1)} % of ${f.withLogic.cpuMicros.toFixed(0)} µs server CPU/submission; ` +
      `without logic ${f.withoutLogic.cpuMicros.toFixed(0)} µs (${overhead >= 0 ? '+' : ''}${(100 * overhead).toFixed(1)} % with it); ` +
      `${f.withLogic.rps.toFixed(0)} vs ${f.withoutLogic.rps.toFixed(0)} submissions/s` +
      (f.withLogic.errors + f.withoutLogic.errors > 0 ? `, ${f.withLogic.errors + f.withoutLogic.errors} errors` : ''),
    met: share <= 0.1 && f.withLogic.errors + f.withoutLogic.errors === 0,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const env = process.env;
  const url = env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/formloom_logic_bench';
  // The database, created and migrated when missing.
  await preparedBenchDatabase(url);
  console.log(`logic: ${LOGIC_STEPS} steps × ${RULES_PER_STEP} rules, JSON API sessions of ${LOGIC_STEPS + 1} submissions`);
  const figures = await measureLogic(url, {
    duration: Number(env.BENCH_DURATION ?? 10),
    rounds: Number(env.BENCH_ROUNDS ?? 3),
    connections: Number(env.BENCH_CONNECTIONS ?? 10),
    log: (line) => console.log(line),
  });
  const { value, met } = describeLogic(figures);
  console.log(`  ${value}`);
  console.log(`  target (rule evaluation ≤ 10 % of the submission's server CPU): ${met ? 'met' : 'MISSED'}`);
  process.exit(0);
}
