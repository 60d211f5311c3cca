/**
 * `npx tsx bench/privacy.ts`: what deleting personal data costs, and what it costs everyone else.
 *
 * 1. Bulk delete: BENCH_DELETE_ROWS (default 200,000) responses of one form, each with one webhook event
 *    (outbox row), deleted with `POST /api/v1/responses/delete {formId, until}`, while a submitter sends
 *    finished submissions to the same form one after another. Reports the delete's time and rate, and
 *    the submissions' latency before and during the delete (batches keep locks short: no stall).
 * 2. Erasure: a lead with BENCH_ERASE_ROWS (default 5,000) responses over two forms, erased with
 *    `DELETE /api/v1/leads/{id}`.
 *
 * The seeded tables are ANALYZEd, as autovacuum would have done for tables this size.
 * DATABASE_URL set: a scratch database `formloom_bench_privacy` on that server (created, dropped).
 * Unset: an in-memory PGlite.
 */
import { pino } from 'pino';
import postgres from 'postgres';
import { sql } from 'drizzle-orm';
import { createApp } from '../src/app.ts';
import { createApiKey } from '../src/auth/auth.service.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase, type DatabaseHandle } from '../src/db/client.ts';
import { createEnvironment } from '../src/environments/environments.service.ts';
import { generateFormInputSchema } from '../src/forms/components.ts';
import { generateForm, importForm, type Form } from '../src/forms/forms.service.ts';
import { themeSchema } from '../src/forms/theme.ts';
import { createId } from '../src/ids.ts';

const env = process.env;
const DELETE_ROWS = Number(env.BENCH_DELETE_ROWS ?? 200_000);
const ERASE_ROWS = Number(env.BENCH_ERASE_ROWS ?? 5_000);

async function openScratch(): Promise<{ handle: DatabaseHandle; drop: () => Promise<void> }> {
  if (!env.DATABASE_URL) {
    const handle = await openDatabase({});
    await handle.migrate();
    return { handle, drop: async () => {} };
  }
  const admin = postgres(env.DATABASE_URL, { max: 1, onnotice: () => {} });
  const name = 'formloom_bench_privacy';
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.unsafe(`create database ${name}`);
  const url = new URL(env.DATABASE_URL);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ databaseUrl: url.toString(), maxConnections: 10 });
  await handle.migrate();
  return {
    handle,
    drop: async () => {
      await handle.close();
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const summary = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `n=${sorted.length} p50=${percentile(sorted, 50).toFixed(1)} ms p99=${percentile(sorted, 99).toFixed(1)} ms max=${(sorted.at(-1) ?? 0).toFixed(1)} ms`;
};

/** `count` responses of `formId` by `leadId`, each with a `response.created` outbox event, created `agoSeconds` back and older. */
async function seedResponses(handle: DatabaseHandle, input: { environmentId: string; formId: string; leadId: string; count: number; prefix: string }) {
  const { environmentId, formId, leadId, count, prefix } = input;
  const data = JSON.stringify([{ questionId: 'q', response: { type: 'IdentityInfo', emailAddress: 'someone@example.com', firstName: 'Some', componentShapeVersion: '2.0' } }]);
  for (let start = 1; start <= count; start += 50_000) {
    const end = Math.min(count, start + 49_999);
    await handle.db.execute(sql`
      insert into responses (id, environment_id, form_id, lead_id, finished, data, ip, country, created_at, updated_at, data_updated_at)
      select ${prefix} || g, ${environmentId}, ${formId}, ${leadId}, true, ${data}::json, '203.0.113.7', 'DE', t, t, t
      from generate_series(${start}::int, ${end}::int) g, lateral (select now() - interval '1 day' - g * interval '1 second' as t) x`);
    await handle.db.execute(sql`
      insert into outbox_events (id, environment_id, type, form_id, response_id, payload)
      select 'evt_' || ${prefix} || g, ${environmentId}, 'response.created', ${formId}, ${prefix} || g,
             jsonb_build_object('type', 'response.created', 'timestamp', now(), 'data', jsonb_build_object('id', ${prefix} || g, 'data', ${data}::jsonb))
      from generate_series(${start}::int, ${end}::int) g`);
  }
}

async function main() {
  const { handle, drop } = await openScratch();
  const config = { ...loadConfig({}), apiRateLimitPerMinute: 0, publicRateLimitPerMinute: 0 };
  const app = createApp({ config, db: handle.db, logger: pino({ level: 'silent' }), adminToken: 'bench-admin-token-0123456789' });
  const environment = await createEnvironment(handle.db, { name: 'Bench privacy' });
  const { key } = await createApiKey(handle.db, { environmentId: environment.id });
  const template = await importForm(handle.db, {
    environmentId: environment.id,
    name: 'Template',
    theme: themeSchema.parse({}),
    steps: [{ name: 'A', components: [{ id: 't1', type: 'ShortInput', content: { question: 'Q?' } }] }] as never,
  });
  const makeForm = (name: string): Promise<Form> =>
    generateForm(
      handle.db,
      environment.id,
      generateFormInputSchema.parse({
        sourceFormId: template.id,
        name,
        steps: [
          { name: 'A', components: [{ type: 'ShortInput', content: { question: 'Company?' } }] },
          { name: 'B', components: [{ type: 'Header', content: { title: 'Thanks' } }] },
        ],
      }),
    );
  const form = await makeForm('Bulk');
  const questionId = form.steps[0]!.components[0]!.id;
  const leadId = createId();
  await handle.db.execute(sql`insert into leads (id, environment_id) values (${leadId}, ${environment.id})`);

  console.log(`database: ${handle.kind}; seeding ${DELETE_ROWS} responses with one webhook event each …`);
  let started = performance.now();
  await seedResponses(handle, { environmentId: environment.id, formId: form.id, leadId, count: DELETE_ROWS, prefix: 'bulk-' });
  // Statistics as autovacuum would have them for a table this size (a just-filled table has none).
  await handle.db.execute(sql`analyze responses`);
  await handle.db.execute(sql`analyze outbox_events`);
  console.log(`seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  // Submissions one after another; `phase` labels each latency.
  let phase = 'before' as 'before' | 'during' | 'stop';
  const latencies = { before: [] as number[], during: [] as number[] };
  let failures = 0;
  const submitter = (async () => {
    for (;;) {
      const at = phase;
      if (at === 'stop') break;
      const t0 = performance.now();
      const response = await app.request(`/s/${form.id}/responses`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ answers: { [questionId]: 'Acme' }, finished: true }),
      });
      await response.arrayBuffer();
      if (response.status !== 201) failures++;
      latencies[at].push(performance.now() - t0);
    }
  })();
  await new Promise((resolve) => setTimeout(resolve, 3_000));

  phase = 'during';
  started = performance.now();
  const deleted = await app.request('/api/v1/responses/delete', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify({ formId: form.id, until: new Date(Date.now() - 3_600_000).toISOString() }),
  });
  const deleteMs = performance.now() - started;
  const body = (await deleted.json()) as { deletedCount: number; webhookEventsDeleted: number };
  phase = 'stop';
  await submitter;
  console.log(
    `bulk delete: HTTP ${deleted.status}, ${body.deletedCount} responses + ${body.webhookEventsDeleted} webhook events in ${(deleteMs / 1000).toFixed(1)} s ` +
      `(${Math.round(body.deletedCount / (deleteMs / 1000))} responses/s)`,
  );
  console.log(`submissions before: ${summary(latencies.before)}`);
  console.log(`submissions during: ${summary(latencies.during)}; failed: ${failures}`);

  // Erasure of one person with ERASE_ROWS responses over two forms.
  const person = createId();
  await handle.db.execute(sql`insert into leads (id, environment_id, email) values (${person}, ${environment.id}, 'bench.person@example.com')`);
  const [first, second] = [await makeForm('Erase A'), await makeForm('Erase B')];
  await seedResponses(handle, { environmentId: environment.id, formId: first.id, leadId: person, count: Math.ceil(ERASE_ROWS / 2), prefix: 'era-' });
  await seedResponses(handle, { environmentId: environment.id, formId: second.id, leadId: person, count: Math.floor(ERASE_ROWS / 2), prefix: 'erb-' });
  started = performance.now();
  const erased = await app.request(`/api/v1/leads/${person}`, { method: 'DELETE', headers: { 'x-api-key': key } });
  const eraseMs = performance.now() - started;
  const erasure = (await erased.json()) as { erasure: { responsesDeleted: number; webhookEventsDeleted: number } };
  console.log(
    `erasure: HTTP ${erased.status}, ${erasure.erasure.responsesDeleted} responses + ${erasure.erasure.webhookEventsDeleted} webhook events in ${(eraseMs / 1000).toFixed(2)} s`,
  );
  await drop();
  if (handle.kind === 'pglite') await handle.close();
}

await main();
