/**
 * Seeds a benchmark database with SQL generate_series (no row-by-row inserts): 2 environments,
 * `forms` forms split between them, `responses` responses (≈100 per form, 90% completed), with
 * realistic answers (~1 KB of JSON each) and created_at spread over a year with microsecond jitter.
 *
 * For speed the listing indexes are dropped during the insert and rebuilt after it (from their own
 * definitions in pg_indexes), and foreign-key triggers are skipped when the role may do that.
 */
import type { Sql, TransactionSql } from 'postgres';
import { readTemplateExample } from '../src/bootstrap.ts';
import { isJsonStringifyText } from '../src/db/jsonb-text.ts';

export const BENCH_ENVIRONMENTS = ['bench-env-a', 'bench-env-b'] as const;

export interface SeedSize {
  forms: number;
  responses: number;
  leads: number;
}

export interface SeedCounts {
  forms: number;
  responses: number;
  environmentA: number;
  /** The seeded answers are the text the service stores (JSON.stringify's), not jsonb_out's from before migration 0009. */
  storedAsService: boolean;
}

/** What is already there (0s when nothing is). */
export async function countSeed(sql: Sql): Promise<SeedCounts> {
  const [row] = await sql<{ forms: string; responses: string; a: string; sample: string | null }[]>`
    select (select count(*) from forms where environment_id in ${sql(BENCH_ENVIRONMENTS)}) as forms,
           (select count(*) from responses) as responses,
           (select count(*) from responses where environment_id = ${BENCH_ENVIRONMENTS[0]}) as a,
           (select data::text from responses where id = 'bench-resp-0') as sample`;
  return {
    forms: Number(row!.forms),
    responses: Number(row!.responses),
    environmentA: Number(row!.a),
    storedAsService: row!.sample !== null && isJsonStringifyText(row!.sample),
  };
}

/** Skips per-row FK triggers in this transaction when the role may (superuser); harmless otherwise. */
async function skipTriggers(tx: TransactionSql) {
  await tx`savepoint skip_triggers`;
  await tx`set local session_replication_role = replica`.catch(async () => {
    await tx`rollback to savepoint skip_triggers`;
  });
}

/** Removes the benchmark's rows (only those) so a seed starts clean. */
export async function clearSeed(sql: Sql): Promise<void> {
  await sql.begin(async (tx) => {
    await skipTriggers(tx);
    for (const table of ['responses', 'lead_form_stats', 'leads', 'forms', 'api_keys', 'environments']) {
      if (table === 'lead_form_stats') {
        await tx`delete from lead_form_stats where form_id in (select id from forms where environment_id in ${tx(BENCH_ENVIRONMENTS)})`;
      } else if (table === 'environments') {
        await tx`delete from environments where id in ${tx(BENCH_ENVIRONMENTS)}`;
      } else {
        await tx`delete from ${tx(table)} where environment_id in ${tx(BENCH_ENVIRONMENTS)}`;
      }
    }
  });
}

export async function seed(sql: Sql, size: SeedSize, log: (line: string) => void): Promise<void> {
  const template = readTemplateExample();
  // Stored forms carry ids on every step and component (forms.service.ts assigns them); so do these.
  const steps = template.steps.map((step, s) => ({
    id: `bench-step-${s}`,
    name: step.name,
    components: step.components.map((component, c) => ({ id: `bench-q-${s}-${c}`, type: component.type, content: component.content })),
  }));
  const started = performance.now();
  await clearSeed(sql);
  const indexes = await sql<{ indexname: string; indexdef: string }[]>`
    select indexname, indexdef from pg_indexes
    where schemaname = current_schema() and tablename = 'responses' and indexname <> 'responses_pkey'`;

  await sql.begin(async (tx) => {
    // The data is consistent by construction: no need for per-row FK checks.
    await skipTriggers(tx);
    for (const index of indexes) await tx.unsafe(`drop index if exists "${index.indexname}"`);

    await tx`insert into environments (id, name) values (${BENCH_ENVIRONMENTS[0]}, 'Bench A'), (${BENCH_ENVIRONMENTS[1]}, 'Bench B')`;
    // Form i belongs to environment A when i is even. Lead j likewise.
    await tx`
      insert into forms (id, environment_id, name, status, theme, steps)
      select 'bench-form-' || i, case when i % 2 = 0 then ${BENCH_ENVIRONMENTS[0]} else ${BENCH_ENVIRONMENTS[1]} end,
             'Bench form ' || i, 'published', ${tx.json(template.theme as never)}::jsonb, ${tx.json(steps as never)}::jsonb
      from generate_series(0, ${size.forms - 1}) i`;
    await tx`
      insert into leads (id, environment_id, email)
      select 'bench-lead-' || j, case when j % 2 = 0 then ${BENCH_ENVIRONMENTS[0]} else ${BENCH_ENVIRONMENTS[1]} end, 'lead' || j || '@example.com'
      from generate_series(0, ${size.leads - 1}) j`;
    log(`  forms and leads: ${((performance.now() - started) / 1000).toFixed(1)} s`);

    // Response i is the k-th of form i % forms (k = i / forms), by a lead of the same environment
    // (same parity), one every ~31 s over a year; every form's 10th response in 10 is unfinished
    // (and untouched since, so "dropped off").
    const spacingMicros = Math.floor((365 * 86_400 * 1e6) / size.responses);
    const leadsPerEnvironment = Math.floor(size.leads / 2);
    await tx`
      insert into responses (id, environment_id, form_id, lead_id, finished, data, meta, ip, country,
                             visited_form, completed_form, version, created_at, updated_at, data_updated_at)
      select 'bench-resp-' || i,
             case when f % 2 = 0 then ${BENCH_ENVIRONMENTS[0]} else ${BENCH_ENVIRONMENTS[1]} end,
             'bench-form-' || f,
             'bench-lead-' || ((i % ${leadsPerEnvironment}) * 2 + f % 2),
             k % 10 <> 3,
             -- The answers as the service stores them: JSON.stringify's text of the array (a json column).
             format('[{"questionId":"q-identity","response":{"type":"IdentityInfo","headline":"Who are you?","componentShapeVersion":"2.0",'
               || '"firstName":%s,"lastName":%s,"fullName":%s,"emailAddress":%s,"companyName":%s}},'
               || '{"questionId":"q-role","response":{"type":"ShortInput","headline":"What is your role?","componentShapeVersion":"2.0","input":%s}},'
               || '{"questionId":"q-size","response":{"type":"Dropdown","headline":"How big is your team?","componentShapeVersion":"2.0","selected":%s}},'
               || '{"questionId":"q-goals","response":{"type":"MultipleOptionsQuestion","headline":"What do you want to improve?","componentShapeVersion":"2.0",'
               || '"choices":[{"key":"Lead quality","value":%s,"index":0},{"key":"Conversion","value":%s,"index":1},{"key":"Speed to lead","value":%s,"index":2}],"selectedOther":false}},'
               || '{"questionId":"q-demo","response":{"type":"CalendlyScreen","headline":"Book a demo","componentShapeVersion":"2.0","eventScheduled":%s,'
               || '"uri":%s,"meetingTime":%s,"meetingEndTime":%s,"ownerEmails":["sales@acme.example"],"guestEmails":[%s]}},'
               || '{"questionId":"q-terms","response":{"type":"Disclaimer","headline":"I agree to the terms","componentShapeVersion":"2.0","check":true}}]',
               to_json(fn), to_json(ln), to_json(fn || ' ' || ln), to_json(email), to_json('Company ' || (i % 997)),
               to_json((array['Engineer', 'Designer', 'Founder', 'Marketing lead', 'Sales'])[1 + i % 5]),
               to_json((array['1-10', '11-50', '51-200', '201+'])[1 + i % 4]),
               to_json(i % 2 = 0), to_json(i % 3 = 0), to_json(i % 5 = 0), to_json(i % 3 = 0),
               to_json('https://api.calendly.com/scheduled_events/' || md5(i::text)),
               to_json(to_char((t + interval '2 days') at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
               to_json(to_char((t + interval '2 days 30 minutes') at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
               to_json(email))::json,
             jsonb_build_object('source', 'page', 'userAgent', 'Mozilla/5.0 (X11; Linux x86_64) Bench/1.0'),
             '203.0.113.' || (i % 250), (array['DE', 'FR', 'US', 'GB', 'NL'])[1 + i % 5],
             1 + i % 3, case when k % 10 <> 3 then 1 else 0 end, '2.0',
             t, t + interval '4 minutes', t + interval '3 minutes'
      from generate_series(0, ${size.responses - 1}) i,
           lateral (select i % ${size.forms} as f, i / ${size.forms} as k,
                           (array['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Frances'])[1 + i % 7] as fn,
                           (array['Lovelace', 'Hopper', 'Turing', 'Dijkstra', 'Liskov', 'Knuth', 'Allen'])[1 + i % 11 % 7] as ln,
                           timestamptz '2025-01-01T00:00:00Z' + (i::bigint * ${spacingMicros} + (i::bigint * 7919) % 1000) * interval '1 microsecond' as t) x,
           lateral (select lower(x.fn) || '.' || lower(x.ln) || i || '@example.com' as email) e`;
    log(`  ${size.responses.toLocaleString('en')} responses: ${((performance.now() - started) / 1000).toFixed(1)} s`);

    await tx`set local maintenance_work_mem = '512MB'`;
    for (const index of indexes) await tx.unsafe(index.indexdef);
    log(`  indexes rebuilt: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  });
  await sql`analyze environments, forms, leads, responses`;
  await sql`vacuum (analyze) responses`;
  log(`  seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/**
 * Removes what the write benchmarks added (responses, leads and their counts, generated forms, events)
 * and leaves the seeded rows: the listing and stream figures stay those of the seeded dataset.
 */
export async function clearSubmissions(sql: Sql): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`delete from forms where environment_id in ${tx(BENCH_ENVIRONMENTS)} and id not like 'bench-form-%'`;
    await tx`delete from responses where environment_id in ${tx(BENCH_ENVIRONMENTS)} and id not like 'bench-resp-%'`;
    await tx`delete from lead_form_stats where lead_id in (select id from leads where environment_id in ${tx(BENCH_ENVIRONMENTS)} and id not like 'bench-lead-%')`;
    await tx`delete from leads where environment_id in ${tx(BENCH_ENVIRONMENTS)} and id not like 'bench-lead-%'`;
    await tx`delete from outbox_events where environment_id in ${tx(BENCH_ENVIRONMENTS)}`;
  });
}
