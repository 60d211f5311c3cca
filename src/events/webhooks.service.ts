/**
 * Webhook endpoints of an environment and their deliveries: create (the signing secret is returned
 * once), list, change, enable/disable, delete, send a test event, read the recent attempts, re-send.
 * Every function takes the caller's environment and never reaches another's rows: an endpoint or
 * delivery of another environment is reported exactly like one that does not exist.
 */
import { randomBytes } from 'node:crypto';
import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { forms, outboxEvents, WEBHOOK_FORMATS, webhookAttempts, webhookDeliveries, webhookEndpoints, type DeliveryStatus, type WebhookFormat } from '../db/schema.ts';
import { AppError, invalidInput, notFound, type FieldError } from '../errors.ts';
import { createId } from '../ids.ts';
import { findUnsafeJson } from '../limits/json-safety.ts';
import { webhookUrlProblem } from './address-rules.ts';
import { publishEvent } from './notifications.ts';
import { deliveryId, TEST_EVENT_TYPE, WEBHOOK_EVENT_TYPES, type EventPayload } from './outbox.ts';

export type WebhookEndpoint = typeof webhookEndpoints.$inferSelect;
export type WebhookDelivery = typeof webhookDeliveries.$inferSelect;
export type WebhookAttempt = typeof webhookAttempts.$inferSelect;

/** Endpoints one environment may have. */
const MAX_ENDPOINTS_PER_ENVIRONMENT = 20;
/** Forms one endpoint may be limited to. */
const MAX_FORM_IDS = 100;
const MAX_DESCRIPTION_LENGTH = 500;
/** Deliveries one listing returns at most. */
export const MAX_DELIVERY_PAGE = 100;

const ENDPOINT_NOT_FOUND = 'Webhook endpoint not found';
const DELIVERY_NOT_FOUND = 'Webhook delivery not found';

/** A Standard Webhooks signing secret: `whsec_` and 32 random bytes in base64. */
const newSigningSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

export interface EndpointRules {
  /** WEBHOOK_ALLOW_PRIVATE: loopback, private and link-local addresses allowed. */
  allowPrivate: boolean;
}

export interface EndpointInput {
  url?: string | undefined;
  eventTypes?: readonly string[] | undefined;
  /** null: every form of the environment. */
  formIds?: readonly string[] | null | undefined;
  description?: string | undefined;
  enabled?: boolean | undefined;
  format?: string | undefined;
  includeAnswers?: boolean | undefined;
  /** The forms the caller is limited to (a key's): another is reported as no form of the environment, and null (every form) is refused. */
  formLimit?: readonly string[] | undefined;
}

async function validateInput(db: Db, environmentId: string, input: EndpointInput, rules: EndpointRules, creating: boolean): Promise<void> {
  const errors: FieldError[] = [];
  const { formLimit, ...fields } = input;
  for (const [name, value] of Object.entries(fields)) {
    const unsafe = findUnsafeJson(value, 3, [name]);
    if (unsafe) errors.push(unsafe);
  }
  if (errors.length > 0) throw invalidInput(errors);
  if (creating && input.url === undefined) errors.push({ message: 'url is required', path: ['url'] });
  if (input.url !== undefined) {
    const problem = await webhookUrlProblem(input.url, rules.allowPrivate);
    if (problem) errors.push({ message: `url ${problem}`, path: ['url'] });
  }
  if (creating && input.eventTypes === undefined) errors.push({ message: 'eventTypes is required', path: ['eventTypes'] });
  if (input.eventTypes !== undefined) {
    if (input.eventTypes.length === 0) errors.push({ message: 'eventTypes needs at least 1 event type', path: ['eventTypes'] });
    input.eventTypes.forEach((type, index) => {
      if (!(WEBHOOK_EVENT_TYPES as readonly string[]).includes(type)) {
        errors.push({ message: `Unknown event type "${type}"; one of ${WEBHOOK_EVENT_TYPES.join(', ')}`, path: ['eventTypes', index] });
      }
    });
  }
  if (input.format !== undefined && !(WEBHOOK_FORMATS as readonly string[]).includes(input.format)) {
    errors.push({ message: `format must be one of ${WEBHOOK_FORMATS.join(', ')}`, path: ['format'] });
  }
  if (input.description !== undefined && input.description.length > MAX_DESCRIPTION_LENGTH) {
    errors.push({ message: `description must be at most ${MAX_DESCRIPTION_LENGTH} characters`, path: ['description'] });
  }
  if (input.formIds) {
    if (input.formIds.length === 0) errors.push({ message: 'formIds needs at least 1 form id (or null for every form)', path: ['formIds'] });
    if (input.formIds.length > MAX_FORM_IDS) errors.push({ message: `formIds may list at most ${MAX_FORM_IDS} forms`, path: ['formIds'] });
    else if (input.formIds.length > 0) {
      const found = await db
        .select({ id: forms.id })
        .from(forms)
        .where(and(eq(forms.environmentId, environmentId), isNull(forms.deletedAt), inArray(forms.id, [...input.formIds])));
      const known = new Set(found.map((f) => f.id).filter((id) => formLimit === undefined || formLimit.includes(id)));
      input.formIds.forEach((id, index) => {
        if (!known.has(id)) errors.push({ message: 'No form with this id in the environment', path: ['formIds', index] });
      });
    }
  }
  if (formLimit !== undefined && input.formIds === null) errors.push({ message: 'A key limited to forms can make an endpoint of its own forms only', path: ['formIds'] });
  if (errors.length > 0) throw invalidInput(errors);
}

export async function createEndpoint(db: Db, environmentId: string, input: EndpointInput, rules: EndpointRules): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  await validateInput(db, environmentId, input, rules, true);
  const [{ count } = { count: 0 }] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.environmentId, environmentId));
  if (count >= MAX_ENDPOINTS_PER_ENVIRONMENT) {
    throw invalidInput([{ message: `An environment may have at most ${MAX_ENDPOINTS_PER_ENVIRONMENT} webhook endpoints`, path: [] }]);
  }
  const secret = newSigningSecret();
  const enabled = input.enabled ?? true;
  const [endpoint] = await db
    .insert(webhookEndpoints)
    .values({
      id: `ep_${createId()}`,
      environmentId,
      url: input.url!,
      description: input.description ?? '',
      eventTypes: [...new Set(input.eventTypes)],
      formIds: input.formIds ? [...new Set(input.formIds)] : null,
      secret,
      enabled,
      disabledReason: enabled ? null : 'manual',
      format: (input.format as WebhookFormat | undefined) ?? 'standard',
      includeAnswers: input.includeAnswers ?? false,
    })
    .returning();
  return { endpoint: endpoint!, secret };
}

export async function listEndpoints(db: Db, environmentId: string): Promise<WebhookEndpoint[]> {
  return db.select().from(webhookEndpoints).where(eq(webhookEndpoints.environmentId, environmentId)).orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id));
}

/** The environment an endpoint belongs to (for the admin token, which may reach any). */
export async function endpointEnvironment(db: Db, id: string): Promise<string | undefined> {
  const [row] = await db.select({ environmentId: webhookEndpoints.environmentId }).from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
  return row?.environmentId;
}

/** The forms an endpoint is limited to (null: every form); undefined when there is no such endpoint. */
export async function endpointFormIds(db: Db, id: string): Promise<readonly string[] | null | undefined> {
  const [row] = await db.select({ formIds: webhookEndpoints.formIds }).from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
  return row ? row.formIds : undefined;
}

/** The endpoint a delivery was made for; undefined when there is no such delivery. */
export async function deliveryEndpoint(db: Db, id: string): Promise<string | undefined> {
  const [row] = await db.select({ endpointId: webhookDeliveries.endpointId }).from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
  return row?.endpointId;
}

export async function deliveryEnvironment(db: Db, id: string): Promise<string | undefined> {
  const [row] = await db.select({ environmentId: webhookDeliveries.environmentId }).from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
  return row?.environmentId;
}

export async function getEndpoint(db: Db, environmentId: string, id: string): Promise<WebhookEndpoint> {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.environmentId, environmentId)));
  if (!row) throw notFound(ENDPOINT_NOT_FOUND);
  return row;
}

/** Changes an endpoint. Enabling it (again) clears the failure count and the reason it was disabled. */
export async function updateEndpoint(db: Db, environmentId: string, id: string, input: EndpointInput, rules: EndpointRules): Promise<WebhookEndpoint> {
  await getEndpoint(db, environmentId, id);
  await validateInput(db, environmentId, input, rules, false);
  const [row] = await db
    .update(webhookEndpoints)
    .set({
      updatedAt: new Date(),
      ...(input.url !== undefined ? { url: input.url } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.format !== undefined ? { format: input.format as WebhookFormat } : {}),
      ...(input.includeAnswers !== undefined ? { includeAnswers: input.includeAnswers } : {}),
      ...(input.eventTypes !== undefined ? { eventTypes: [...new Set(input.eventTypes)] } : {}),
      ...(input.formIds !== undefined ? { formIds: input.formIds ? [...new Set(input.formIds)] : null } : {}),
      ...(input.enabled === true ? { enabled: true, disabledReason: null, failedDeliveriesInARow: 0 } : {}),
      ...(input.enabled === false ? { enabled: false, disabledReason: 'manual' } : {}),
    })
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.environmentId, environmentId)))
    .returning();
  if (!row) throw notFound(ENDPOINT_NOT_FOUND);
  return row;
}

/** Deletes an endpoint with its deliveries and their attempts. */
export async function deleteEndpoint(db: Db, environmentId: string, id: string): Promise<WebhookEndpoint> {
  const [row] = await db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.environmentId, environmentId)))
    .returning();
  if (!row) throw notFound(ENDPOINT_NOT_FOUND);
  return row;
}

/** Queues a `webhook.test` event for this one endpoint (also when it is disabled: it is sent once it is enabled). */
export async function testEndpoint(db: Db, environmentId: string, id: string): Promise<WebhookDelivery> {
  const endpoint = await getEndpoint(db, environmentId, id);
  return db.transaction(async (tx) => {
    const now = new Date();
    const eventId = `evt_${createId()}`;
    const payload: EventPayload = {
      type: TEST_EVENT_TYPE,
      timestamp: now.toISOString(),
      data: { endpointId: endpoint.id, message: 'A test event from formloom' },
    };
    const [event] = await tx.insert(outboxEvents).values({ id: eventId, environmentId, type: TEST_EVENT_TYPE, payload, createdAt: now }).returning({ seq: outboxEvents.seq });
    const id_ = deliveryId();
    const [delivery] = await tx.insert(webhookDeliveries).values({ id: id_, environmentId, endpointId: endpoint.id, eventId, eventSeq: event!.seq, orderingKey: id_ }).returning();
    await publishEvent(tx, { type: 'outbox-event', eventId, environmentId, formId: null, eventType: TEST_EVENT_TYPE });
    return delivery!;
  });
}

export interface DeliveryWithEvent extends WebhookDelivery {
  eventType: string;
  payload: EventPayload;
}

/** An endpoint's most recent deliveries (newest first), optionally of one status. */
export async function listDeliveries(
  db: Db,
  environmentId: string,
  endpointId: string,
  options: { limit: number; status?: DeliveryStatus | undefined },
): Promise<DeliveryWithEvent[]> {
  await getEndpoint(db, environmentId, endpointId);
  const rows = await db
    .select({ delivery: webhookDeliveries, eventType: outboxEvents.type, payload: outboxEvents.payload })
    .from(webhookDeliveries)
    .innerJoin(outboxEvents, eq(outboxEvents.id, webhookDeliveries.eventId))
    .where(
      and(
        eq(webhookDeliveries.endpointId, endpointId),
        eq(webhookDeliveries.environmentId, environmentId),
        options.status ? eq(webhookDeliveries.status, options.status) : undefined,
      ),
    )
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(Math.min(Math.max(options.limit, 1), MAX_DELIVERY_PAGE));
  return rows.map((row) => ({ ...row.delivery, eventType: row.eventType, payload: row.payload }));
}

async function getDelivery(db: Db, environmentId: string, id: string): Promise<DeliveryWithEvent> {
  const [row] = await db
    .select({ delivery: webhookDeliveries, eventType: outboxEvents.type, payload: outboxEvents.payload })
    .from(webhookDeliveries)
    .innerJoin(outboxEvents, eq(outboxEvents.id, webhookDeliveries.eventId))
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.environmentId, environmentId)));
  if (!row) throw notFound(DELIVERY_NOT_FOUND);
  return { ...row.delivery, eventType: row.eventType, payload: row.payload };
}

/** The attempts of deliveries, oldest first, keyed by delivery id. */
export async function attemptsOf(db: Db, deliveryIds: readonly string[]): Promise<Map<string, WebhookAttempt[]>> {
  const map = new Map<string, WebhookAttempt[]>();
  if (deliveryIds.length === 0) return map;
  const rows = await db
    .select()
    .from(webhookAttempts)
    .where(inArray(webhookAttempts.deliveryId, [...deliveryIds]))
    .orderBy(asc(webhookAttempts.deliveryId), asc(webhookAttempts.attempt));
  for (const row of rows) map.set(row.deliveryId, [...(map.get(row.deliveryId) ?? []), row]);
  return map;
}

/**
 * Sends a delivery again, now, with the same `webhook-id` (receivers that deduplicate see a repeat),
 * whatever its state: succeeded, failed, or waiting for a retry. A delivery being sent right now is a
 * CONFLICT. Its earlier attempts stay in the history.
 */
export async function resendDelivery(db: Db, environmentId: string, id: string): Promise<DeliveryWithEvent> {
  const current = await getDelivery(db, environmentId, id);
  if (current.status === 'delivering') throw new AppError('CONFLICT', 'The delivery is being sent right now');
  const [row] = await db
    .update(webhookDeliveries)
    .set({ status: 'pending', nextAttemptAt: sql`now()`, leaseToken: null, leaseUntil: null, updatedAt: new Date() })
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.environmentId, environmentId), sql`${webhookDeliveries.status} <> 'delivering'`))
    .returning();
  if (!row) throw new AppError('CONFLICT', 'The delivery is being sent right now');
  await publishEvent(db, { type: 'outbox-event', eventId: row.eventId, environmentId, formId: null, eventType: 'resend' });
  return { ...row, eventType: current.eventType, payload: current.payload };
}
