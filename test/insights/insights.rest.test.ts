/**
 * Insights over REST and GraphQL: a funnel walked by scripted respondents gives exact counts, rates and
 * times; periods in a time zone around midnight and a DST change; filters; bad parameters named.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import type { Form } from '../../src/forms/forms.service.ts';
import { createTenant, graphql, jsonRequest, setupTestApp, type TestTenant } from '../support/helpers.ts';
import { componentAt, makeForm, type App } from '../support/public-helpers.ts';

let db: Database;
let app: App;
let tenant: TestTenant;
let form: Form;

const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

const insights = async (query = '', target = `/api/v1/forms/${form.id}/insights`) => {
  const res = await app.request(`${target}${query}`, { headers: { 'x-api-key': tenant.apiKey } });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};

/** Moves a response's counted hour (and its counters) to `startedAt`, as if it had started then. */
async function startedAt(responseId: string, at: string) {
  const hour = new Date(Math.floor(Date.parse(at) / 3_600_000) * 3_600_000).toISOString();
  await db.execute(sql`update form_insight_counts c set hour = ${hour}::timestamptz
    from responses r where r.id = ${responseId} and c.form_id = r.form_id and c.segment = r.insight->>'segment' and c.hour = (r.insight->>'hour')::timestamptz`);
  await db.execute(sql`update responses set insight = jsonb_set(insight, '{hour}', to_jsonb(${hour}::text)), created_at = ${at}::timestamptz where id = ${responseId}`);
}

beforeAll(async () => {
  ({ db, app } = await setupTestApp());
  tenant = await createTenant(db);
  form = await makeForm(
    db,
    tenant,
    [
      { name: 'One', components: [{ type: 'ShortInput', content: { question: 'Name?' } }] },
      { name: 'Two', components: [{ type: 'ShortInput', content: { question: 'Role?' } }] },
      { name: 'Three', components: [{ type: 'ShortInput', content: { question: 'Team?' } }] },
    ],
    'Funnel',
    { hiddenFields: ['utm_source'] },
  );
  const answer = (step: number) => ({ [componentAt(form, step, 0).id]: `answer ${step}` });
  // Ten views; six start; two leave at step 2, one at step 3, three finish.
  for (let i = 0; i < 10; i++) {
    await app.request(
      `/s/${form.id}/views`,
      jsonRequest('POST', { hiddenFields: { utm_source: i < 4 ? 'ad' : 'mail' } }, { 'user-agent': i < 5 ? PHONE : 'Mozilla/5.0 (X11; Linux x86_64)' }),
    );
  }
  for (let i = 0; i < 6; i++) {
    const res = await app.request(
      `/s/${form.id}/responses`,
      jsonRequest('POST', { answers: answer(0), hiddenFields: { utm_source: i < 3 ? 'ad' : 'mail' } }, { 'user-agent': i < 3 ? PHONE : 'Mozilla/5.0 (X11; Linux x86_64)' }),
    );
    const { id, resumeToken } = (await res.json()) as { id: string; resumeToken: string };
    const patch = (body: unknown) => app.request(`/s/${form.id}/responses/${id}`, jsonRequest('PATCH', body, { authorization: `Bearer ${resumeToken}` }));
    if (i >= 2) await patch({ answers: answer(1) });
    if (i >= 3) await patch({ answers: answer(2), finished: true });
  }
});

describe('a form', () => {
  it('gives exact counts, rates, steps and breakdowns', async () => {
    const { status, body } = await insights();
    expect(status).toBe(200);
    const data = body.data;
    expect(data).toMatchObject({
      views: 10,
      starts: 6,
      finishes: 3,
      invalid: 0,
      startRate: 0.6,
      completionRate: 0.5,
      timeZone: 'UTC',
      groupBy: 'day',
    });
    expect(data.steps).toEqual([
      { key: 'step_1', name: 'One', reached: 6, leftHere: 0, dropOffRate: 0 },
      { key: 'step_2', name: 'Two', reached: 6, leftHere: 2, dropOffRate: 2 / 6 },
      { key: 'step_3', name: 'Three', reached: 4, leftHere: 1, dropOffRate: 1 / 4 },
    ]);
    expect(data.timeToComplete.median).toBeGreaterThanOrEqual(0);
    expect(data.devices).toEqual([
      { value: 'desktop', views: 5, starts: 3, finishes: 3 },
      { value: 'mobile', views: 5, starts: 3, finishes: 0 },
      { value: 'tablet', views: 0, starts: 0, finishes: 0 },
    ]);
    expect(data.hiddenFields).toEqual([
      {
        name: 'utm_source',
        values: [
          { value: 'mail', views: 6, starts: 3, finishes: 3 },
          { value: 'ad', views: 4, starts: 3, finishes: 0 },
        ],
      },
    ]);
    expect(data.languages).toEqual([{ value: 'en', views: 10, starts: 6, finishes: 3 }]);
    expect(data.series).toHaveLength(1);
  });

  it('filters by device and hidden value, and the environment answers over its forms', async () => {
    const mobile = (await insights('?device=mobile&hidden.utm_source=ad')).body.data;
    expect(mobile).toMatchObject({ views: 4, starts: 3, finishes: 0 });
    const everywhere = (await insights('', '/api/v1/insights')).body.data;
    expect(everywhere).toMatchObject({ views: 10, starts: 6, finishes: 3, steps: [] });
    const result = await graphql(
      app,
      `
        query ($id: ID!) {
          form(id: $id) {
            insights(filter: { device: DESKTOP }) {
              views
              starts
              finishes
            }
          }
          viewer {
            environment {
              insights {
                starts
              }
            }
          }
        }
      `,
      { id: form.id },
      { 'x-api-key': tenant.apiKey },
    );
    expect(result.body.data).toEqual({
      form: { insights: { views: 5, starts: 3, finishes: 3 } },
      viewer: { environment: { insights: { starts: 6 } } },
    });
  });

  it('bad parameters are 400 naming the parameter', async () => {
    for (const [query, path] of [
      ['?since=yesterday', 'since'],
      ['?timeZone=Mars/Olympus', 'timeZone'],
      ['?groupBy=year', 'groupBy'],
      ['?device=watch', 'device'],
      ['?since=2026-12-02&until=2026-12-01', 'until'],
      ['?since=2026-02-30', 'since'],
      ['?hidden.utm_source=a%00b', 'hidden.utm_source'],
      ['?colour=red', 'colour'],
      ['?since=1990-01-01&until=2026-01-01', 'groupBy'],
    ] as const) {
      const { status, body } = await insights(query);
      expect(status, query).toBe(400);
      expect(
        body.errors.map((e: { path: string[] }) => e.path[0]),
        query,
      ).toContain(path);
    }
    expect((await insights('', '/api/v1/forms/nosuchform00000000000000/insights')).status).toBe(404);
  });
});

describe('periods in a time zone', () => {
  it('groups around midnight and across a DST change in the time zone, filling empty periods', async () => {
    const local = await createTenant(db);
    const own = await makeForm(db, local, [
      { name: 'One', components: [{ type: 'ShortInput', content: { question: 'Name?' } }] },
      { name: 'Two', components: [{ type: 'ShortInput', content: { question: 'Role?' } }] },
    ]);
    const starts = ['2026-03-28T22:30:00Z', '2026-03-28T23:30:00Z', '2026-03-29T21:30:00Z', '2026-03-29T22:30:00Z'];
    for (const at of starts) {
      const res = await app.request(`/s/${own.id}/responses`, jsonRequest('POST', { answers: {} }));
      await startedAt(((await res.json()) as { id: string }).id, at);
    }
    const read = async (query: string) => {
      const res = await app.request(`/api/v1/forms/${own.id}/insights${query}`, {
        headers: { 'x-api-key': local.apiKey },
      });
      return ((await res.json()) as { data: { series: { period: string; starts: number }[]; since: string } }).data;
    };
    // Berlin: UTC+1 until 2026-03-29 02:00, UTC+2 after. 22:30Z on the 28th is 23:30 on the 28th; 23:30Z is 00:30 on the 29th;
    // 21:30Z on the 29th is 23:30 on the 29th; 22:30Z is 00:30 on the 30th.
    const berlin = await read('?since=2026-03-28&until=2026-03-31&timeZone=Europe/Berlin');
    expect(berlin.since).toBe('2026-03-27T23:00:00.000Z');
    expect(berlin.series.map(({ period, starts }) => [period, starts])).toEqual([
      ['2026-03-28', 1],
      ['2026-03-29', 2],
      ['2026-03-30', 1],
    ]);
    const utc = await read('?since=2026-03-27&until=2026-03-31');
    expect(utc.series.map(({ period, starts }) => [period, starts])).toEqual([
      ['2026-03-27', 0],
      ['2026-03-28', 2],
      ['2026-03-29', 2],
      ['2026-03-30', 0],
    ]);
    const weeks = await read('?since=2026-03-01&until=2026-04-01&timeZone=Europe/Berlin&groupBy=week');
    expect(weeks.series.find((p) => p.period === '2026-03-23')!.starts).toBe(3);
    expect(weeks.series.find((p) => p.period === '2026-03-30')!.starts).toBe(1);
    const months = await read('?timeZone=America/New_York&groupBy=month');
    expect(months.series).toEqual([{ period: '2026-03-01', views: 0, starts: 4, finishes: 0 }]);
  });
});
