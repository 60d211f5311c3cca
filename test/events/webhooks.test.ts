/**
 * Webhooks end to end: endpoints through REST and GraphQL, the outbox, delivery to a real HTTP
 * receiver that verifies every signature with the standardwebhooks verifier, retries, timeouts,
 * auto-disable, re-send, the address rules and tenancy.
 */
import { and, count, eq, inArray } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookConfig } from '../../src/config.ts';
import { outboxEvents, webhookDeliveries } from '../../src/db/schema.ts';
import { startWebhookDispatcher, type WebhookDispatcher } from '../../src/events/dispatcher.ts';
import { isPrivateAddress, webhookUrlProblem } from '../../src/events/address-rules.ts';
import { generateFormInputSchema } from '../../src/forms/components.ts';
import { generateForm, type Form } from '../../src/forms/forms.service.ts';
import { submitAnswers } from '../../src/responses/submissions.service.ts';
import { appWith, createTenant, graphql, jsonRequest, setupIsolatedTestApp, testConfig, type TestContext, type TestTenant } from '../support/helpers.ts';
import { makeForm } from '../support/public-helpers.ts';
import { eventually, Receiver } from '../support/webhook-helpers.ts';

const logger = pino({ level: 'silent' });
let ctx: TestContext;
let app: TestContext['app'];
let tenant: TestTenant;
let form: Form;
const dispatchers: WebhookDispatcher[] = [];
const receivers: Receiver[] = [];

const fastWebhooks = (overrides: Partial<WebhookConfig> = {}): WebhookConfig => ({
  ...testConfig().webhooks,
  allowPrivate: true,
  // Generous, so that a loaded machine's slow event loop never turns an answer into a timeout; the one
  // request that hangs costs this much.
  timeoutMs: 2_000,
  retryDelaysMs: [20, 20, 20, 20, 20],
  ...overrides,
});

function dispatch(overrides: Partial<WebhookConfig> = {}, db = ctx.db) {
  const dispatcher = startWebhookDispatcher({ db, config: fastWebhooks(overrides), logger, pollMs: 20 });
  dispatchers.push(dispatcher);
  return dispatcher;
}

async function receiver(behaviour?: ConstructorParameters<typeof Receiver>[0]) {
  const r = await new Receiver(behaviour).start();
  receivers.push(r);
  return r;
}

const key = (t: TestTenant = tenant) => ({ 'x-api-key': t.apiKey });

async function createEndpoint(r: Receiver, body: Record<string, unknown> = {}, t: TestTenant = tenant, target = app) {
  const response = await target.request(
    '/api/v1/webhooks',
    jsonRequest('POST', { url: r.url, eventTypes: ['response.created', 'response.updated', 'response.finished'], formIds: [form.id], ...body }, key(t)),
  );
  expect(response.status).toBe(201);
  const endpoint = (await response.json()) as { id: string; secret: string };
  r.secret = endpoint.secret;
  return endpoint;
}

const questionIds = () => form.steps.map((step) => step.components[0]!.id);

/** One response through the public API: created, updated, then updated and finished. */
async function answerFully(index: number) {
  const [first, second] = questionIds();
  const started = await app.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers: { [first!]: `a${index}` } }));
  expect(started.status).toBe(201);
  const { id, resumeToken } = (await started.json()) as { id: string; resumeToken: string };
  const patch = (body: unknown) => app.request(`/s/${form.id}/responses/${id}`, jsonRequest('PATCH', body, { authorization: `Bearer ${resumeToken}` }));
  expect((await patch({ answers: { [second!]: `b${index}` } })).status).toBe(200);
  expect((await patch({ answers: {}, finished: true })).status).toBe(200);
  return id;
}

beforeAll(async () => {
  ctx = await setupIsolatedTestApp();
  app = appWith(ctx.db, { publicRateLimitPerMinute: 0, webhooks: fastWebhooks() });
  tenant = await createTenant(ctx.db);
  form = await makeForm(ctx.db, tenant, [
    { name: 'One', components: [{ type: 'ShortInput', content: { question: 'First' } }] },
    { name: 'Two', components: [{ type: 'ShortInput', content: { question: 'Second' } }] },
  ]);
});
afterEach(async () => {
  await Promise.all(dispatchers.splice(0).map((d) => d.stop()));
  await Promise.all(receivers.splice(0).map((r) => r.stop()));
  // Each test starts without endpoints.
  for (const t of [tenant]) {
    const listed = (await (await app.request('/api/v1/webhooks', { headers: key(t) })).json()) as { data: { id: string }[] };
    for (const endpoint of listed.data) await app.request(`/api/v1/webhooks/${endpoint.id}`, { method: 'DELETE', headers: key(t) });
  }
});
afterAll(async () => {
  await Promise.all(dispatchers.map((d) => d.stop()));
});

describe('delivery', () => {
  it('survives failures and a timeout: every event arrives signed, in order per response, once per delivery id', async () => {
    // Requests 1-3 fail with 500, request 4 hangs past the timeout; after that the first attempt of
    // each response.created fails too (its response's later events must wait for it); the rest is accepted.
    const failedOnce = new Set<string>();
    const r = await receiver((n, _req, received) => {
      if (n <= 3) return 500;
      if (n === 4) return 'hang';
      if (received.body.type === 'response.created' && !failedOnce.has(received.id)) {
        failedOnce.add(received.id);
        return 500;
      }
      return 200;
    });
    const endpoint = await createEndpoint(r);
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const ids = [];
    for (let i = 0; i < 4; i++) ids.push(await answerFully(i));
    // Every event is queued before delivery starts, so the later events of a response are due while
    // its earlier ones fail: only the ordering rule keeps them in order.
    dispatch();

    await eventually(() => r.accepted.length >= 16, '16 accepted events');
    expect(r.unverified).toBe(0);
    expect(r.requests.every((req) => req.verified)).toBe(true);
    // Exactly once per delivery id among the accepted ones.
    expect(r.accepted).toHaveLength(16);
    expect(new Set(r.accepted.map((a) => a.id)).size).toBe(16);
    for (const id of ids) {
      const types = r.accepted.filter((a) => a.body.data.id === id).map((a) => a.body.type);
      // The finishing submission is an update too.
      expect(types).toEqual(['response.created', 'response.updated', 'response.updated', 'response.finished']);
    }
    // The finished event carries the response object exactly as GET /api/v1/responses returns it.
    const listed = (await (await app.request(`/api/v1/responses?formId=${form.id}`, { headers: key() })).json()) as { data: { id: string }[] };
    for (const response of listed.data) {
      const finished = r.accepted.find((a) => a.body.type === 'response.finished' && a.body.data.id === response.id)!;
      expect(finished.body.data).toEqual(response);
    }
    // The attempts are visible: the 500s and the timeout, with durations. The receiver counts an event
    // as accepted when it answers 200, a moment before the dispatcher records the delivery as succeeded.
    type Deliveries = {
      data: { status: string; attempts: { statusCode: number | null; error: string | null; durationMs: number; succeeded: boolean }[] }[];
    };
    let deliveries: Deliveries = { data: [] };
    await eventually(async () => {
      deliveries = (await (await app.request(`/api/v1/webhooks/${endpoint.id}/deliveries?limit=100`, { headers: key() })).json()) as Deliveries;
      return deliveries.data.length === 16 && deliveries.data.every((d) => d.status === 'succeeded');
    }, '16 deliveries recorded as succeeded');
    const attempts = deliveries.data.flatMap((d) => d.attempts);
    expect(attempts.filter((a) => a.statusCode === 500)).toHaveLength(3 + failedOnce.size);
    expect(attempts.filter((a) => a.error?.startsWith('timed out'))).toHaveLength(1);
    expect(attempts.every((a) => a.durationMs >= 0)).toBe(true);
  });

  it('sends nothing for a change that rolled back', async () => {
    const r = await receiver();
    await createEndpoint(r, { eventTypes: ['response.created', 'response.finished', 'form.generated'], formIds: null });
    dispatch();
    const before = await ctx.db.select({ n: count() }).from(outboxEvents);
    const [first] = questionIds();
    await expect(
      ctx.db.transaction(async (tx) => {
        await submitAnswers(tx, {
          form,
          sessionId: 'rolled-back',
          answers: new Map([[first!, { type: 'ShortInput', headline: 'First', componentShapeVersion: '2.0', value: 'x' }]]),
          finish: true,
          context: { ip: '', country: '', source: 'api' },
        });
        await generateForm(
          tx,
          tenant.environmentId,
          generateFormInputSchema.parse({
            sourceFormId: tenant.templateId,
            name: 'rolled back',
            steps: form.steps.map((s) => ({ name: s.name, components: s.components.map(({ type, content }) => ({ type, content })) })),
          }),
        );
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    // A committed change afterwards arrives; nothing of the rolled-back one ever did.
    const marker = await answerFully(99);
    await eventually(() => r.accepted.some((a) => a.body.type === 'response.finished' && a.body.data.id === marker), 'the committed marker');
    expect(r.requests.some((a) => a.body.type === 'form.generated' || a.body.data?.id !== marker)).toBe(false);
    const after = await ctx.db.select({ n: count() }).from(outboxEvents);
    expect(after[0]!.n - before[0]!.n).toBe(4); // the marker's created, updated, updated, finished
  });

  it('announces generated forms', async () => {
    const r = await receiver();
    await createEndpoint(r, { eventTypes: ['form.generated'], formIds: null });
    dispatch();
    const generated = await makeForm(
      ctx.db,
      tenant,
      [
        { name: 'a', components: [{ type: 'ShortInput', content: {} }] },
        { name: 'b', components: [{ type: 'ShortInput', content: {} }] },
      ],
      'Announced',
    );
    await eventually(() => r.accepted.length === 1, 'the form.generated event');
    expect(r.accepted[0]!.body).toMatchObject({ type: 'form.generated', data: { id: generated.id, url: `/s/${generated.id}`, name: 'Announced' } });
  });

  it('marks a delivery failed after the last attempt and disables an endpoint that keeps failing; it can be re-enabled', async () => {
    const r = await receiver(() => 503);
    const endpoint = await createEndpoint(r, { eventTypes: ['response.finished'] });
    dispatch({ retryDelaysMs: [10], disableAfterFailedDeliveries: 2 });
    await answerFully(1);
    await answerFully(2);
    const read = async () => (await (await app.request(`/api/v1/webhooks/${endpoint.id}`, { headers: key() })).json()) as Record<string, unknown>;
    await eventually(async () => (await read()).enabled === false, 'the endpoint to be disabled');
    expect(await read()).toMatchObject({ enabled: false, disabledReason: 'failing', failedDeliveriesInARow: 2 });
    const deliveries = (await (await app.request(`/api/v1/webhooks/${endpoint.id}/deliveries?status=failed`, { headers: key() })).json()) as {
      data: { attemptCount: number; lastStatusCode: number }[];
    };
    expect(deliveries.data).toHaveLength(2);
    expect(deliveries.data.every((d) => d.attemptCount === 2 && d.lastStatusCode === 503)).toBe(true);
    // A status named like a member of Object.prototype is an unknown status (it was a 500).
    for (const status of ['valueOf', 'constructor', '__proto__', 'toString']) {
      const refused = await app.request(`/api/v1/webhooks/${endpoint.id}/deliveries?status=${status}`, { headers: key() });
      expect([refused.status, await refused.json()]).toEqual([
        400,
        { message: 'Invalid query parameters', errors: [{ message: 'status must be one of pending, delivering, succeeded, failed', path: ['status'] }] },
      ]);
    }
    expect(r.requests).toHaveLength(4);

    const enabled = await app.request(`/api/v1/webhooks/${endpoint.id}`, jsonRequest('PATCH', { enabled: true }, key()));
    expect(await enabled.json()).toMatchObject({ enabled: true, disabledReason: null, failedDeliveriesInARow: 0 });
  });

  it('re-sends a delivery by hand with the same webhook-id, and sends test events', async () => {
    const r = await receiver();
    const endpoint = await createEndpoint(r, { eventTypes: ['response.finished'] });
    dispatch();
    await answerFully(3);
    await eventually(() => r.accepted.length === 1, 'the first delivery');
    // A delivery still marked as being sent cannot be re-sent (409); wait until its success is recorded.
    let delivery: { id: string; status: string } | undefined;
    await eventually(async () => {
      [delivery] = ((await (await app.request(`/api/v1/webhooks/${endpoint.id}/deliveries`, { headers: key() })).json()) as { data: { id: string; status: string }[] }).data;
      return delivery?.status === 'succeeded';
    }, 'the first delivery to be recorded');
    expect(delivery!.id).toBe(r.accepted[0]!.id);
    const resent = await app.request(`/api/v1/webhook-deliveries/${delivery!.id}/resend`, { method: 'POST', headers: key() });
    expect(resent.status).toBe(202);
    await eventually(() => r.accepted.length === 2, 'the re-sent delivery');
    expect(r.accepted[1]!.id).toBe(delivery!.id);

    const tested = await app.request(`/api/v1/webhooks/${endpoint.id}/test`, { method: 'POST', headers: key() });
    expect(tested.status).toBe(202);
    await eventually(() => r.accepted.length === 3, 'the test event');
    expect(r.accepted[2]!.body).toMatchObject({ type: 'webhook.test', data: { endpointId: endpoint.id } });
  });

  it('does not follow redirects', async () => {
    const r = await receiver(() => 302);
    const endpoint = await createEndpoint(r, { eventTypes: ['response.finished'] });
    dispatch({ retryDelaysMs: [] });
    await answerFully(4);
    await eventually(async () => {
      const { data } = (await (await app.request(`/api/v1/webhooks/${endpoint.id}/deliveries`, { headers: key() })).json()) as { data: { status: string }[] };
      return data[0]?.status === 'failed';
    }, 'the delivery to fail');
    const { data } = (await (await app.request(`/api/v1/webhooks/${endpoint.id}/deliveries`, { headers: key() })).json()) as { data: { lastError: string }[] };
    expect(data[0]!.lastError).toMatch(/HTTP 302 \(redirects are not followed\)/);
  });

  it('bounds the deliveries in flight to one endpoint', async () => {
    let inFlight = 0;
    let most = 0;
    const r = await receiver();
    // Hold each request for a while and count how many overlap.
    const slow = await new Receiver().start();
    receivers.push(slow);
    const server = (slow as unknown as { server: import('node:http').Server }).server;
    server.removeAllListeners('request');
    server.on('request', (req, res) => {
      inFlight++;
      most = Math.max(most, inFlight);
      req.resume();
      setTimeout(() => {
        inFlight--;
        res.end('ok');
      }, 30);
    });
    void r;
    await createEndpoint(slow, { eventTypes: ['response.created', 'response.updated', 'response.finished'], formIds: null });
    // Four responses' events queued first, then the worker: four deliveries are due at once (one per
    // response), so only the cap keeps it to two in flight, however fast or slow the machine is.
    for (let i = 0; i < 4; i++) await answerFully(10 + i);
    dispatch({ endpointConcurrency: 2, concurrency: 16 });
    await eventually(async () => {
      const [row] = await ctx.db.select({ n: count() }).from(webhookDeliveries).where(eq(webhookDeliveries.status, 'succeeded'));
      return row!.n >= 16;
    }, 'every delivery');
    expect(most).toBeLessThanOrEqual(2);
    expect(most).toBe(2);
  });
});

describe('fairness', () => {
  it("gives a free slot to an idle tenant's endpoint before another tenant's backlog", async () => {
    // Tenant A: two endpoints behind a slow receiver, with a backlog that fills every slot of the node.
    const slow = await receiver(() => ({ status: 200, afterMs: 100 }));
    const a1 = await createEndpoint(slow, { eventTypes: ['response.finished'] });
    const a2 = await createEndpoint(slow, { eventTypes: ['response.finished'] });
    const questionId = questionIds()[0]!;
    for (let i = 0; i < 15; i++) {
      const done = await app.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers: { [questionId]: `backlog ${i}` }, finished: true }));
      expect(done.status).toBe(201);
    }
    // Tenant B: one endpoint, one event, recorded after all of A's.
    const other = await createTenant(ctx.db);
    const otherForm = await makeForm(ctx.db, other, [
      { name: 'One', components: [{ type: 'ShortInput', content: { question: 'Q' } }] },
      { name: 'Two', components: [{ type: 'ShortInput', content: { question: 'R' } }] },
    ]);
    const quick = await receiver();
    await createEndpoint(quick, { eventTypes: ['response.finished'], formIds: [otherForm.id] }, other);
    const done = await app.request(`/s/${otherForm.id}/responses`, jsonRequest('POST', { answers: { [otherForm.steps[0]!.components[0]!.id]: 'b' }, finished: true }));
    expect(done.status).toBe(201);

    const backlogLeft = async () => {
      const [row] = await ctx.db
        .select({ n: count() })
        .from(webhookDeliveries)
        .where(and(inArray(webhookDeliveries.endpointId, [a1.id, a2.id]), inArray(webhookDeliveries.status, ['pending', 'delivering'])));
      return row!.n;
    };
    expect(await backlogLeft()).toBe(30);
    dispatch({ endpointConcurrency: 2, concurrency: 4 });
    await eventually(() => quick.accepted.length === 1, "tenant B's delivery");
    // B's delivery went out while most of A's backlog still waited (in age order it would have been last).
    expect(await backlogLeft()).toBeGreaterThan(15);
  });
});

describe('endpoints', () => {
  it('refuses loopback, private and link-local addresses unless WEBHOOK_ALLOW_PRIVATE=1', async () => {
    const strict = appWith(ctx.db, { webhooks: { ...testConfig().webhooks, allowPrivate: false } });
    for (const url of [
      'http://127.0.0.1:9/x',
      'http://10.1.2.3/',
      'http://169.254.169.254/latest',
      'http://[::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://localhost/',
      'http://vm/',
      'http://192.168.0.1/',
    ]) {
      const response = await strict.request('/api/v1/webhooks', jsonRequest('POST', { url, eventTypes: ['response.created'] }, key()));
      expect(response.status, url).toBe(400);
      const body = (await response.json()) as { errors: { path: unknown[]; message: string }[] };
      expect(body.errors[0]!.path, url).toEqual(['url']);
    }
    // `vm` is a name (in /etc/hosts) that resolves to 127.0.0.1: refused after resolving it.
    expect(await webhookUrlProblem('http://vm/', false)).toMatch(/resolves to a loopback/);
    for (const url of ['ftp://example.com/', 'not a url', 'http://user:pw@example.com/']) {
      expect((await strict.request('/api/v1/webhooks', jsonRequest('POST', { url, eventTypes: ['response.created'] }, key()))).status, url).toBe(400);
    }
    expect(isPrivateAddress('8.8.8.8')).toBe(false);
    expect(isPrivateAddress('2001:4860:4860::8888')).toBe(false);
    expect(isPrivateAddress('fd00::1')).toBe(true);
    // The permissive app (WEBHOOK_ALLOW_PRIVATE=1) takes a loopback URL.
    expect((await app.request('/api/v1/webhooks', jsonRequest('POST', { url: 'http://127.0.0.1:9/x', eventTypes: ['response.created'] }, key()))).status).toBe(201);
  });

  it('refuses at delivery time a name that resolves to a private address', async () => {
    const r = await receiver();
    const endpoint = await createEndpoint(r, { url: r.url.replace('127.0.0.1', 'vm'), eventTypes: ['response.finished'] });
    dispatch({ allowPrivate: false, retryDelaysMs: [] });
    await answerFully(5);
    await eventually(async () => {
      const { data } = (await (await app.request(`/api/v1/webhooks/${endpoint.id}/deliveries`, { headers: key() })).json()) as { data: { status: string }[] };
      return data[0]?.status === 'failed';
    }, 'the delivery to fail');
    const { data } = (await (await app.request(`/api/v1/webhooks/${endpoint.id}/deliveries`, { headers: key() })).json()) as { data: { lastError: string }[] };
    expect(data[0]!.lastError).toMatch(/private address/);
    expect(r.requests).toHaveLength(0);
  });

  it('validates the body with paths', async () => {
    const response = await app.request(
      '/api/v1/webhooks',
      jsonRequest('POST', { url: 'http://127.0.0.1/', eventTypes: ['response.created', 'nope'], formIds: ['missing'], extra: 1 }, key()),
    );
    expect(response.status).toBe(400);
    const body = (await response.json()) as { errors: { path: unknown[] }[] };
    expect(body.errors.map((e) => e.path)).toEqual([[]]);
    const second = await app.request('/api/v1/webhooks', jsonRequest('POST', { url: 'http://127.0.0.1/', eventTypes: ['response.created', 'nope'], formIds: ['missing'] }, key()));
    const paths = ((await second.json()) as { errors: { path: unknown[] }[] }).errors.map((e) => e.path);
    expect(paths).toEqual([
      ['eventTypes', 1],
      ['formIds', 0],
    ]);
  });

  it("keeps each environment's endpoints and deliveries to itself, and shows the secret only once", async () => {
    const other = await createTenant(ctx.db);
    const r = await receiver();
    const endpoint = await createEndpoint(r, { eventTypes: ['response.finished'] });
    const read = await app.request(`/api/v1/webhooks/${endpoint.id}`, { headers: key() });
    expect(read.status).toBe(200);
    expect(JSON.stringify(await read.json())).not.toContain('whsec_');
    dispatch();
    await answerFully(6);
    await eventually(() => r.accepted.length === 1, 'a delivery');

    const foreign = key(other);
    expect(((await (await app.request('/api/v1/webhooks', { headers: foreign })).json()) as { data: unknown[] }).data).toEqual([]);
    for (const [method, path, body] of [
      ['GET', `/api/v1/webhooks/${endpoint.id}`],
      ['PATCH', `/api/v1/webhooks/${endpoint.id}`, { enabled: false }],
      ['DELETE', `/api/v1/webhooks/${endpoint.id}`],
      ['POST', `/api/v1/webhooks/${endpoint.id}/test`],
      ['GET', `/api/v1/webhooks/${endpoint.id}/deliveries`],
      ['POST', `/api/v1/webhook-deliveries/${r.accepted[0]!.id}/resend`],
    ] as const) {
      const response = await app.request(path, body ? jsonRequest(method, body, foreign) : { method, headers: foreign });
      expect(response.status, `${method} ${path}`).toBe(404);
    }
    // GraphQL: the same.
    const { body } = await graphql(app, 'query($id: ID!) { webhookEndpoint(id: $id) { id } }', { id: endpoint.id }, foreign);
    expect(body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    // A form of another environment can't be named.
    const otherForm = await makeForm(ctx.db, other, [
      { name: 'a', components: [{ type: 'ShortInput', content: {} }] },
      { name: 'b', components: [{ type: 'ShortInput', content: {} }] },
    ]);
    const refused = await app.request('/api/v1/webhooks', jsonRequest('POST', { url: r.url, eventTypes: ['response.created'], formIds: [otherForm.id] }, key()));
    expect(refused.status).toBe(400);
    // Still there for its owner.
    expect((await app.request(`/api/v1/webhooks/${endpoint.id}`, { headers: key() })).status).toBe(200);
  });

  it('is managed through GraphQL too', async () => {
    const created = await graphql(
      app,
      'mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { secret endpoint { id url eventTypes enabled } } }',
      { input: { url: 'http://127.0.0.1:9/g', eventTypes: ['form.generated'] } },
      key(),
    );
    expect(created.body.errors).toBeUndefined();
    const { endpoint, secret } = created.body.data.createWebhookEndpoint;
    expect(secret).toMatch(/^whsec_/);
    expect(endpoint).toMatchObject({ url: 'http://127.0.0.1:9/g', eventTypes: ['form.generated'], enabled: true });
    const updated = await graphql(app, 'mutation($id: ID!) { updateWebhookEndpoint(id: $id, input: {enabled: false}) { enabled disabledReason } }', { id: endpoint.id }, key());
    expect(updated.body.data.updateWebhookEndpoint).toEqual({ enabled: false, disabledReason: 'manual' });
    const deleted = await graphql(app, 'mutation($id: ID!) { deleteWebhookEndpoint(id: $id) { id deleted } }', { id: endpoint.id }, key());
    expect(deleted.body.data.deleteWebhookEndpoint).toEqual({ id: endpoint.id, deleted: true });
  });
});
