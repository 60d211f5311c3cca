/** `formloom webhook …` against a real server on an ephemeral port, with a real receiver. */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli.ts';
import { startWebhookDispatcher, type WebhookDispatcher } from '../../src/events/dispatcher.ts';
import { ADMIN_TOKEN, appWith, createTenant, setupIsolatedTestApp, testConfig, type TestContext, type TestTenant } from '../support/helpers.ts';
import { eventually, Receiver } from '../support/webhook-helpers.ts';

let ctx: TestContext;
let server: ServerType;
let url: string;
let tenant: TestTenant;
let receiver: Receiver;
let dispatcher: WebhookDispatcher;

beforeAll(async () => {
  // Its own database on PostgreSQL: its dispatcher must not deliver other files' events.
  ctx = await setupIsolatedTestApp();
  const webhooks = { ...testConfig().webhooks, allowPrivate: true, timeoutMs: 1_000 };
  const app = appWith(ctx.db, { webhooks });
  server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  if (!server.listening) await once(server, 'listening');
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  tenant = await createTenant(ctx.db);
  receiver = await new Receiver().start();
  dispatcher = startWebhookDispatcher({ db: ctx.db, config: webhooks, logger: pino({ level: 'silent' }), pollMs: 20 });
});
afterAll(async () => {
  await dispatcher.stop();
  await receiver.stop();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const cli = async (...args: string[]) => (await runCli([...args, '--url', url, '--admin-token', ADMIN_TOKEN, '--json'])).output as any;

describe('formloom webhook', () => {
  it('creates, lists, tests, shows deliveries, re-sends, disables, enables and deletes', async () => {
    const created = await cli('webhook', 'create', '--env', tenant.environmentId, '--target', receiver.url, '--events', 'response.finished,form.generated');
    expect(created).toMatchObject({ url: receiver.url, eventTypes: ['response.finished', 'form.generated'], enabled: true, formIds: null });
    expect(created.secret).toMatch(/^whsec_/);
    receiver.secret = created.secret;

    const listed = await cli('webhook', 'list', '--env', tenant.environmentId);
    expect(listed.endpoints.map((e: { id: string }) => e.id)).toEqual([created.id]);
    expect(JSON.stringify(listed)).not.toContain('whsec_');

    const test = await cli('webhook', 'test', created.id);
    expect(test).toMatchObject({ endpointId: created.id, eventType: 'webhook.test' });
    await eventually(() => receiver.accepted.length === 1, 'the test event');
    expect(receiver.accepted[0]!.id).toBe(test.id);

    await eventually(async () => (await cli('webhook', 'deliveries', created.id, '--status', 'succeeded')).deliveries.length === 1, 'the delivery to show');
    const { deliveries } = await cli('webhook', 'deliveries', created.id);
    expect(deliveries[0]).toMatchObject({ id: test.id, status: 'succeeded', attemptCount: 1, attempts: [{ attempt: 1, statusCode: 200, succeeded: true }] });

    await cli('webhook', 'resend', test.id);
    await eventually(() => receiver.accepted.length === 2, 'the re-sent event');

    expect(await cli('webhook', 'disable', created.id)).toMatchObject({ enabled: false, disabledReason: 'manual' });
    expect(await cli('webhook', 'enable', created.id)).toMatchObject({ enabled: true, disabledReason: null });
    expect(await cli('webhook', 'delete', created.id)).toEqual({ id: created.id, deleted: true });
    expect((await cli('webhook', 'list', '--env', tenant.environmentId)).endpoints).toEqual([]);
  });

  it('reports invalid input with paths and unknown endpoints as not found', async () => {
    await expect(cli('webhook', 'create', '--env', tenant.environmentId, '--target', 'ftp://x', '--events', 'nope')).rejects.toMatchObject({
      details: { code: 'BAD_USER_INPUT', errors: [{ path: ['url'] }, { path: ['eventTypes', 0] }] },
    });
    await expect(cli('webhook', 'delete', 'ep_missing')).rejects.toMatchObject({ details: { code: 'NOT_FOUND' } });
  });
});
