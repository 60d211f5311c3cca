/**
 * The lead-qualification form of docs/logic.md walked end to end: through the public JSON API and
 * through the page (without JavaScript), with the server deciding the path on both, and what every
 * reader of responses then sees: the listing and status 5, `meta.path` and `meta.hiddenFields`, the
 * summary's reach and invalid count, the CSV export's columns and the webhook payloads.
 */
import { eq } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { responses } from '../../src/db/schema.ts';
import { startWebhookDispatcher, type WebhookDispatcher } from '../../src/events/dispatcher.ts';
import type { Form } from '../../src/forms/forms.service.ts';
import { appWith, createTenant, graphql, jsonRequest, setupIsolatedTestApp, testConfig, type TestContext, type TestTenant } from '../support/helpers.ts';
import { QUALIFICATION_HIDDEN_FIELDS, QUALIFICATION_STEPS } from '../support/logic-fixtures.ts';
import { field, makeForm, Visitor } from '../support/public-helpers.ts';
import { eventually, Receiver } from '../support/webhook-helpers.ts';

let ctx: TestContext;
let app: TestContext['app'];
let tenant: TestTenant;

const webhooks = { ...testConfig().webhooks, allowPrivate: true, timeoutMs: 2_000, retryDelaysMs: [20, 20, 20] };

beforeAll(async () => {
  ctx = await setupIsolatedTestApp();
  app = appWith(ctx.db, { publicRateLimitPerMinute: 0, webhooks });
  tenant = await createTenant(ctx.db);
});

const qualificationForm = () => makeForm(ctx.db, tenant, QUALIFICATION_STEPS, 'Qualify', { hiddenFields: QUALIFICATION_HIDDEN_FIELDS });

/** A form's components by key. */
const byKey = (form: Form, key: string) => form.steps.flatMap((s) => s.components).find((c) => c.key === key)!;
const stepIndex = (form: Form, key: string) => form.steps.findIndex((s) => s.key === key);
const stored = async (id: string) => (await ctx.db.select().from(responses).where(eq(responses.id, id)))[0]!;

/** The JSON API of one form. */
function api(form: Form) {
  const answers = (byKeyAnswers: Record<string, unknown>) => Object.fromEntries(Object.entries(byKeyAnswers).map(([key, value]) => [byKey(form, key).id, value]));
  return {
    answers,
    async start(byKeyAnswers: Record<string, unknown>, more: Record<string, unknown> = {}) {
      const response = await app.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers: answers(byKeyAnswers), ...more }));
      const body = await response.json();
      return { status: response.status, body, patch: patcher(body.id, body.resumeToken) };
    },
  };
  function patcher(id: string, token: string) {
    return async (byKeyAnswers: Record<string, unknown>, more: Record<string, unknown> = {}) => {
      const response = await app.request(`/s/${form.id}/responses/${id}`, jsonRequest('PATCH', { answers: answers(byKeyAnswers), ...more }, { authorization: `Bearer ${token}` }));
      return { status: response.status, body: await response.json() };
    };
  }
}

const BIG = { emailAddress: 'cto@bigcorp.io', companyName: 'Bigcorp', numberOfEmployees: '5000' };
const SMALL = { emailAddress: 'ana@tiny.io', companyName: 'Tiny', numberOfEmployees: '12' };
const BOOKING = { eventScheduled: true, uri: 'https://calendly.com/events/1', meetingTime: '2026-03-02T10:00:00.000Z' };

describe('the JSON API', () => {
  let form: Form;
  let q: ReturnType<typeof api>;
  beforeAll(async () => {
    form = await qualificationForm();
    q = api(form);
  });

  it('a big company goes to the demo step and is finished by the completion step, without asking; hidden fields are kept, undeclared ones ignored', async () => {
    const started = await q.start({ who: { ...BIG, numberOfEmployees: '40' }, role: 'Founder' }, { hiddenFields: { plan: 'enterprise', utm_source: 'ad', embed: '1' } });
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ finished: false, status: 2, nextStep: 'demo' });
    const booked = await started.patch({ meeting: BOOKING, needs: 'A tour' });
    expect(booked).toEqual({ status: 200, body: expect.objectContaining({ finished: true, status: 4, nextStep: null }) });
    const row = await stored(started.body.id);
    expect(row.meta).toMatchObject({ path: ['about', 'demo', 'booked'], hiddenFields: { plan: 'enterprise', utm_source: 'ad' } });
    expect(row.data.map((a) => a.key)).toEqual(['who', 'role', 'meeting', 'needs']);
    expect((await started.patch({ needs: 'More' })).status).toBe(409);
  });

  it('a small company goes to pricing: answers off its path and finishing early are refused; the end of the last step needs finished: true', async () => {
    const started = await q.start({ who: SMALL, role: 'Engineer' });
    expect(started.body.nextStep).toBe('pricing');
    const offPath = await started.patch({ needs: 'x' });
    expect(offPath).toEqual({
      status: 400,
      body: {
        message: 'Invalid request body',
        errors: [{ message: "This question is on a step the response's path does not go through", path: ['answers', byKey(form, 'needs').id] }],
      },
    });
    const early = await started.patch({}, { finished: true });
    expect(early).toEqual({
      status: 400,
      body: { message: 'Invalid request body', errors: [{ message: 'The response cannot finish: its path goes on to step "pricing"', path: ['finished'] }] },
    });
    // The demo step's required question is not on this path: the response finishes without it.
    const answered = await started.patch({ interest: 'Growth' });
    expect(answered.body).toMatchObject({ finished: false, status: 2, nextStep: null });
    const finished = await started.patch({}, { finished: true });
    expect(finished.body).toMatchObject({ finished: true, status: 4, nextStep: null });
    expect((await stored(started.body.id)).meta.path).toEqual(['about', 'pricing']);
  });

  it('a student ends invalid (status 5): no required answers asked, nothing can change it, and it is listed only with the partials', async () => {
    const started = await q.start({ role: 'Student' });
    expect(started).toMatchObject({ status: 201, body: { finished: false, status: 5, nextStep: null } });
    const row = await stored(started.body.id);
    expect(row.meta).toMatchObject({ path: ['about', 'students'], invalid: true, hiddenFields: {} });
    expect(await started.patch({ role: 'Founder' })).toEqual({ status: 409, body: { message: 'Response is invalid: it has ended and cannot be changed' } });
    const listed = async (query: string) =>
      (await (await app.request(`/api/v1/responses?formId=${form.id}${query}`, { headers: { 'x-api-key': tenant.apiKey } })).json()).data as any[];
    expect((await listed('')).map((r) => r.id)).not.toContain(started.body.id);
    expect((await listed('&returnPartials=true')).find((r) => r.id === started.body.id)).toMatchObject({
      status: 5,
      finished: false,
      meta: { invalid: true, path: ['about', 'students'] },
    });
  });

  it('going back and changing an answer walks the path again from there: answers on steps that fall off it are removed', async () => {
    const started = await q.start({ who: SMALL, role: 'Founder' });
    expect((await started.patch({ interest: 'Starter' })).body.nextStep).toBeNull();
    const changed = await started.patch({ who: BIG });
    expect(changed.body).toMatchObject({ finished: false, nextStep: 'demo' });
    const row = await stored(started.body.id);
    expect(row.meta.path).toEqual(['about']);
    expect(row.data.map((a) => a.key)).toEqual(['who', 'role']);
  });

  it('required questions are required on the steps the path goes through', async () => {
    const started = await q.start({ role: 'Other' });
    expect(started.body.nextStep).toBe('pricing');
    await started.patch({ interest: 'Growth' });
    const refused = await started.patch({}, { finished: true });
    expect(refused).toEqual({
      status: 400,
      body: { message: 'Invalid request body', errors: [{ message: 'This question must be answered before the response can finish', path: ['answers', byKey(form, 'who').id] }] },
    });
    // On the demo path its own required question is asked too, before the completion step can finish it.
    const demo = await q.start({ who: BIG, role: 'Founder' });
    expect((await demo.patch({ meeting: BOOKING })).body.errors).toEqual([
      { message: 'This question must be answered before the response can finish', path: ['answers', byKey(form, 'needs').id] },
    ]);
  });

  it('hidden field values are checked: strings of at most 500 characters', async () => {
    const refused = await q.start({}, { hiddenFields: { plan: 'x'.repeat(501), utm_source: 3 } });
    expect(refused.status).toBe(400);
    expect(refused.body.errors.map((e: any) => e.path)).toEqual([
      ['hiddenFields', 'plan'],
      ['hiddenFields', 'utm_source'],
    ]);
  });
});

describe('the page, without JavaScript', () => {
  let form: Form;
  beforeAll(async () => {
    form = await qualificationForm();
  });
  const who = (form: Form, values: Record<string, string>) => Object.fromEntries(Object.entries(values).map(([key, value]) => [field(byKey(form, 'who'), key), value]));
  /** Posts a step to the URL its form's action names. */
  const post = (visitor: Visitor, action: string, fields: Record<string, string>) =>
    visitor.request(action, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
  const actionOf = (page: string) => /<form method="post" action="([^"]+)"/.exec(page)![1]!.replace(/&amp;/g, '&');

  it('routes a big company to the demo and shows its completion step as the final screen; declared hidden fields come from the URL', async () => {
    const visitor = new Visitor(app);
    const first = await (await visitor.get(`/s/${form.id}?utm_source=ad&plan=enterprise&ref=newsletter`)).text();
    const action = actionOf(first);
    expect(action).toBe(`/s/${form.id}?step=0&utm_source=ad&plan=enterprise`);
    const answered = await post(visitor, action, { ...who(form, { ...BIG, numberOfEmployees: '3' }), [field(byKey(form, 'role'))]: 'Founder' });
    expect(answered.status).toBe(303);
    expect(answered.headers.get('location')).toBe(`/s/${form.id}?step=${stepIndex(form, 'demo')}`);

    // Pricing is off this respondent's path: shown nor taken, back to the demo step.
    const pricing = stepIndex(form, 'pricing');
    const away = await visitor.get(`/s/${form.id}?step=${pricing}`);
    expect([away.status, away.headers.get('location')]).toEqual([303, `/s/${form.id}?step=${stepIndex(form, 'demo')}`]);
    const taken = await visitor.submit(form, pricing, { [field(byKey(form, 'interest'))]: 'Starter' });
    expect([taken.status, taken.headers.get('location')]).toEqual([303, `/s/${form.id}?step=${stepIndex(form, 'demo')}`]);

    const demoPage = await (await visitor.get(`/s/${form.id}?step=${stepIndex(form, 'demo')}`)).text();
    expect(demoPage).toContain(`<a class="fl-back" href="/s/${form.id}?step=0">`);
    const meeting = byKey(form, 'meeting');
    const booked = await visitor.submit(form, stepIndex(form, 'demo'), {
      [field(meeting, 'eventScheduled')]: 'true',
      [field(meeting, 'uri')]: BOOKING.uri,
      [field(byKey(form, 'needs'))]: 'A tour',
    });
    expect(booked.headers.get('location')).toBe(`/s/${form.id}?done=1`);
    const final = await (await visitor.get(`/s/${form.id}?done=1`)).text();
    expect(final).toContain('fl-final-completed');
    expect(final).toContain('See you soon');
    expect(final).not.toContain('<form');
    const [row] = await ctx.db.select().from(responses).where(eq(responses.formId, form.id));
    expect(row).toMatchObject({ finished: true, meta: { path: ['about', 'demo', 'booked'], hiddenFields: { utm_source: 'ad', plan: 'enterprise' } } });
  });

  it('turns a student away at the invalid step (its own final screen), and a new visit starts over', async () => {
    const visitor = new Visitor(app);
    await visitor.get(`/s/${form.id}`);
    const answered = await visitor.submit(form, 0, { ...who(form, { emailAddress: 'kid@school.edu' }), [field(byKey(form, 'role'))]: 'Student' });
    expect(answered.headers.get('location')).toBe(`/s/${form.id}?done=1`);
    const final = await (await visitor.get(`/s/${form.id}?done=1`)).text();
    expect(final).toContain('fl-final-invalid');
    expect(final).toContain('This offer is for companies.');
    // Ended: posting a step again goes to the final screen; visiting again starts a new response.
    expect((await visitor.submit(form, 0, { [field(byKey(form, 'role'))]: 'Founder' })).headers.get('location')).toBe(`/s/${form.id}?done=1`);
    expect(await (await visitor.get(`/s/${form.id}`)).text()).toContain('About you');
    const rows = await ctx.db.select().from(responses).where(eq(responses.formId, form.id));
    expect(rows.find((r) => r.meta.invalid)).toMatchObject({ finished: false, meta: { path: ['about', 'students'] } });
  });

  it('going back and changing the first step reroutes: the pricing answers fall off; the last step finishes with the default final screen', async () => {
    const visitor = new Visitor(app);
    await visitor.get(`/s/${form.id}`);
    const role = { [field(byKey(form, 'role'))]: 'Engineer' };
    expect((await visitor.submit(form, 0, { ...who(form, SMALL), ...role })).headers.get('location')).toBe(`/s/${form.id}?step=${stepIndex(form, 'pricing')}`);
    const pricingPage = await (await visitor.get(`/s/${form.id}?step=${stepIndex(form, 'pricing')}`)).text();
    expect(pricingPage).toContain(`<a class="fl-back" href="/s/${form.id}?step=0">`);
    // Back on the first step (on the path: shown with its answers), now a big company.
    const firstAgain = await (await visitor.get(`/s/${form.id}?step=0`)).text();
    expect(firstAgain).toContain('value="Tiny"');
    expect((await visitor.submit(form, 0, { ...who(form, BIG), ...role })).headers.get('location')).toBe(`/s/${form.id}?step=${stepIndex(form, 'demo')}`);
    // And back to small: pricing again, which now finishes the response.
    expect((await visitor.submit(form, 0, { ...who(form, SMALL), ...role })).headers.get('location')).toBe(`/s/${form.id}?step=${stepIndex(form, 'pricing')}`);
    const done = await visitor.submit(form, stepIndex(form, 'pricing'), { [field(byKey(form, 'interest'))]: 'Growth' });
    expect(done.headers.get('location')).toBe(`/s/${form.id}?done=1`);
    const final = await (await visitor.get(`/s/${form.id}?done=1`)).text();
    expect(final).toContain('fl-final-completed');
    expect(final).toContain('Thank you!');
  });
});

describe('what readers of responses see', () => {
  let form: Form;
  let dispatcher: WebhookDispatcher | undefined;
  let receiver: Receiver | undefined;
  afterAll(async () => {
    await dispatcher?.stop();
    await receiver?.stop();
  });

  it('summary, export and webhooks carry the path and the hidden fields; an invalid response is counted apart and sends no response.finished', async () => {
    form = await qualificationForm();
    receiver = await new Receiver().start();
    const created = await app.request(
      '/api/v1/webhooks',
      jsonRequest('POST', { url: receiver.url, eventTypes: ['response.created', 'response.updated', 'response.finished'], formIds: [form.id] }, { 'x-api-key': tenant.apiKey }),
    );
    receiver.secret = ((await created.json()) as { secret: string }).secret;
    dispatcher = startWebhookDispatcher({ db: ctx.db, config: webhooks, logger: pino({ level: 'silent' }), pollMs: 20 });

    const q = api(form);
    const big = await q.start({ who: BIG, role: 'Founder' }, { hiddenFields: { utm_source: 'newsletter' } });
    await big.patch({ meeting: BOOKING, needs: 'Pricing' });
    const small = await q.start({ who: SMALL, role: 'Engineer' }, { hiddenFields: { plan: 'starter' } });
    await small.patch({ interest: 'Starter' });
    const student = await q.start({ role: 'Student' });

    const { body } = await graphql(
      app,
      'query ($id: ID!) { form(id: $id) { summary { total finished invalid partial inProgress droppedOff steps { name reached } } } }',
      { id: form.id },
      { 'x-api-key': tenant.apiKey },
    );
    expect(body.data.form.summary).toMatchObject({ total: 3, finished: 1, invalid: 1, partial: 1, inProgress: 1, droppedOff: 0 });
    expect(body.data.form.summary.steps.map((s: any) => [s.name, s.reached])).toEqual([
      ['About you', 3],
      ['Students', 1],
      ['Book a demo', 1],
      ['Booked', 1],
      ['Pricing', 1],
    ]);

    const csv = await (await app.request(`/api/v1/responses/export?formId=${form.id}&returnPartials=true`, { headers: { 'x-api-key': tenant.apiKey } })).text();
    const [headerLine, ...lines] = csv.trim().split('\r\n');
    const headers = headerLine!.split(',');
    expect(headers.slice(9, 14)).toEqual(['formVersion', 'path', 'language', 'utm_source [hidden]', 'plan [hidden]']);
    const cells = (id: string) =>
      lines
        .find((line) => line.startsWith(id))!
        .split(',')
        .slice(10, 14);
    expect(cells(big.body.id)).toEqual(['about > demo > booked', '', 'newsletter', '']);
    expect(cells(small.body.id)).toEqual(['about > pricing', '', '', 'starter']);
    expect(cells(student.body.id)).toEqual(['about > students', '', '', '']);
    const ndjson = (await (await app.request(`/api/v1/responses/export?formId=${form.id}&returnPartials=true&format=ndjson`, { headers: { 'x-api-key': tenant.apiKey } })).text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(ndjson.find((r) => r.id === student.body.id)).toMatchObject({ status: 5, meta: { path: ['about', 'students'], hiddenFields: {}, invalid: true } });

    await eventually(() => receiver!.accepted.filter((r) => r.body.data.id === big.body.id).length >= 3, 'the big company response events');
    await eventually(() => receiver!.accepted.some((r) => r.body.data.id === student.body.id), "the student's event");
    const events = (id: string) => receiver!.accepted.filter((r) => r.body.data.id === id).map((r) => r.body.type);
    expect(events(big.body.id)).toEqual(['response.created', 'response.updated', 'response.finished']);
    const finished = receiver.accepted.find((r) => r.body.data.id === big.body.id && r.body.type === 'response.finished')!;
    expect(finished.body.data.meta).toMatchObject({ path: ['about', 'demo', 'booked'], hiddenFields: { utm_source: 'newsletter' } });
    expect(events(student.body.id)).toEqual(['response.created']);
    const studentEvent = receiver.accepted.find((r) => r.body.data.id === student.body.id)!;
    expect(studentEvent.body.data).toMatchObject({ status: 5, finished: false, meta: { invalid: true, path: ['about', 'students'] } });
  });
});
