/**
 * Events across app instances: two instances (each its own connection pool and dispatcher) on one
 * PostgreSQL deliver each event exactly once; the `responseEvents` subscription (server-sent events)
 * receives events whose changes were made through another app instance; a subscriber that falls
 * behind is cut off.
 */
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../src/db/client.ts';
import { startWebhookDispatcher } from '../src/events/dispatcher.ts';
import { LiveFeed } from '../src/events/live-feed.ts';
import { openEventFeed, type EventFeed } from '../src/events/notifications.ts';
import { createEndpoint } from '../src/events/webhooks.service.ts';
import { createApp } from '../src/app.ts';
import type { Form } from '../src/forms/forms.service.ts';
import { ADMIN_TOKEN, appWith, createTenant, jsonRequest, setupTestApp, testConfig, type TestContext, type TestTenant } from './helpers.ts';
import { makeForm } from './public-helpers.ts';
import { eventually, Receiver } from './webhook-helpers.ts';

const logger = pino({ level: 'silent' });
const databaseUrl = inject('testDatabaseUrl');
let ctx: TestContext;
let tenant: TestTenant;
let form: Form;
let second: DatabaseHandle | undefined;
const feeds: EventFeed[] = [];

beforeAll(async () => {
  ctx = await setupTestApp();
  tenant = await createTenant(ctx.db);
  form = await makeForm(ctx.db, tenant, [
    { name: 'One', components: [{ type: 'ShortInput', content: { question: 'First' } }] },
    { name: 'Two', components: [{ type: 'ShortInput', content: { question: 'Second' } }] },
  ]);
  if (databaseUrl) second = await openDatabase({ databaseUrl, maxConnections: 4 });
});
afterAll(async () => {
  await Promise.all(feeds.map((feed) => feed.close()));
  await second?.close();
});

async function feedOn(handle: DatabaseHandle) {
  const feed = await openEventFeed(handle, { databaseUrl, logger });
  feeds.push(feed);
  return feed;
}

const questionId = () => form.steps[0]!.components[0]!.id;

async function submit(app: TestContext['app'], index: number, finished = true) {
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
    const controller = new AbortController();
    const response = await subscribed.request('/graphql', {
      method: 'POST',
      signal: controller.signal,
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'x-api-key': tenant.apiKey },
      body: JSON.stringify({ query: `subscription { responseEvents(formId: "${form.id}") { id type formId data } }` }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    const events: { type: string; data: { id: string; finished: boolean } }[] = [];
    let buffer = '';
    const id = await submit(other, 1);
    for (let reads = 0; reads < 50 && events.length < 2; reads++) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let at: number;
      while ((at = buffer.indexOf('\n\n')) >= 0) {
        const message = buffer.slice(0, at);
        buffer = buffer.slice(at + 2);
        const data = message.split('\n').find((line) => line.startsWith('data: '));
        if (data && message.includes('event: next')) events.push(JSON.parse(data.slice(6)).data.responseEvents);
      }
    }
    controller.abort();
    await reader.cancel().catch(() => {});
    // One submission that creates and finishes the response.
    expect(events.map((e) => e.type)).toEqual(['response.created', 'response.finished']);
    expect(events.every((e) => e.data.id === id)).toBe(true);
    expect(events[1]!.data.finished).toBe(true);
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
