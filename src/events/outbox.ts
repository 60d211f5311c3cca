/**
 * The transactional outbox. `recordEvent(tx, …)` runs inside the transaction of the change it
 * describes: it stores the event, one pending delivery per matching enabled webhook endpoint, and a
 * NOTIFY. All three commit with the change or vanish with its rollback, so a committed change always
 * has its event and deliveries, and a rolled-back one never sends anything.
 */
import { and, arrayContains, eq, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { outboxEvents, webhookDeliveries, webhookEndpoints } from '../db/schema.ts';
import { createId } from '../ids.ts';
import { publishEvent } from './notifications.ts';

/** The event types an endpoint may subscribe to. */
export const WEBHOOK_EVENT_TYPES = ['response.created', 'response.updated', 'response.finished', 'form.generated'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** Sent only by `testWebhookEndpoint`, to the one endpoint tested. */
export const TEST_EVENT_TYPE = 'webhook.test';

export interface EventPayload {
  type: string;
  /** ISO 8601 UTC: when the change happened. */
  timestamp: string;
  data: unknown;
}

export interface NewEvent {
  environmentId: string;
  type: WebhookEventType;
  formId: string;
  /** Events of one response are delivered to an endpoint in the order they were recorded. */
  responseId?: string | undefined;
  data: unknown;
  at: Date;
}

/** A delivery id; it is the `webhook-id` header, the same on every attempt and re-send. */
export const deliveryId = () => `msg_${createId()}`;

/** Records `event` in the transaction `tx` (see the module comment). Returns the event's id. */
export async function recordEvent(tx: Db, event: NewEvent): Promise<string> {
  const id = `evt_${createId()}`;
  const payload: EventPayload = { type: event.type, timestamp: event.at.toISOString(), data: event.data };
  const [row] = await tx
    .insert(outboxEvents)
    .values({ id, environmentId: event.environmentId, type: event.type, formId: event.formId, responseId: event.responseId ?? null, payload, createdAt: event.at })
    .returning({ seq: outboxEvents.seq });
  const endpoints = await tx
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.environmentId, event.environmentId),
        eq(webhookEndpoints.enabled, true),
        arrayContains(webhookEndpoints.eventTypes, [event.type]),
        or(isNull(webhookEndpoints.formIds), arrayContains(webhookEndpoints.formIds, [event.formId])),
      ),
    );
  if (endpoints.length > 0) {
    await tx.insert(webhookDeliveries).values(
      endpoints.map((endpoint) => {
        const delivery = deliveryId();
        return {
          id: delivery,
          environmentId: event.environmentId,
          endpointId: endpoint.id,
          eventId: id,
          eventSeq: row!.seq,
          orderingKey: event.responseId ?? delivery,
          nextAttemptAt: sql`now()`,
        };
      }),
    );
  }
  await publishEvent(tx, { type: 'outbox-event', eventId: id, environmentId: event.environmentId, formId: event.formId, eventType: event.type });
  return id;
}
