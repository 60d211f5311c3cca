/**
 * Retention of webhook events (src/events/retention.ts): finished events older than the retention go
 * with their deliveries and attempts; anything still to be delivered stays, however old; one sweep at a time.
 */
import { eq, inArray, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { outboxEvents, webhookAttempts, webhookDeliveries } from '../../src/db/schema.ts';
import { recordEvent } from '../../src/events/outbox.ts';
import { deleteExpiredEvents, sweepExpiredEvents } from '../../src/events/retention.ts';
import { createEndpoint } from '../../src/events/webhooks.service.ts';
import { runExclusively } from '../../src/db/locks.ts';
import { createId } from '../../src/ids.ts';
import { createTenant, setupIsolatedTestApp, type TestContext, type TestTenant } from '../support/helpers.ts';

let ctx: TestContext;
let tenant: TestTenant;
let endpointId: string;

beforeAll(async () => {
  ctx = await setupIsolatedTestApp();
  tenant = await createTenant(ctx.db);
  const created = await createEndpoint(ctx.db, tenant.environmentId, { url: 'http://127.0.0.1:9/hook', eventTypes: ['response.finished'] }, { allowPrivate: true });
  endpointId = created.endpoint.id;
});

/** One event for the endpoint, `daysAgo` old, its delivery left in `status` with one attempt recorded (none while pending). */
async function eventWith(daysAgo: number, status: 'pending' | 'delivering' | 'succeeded' | 'failed' | 'none') {
  const eventId = await ctx.db.transaction((tx) =>
    recordEvent(tx, {
      environmentId: tenant.environmentId,
      type: status === 'none' ? 'form.generated' : 'response.finished', // the endpoint wants no form.generated: no delivery
      formId: tenant.templateId,
      data: { daysAgo, status },
      at: new Date(),
    }),
  );
  const old = sql`now() - ${daysAgo} * interval '1 day'`;
  await ctx.db.update(outboxEvents).set({ createdAt: old }).where(eq(outboxEvents.id, eventId));
  const [delivery] = await ctx.db.select({ id: webhookDeliveries.id }).from(webhookDeliveries).where(eq(webhookDeliveries.eventId, eventId));
  expect(Boolean(delivery)).toBe(status !== 'none');
  if (delivery && status !== 'pending' && status !== 'none') {
    await ctx.db.update(webhookDeliveries).set({ status, attempts: 1, createdAt: old }).where(eq(webhookDeliveries.id, delivery.id));
    await ctx.db.insert(webhookAttempts).values({
      id: createId(),
      deliveryId: delivery.id,
      attempt: 1,
      startedAt: new Date(Date.now() - daysAgo * 86_400_000),
      durationMs: 5,
      statusCode: 200,
      succeeded: status === 'succeeded',
    });
  }
  return { eventId, deliveryId: delivery?.id };
}

describe('webhook event retention', () => {
  it('deletes finished events past the retention with their deliveries and attempts, and keeps the rest', async () => {
    const succeeded = await eventWith(40, 'succeeded');
    const failed = await eventWith(31, 'failed');
    const unwanted = await eventWith(45, 'none');
    const waiting = await eventWith(60, 'pending'); // e.g. its endpoint was disabled: still to be sent
    const inFlight = await eventWith(40, 'delivering');
    const recent = await eventWith(2, 'succeeded');

    const result = await deleteExpiredEvents(ctx.db, 30);
    expect(result).toEqual({ events: 3, deliveries: 2, attempts: 2 });

    const ids = [succeeded, failed, unwanted, waiting, inFlight, recent].map((e) => e.eventId);
    const left = await ctx.db.select({ id: outboxEvents.id }).from(outboxEvents).where(inArray(outboxEvents.id, ids));
    expect(left.map((row) => row.id).sort()).toEqual([waiting.eventId, inFlight.eventId, recent.eventId].sort());
    const deliveries = await ctx.db.select({ id: webhookDeliveries.id }).from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId));
    expect(deliveries.map((row) => row.id).sort()).toEqual([waiting.deliveryId, inFlight.deliveryId, recent.deliveryId].sort());
    const attempts = await ctx.db
      .select({ deliveryId: webhookAttempts.deliveryId })
      .from(webhookAttempts)
      .where(inArray(webhookAttempts.deliveryId, [succeeded.deliveryId!, failed.deliveryId!, recent.deliveryId!]));
    expect(attempts.map((row) => row.deliveryId)).toEqual([recent.deliveryId]);

    // Nothing more to delete; a retention of 0 keeps everything.
    expect(await deleteExpiredEvents(ctx.db, 30)).toEqual({ events: 0, deliveries: 0, attempts: 0 });
    await eventWith(400, 'succeeded');
    expect(await deleteExpiredEvents(ctx.db, 0)).toEqual({ events: 0, deliveries: 0, attempts: 0 });
    expect((await deleteExpiredEvents(ctx.db, 365)).events).toBe(1);
  });

  it('deletes in batches until nothing is left past the retention', async () => {
    const rows = Array.from({ length: 2_500 }, (_, i) => ({
      id: `evt_batch_${i}`,
      environmentId: tenant.environmentId,
      type: 'form.generated',
      formId: tenant.templateId,
      payload: { type: 'form.generated', timestamp: new Date().toISOString(), data: {} },
      createdAt: new Date(Date.now() - 50 * 86_400_000),
    }));
    for (let i = 0; i < rows.length; i += 500) await ctx.db.insert(outboxEvents).values(rows.slice(i, i + 500));
    expect((await deleteExpiredEvents(ctx.db, 30)).events).toBe(2_500);
  });

  it('runs one sweep at a time: a second sweep started meanwhile skips', async () => {
    await eventWith(40, 'succeeded');
    // A sweep started while another holds the sweep's lock (deterministic: not two racing calls).
    const outer = await runExclusively(ctx.handle, 'webhook-retention', async () => sweepExpiredEvents(ctx.handle, 30));
    expect(outer.ran && outer.value.ran).toBe(false);
    const alone = await sweepExpiredEvents(ctx.handle, 30);
    expect(alone.ran && alone.value.events).toBe(1);
  });
});
