/**
 * What variables and recall cost a submission: a 10-step form with 20 calculations (on each step, a score
 * added from the chosen option's `optionScores` and a text appended from the text answer) and 10 recalled
 * texts (each later step's name and question recalling the step before), next to the same form without
 * them, both answered by the same JSON API sessions (a start, nine updates and a finish).
 *
 * - In-process: the walks one submission makes (src/responses/path.ts) with the calculations, and without.
 * - The server's CPU per submission (user + system of its process) under load, the two forms taking turns.
 *
 * Alone: `npx tsx bench/variables.ts` (DATABASE_URL, default postgres://postgres@127.0.0.1:5432/formloom_logic_bench,
 * created and migrated when missing; BENCH_DURATION, BENCH_ROUNDS, BENCH_CONNECTIONS). Its environment is removed afterwards.
 */
import autocannon from 'autocannon';
import { eq } from 'drizzle-orm';
import { createApiKey } from '../src/auth/auth.service.ts';
import { readTemplateExample } from '../src/bootstrap.ts';
import { openDatabase } from '../src/db/client.ts';
import { environments } from '../src/db/schema.ts';
import { createEnvironment } from '../src/environments/environments.service.ts';
import { generateFormInputSchema } from '../src/forms/components.ts';
import { generateForm, importForm, type Form } from '../src/forms/forms.service.ts';
import { formLogicKey, walkPath } from '../src/responses/path.ts';
import { preparedBenchDatabase, startBenchServer } from './server-child.ts';
import { logicSessionRequests, LOGIC_STEPS } from './logic.ts';

/** The bench form: a text (`t<n>`) and a choice (`d<n>`) on each of 10 steps; counting: 2 calculations per step and recalled texts. */
export function variablesBenchSteps(counting: boolean) {
  return Array.from({ length: LOGIC_STEPS }, (_, step) => {
    const recalled = counting && step > 0 ? ` after {{question.t${step - 1} | "you"}}` : '';
    const calculations = [
      { calculate: { variable: 'score', op: 'add', value: { scoreOf: `d${step}` } } },
      { calculate: { variable: 'trail', op: 'append', value: { question: `t${step}` } } },
    ];
    return {
      name: `Step ${step + 1}${recalled}`,
      key: `s${step}`,
      components: [
        { type: 'ShortInput', key: `t${step}`, content: { question: `Text ${step + 1}${recalled}` } },
        {
          type: 'Dropdown',
          key: `d${step}`,
          content: {
            question: `Choice ${step + 1}`,
            options: ['a', 'b', 'c', 'd'],
            ...(counting ? { optionScores: { a: 1, b: 2, c: 3, d: 4 } } : {}),
          },
        },
      ],
      ...(counting ? { logic: { rules: [{ if: { question: `d${step}`, op: 'answered' }, then: calculations }] } } : {}),
    };
  });
}

const VARIABLES = [
  { name: 'score', type: 'number' },
  { name: 'trail', type: 'text' },
];

/** µs of the walks of one submission (two over the whole path), with the form's variables. */
function walkMicros(form: Form, runs = 500): number {
  const answers = new Map(
    form.steps.flatMap((step, index) =>
      step.components.map((c) => [c.id, { type: c.type, ...(c.type === 'ShortInput' ? { input: `hello ${index}` } : { selected: 'a' }) }] as const),
    ),
  );
  const key = formLogicKey(form);
  const once = () => {
    for (let walk = 0; walk < 2; walk++) walkPath(form.steps, answers, {}, () => true, key, form.variables);
  };
  for (let i = 0; i < 100; i++) once();
  const cpu = () => {
    const { user, system } = process.cpuUsage();
    return user + system;
  };
  const started = cpu();
  for (let i = 0; i < runs; i++) once();
  return (cpu() - started) / runs;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function measureVariables(url: string, options: { duration?: number; rounds?: number; connections?: number; log?: (line: string) => void } = {}) {
  const { duration = 10, rounds = 3, connections = 10, log = () => {} } = options;
  const handle = await openDatabase({ databaseUrl: url, maxConnections: 2 });
  const environment = await createEnvironment(handle.db, { name: 'Variables bench' });
  try {
    await createApiKey(handle.db, { environmentId: environment.id, name: 'variables bench' });
    const template = readTemplateExample();
    const source = await importForm(handle.db, {
      environmentId: environment.id,
      name: template.name,
      theme: template.theme!,
      steps: template.steps,
    });
    const generate = (counting: boolean) =>
      generateForm(
        handle.db,
        environment.id,
        generateFormInputSchema.parse({
          sourceFormId: source.id,
          name: `Variables bench ${counting}`,
          steps: variablesBenchSteps(counting),
          ...(counting ? { variables: VARIABLES } : {}),
        }),
      );
    const [counting, plain] = [await generate(true), await generate(false)];
    const walks = { withMicros: walkMicros(counting), withoutMicros: walkMicros(plain) };
    log(`  walks in-process: ${walks.withMicros.toFixed(1)} µs per submission with 20 calculations, ${walks.withoutMicros.toFixed(1)} µs without`);
    const server = await startBenchServer(url);
    const { port } = server;
    try {
      const cpu = server.cpuMicros;
      const run = async (form: Form, seconds: number) => {
        const before = cpu();
        const result = await autocannon({
          url: `http://127.0.0.1:${port}`,
          connections,
          duration: seconds,
          requests: logicSessionRequests(form),
        });
        return {
          cpuMicros: (cpu() - before) / Math.max(result.requests.total, 1),
          errors: result.errors + result.timeouts + result['4xx'] + result['5xx'],
        };
      };
      await run(counting, Math.min(3, duration));
      await run(plain, Math.min(3, duration));
      const withThem: number[] = [];
      const without: number[] = [];
      let errors = 0;
      for (let round = 0; round < rounds; round++) {
        const a = await run(plain, duration);
        const b = await run(counting, duration);
        without.push(a.cpuMicros);
        withThem.push(b.cpuMicros);
        errors += a.errors + b.errors;
      }
      return { withCpuMicros: median(withThem), withoutCpuMicros: median(without), errors, walks };
    } finally {
      await server.stop();
    }
  } finally {
    await handle.db.delete(environments).where(eq(environments.id, environment.id));
    await handle.close();
  }
}

export type VariablesFigures = Awaited<ReturnType<typeof measureVariables>>;

/** The figures as the bench prints them: the server's CPU per submission with the calculations and recalled texts, and without. */
export function describeVariables(f: VariablesFigures): string {
  const overhead = f.withCpuMicros / f.withoutCpuMicros - 1;
  return (
    `server CPU ${f.withCpuMicros.toFixed(0)} µs/submission with them, ${f.withoutCpuMicros.toFixed(0)} µs without (${overhead >= 0 ? '+' : ''}${(100 * overhead).toFixed(1)} %); ` +
    `walks ${f.walks.withMicros.toFixed(1)} vs ${f.walks.withoutMicros.toFixed(1)} µs` +
    (f.errors > 0 ? `, ${f.errors} errors` : '')
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const env = process.env;
  const url = env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/formloom_logic_bench';
  await preparedBenchDatabase(url);
  console.log(`variables: ${LOGIC_STEPS} steps, 20 calculations and 10 recalled texts, JSON API sessions of ${LOGIC_STEPS + 1} submissions`);
  const figures = await measureVariables(url, {
    duration: Number(env.BENCH_DURATION ?? 10),
    rounds: Number(env.BENCH_ROUNDS ?? 3),
    connections: Number(env.BENCH_CONNECTIONS ?? 10),
    log: (line) => console.log(line),
  });
  console.log(`  ${describeVariables(figures)}`);
  process.exit(0);
}
