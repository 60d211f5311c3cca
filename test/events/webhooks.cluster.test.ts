/**
 * Events across app instances: two instances (each its own connection pool and dispatcher) on one
 * PostgreSQL deliver each event exactly once; the `responseEvents` subscription (server-sent events)
 * receives events whose changes were made through another app instance; a subscriber that falls
 * behind is cut off. The live feed's bounds: a revoked key's open streams end at once and get nothing
 * after; streams per key are capped (429 with Retry-After, counted across nodes in Redis); a stream
 * lasts at most SUBSCRIPTION_MAX_LIFETIME. (Two real nodes on PostgreSQL: test/process/cluster.test.ts.)
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { sql } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApiKey } from '../../src/auth/auth.service.ts';
import type { Config } from '../../src/config.ts';
import { openDatabase, type DatabaseHandle } from '../../src/db/client.ts';
import { startWebhookDispatcher } from '../../src/events/dispatcher.ts';
import { LiveFeed } from '../../src/events/live-feed.ts';
import { openEventFeed, type EventFeed } from '../../src/events/notifications.ts';
import { StreamSlots } from '../../src/events/stream-slots.ts';
import { recordEvent } from '../../src/events/outbox.ts';
import { createEndpoint } from '../../src/events/webhooks.service.ts';
import { createApp } from '../../src/app.ts';
import type { Form } from '../../src/forms/forms.service.ts';
import type { DrainState } from '../../src/lifecycle.ts';
import { openRedis } from '../../src/limits/redis.ts';
import { ADMIN_TOKEN, appWith, createTenant, graphql, jsonRequest, setupTestApp, testConfig, type TestContext, type TestTenant } from '../support/helpers.ts';
import { makeForm, sleep } from '../support/public-helpers.ts';
import { SseStream, subscriptionRequest } from '../support/sse.ts';
import { eventually, Receiver } from '../support/webhook-helpers.ts';

const logger = pino({ level: 'silent' });
const databaseUrl = inject('testDatabaseUrl');
const REDIS_URL = 'redis://127.0.0.1:6379';
let ctx: TestContext;
let tenant: TestTenant;
let form: Form;
let second: DatabaseHandle | undefined;
const feeds: EventFeed[] = [];
/** The event feed of the app the live feed's bounds are tested on. */
let liveFeedEvents: EventFeed;
const streams: SseStream[] = [];
const closers: (() => unknown)[] = [];

beforeAll(async () => {
  ctx = await setupTestApp();
  tenant = await createTenant(ctx.db);
  form = await makeForm(ctx.db, tenant, [
    { name: 'One', components: [{ type: 'ShortInput', content: { question: 'First' } }] },
    { name: 'Two', components: [{ type: 'ShortInput', content: { question: 'Second' } }] },
  ]);
  if (databaseUrl) second = await openDatabase({ databaseUrl, maxConnections: 4 });
  liveFeedEvents = await feedOn(ctx.handle);
});
afterAll(async () => {
  await Promise.all(streams.map((stream) => stream.cancel()));
  for (const close of closers.reverse()) await close();
  await Promise.all(feeds.map((feed) => feed.close()));
  await second?.close();
});

async function feedOn(handle: DatabaseHandle) {
  const feed = await openEventFeed(handle, { databaseUrl, logger });
  feeds.push(feed);
  return feed;
}

const questionId = () => form.steps[0]!.components[0]!.id;

async function submit(app: TestContext['app'], index: number | string, finished = true) {
  const response = await app.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers: { [questionId()]: `v${index}` }, finished }));
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

describe('several nodes', () => {
  it.skipIf(!databaseUrl)('deliver each event once with two app instances on one PostgreSQL', async () => {
    const receiver = await new Receiver().start();
    const config = { ...testConfig().webhooks, allowPrivate: true, timeoutMs: 2_000, retryDelaysMs: [50] };
    try {
      const { secret } = await createEndpoint(ctx.db, tenant.environmentId, { url: receiver.url, eventTypes: ['response.finished'], formIds: [form.id] }, { allowPrivate: true });
      receiver.secret = secret;
      const feedA = await feedOn(ctx.handle);
      const feedB = await feedOn(second!);
      const a = startWebhookDispatcher({ db: ctx.db, config, logger, events: feedA, pollMs: 50 });
      const b = startWebhookDispatcher({ db: second!.db, config, logger, events: feedB, pollMs: 50 });
      const appA = appWith(ctx.db, { publicRateLimitPerMinute: 0 });
      const appB = appWith(second!.db, { publicRateLimitPerMinute: 0 });
      const total = 200;
      await Promise.all(Array.from({ length: total }, (_, i) => submit(i % 2 ? appA : appB, i)));
      await eventually(() => receiver.requests.length >= total, `${total} deliveries`, 1000);
      await Promise.all([a.stop(), b.stop()]);
      expect(receiver.unverified).toBe(0);
      const perId = new Map<string, number>();
      for (const request of receiver.requests) perId.set(request.id, (perId.get(request.id) ?? 0) + 1);
      expect(perId.size).toBe(total);
      expect([...perId.values()].every((n) => n === 1)).toBe(true);
    } finally {
      await receiver.stop();
    }
  });
});

describe('responseEvents subscription', () => {
  it('streams over server-sent events the events of changes made through another app instance', async () => {
    const feed = await feedOn(ctx.handle);
    const subscribed = createApp({ config: testConfig(), db: ctx.db, logger, adminToken: ADMIN_TOKEN, events: feed });
    // The change goes through another instance: on PostgreSQL another pool; on PGlite another app.
    const other = appWith(second?.db ?? ctx.db, { publicRateLimitPerMinute: 0 });
    const stream = new SseStream(await subscribed.request('/graphql', subscriptionRequest({ 'x-api-key': tenant.apiKey }, form.id)));
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get('content-type')).toContain('text/event-stream');
    const id = await submit(other, 1);
    await stream.until(() => stream.events.length >= 2, 5_000);
    await stream.cancel();
    const events = stream.events;
    // One submission that creates and finishes the response.
    expect(events.map((e) => e.type)).toEqual(['response.created', 'response.finished']);
    expect(events.every((e) => e.data?.id === id)).toBe(true);
    expect(events[1]!.data?.finished).toBe(true);
  });

  it('refuses a form of another environment and callers without a key', async () => {
    const other = await createTenant(ctx.db);
    const feed = await feedOn(ctx.handle);
    const app = createApp({ config: testConfig(), db: ctx.db, logger, adminToken: ADMIN_TOKEN, events: feed });
    const ask = (headers: Record<string, string>) =>
      app.request('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json', ...headers },
        body: JSON.stringify({ query: `subscription { responseEvents(formId: "${form.id}") { id } }` }),
      });
    const foreign = (await (await ask({ 'x-api-key': other.apiKey })).json()) as { errors: { extensions: { code: string } }[] };
    expect(foreign.errors[0]!.extensions.code).toBe('NOT_FOUND');
    expect((await ask({})).status).toBe(401);
  });

  it('cuts off a subscriber that falls behind instead of buffering without bound', async () => {
    const feed = await feedOn(ctx.handle);
    const live = new LiveFeed(ctx.db, feed, { bufferSize: 2, maxLifetimeMs: 60_000 }, logger);
    try {
      const iterator = await live.subscribe({ environmentId: tenant.environmentId, formId: form.id, holder: { kind: 'admin' } });
      const app = appWith(ctx.db, { publicRateLimitPerMinute: 0 });
      // 3 responses × 2 events, none read yet.
      for (let i = 0; i < 3; i++) await submit(app, 100 + i);
      await eventually(() => live.subscriberCount === 0, 'the subscriber to be cut off');
      const received: string[] = [];
      await expect(
        (async () => {
          for (;;) {
            const next = await iterator.next();
            if (next.done) break;
            received.push(next.value.type);
          }
        })(),
      ).rejects.toThrow(/fell behind/);
      expect(received).toHaveLength(2);
    } finally {
      live.close();
    }
  });
});

/** The app a subscriber talks to, with the node's event feed (as src/main.ts builds it). */
function subscribedApp(subscriptions: Partial<Config['subscriptions']> = {}, deps: Partial<Parameters<typeof createApp>[0]> = {}) {
  const config = testConfig();
  const app = createApp({
    config: { ...config, subscriptions: { ...config.subscriptions, ...subscriptions } },
    db: ctx.db,
    logger,
    adminToken: ADMIN_TOKEN,
    events: liveFeedEvents,
    ...deps,
  });
  return app;
}
/** Another instance, where the changes (submissions, revocations) are made. */
const otherApp = () => appWith(second?.db ?? ctx.db, { publicRateLimitPerMinute: 0 });

async function subscribe(app: ReturnType<typeof subscribedApp>, headers: Record<string, string>, formId: string | undefined = form.id) {
  const response = await app.request('/graphql', subscriptionRequest(headers, formId));
  const stream = new SseStream(response);
  if (response.ok) streams.push(stream);
  return stream;
}

const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
async function revokeThroughOtherInstance(keyId: string) {
  const revoked = await graphql(otherApp(), 'mutation($id: ID!) { revokeApiKey(id: $id) { revokedAt } }', { id: keyId }, admin);
  expect(revoked.body.data?.revokeApiKey.revokedAt).toEqual(expect.any(String));
  return performance.now();
}

describe('a revoked key', () => {
  it('has its open streams ended within 1 s, with an UNAUTHENTICATED error and no event after; other keys’ streams go on', async () => {
    const app = subscribedApp();
    const doomed = await createApiKey(ctx.db, { environmentId: tenant.environmentId, name: 'doomed' });
    const revokedStreams = [await subscribe(app, { 'x-api-key': doomed.key }), await subscribe(app, { 'x-api-key': doomed.key }, undefined)];
    const bystander = await subscribe(app, { 'x-api-key': tenant.apiKey });
    for (const stream of [...revokedStreams, bystander]) expect(stream.response.status).toBe(200);

    const before = await submit(otherApp(), 'before');
    for (const stream of [...revokedStreams, bystander]) {
      expect(await stream.until(() => stream.events.some((e) => e.type === 'response.finished'), 5_000)).toBe(true);
      expect(stream.events[0]!.data!.id).toBe(before);
    }

    const revokedAt = await revokeThroughOtherInstance(doomed.id);
    for (const stream of revokedStreams) {
      expect(await stream.ended(2_000), 'the stream should have ended').toBe(true);
      expect(stream.endedAt! - revokedAt).toBeLessThan(1_000);
      expect(stream.complete).toBe(true); // ended cleanly, with the error said
      expect(stream.errors).toEqual([expect.objectContaining({ message: 'Invalid API key', extensions: expect.objectContaining({ code: 'UNAUTHENTICATED' }) })]);
      expect(stream.messages.at(-1)!.event).toBe('complete');
    }

    const after = await submit(otherApp(), 'after');
    expect(await bystander.until(() => bystander.events.some((e) => e.data!.id === after && e.type === 'response.finished'), 5_000)).toBe(true);
    for (const stream of revokedStreams) {
      expect(stream.messages.filter((m) => m.at > revokedAt && m.event === 'next' && m.data?.data)).toEqual([]);
      expect(stream.events.map((e) => e.data!.id)).not.toContain(after);
    }
    // And the key opens no new stream.
    const again = await app.request('/graphql', subscriptionRequest({ 'x-api-key': doomed.key }, form.id));
    expect(again.status).toBe(401);
  });

  it('has its streams ended when a revocation that sent no event is found by the periodic key check', async () => {
    const live = new LiveFeed(ctx.db, liveFeedEvents, { bufferSize: 100, maxLifetimeMs: 60_000, keyCheckMs: 200 }, logger);
    closers.push(() => live.close());
    const app = subscribedApp({}, { liveFeed: live });
    const quiet = await createApiKey(ctx.db, { environmentId: tenant.environmentId, name: 'revoked in SQL' });
    const stream = await subscribe(app, { 'x-api-key': quiet.key });
    expect(stream.response.status).toBe(200);
    // Straight in the database: no 'api-key-revoked' event.
    await ctx.db.execute(sql`update api_keys set revoked_at = now() where id = ${quiet.id}`);
    expect(await stream.ended(3_000)).toBe(true);
    expect(stream.errors.map((e) => e.extensions?.code)).toEqual(['UNAUTHENTICATED']);
    expect(live.subscriberCount).toBe(0);
  });

  it('has its streams ended with UNAUTHENTICATED when its key expires, and opens none afterwards', async () => {
    // The periodic key check (which also finds expired keys) waits longer than the test: the expiry itself ends the stream.
    const live = new LiveFeed(ctx.db, liveFeedEvents, { bufferSize: 100, maxLifetimeMs: 60_000, keyCheckMs: 600_000 }, logger);
    closers.push(() => live.close());
    const app = subscribedApp({}, { liveFeed: live });
    const expiresAt = new Date(Date.now() + 1_500);
    const brief = await createApiKey(ctx.db, { environmentId: tenant.environmentId, name: 'expires soon', scopes: ['responses:read'], expiresAt });
    const stream = await subscribe(app, { 'x-api-key': brief.key });
    expect(stream.response.status).toBe(200);
    expect(await stream.ended(10_000)).toBe(true);
    expect(stream.errors.map((e) => ({ message: e.message, code: e.extensions?.code }))).toEqual([{ message: 'Invalid API key', code: 'UNAUTHENTICATED' }]);
    expect(live.subscriberCount).toBe(0);
    const again = await app.request('/graphql', subscriptionRequest({ 'x-api-key': brief.key }, form.id));
    expect(again.status).toBe(401);
  });

  it('streams to a key limited to forms only its forms’ events', async () => {
    const live = new LiveFeed(ctx.db, liveFeedEvents, { bufferSize: 100, maxLifetimeMs: 60_000 }, logger);
    closers.push(() => live.close());
    const app = subscribedApp({}, { liveFeed: live });
    const limited = await createApiKey(ctx.db, { environmentId: tenant.environmentId, scopes: ['responses:read'], formIds: [form.id] });
    const stream = await subscribe(app, { 'x-api-key': limited.key }, undefined);
    expect(stream.response.status).toBe(200);
    const outside = await subscribe(app, { 'x-api-key': limited.key }, tenant.templateId);
    expect({ status: outside.response.status, errors: await outside.ended(5_000).then(() => outside.errors.map((e) => e.message)) }).toEqual({
      status: 404,
      errors: ['Form not found'],
    });
    for (const formId of [tenant.templateId, form.id])
      await ctx.db.transaction((tx) => recordEvent(tx, { environmentId: tenant.environmentId, type: 'response.created', formId, data: { formId }, at: new Date() }));
    expect(await stream.until(() => stream.events.length >= 1, 5_000)).toBe(true);
    await sleep(300); // the other form's event, had it been sent, would have come first
    expect(stream.events.map((e) => e.formId)).toEqual([form.id]);
  });

  it('has the events still waiting in its streams dropped: a slow reader gets nothing after the revocation', async () => {
    const live = new LiveFeed(ctx.db, liveFeedEvents, { bufferSize: 100, maxLifetimeMs: 60_000 }, logger);
    closers.push(() => live.close());
    const slow = await createApiKey(ctx.db, { environmentId: tenant.environmentId, name: 'slow reader' });
    const iterator = await live.subscribe({ environmentId: tenant.environmentId, formId: form.id, holder: { kind: 'apiKey', keyId: slow.id } });
    const first = iterator.next(); // read one, then nothing while more arrive
    await submit(otherApp(), 'one');
    expect((await first).value?.type).toBe('response.created');
    await submit(otherApp(), 'two');
    await sleep(300); // 'response.finished' of one, and both events of two, wait unread
    await revokeThroughOtherInstance(slow.id);
    await expect(iterator.next()).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(await iterator.next()).toEqual({ value: undefined, done: true });
  });

  it('opens no stream, also when its revocation was heard before the stream was listed', async () => {
    const live = new LiveFeed(ctx.db, liveFeedEvents, { bufferSize: 100, maxLifetimeMs: 60_000 }, logger);
    closers.push(() => live.close());
    const late = await createApiKey(ctx.db, { environmentId: tenant.environmentId, name: 'revoked before' });
    await revokeThroughOtherInstance(late.id);
    await sleep(100); // the event has come and gone
    // As a request authenticated (from the cache) just before the revocation would reach it.
    await expect(live.subscribe({ environmentId: tenant.environmentId, formId: undefined, holder: { kind: 'apiKey', keyId: late.id } })).rejects.toMatchObject({
      code: 'UNAUTHENTICATED',
    });
    expect(live.subscriberCount).toBe(0);
  });
});

describe('streams per key', () => {
  it('refuses the stream over SUBSCRIPTION_MAX_PER_KEY with 429, Retry-After and the body of every 429, and takes one again once a stream ends', async () => {
    const app = subscribedApp({ maxPerKey: 2 });
    const key = await createApiKey(ctx.db, { environmentId: tenant.environmentId, name: 'capped' });
    const open = [await subscribe(app, { 'x-api-key': key.key }), await subscribe(app, { 'x-api-key': key.key }, undefined)];
    for (const stream of open) expect(stream.response.status).toBe(200);

    const refused = await app.request('/graphql', subscriptionRequest({ 'x-api-key': key.key }, form.id));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('30');
    expect(refused.headers.get('content-type')).toContain('application/json');
    const body = (await refused.json()) as { message: string; errors: { message: string; extensions: { code: string } }[] };
    expect(body).toEqual({
      message: 'Too many requests',
      errors: [{ message: expect.stringMatching(/^Too many open responseEvents streams for this API key \(at most 2\)/), extensions: { code: 'RATE_LIMITED' } }],
    });
    // Other keys, and the admin token, have caps of their own.
    const other = await subscribe(app, { 'x-api-key': tenant.apiKey });
    expect(other.response.status).toBe(200);

    await open[0]!.cancel();
    let reopened: SseStream | undefined;
    for (let attempt = 0; attempt < 50 && reopened?.response.status !== 200; attempt++) {
      await sleep(20);
      const response = await app.request('/graphql', subscriptionRequest({ 'x-api-key': key.key }, form.id));
      reopened = new SseStream(response);
      if (response.ok) streams.push(reopened);
      else await reopened.cancel();
    }
    expect(reopened?.response.status).toBe(200);
  });

  it('counts the admin token as one key, whatever environment its streams are of', async () => {
    const app = subscribedApp({ maxPerKey: 1 });
    const otherTenant = await createTenant(ctx.db);
    const asAdmin = (environmentId: string) =>
      app.request('/graphql', { ...subscriptionRequest(admin), body: JSON.stringify({ query: `subscription { responseEvents(environmentId: "${environmentId}") { id } }` }) });
    const first = new SseStream(await asAdmin(tenant.environmentId));
    streams.push(first);
    expect(first.response.status).toBe(200);
    expect((await asAdmin(otherTenant.environmentId)).status).toBe(429);
  });
});

describe('stream lifetime', () => {
  it('completes a stream cleanly after SUBSCRIPTION_MAX_LIFETIME (less up to a tenth), freeing its slot', async () => {
    const app = subscribedApp({ maxLifetimeMs: 1_000, maxPerKey: 1 });
    const key = await createApiKey(ctx.db, { environmentId: tenant.environmentId, name: 'short-lived' });
    const startedAt = performance.now();
    const stream = await subscribe(app, { 'x-api-key': key.key });
    expect(stream.response.status).toBe(200);
    expect(await stream.ended(5_000)).toBe(true);
    const lastedMs = stream.endedAt! - startedAt;
    expect(lastedMs).toBeGreaterThanOrEqual(850);
    expect(lastedMs).toBeLessThan(3_000);
    expect(stream.complete).toBe(true);
    expect(stream.errors).toEqual([]);
    expect(stream.messages.at(-1)?.event).toBe('complete');
    // Its slot is free: the client subscribes again at once.
    const again = await subscribe(app, { 'x-api-key': key.key });
    expect(again.response.status).toBe(200);
  });
});

describe('a draining node', () => {
  it('completes its open streams at once and refuses new ones with 503, so clients go to another node', async () => {
    const drain: DrainState = { draining: false };
    const app = subscribedApp({}, { drain });
    const open = await subscribe(app, { 'x-api-key': tenant.apiKey });
    expect(open.response.status).toBe(200);
    drain.draining = true;
    for (const hook of drain.onDrainStart ?? []) hook();
    expect(await open.ended(2_000)).toBe(true);
    expect(open.messages.at(-1)?.event).toBe('complete');
    expect(open.errors).toEqual([]);
    const refused = await app.request('/graphql', subscriptionRequest({ 'x-api-key': tenant.apiKey }, form.id));
    expect(refused.status).toBe(503);
    expect(await refused.text()).toContain('"code":"UNAVAILABLE"');
  });
});

describe('the stream cap across nodes (Redis)', () => {
  it('counts a key’s streams on every node together, and lets a refused node admit once one ends elsewhere', async () => {
    const prefix = `formloom-test-${randomBytes(6).toString('hex')}:`;
    const redisA = openRedis(REDIS_URL, { logger, keyPrefix: prefix });
    const redisB = openRedis(REDIS_URL, { logger, keyPrefix: prefix });
    closers.push(async () => {
      const keys = await redisA.keys(`${prefix}*`);
      if (keys.length > 0) await redisA.del(...keys.map((k) => k.slice(prefix.length)));
      redisA.disconnect();
      redisB.disconnect();
    });
    // As at a node's start: connected before the first request.
    for (let i = 0; i < 100 && (redisA.status !== 'ready' || redisB.status !== 'ready'); i++) await sleep(20);
    expect([redisA.status, redisB.status]).toEqual(['ready', 'ready']);
    const a = subscribedApp({ maxPerKey: 2 }, { rateLimitStore: { kind: 'redis', client: redisA } });
    const b = subscribedApp({ maxPerKey: 2 }, { rateLimitStore: { kind: 'redis', client: redisB } });
    const key = await createApiKey(ctx.db, { environmentId: tenant.environmentId, name: 'shared cap' });
    const onA = await subscribe(a, { 'x-api-key': key.key });
    const onB = await subscribe(b, { 'x-api-key': key.key });
    expect([onA.response.status, onB.response.status]).toEqual([200, 200]);
    // Each node has one open; together they hold the cap.
    expect((await a.request('/graphql', subscriptionRequest({ 'x-api-key': key.key }, form.id))).status).toBe(429);
    expect((await b.request('/graphql', subscriptionRequest({ 'x-api-key': key.key }, form.id))).status).toBe(429);
    await onB.cancel();
    let status = 0;
    for (let attempt = 0; attempt < 50 && status !== 200; attempt++) {
      await sleep(20);
      const response = await a.request('/graphql', subscriptionRequest({ 'x-api-key': key.key }, form.id));
      status = response.status;
      const stream = new SseStream(response);
      if (response.ok) streams.push(stream);
      else await stream.cancel();
    }
    expect(status).toBe(200);
  });

  it('admits on this node’s count alone when Redis does not answer', { timeout: 10_000 }, async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const gone = openRedis(`redis://127.0.0.1:${port}`, { logger });
    closers.push(() => gone.disconnect());
    const slots = new StreamSlots(2, gone, logger);
    closers.push(() => slots.close());
    const held = [await slots.acquire('k'), await slots.acquire('k')];
    expect(held.every(Boolean)).toBe(true);
    expect(await slots.acquire('k')).toBeUndefined();
    held[0]!.release();
    held[0]!.release(); // idempotent
    expect(slots.openOnThisNode('k')).toBe(1);
    expect(await slots.acquire('k')).toBeDefined();
  });
});
