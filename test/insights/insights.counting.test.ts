/**
 * The insight counters as things happen: views of the page and the embed, `POST /s/:id/views` and its
 * edge, what submissions count (page and JSON API), and what deleting and erasing responses take off.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import { rowsOf } from '../../src/db/rows.ts';
import type { Form } from '../../src/forms/forms.service.ts';
import { deleteResponses } from '../../src/privacy/deletion.service.ts';
import { appWith, createTenant, jsonRequest, setupTestApp, type TestTenant } from '../support/helpers.ts';
import { componentAt, field, makeForm, responsesOf, Visitor, type App } from '../support/public-helpers.ts';

let db: Database;
let app: App;
let tenant: TestTenant;

const DESKTOP = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

beforeAll(async () => {
  ({ db, app } = await setupTestApp());
  tenant = await createTenant(db);
});

const threeSteps = () =>
  makeForm(
    db,
    tenant,
    [
      { name: 'One', components: [{ type: 'ShortInput', content: { question: 'Name?' } }] },
      { name: 'Two', components: [{ type: 'ShortInput', content: { question: 'Role?' } }] },
      { name: 'Three', components: [{ type: 'ShortInput', content: { question: 'Team?' } }] },
    ],
    'Counted form',
    { hiddenFields: ['utm_source'] },
  );

/** The form's counters summed by metric, and the dimensions of every row. */
async function countersOf(formId: string) {
  const rows = rowsOf<{
    metric: string;
    device: string;
    language: string;
    referrer: string;
    hidden: Record<string, string>;
    count: number;
  }>(await db.execute(sql`select metric, device, language, referrer, hidden, count from form_insight_counts where form_id = ${formId}`));
  const totals: Record<string, number> = {};
  for (const row of rows) if (Number(row.count) !== 0) totals[row.metric] = (totals[row.metric] ?? 0) + Number(row.count);
  return { totals, rows };
}

describe('views', () => {
  let form: Form;
  beforeAll(async () => {
    form = await threeSteps();
  });

  it('counts a page view and an embed view of the first step once each, with their dimensions', async () => {
    const page = new Visitor(app, { 'user-agent': DESKTOP, referer: 'https://news.example.org/story?id=1' });
    expect((await page.get(`/s/${form.id}?utm_source=ad&other=x`)).status).toBe(200);
    const embedded = new Visitor(app, { 'user-agent': PHONE });
    expect((await embedded.get(`/s/${form.id}?embed=1&fl-origin=${encodeURIComponent('https://shop.example.com')}`)).status).toBe(200);
    const { totals, rows } = await countersOf(form.id);
    expect(totals).toEqual({ views: 2 });
    const dims = rows.map(({ device, language, referrer, hidden }) => ({ device, language, referrer, hidden }));
    expect(dims).toContainEqual({
      device: 'desktop',
      language: 'en',
      referrer: 'news.example.org',
      hidden: { utm_source: 'ad' },
    });
    expect(dims).toContainEqual({ device: 'mobile', language: 'en', referrer: 'shop.example.com', hidden: {} });
  });

  it("does not count bots, later steps, a returning respondent's step or the form's own pages as referrer", async () => {
    const own = await threeSteps();
    await new Visitor(app, { 'user-agent': BOT }).get(`/s/${own.id}`);
    const person = new Visitor(app, { 'user-agent': DESKTOP, referer: 'http://localhost/s/other' });
    await person.get(`/s/${own.id}`);
    expect((await person.submit(own, 0, { [field(componentAt(own, 0, 0))]: 'Ada' })).status).toBe(303);
    await person.get(`/s/${own.id}`);
    await person.get(`/s/${own.id}?step=1`);
    const { totals, rows } = await countersOf(own.id);
    expect(totals.views).toBe(1);
    expect(rows.find((row) => row.metric === 'views')!.referrer).toBe('');
  });

  it('POST /s/:id/views counts a custom client view and answers 202 {counted}', async () => {
    const own = await threeSteps();
    const post = (body: unknown, headers: Record<string, string> = { 'user-agent': PHONE }) => app.request(`/s/${own.id}/views`, jsonRequest('POST', body, headers));
    const counted = await post({
      hiddenFields: { utm_source: 'mail', undeclared: 'x' },
      referrer: 'https://blog.example.net/post',
    });
    expect(counted.status).toBe(202);
    expect(await counted.json()).toEqual({ counted: true });
    expect(counted.headers.get('access-control-allow-origin')).toBe('*');
    expect(counted.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await (await post({ referrer: 'www.example.com' })).json()).toEqual({ counted: true });
    expect(await (await post({}, { 'user-agent': BOT })).json()).toEqual({ counted: false });
    const { rows } = await countersOf(own.id);
    expect(rows.map(({ device, referrer, hidden, count }) => ({ device, referrer, hidden, count })).sort((a, b) => a.referrer.localeCompare(b.referrer))).toEqual([
      { device: 'mobile', referrer: 'blog.example.net', hidden: { utm_source: 'mail' }, count: 1 },
      { device: 'mobile', referrer: 'www.example.com', hidden: {}, count: 1 },
    ]);
  });

  it('POST /s/:id/views: bad bodies are 400 at their path, unknown forms 404, other methods 405', async () => {
    const own = await threeSteps();
    const bad = await app.request(`/s/${own.id}/views`, jsonRequest('POST', { hiddenFields: { utm_source: 7 } }));
    expect(bad.status).toBe(400);
    expect((await bad.json()).errors[0].path).toEqual(['hiddenFields', 'utm_source']);
    const extra = await app.request(`/s/${own.id}/views`, jsonRequest('POST', { views: 3 }));
    expect(extra.status).toBe(400);
    expect((await app.request(`/s/${own.id}/views`, jsonRequest('POST', '{nope'))).status).toBe(400);
    expect((await app.request(`/s/nosuchform0000000000000/views`, jsonRequest('POST', {}))).status).toBe(404);
    expect((await app.request(`/s/${own.id}/views`)).status).toBe(405);
    expect((await countersOf(own.id)).rows).toEqual([]);
  });

  it('POST /s/:id/views is size- and rate-limited like the other public posts', async () => {
    const own = await threeSteps();
    const limited = appWith(db, { publicRateLimitPerMinute: 2, publicMaxBodyBytes: 1024 });
    const big = await limited.request(`/s/${own.id}/views`, jsonRequest('POST', { referrer: 'x'.repeat(2000) }, { 'x-forwarded-for': '203.0.113.9' }));
    expect(big.status).toBe(413);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await limited.request(`/s/${own.id}/views`, jsonRequest('POST', {}))).status);
    expect(statuses).toContain(429);
  });
});

describe('responses', () => {
  it('a page walk counts starts, steps reached, where it is and the finish; the referrer travels with the first post', async () => {
    const form = await threeSteps();
    const person = new Visitor(app, { 'user-agent': PHONE, referer: 'https://ads.example.com/' });
    const first = await person.get(`/s/${form.id}?utm_source=ad`);
    expect(await first.text()).toContain('fl-referrer=ads.example.com');
    // The form action as the page renders it.
    const body = new URLSearchParams({ [field(componentAt(form, 0, 0))]: 'Ada' });
    await person.request(`/s/${form.id}?step=0&utm_source=ad&fl-referrer=ads.example.com`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: body.toString(),
    });
    const counted = await countersOf(form.id);
    const { rows } = counted;
    let { totals } = counted;
    expect(totals).toEqual({ views: 1, starts: 1, 'reached:step_1': 1, 'reached:step_2': 1, 'left:step_2': 1 });
    expect(rows.find((row) => row.metric === 'starts')).toMatchObject({
      device: 'mobile',
      referrer: 'ads.example.com',
      hidden: { utm_source: 'ad' },
    });
    await person.submit(form, 1, { [field(componentAt(form, 1, 0))]: 'Dev' });
    await person.submit(form, 2, { [field(componentAt(form, 2, 0))]: 'Core' });
    ({ totals } = await countersOf(form.id));
    const ttc = Object.keys(totals).filter((metric) => metric.startsWith('ttc:'));
    expect(ttc).toHaveLength(1);
    expect({ ...totals, [ttc[0]!]: undefined }).toEqual({
      views: 1,
      starts: 1,
      finishes: 1,
      'reached:step_1': 1,
      'reached:step_2': 1,
      'reached:step_3': 1,
      [ttc[0]!]: undefined,
    });
  });

  it('an embedded page counts its response under the embedding site', async () => {
    const form = await threeSteps();
    const visitor = new Visitor(app, { 'user-agent': DESKTOP });
    const page = await (await visitor.get(`/s/${form.id}?embed=1&fl-origin=${encodeURIComponent('https://shop.example.com')}`)).text();
    const action = /action="([^"]+)"/.exec(page)![1]!.replaceAll('&amp;', '&');
    expect(action).not.toContain('fl-referrer');
    const body = new URLSearchParams({ [field(componentAt(form, 0, 0))]: 'Ada' });
    expect(
      (
        await visitor.request(action, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: body.toString(),
        })
      ).status,
    ).toBe(303);
    const { rows } = await countersOf(form.id);
    expect(rows.find((row) => row.metric === 'starts')!.referrer).toBe('shop.example.com');
  });

  it('the JSON API counts the same way; deleting and erasing take it off, rows at zero go', async () => {
    const form = await threeSteps();
    const start = async () => {
      const res = await app.request(
        `/s/${form.id}/responses`,
        jsonRequest('POST', { answers: { [componentAt(form, 0, 0).id]: 'Ada' }, hiddenFields: { utm_source: 'partner' } }, { referer: 'https://partner.example/' }),
      );
      expect(res.status).toBe(201);
      return (await res.json()) as { id: string; resumeToken: string };
    };
    const a = await start();
    const b = await start();
    const finish = await app.request(
      `/s/${form.id}/responses/${a.id}`,
      jsonRequest('PATCH', { answers: { [componentAt(form, 1, 0).id]: 'x', [componentAt(form, 2, 0).id]: 'y' }, finished: true }, { authorization: `Bearer ${a.resumeToken}` }),
    );
    expect(finish.status).toBe(200);
    const counted = await countersOf(form.id);
    const { rows } = counted;
    let { totals } = counted;
    expect(totals.starts).toBe(2);
    expect(totals.finishes).toBe(1);
    expect(totals['left:step_2']).toBe(1);
    expect(rows.find((row) => row.metric === 'starts')!.referrer).toBe('partner.example');
    await deleteResponses(db, { environmentId: tenant.environmentId, ids: [b.id] });
    ({ totals } = await countersOf(form.id));
    expect(totals.starts).toBe(1);
    expect(totals['left:step_2']).toBeUndefined();
    const erased = await app.request(`/api/v1/responses/${a.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${tenant.apiKey}` },
    });
    expect(erased.status).toBeLessThan(300);
    expect((await countersOf(form.id)).rows).toEqual([]);
    expect(await responsesOf(db, form.id)).toEqual([]);
  });
});
