/**
 * The slices (`form_insight_slice_days`, `form_insight_slice_months`): every segment together and each
 * dimension value's segments, kept by triggers as the exact sums of the hour rows through views,
 * submissions, deletion and erasure; the migration's backfill builds the same rows from the day rows;
 * the time buckets agree between SQL and TypeScript; and an environment's insights (read through the
 * slices) are the sums of its live forms'.
 */
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import { rowsOf } from '../../src/db/rows.ts';
import type { Form } from '../../src/forms/forms.service.ts';
import { completionSecondsBucket, secondsOfBucket, timeBucketOf } from '../../src/insights/counters.service.ts';
import { deleteResponses } from '../../src/privacy/deletion.service.ts';
import { createTenant, jsonRequest, setupTestApp, type TestTenant } from '../support/helpers.ts';
import { componentAt, makeForm, type App } from '../support/public-helpers.ts';

let db: Database;
let app: App;
let tenant: TestTenant;

const AGENTS = {
  desktop: 'Mozilla/5.0 (X11; Linux x86_64)',
  mobile: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148',
} as const;

beforeAll(async () => {
  ({ db, app } = await setupTestApp());
  tenant = await createTenant(db);
});

const twoSteps = (name: string) =>
  makeForm(
    db,
    tenant,
    ['One', 'Two'].map((step) => ({ name: step, components: [{ type: 'ShortInput', content: { question: `${step}?` } }] })),
    name,
    { hiddenFields: ['utm_source', 'campaign'] },
  );

/** A slice table's rows of `formId` as `<period>|<kind>|<value>|<metric>` → count. */
async function slicesOf(formId: string, level: 'day' | 'month') {
  const table = level === 'day' ? sql`form_insight_slice_days` : sql`form_insight_slice_months`;
  const rows = rowsOf<{ at: string | Date; kind: string; value: string; metric: string; count: number }>(
    await db.execute(sql`select ${sql.raw(level)} as at, kind, value, metric, count from ${table} where form_id = ${formId}`),
  );
  return new Map(rows.map((row) => [`${new Date(row.at).toISOString()}|${row.kind}|${row.value}|${row.metric}`, Number(row.count)]));
}

/** The hour rows of `formId` summed into every slice by UTC day or month (times also by bucket), zeros left out. */
async function expectedSlicesOf(formId: string, level: 'day' | 'month') {
  const hours = rowsOf<{ hour: string | Date; device: string; language: string; referrer: string; hidden: Record<string, string>; metric: string; count: number }>(
    await db.execute(sql`select hour, device, language, referrer, hidden, metric, count from form_insight_counts where form_id = ${formId}`),
  );
  const sums = new Map<string, number>();
  for (const row of hours) {
    const at = new Date(row.hour);
    const period = new Date(level === 'day' ? Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()) : Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1)).toISOString();
    const slices = [
      ['all', ''],
      ['device', row.device],
      ['language', row.language],
      ['referrer', row.referrer],
      ...Object.entries(row.hidden).map(([name, value]) => [`hidden:${name}`, value]),
    ];
    const metrics = [row.metric, ...(row.metric.startsWith('ttc:') ? [`ttcb:${timeBucketOf(Number(row.metric.slice(4)))}`] : [])];
    for (const [kind, value] of slices) {
      for (const metric of metrics) {
        const key = `${period}|${kind}|${value}|${metric}`;
        sums.set(key, (sums.get(key) ?? 0) + Number(row.count));
      }
    }
  }
  return new Map([...sums].filter(([, n]) => n !== 0));
}

async function expectSlicesFollow(formId: string) {
  for (const level of ['day', 'month'] as const) expect(await slicesOf(formId, level), level).toEqual(await expectedSlicesOf(formId, level));
}

/** A respondent: a view, a response through `steps` steps (2: finished), from a device, a source and a referrer. */
async function respond(form: Form, device: keyof typeof AGENTS, source: string, steps: number, referrer = 'https://news.example/') {
  const headers = { 'user-agent': AGENTS[device], referer: referrer };
  const hiddenFields = { utm_source: source, campaign: `c-${source}` };
  await app.request(`/s/${form.id}/views`, jsonRequest('POST', { hiddenFields }, headers));
  const res = await app.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers: { [componentAt(form, 0, 0).id]: 'a' }, hiddenFields, finished: false }, headers));
  const { id, resumeToken } = (await res.json()) as { id: string; resumeToken: string };
  if (steps > 1) {
    await app.request(
      `/s/${form.id}/responses/${id}`,
      jsonRequest('PATCH', { answers: { [componentAt(form, 1, 0).id]: 'b' }, finished: true }, { authorization: `Bearer ${resumeToken}`, ...headers }),
    );
  }
  return id;
}

describe('slices', () => {
  it('equal the sums of the hour rows through views, submissions, deletion and erasure; zeros go', async () => {
    const form = await twoSteps('Sliced');
    const ids = [
      await respond(form, 'desktop', 'ad', 2),
      await respond(form, 'mobile', 'ad', 1),
      await respond(form, 'mobile', 'mail', 2, 'https://partner.example/'),
      await respond(form, 'desktop', 'mail', 1),
    ];
    await expectSlicesFollow(form.id);
    const all = await slicesOf(form.id, 'month');
    const month = [...all.keys()][0]!.split('|')[0];
    expect(all.get(`${month}|all||starts`)).toBe(4);
    expect(all.get(`${month}|device|mobile|starts`)).toBe(2);
    expect(all.get(`${month}|hidden:campaign|c-mail|finishes`)).toBe(1);
    expect(all.get(`${month}|referrer|partner.example|views`)).toBe(1);

    await deleteResponses(db, { environmentId: tenant.environmentId, ids: [ids[1]!, ids[2]!] });
    await expectSlicesFollow(form.id);
    // The partner's referrer and the mobile response's rows are gone with their last response (the views stay).
    const after = await slicesOf(form.id, 'month');
    expect(after.get(`${month}|referrer|partner.example|starts`)).toBeUndefined();
    expect(after.get(`${month}|device|mobile|starts`)).toBeUndefined();
    expect(after.get(`${month}|device|mobile|views`)).toBe(2);

    const erased = await app.request(`/api/v1/responses/${ids[0]}`, { method: 'DELETE', headers: { authorization: `Bearer ${tenant.apiKey}` } });
    expect(erased.status).toBeLessThan(300);
    await expectSlicesFollow(form.id);
    expect(
      [...(await slicesOf(form.id, 'day')).keys()].some((key) => key.includes('|ttc')),
      'no time left',
    ).toBe(false);
  });

  it("the migration's backfill builds them from the day rows", async () => {
    const form = await twoSteps('Backfilled');
    await respond(form, 'desktop', 'ad', 2);
    await respond(form, 'mobile', 'mail', 2);
    await respond(form, 'mobile', 'mail', 1);
    const kept = { day: await slicesOf(form.id, 'day'), month: await slicesOf(form.id, 'month') };
    const migration = readFileSync(new URL('../../drizzle/0027_insight_slices.sql', import.meta.url), 'utf8').split('--> statement-breakpoint');
    // The last two statements: the slice days from the day rows, then their months.
    const backfill = migration.slice(-2);
    expect(backfill.map((statement) => statement.includes('INSERT INTO "form_insight_slice_'))).toEqual([true, true]);
    // Rebuilt from nothing inside a transaction, read, then rolled back (other forms' rows untouched).
    const rebuilt = await db
      .transaction(async (tx) => {
        // The other test files' writers wait until the rollback: one committing slice rows between the
        // delete and the backfill would make the backfill's insert collide with them.
        await tx.execute(sql`lock table form_insight_slice_days, form_insight_slice_months in exclusive mode`);
        await tx.execute(sql`delete from form_insight_slice_days`);
        await tx.execute(sql`delete from form_insight_slice_months`);
        for (const statement of backfill) await tx.execute(sql.raw(statement));
        const read = async (level: 'day' | 'month') =>
          rowsOf<{ at: string | Date; kind: string; value: string; metric: string; count: number }>(
            await tx.execute(sql`select ${sql.raw(level)} as at, kind, value, metric, count from ${sql.raw(`form_insight_slice_${level}s`)} where form_id = ${form.id}`),
          );
        throw Object.assign(new Error('rollback'), { rows: { day: await read('day'), month: await read('month') } });
      })
      .catch((error: Error & { rows?: Record<'day' | 'month', { at: string | Date; kind: string; value: string; metric: string; count: number }[]> }) => {
        if (!error.rows) throw error;
        return error.rows;
      });
    for (const level of ['day', 'month'] as const) {
      const rows = new Map(rebuilt[level].map((row) => [`${new Date(row.at).toISOString()}|${row.kind}|${row.value}|${row.metric}`, Number(row.count)]));
      expect(rows, level).toEqual(kept[level]);
    }
    expect(await slicesOf(form.id, 'day')).toEqual(kept.day);
  });

  it('time buckets: SQL and TypeScript agree, and a bucket lists the times it holds', async () => {
    const seconds = [...Array.from({ length: 2100 }, (_, i) => i), 4095, 4096, 65_535, 99_900, 1_000_000, 31_500_000, 2 ** 40];
    const rows = rowsOf<{ s: string; b: string }>(
      await db.execute(sql`select s::text as s, form_insight_time_bucket(s)::text as b from unnest(${`{${seconds.join(',')}}`}::bigint[]) as s`),
    );
    expect(rows.map((row) => Number(row.b))).toEqual(seconds.map(timeBucketOf));
    for (const s of seconds.filter((s) => completionSecondsBucket(s) === s)) {
      const bucket = timeBucketOf(s);
      expect(bucket).toBeLessThanOrEqual(s);
      expect(s - bucket).toBeLessThanOrEqual(Math.max(1, bucket / 8));
      expect(secondsOfBucket(bucket)).toContain(s);
    }
    expect(secondsOfBucket(1152)).toEqual([1160, 1170, 1180, 1190, 1200, 1210, 1220, 1230, 1240, 1250, 1260, 1270]);
  });

  it("an environment's insights are the sums of its live forms', unfiltered, with one filter and with two", async () => {
    const local = await createTenant(db);
    const own = (name: string) =>
      makeForm(
        db,
        local,
        ['One', 'Two'].map((step) => ({ name: step, components: [{ type: 'ShortInput', content: { question: `${step}?` } }] })),
        name,
        {
          hiddenFields: ['utm_source', 'campaign'],
        },
      );
    const [a, b, gone] = [await own('A'), await own('B'), await own('Gone')];
    await respond(a, 'desktop', 'ad', 2);
    await respond(a, 'mobile', 'ad', 1);
    await respond(b, 'mobile', 'mail', 2);
    await respond(gone, 'mobile', 'ad', 2);
    await db.execute(sql`update forms set deleted_at = now() where id = ${gone.id}`);
    const read = async (path: string, query: string) => {
      const res = await app.request(`${path}${query}`, { headers: { 'x-api-key': local.apiKey } });
      return ((await res.json()) as { data: { views: number; starts: number; finishes: number; devices: { value: string; views: number; starts: number; finishes: number }[] } })
        .data;
    };
    for (const query of ['', '?device=mobile', '?hidden.utm_source=ad', '?device=mobile&hidden.utm_source=ad']) {
      const [everywhere, ofA, ofB] = [
        await read('/api/v1/insights', query),
        await read(`/api/v1/forms/${a.id}/insights`, query),
        await read(`/api/v1/forms/${b.id}/insights`, query),
      ];
      expect([everywhere.views, everywhere.starts, everywhere.finishes], query).toEqual([ofA.views + ofB.views, ofA.starts + ofB.starts, ofA.finishes + ofB.finishes]);
      expect(everywhere.devices, query).toEqual(
        ofA.devices.map((d, i) => ({ ...d, views: d.views + ofB.devices[i]!.views, starts: d.starts + ofB.devices[i]!.starts, finishes: d.finishes + ofB.devices[i]!.finishes })),
      );
    }
    expect((await read('/api/v1/insights', '')).starts).toBe(3);
  });
});
