/**
 * Response limits, schedules and quotas (docs/logic.md, Limits) through the JSON API: a form closes at its
 * most of finished responses, exactly, under 50 simultaneous finishes; a schedule refuses before it opens
 * and from its closing on (a moved clock); a quota past its limit routes a response by its action, and its
 * count is readable. Bad values are refused with their paths, nothing changed.
 */
import { eq } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../../src/db/client.ts';
import { responses } from '../../src/db/schema.ts';
import type { Form } from '../../src/forms/forms.service.ts';
import { appWith, createTenant, graphql, jsonRequest, setupIsolatedTestApp, type TestContext, type TestTenant } from '../support/helpers.ts';
import { generateThroughApi } from '../support/public-helpers.ts';

let ctx: TestContext;
let app: TestContext['app'];
let tenant: TestTenant;

beforeAll(async () => {
  ctx = await setupIsolatedTestApp();
  app = appWith(ctx.db, { publicRateLimitPerMinute: 0 });
  tenant = await createTenant(ctx.db);
});
afterEach(() => {
  vi.useRealTimers();
});

const NOT_ACCEPTING = { message: 'This form is no longer accepting responses' };
const byKey = (form: Form, key: string) => form.steps.flatMap((s) => s.components).find((c) => c.key === key)!;

const TWO_STEPS = [
  { name: 'Name', components: [{ type: 'ShortInput', key: 'name', content: { question: 'Your name?' } }] },
  { name: 'Size', components: [{ type: 'ShortInput', key: 'employees', content: { question: 'Employees?' } }] },
];

async function start(form: Form, answers: Record<string, unknown> = {}, finished = false) {
  const body = {
    answers: Object.fromEntries(Object.entries(answers).map(([key, value]) => [byKey(form, key).id, value])),
    finished,
  };
  const response = await app.request(`/s/${form.id}/responses`, jsonRequest('POST', body));
  return { status: response.status, body: await response.json() };
}
async function patch(form: Form, started: { id: string; resumeToken: string }, answers: Record<string, unknown>, finished = false) {
  const body = {
    answers: Object.fromEntries(Object.entries(answers).map(([key, value]) => [byKey(form, key).id, value])),
    finished,
  };
  const response = await app.request(`/s/${form.id}/responses/${started.id}`, jsonRequest('PATCH', body, { authorization: `Bearer ${started.resumeToken}` }));
  return { status: response.status, body: await response.json() };
}
const finishedCount = async (formId: string) => (await ctx.db.select().from(responses).where(eq(responses.formId, formId))).filter((r) => r.finished).length;

async function readLimits(formId: string) {
  const { body } = await graphql(
    app,
    `
      query ($id: ID!) {
        form(id: $id) {
          finishedResponses
          limits {
            maxResponses
            opensAt
            closesAt
            closedMessage
            notYetOpenMessage
          }
          quotas {
            key
            limit
            count
            action
          }
        }
      }
    `,
    { id: formId },
    { 'x-api-key': tenant.apiKey },
  );
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data.form;
}

describe('maxResponses', () => {
  it('closes the form at its limit: exactly one of 50 simultaneous finishes takes the last place', async () => {
    const { form, status, body } = await generateThroughApi(app, ctx.db, tenant, 'Seats', TWO_STEPS, {
      limits: { maxResponses: 3 },
    });
    expect(status, JSON.stringify(body)).toBe(200);
    for (const name of ['a', 'b']) expect((await start(form, { name, employees: '1' }, true)).body.finished).toBe(true);
    // 50 started responses, each with its last step left, then all finishing at once.
    const started = await Promise.all(Array.from({ length: 50 }, (_, i) => start(form, { name: `p${i}` })));
    started.forEach((s) => expect(s.status).toBe(201));
    const finishing = await Promise.all(started.map((s) => patch(form, s.body, { employees: '2' }, true)));
    const statuses = finishing.map((f) => f.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    for (const refused of finishing.filter((f) => f.status === 409)) expect(refused.body).toEqual(NOT_ACCEPTING);
    expect(await finishedCount(form.id)).toBe(3);
    // Full: nothing starts any more, and the count is readable.
    expect(await start(form, { name: 'late' })).toEqual({ status: 409, body: NOT_ACCEPTING });
    expect(await readLimits(form.id)).toMatchObject({ finishedResponses: 3, limits: { maxResponses: 3 } });
  });
});

describe('maxResponses on two nodes', () => {
  // Two apps, each with its own pool of connections to one PostgreSQL database, as two server processes have.
  it.skipIf(!process.env.DATABASE_URL)('gives the last place to exactly one of 50 finishes spread over both', async () => {
    const other = await openDatabase({ databaseUrl: ctx.databaseUrl!, maxConnections: 4 });
    try {
      const nodes = [app, appWith(other.db, { publicRateLimitPerMinute: 0 })];
      const { form } = await generateThroughApi(app, ctx.db, tenant, 'Two nodes', TWO_STEPS, {
        limits: { maxResponses: 1 },
      });
      const started = await Promise.all(Array.from({ length: 50 }, (_, i) => start(form, { name: `p${i}` })));
      const finishing = await Promise.all(
        started.map((s, i) => {
          const body = { answers: { [byKey(form, 'employees').id]: '2' }, finished: true };
          return nodes[i % 2]!.request(`/s/${form.id}/responses/${s.body.id}`, jsonRequest('PATCH', body, { authorization: `Bearer ${s.body.resumeToken}` }));
        }),
      );
      expect(finishing.map((r) => r.status).filter((s) => s === 200)).toHaveLength(1);
      expect(finishing.map((r) => r.status).filter((s) => s === 409)).toHaveLength(49);
      expect(await finishedCount(form.id)).toBe(1);
    } finally {
      await other.close();
    }
  });
});

describe('the schedule', () => {
  it('refuses before opensAt and from closesAt on; a started response can finish until then', async () => {
    const { form, status, body } = await generateThroughApi(app, ctx.db, tenant, 'Friday', TWO_STEPS, {
      limits: {
        opensAt: '2031-03-07T09:00:00+01:00',
        closesAt: '2031-03-07T17:00:00+01:00',
        closedMessage: 'Registration is closed',
      },
    });
    expect(status, JSON.stringify(body)).toBe(200);
    expect((await readLimits(form.id)).limits).toEqual({
      maxResponses: null,
      opensAt: '2031-03-07T08:00:00.000Z',
      closesAt: '2031-03-07T16:00:00.000Z',
      closedMessage: 'Registration is closed',
      notYetOpenMessage: null,
    });
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2031-03-07T07:59:59Z'));
    expect(await start(form, { name: 'early' })).toEqual({ status: 409, body: { message: 'This form is not open yet', opensAt: '2031-03-07T08:00:00.000Z' } });
    vi.setSystemTime(new Date('2031-03-07T08:00:00Z'));
    const started = await start(form, { name: 'on time' });
    expect(started.status).toBe(201);
    vi.setSystemTime(new Date('2031-03-07T15:59:59Z'));
    expect((await patch(form, started.body, { employees: '3' })).status).toBe(200);
    const late = await start(form, { name: 'late' });
    vi.setSystemTime(new Date('2031-03-07T16:00:00Z'));
    expect(await patch(form, late.body, { employees: '3' }, true)).toEqual({ status: 409, body: NOT_ACCEPTING });
    expect(await start(form, { name: 'after' })).toEqual({ status: 409, body: NOT_ACCEPTING });
  });

  it('refuses times without an offset, a closing before the opening and bad numbers, with their paths, changing nothing', async () => {
    const refused = await generateThroughApi(app, ctx.db, tenant, 'Bad', TWO_STEPS, {
      limits: { opensAt: '2031-03-07T09:00:00', closesAt: 'friday', maxResponses: 0, closedMessage: '' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors.map((e: any) => e.path)).toEqual(
      expect.arrayContaining([
        ['limits', 'opensAt'],
        ['limits', 'closesAt'],
        ['limits', 'maxResponses'],
        ['limits', 'closedMessage'],
      ]),
    );
    const order = await generateThroughApi(app, ctx.db, tenant, 'Order', TWO_STEPS, {
      limits: { opensAt: '2031-03-07T09:00:00Z', closesAt: '2031-03-07T08:00:00Z' },
    });
    expect(order.body.errors).toContainEqual(expect.objectContaining({ path: ['limits', 'closesAt'] }));

    const { form } = await generateThroughApi(app, ctx.db, tenant, 'Kept', TWO_STEPS, { limits: { maxResponses: 10 } });
    const bad = await app.request(`/api/v1/forms/${form.id}`, jsonRequest('PATCH', { limits: { maxResponses: 'ten' } }, { 'x-api-key': tenant.apiKey }));
    expect(bad.status).toBe(400);
    expect((await bad.json()).errors[0].path).toEqual(['limits', 'maxResponses']);
    expect((await readLimits(form.id)).limits.maxResponses).toBe(10);
    const changed = await app.request(`/api/v1/forms/${form.id}`, jsonRequest('PATCH', { limits: { maxResponses: 20 } }, { 'x-api-key': tenant.apiKey }));
    expect(changed.status).toBe(200);
    expect((await readLimits(form.id)).limits.maxResponses).toBe(20);
  });
});

describe('quotas', () => {
  const STEPS = [
    {
      name: 'Company',
      key: 'company',
      components: [{ type: 'ShortInput', key: 'employees', content: { question: 'Employees?' } }],
    },
    {
      name: 'Details',
      key: 'details',
      components: [{ type: 'ShortInput', key: 'name', content: { question: 'Name?' } }],
    },
    { name: 'Thanks', key: 'thanks', completion: true, components: [{ type: 'Header', content: { title: 'Thanks' } }] },
    {
      name: "We're full",
      key: 'full',
      completion: true,
      components: [{ type: 'Header', content: { title: "We're full" } }],
    },
  ];
  const LARGE = { question: 'employees', op: 'greaterOrEqual', value: 51 };

  it('routes the (limit+1)-th response meeting it to its goTo step, which does not count toward it', async () => {
    const { form, status, body } = await generateThroughApi(app, ctx.db, tenant, 'Seats by size', STEPS, {
      quotas: [{ key: 'large', condition: LARGE, limit: 2, action: { goTo: 'full' } }],
    });
    expect(status, JSON.stringify(body)).toBe(200);
    const paths: string[][] = [];
    for (const employees of ['100', '5', '60', '500', '7']) {
      const started = await start(form, { employees });
      const done = await patch(form, started.body, { name: 'x' });
      expect(done.body.finished).toBe(true);
      const [row] = await ctx.db.select().from(responses).where(eq(responses.id, started.body.id));
      paths.push(row!.meta.path!);
    }
    expect(paths).toEqual([
      ['company', 'details', 'thanks'],
      ['company', 'details', 'thanks'],
      ['company', 'details', 'thanks'],
      ['company', 'details', 'full'],
      ['company', 'details', 'thanks'],
    ]);
    expect((await readLimits(form.id)).quotas).toEqual([{ key: 'large', limit: 2, count: 2, action: { goTo: 'full' } }]);
    const rest: any = await (await app.request(`/api/v1/forms/${form.id}`, { headers: { 'x-api-key': tenant.apiKey } })).json();
    expect(rest.data).toMatchObject({
      limits: null,
      finishedResponses: 5,
      quotas: [{ key: 'large', condition: LARGE, limit: 2, action: { goTo: 'full' }, count: 2 }],
    });
  });

  it('takes exactly one of 20 simultaneous finishes for its last place; the others go to its goTo step', async () => {
    const { form, status, body } = await generateThroughApi(app, ctx.db, tenant, 'Last large seat', STEPS, {
      quotas: [{ key: 'large', condition: LARGE, limit: 1, action: { goTo: 'full' } }],
    });
    expect(status, JSON.stringify(body)).toBe(200);
    const started = await Promise.all(Array.from({ length: 20 }, () => start(form, { employees: '80' })));
    started.forEach((s) => expect(s.status).toBe(201));
    const finishing = await Promise.all(started.map((s) => patch(form, s.body, { name: 'x' })));
    finishing.forEach((f) => expect(f.body.finished).toBe(true));
    const rows = await ctx.db.select().from(responses).where(eq(responses.formId, form.id));
    expect(rows.map((row) => row.meta.path!.at(-1)).sort()).toEqual(['thanks', ...Array<string>(19).fill('full')].sort());
    expect((await readLimits(form.id)).quotas).toEqual([{ key: 'large', limit: 1, count: 1, action: { goTo: 'full' } }]);
  });

  it('"invalid" ends the response past the limit as invalid; "complete" finishes it without counting', async () => {
    const quotas = [
      { key: 'large', condition: LARGE, limit: 1, action: 'invalid' },
      { key: 'small', condition: { question: 'employees', op: 'lessThan', value: 51 }, limit: 0, action: 'complete' },
    ];
    const { form, status, body } = await generateThroughApi(app, ctx.db, tenant, 'Invalid past it', STEPS, { quotas });
    expect(status, JSON.stringify(body)).toBe(200);
    const first = await start(form, { employees: '80' });
    expect((await patch(form, first.body, { name: 'a' })).body).toMatchObject({ finished: true, status: 4 });
    const second = await start(form, { employees: '90' });
    expect((await patch(form, second.body, { name: 'b' })).body).toMatchObject({ finished: false, status: 5 });
    const small = await start(form, { employees: '3' });
    expect((await patch(form, small.body, { name: 'c' })).body).toMatchObject({ finished: true, status: 4 });
    expect((await readLimits(form.id)).quotas.map((q: any) => [q.key, q.count])).toEqual([
      ['large', 1],
      ['small', 0],
    ]);
  });

  it('refuses bad quotas with their paths', async () => {
    const quotas = [
      { key: 'a', condition: { question: 'nope', op: 'answered' }, limit: 1, action: 'complete' },
      { key: 'a', condition: LARGE, limit: 1, action: { goTo: 'missing' } },
      { key: 'c', condition: LARGE, limit: -1, action: 'complete' },
      { key: 'b', condition: LARGE, limit: 1, action: 'stop' },
    ];
    const { status, body } = await generateThroughApi(app, ctx.db, tenant, 'Bad quotas', STEPS, { quotas });
    expect(status, JSON.stringify(body)).toBe(400);
    expect(body.errors.length, JSON.stringify(body)).toBe(5);
    expect(body.errors.map((e: any) => e.path)).toEqual(
      expect.arrayContaining([
        ['quotas', 0, 'condition', 'question'],
        ['quotas', 1, 'action', 'goTo'],
        ['quotas', 1, 'key'],
        ['quotas', 2, 'limit'],
        ['quotas', 3, 'action'],
      ]),
    );
  });
});
