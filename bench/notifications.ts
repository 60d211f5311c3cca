/**
 * What e-mail notifications cost a submission: one form with a team alert to 3 addresses and a
 * respondent confirmation, next to the same form without notifications, answered by the same JSON API
 * sessions (a start and a finish: two submissions, the finish writing the 4 deliveries into the mail
 * outbox in its statement). The server (bench/server.ts, in a child process, no SMTP_URL: the
 * deliveries are recorded and wait, so sending does not compete for the CPU) takes turns on the two
 * forms: submissions per second and its CPU per submission, with and without.
 *
 * Part of `npm run bench` (on its smallest dataset). Alone: `npx tsx bench/notifications.ts` (DATABASE_URL, default
 * postgres://postgres@127.0.0.1:5432/formloom_notifications_bench, created and migrated when missing;
 * BENCH_DURATION, BENCH_ROUNDS, BENCH_CONNECTIONS). Its environment and everything in it are removed afterwards.
 */
import autocannon, { type Request as AutocannonRequest } from 'autocannon';
import { eq } from 'drizzle-orm';
import { readTemplateExample } from '../src/bootstrap.ts';
import { openDatabase } from '../src/db/client.ts';
import { environments } from '../src/db/schema.ts';
import { createEnvironment } from '../src/environments/environments.service.ts';
import { generateFormInputSchema } from '../src/forms/components.ts';
import { generateForm, importForm, type Form } from '../src/forms/forms.service.ts';
import { preparedBenchDatabase, startBenchServer } from './server-child.ts';

const STEPS = [
  {
    name: 'Contact',
    components: [{ type: 'IdentityInfo', key: 'contact', content: { fields: [{ key: 'emailAddress', label: 'E-mail' }] } }],
  },
  { name: 'Team', components: [{ type: 'ShortInput', key: 'team', content: { question: 'Your team' } }] },
];
const NOTIFICATIONS = {
  team: [{ to: ['sales@example.com', 'ops@example.com', 'ceo@example.com'], includeAnswers: true }],
  respondent: { emailFrom: 'contact.emailAddress', subject: 'Thanks', body: 'We will call you.' },
};

type Context = Record<string, unknown>;
const json = { 'content-type': 'application/json' };

/** A session: step one's answers with a fresh address (start), then step two's and the finish. */
function sessionRequests(form: Form): AutocannonRequest[] {
  const [contact, team] = form.steps.map((step) => step.components[0]!.id);
  return [
    {
      method: 'POST',
      setupRequest: (request: AutocannonRequest) => ({
        ...request,
        path: `/s/${form.id}/responses`,
        headers: json,
        body: JSON.stringify({
          answers: { [contact!]: { emailAddress: `r${Math.random().toString(36).slice(2)}@example.com` } },
        }),
      }),
      onResponse: (status: number, body: string, context: Context) => {
        if (status !== 201) return;
        const started = JSON.parse(body) as { id: string; resumeToken: string };
        context.path = `/s/${form.id}/responses/${started.id}`;
        context.auth = `Bearer ${started.resumeToken}`;
      },
    },
    {
      method: 'PATCH',
      setupRequest: (request: AutocannonRequest, context: Context) => ({
        ...request,
        path: context.path as string,
        headers: { ...json, authorization: context.auth as string },
        body: JSON.stringify({ answers: { [team!]: 'eleven' }, finished: true }),
      }),
    },
  ];
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

interface Run {
  rps: number;
  cpuMicros: number;
  errors: number;
}
export interface NotificationFigures {
  on: Run;
  off: Run;
}

/** The figures as lines of text. */
export function describeNotifications(figures: NotificationFigures): string[] {
  const line = (label: string, f: Run) =>
    `  ${label}: ${f.rps.toFixed(0)} submissions/s, ${f.cpuMicros.toFixed(0)} µs server CPU per submission${f.errors ? `, ${f.errors} errors` : ''}`;
  return [
    line('with notifications', figures.on),
    line('without', figures.off),
    `  with / without: ${(figures.on.rps / figures.off.rps).toFixed(2)}× the throughput, ${(figures.on.cpuMicros / figures.off.cpuMicros).toFixed(2)}× the CPU`,
  ];
}

export async function measureNotifications(url: string, options: { duration: number; rounds: number; connections: number }): Promise<NotificationFigures> {
  const handle = await openDatabase({ databaseUrl: url, maxConnections: 2 });
  const environment = await createEnvironment(handle.db, { name: 'Notifications bench' });
  try {
    const template = readTemplateExample();
    const source = await importForm(handle.db, {
      environmentId: environment.id,
      name: template.name,
      theme: template.theme!,
      steps: template.steps,
    });
    const generate = (notifications: unknown) =>
      generateForm(
        handle.db,
        environment.id,
        generateFormInputSchema.parse({
          sourceFormId: source.id,
          name: 'Notifications bench',
          steps: STEPS,
          notifications,
        }),
      );
    const [withForm, withoutForm] = [await generate(NOTIFICATIONS), await generate(null)];
    const server = await startBenchServer(url, { env: { SMTP_URL: '' }, execArgv: ['--import', 'tsx'] });
    const { port } = server;
    try {
      const cpu = server.cpuMicros;
      const run = async (form: Form, seconds: number): Promise<Run> => {
        const before = cpu();
        const result = await autocannon({
          url: `http://127.0.0.1:${port}`,
          connections: options.connections,
          duration: seconds,
          requests: sessionRequests(form),
        });
        const total = Math.max(result.requests.total, 1);
        return {
          rps: result.requests.average,
          cpuMicros: (cpu() - before) / total,
          errors: result.errors + result.timeouts + result['4xx'] + result['5xx'],
        };
      };
      await run(withForm, 2);
      await run(withoutForm, 2);
      const on: Run[] = [];
      const off: Run[] = [];
      for (let round = 0; round < options.rounds; round++) {
        off.push(await run(withoutForm, options.duration));
        on.push(await run(withForm, options.duration));
      }
      const combine = (runs: Run[]): Run => ({
        rps: median(runs.map((r) => r.rps)),
        cpuMicros: median(runs.map((r) => r.cpuMicros)),
        errors: runs.reduce((s, r) => s + r.errors, 0),
      });
      return { on: combine(on), off: combine(off) };
    } finally {
      await server.stop();
    }
  } finally {
    await handle.db.delete(environments).where(eq(environments.id, environment.id));
    await handle.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const env = process.env;
  const url = env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/formloom_notifications_bench';
  await preparedBenchDatabase(url);
  const figures = await measureNotifications(url, {
    duration: Number(env.BENCH_DURATION ?? 8),
    rounds: Number(env.BENCH_ROUNDS ?? 3),
    connections: Number(env.BENCH_CONNECTIONS ?? 10),
  });
  console.log('notifications: JSON API sessions (start + finish), a form with a team alert to 3 addresses and a confirmation beside one without');
  for (const line of describeNotifications(figures)) console.log(line);
  process.exit(0);
}
