/**
 * The transactional outbox. `recordEvent(tx, …)` runs inside the transaction of the change it
 * describes: it stores the event, one pending delivery per matching enabled webhook endpoint, and a
 * NOTIFY. All three commit with the change or vanish with its rollback, so a committed change always
 * has its event and deliveries, and a rolled-back one never sends anything. A change made by one
 * statement without a transaction records them in that statement instead (`recordEventsOfChange`).
 */
import { randomUUID } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { outboxEvents, webhookDeliveries, webhookEndpoints } from '../db/schema.ts';
import { createId } from '../ids.ts';
import { rowsOf } from '../db/rows.ts';
import { EVENTS_CHANNEL, type NodeEvent } from './notifications.ts';

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

/**
 * A delivery id; it is the `webhook-id` header, the same on every attempt and re-send. `msg_` and a
 * random UUID's 32 hex digits, the shape `NEW_DELIVERY_ID_SQL` gives the deliveries a statement stores.
 */
export const deliveryId = () => `msg_${randomUUID().replaceAll('-', '')}`;
const NEW_DELIVERY_ID_SQL = sql`'msg_' || replace(gen_random_uuid()::text, '-', '')`;

/** The enabled endpoints of the row `event` (an outbox_events row) that take its type and form. */
const endpointTakes = (endpoint: SQL, event: SQL) => sql`${endpoint}.environment_id = ${event}.environment_id and ${endpoint}.enabled
  and ${endpoint}.event_types @> array[${event}.type]::text[]
  and (${endpoint}.form_ids is null or ${endpoint}.form_ids @> array[${event}.form_id]::text[])`;

/**
 * Records `event` in the transaction `tx` (see the module comment). Returns the event's id.
 *
 * One statement stores the event, finds the endpoints that take it and sends the NOTIFY (one round
 * trip: this runs in every submission); deliveries are a second one only when an endpoint matches.
 */
export async function recordEvent(tx: Db, event: NewEvent): Promise<string> {
  const [id] = await recordEvents(tx, [event]);
  return id!;
}

/**
 * `recordEvent` for several events of one change (a response updated and finished), in the same
 * statements: their `seq` follows the list's order. Returns their ids in that order.
 */
export async function recordEvents(tx: Db, events: readonly NewEvent[]): Promise<string[]> {
  const recorded = events.map((event) => {
    const id = `evt_${createId()}`;
    const payload: EventPayload = { type: event.type, timestamp: event.at.toISOString(), data: event.data };
    const notice: NodeEvent = { type: 'outbox-event', eventId: id, environmentId: event.environmentId, formId: event.formId, eventType: event.type };
    return { id, event, payload, notice };
  });
  // A multi-row VALUES inserts its rows in order, so the events' seq follows the list.
  const rows = rowsOf<{ id: string; seq: number; endpoints: string[] }>(
    await tx.execute(sql`
      with event as (
        insert into ${outboxEvents} (id, environment_id, type, form_id, response_id, payload, created_at)
        values ${sql.join(
          recorded.map(
            ({ id, event, payload }) =>
              sql`(${id}, ${event.environmentId}, ${event.type}, ${event.formId}, ${event.responseId ?? null}, ${JSON.stringify(payload)}::jsonb, ${event.at.toISOString()}::timestamptz)`,
          ),
          sql`, `,
        )}
        returning id, seq, environment_id, type, form_id
      )
      select event.id, event.seq,
             array(select w.id from ${webhookEndpoints} w where ${endpointTakes(sql`w`, sql`event`)}) as endpoints,
             pg_notify(${EVENTS_CHANNEL}, notice.body)::text as notified
      from event join (values ${sql.join(
        recorded.map(({ id, notice }) => sql`(${id}, ${JSON.stringify(notice)})`),
        sql`, `,
      )}) as notice (id, body) on notice.id = event.id
      order by event.seq`),
  );
  const deliveries = rows.flatMap((row) => {
    const { event } = recorded.find((r) => r.id === row.id)!;
    return row.endpoints.map((endpointId) => {
      const delivery = deliveryId();
      return {
        id: delivery,
        environmentId: event.environmentId,
        endpointId,
        eventId: row.id,
        eventSeq: Number(row.seq),
        orderingKey: event.responseId ?? delivery,
        nextAttemptAt: sql`now()`,
      };
    });
  });
  if (deliveries.length > 0) await tx.insert(webhookDeliveries).values(deliveries);
  return recorded.map(({ id }) => id);
}

/** An event of a response whose row the same statement writes (`recordEventsOfChange`). */
export interface ChangeEvent {
  environmentId: string;
  type: WebhookEventType;
  formId: string;
  responseId: string;
  /** The payload's `data` as far as it is known before the statement; `dataPatch` completes it. */
  data: Record<string, unknown>;
  at: Date;
}

/**
 * `recordEvents` for a change made by one statement with no transaction around it: the events, their
 * deliveries and NOTIFYs are stored by that same statement, so they commit with the change or not at
 * all. `changes` are the statement's CTEs, the last named `changed` with the one changed row;
 * `dataPatch`, jsonb over `changed`, is merged into each event's `data` (what only the statement
 * knows: ids and counts it chose; none by default). Returns `changed`'s row (none if it changed nothing).
 */
export async function recordEventsOfChange<Row>(db: Db, changes: SQL, events: readonly ChangeEvent[], dataPatch = sql`'{}'::jsonb`): Promise<Row | undefined> {
  const recorded = events.map((event, order) => {
    const id = `evt_${createId()}`;
    const payload: EventPayload = { type: event.type, timestamp: event.at.toISOString(), data: event.data };
    const notice: NodeEvent = { type: 'outbox-event', eventId: id, environmentId: event.environmentId, formId: event.formId, eventType: event.type };
    return {
      row: sql`(${id}::text, ${event.environmentId}::text, ${event.type}::text, ${event.formId}::text, ${event.responseId}::text,
        ${JSON.stringify(payload)}::jsonb, ${event.at.toISOString()}::timestamptz, ${order}::integer)`,
      notice: sql`(${id}::text, ${JSON.stringify(notice)}::text)`,
    };
  });
  const rows = rowsOf<Row>(
    await db.execute(sql`
      with ${changes},
      event as (
        insert into ${outboxEvents} (id, environment_id, type, form_id, response_id, payload, created_at)
        select e.id, e.environment_id, e.type, e.form_id, e.response_id, jsonb_set(e.payload, '{data}', (e.payload -> 'data') || ${dataPatch}), e.created_at
        from changed cross join (values ${sql.join(
          recorded.map((r) => r.row),
          sql`, `,
        )}) as e (id, environment_id, type, form_id, response_id, payload, created_at, ord)
        -- In the list's order: the events' seq follows it.
        order by e.ord
        returning id, seq, environment_id, type, form_id, response_id
      ),
      delivery as (
        insert into ${webhookDeliveries} (id, environment_id, endpoint_id, event_id, event_seq, ordering_key, next_attempt_at)
        select ${NEW_DELIVERY_ID_SQL}, event.environment_id, w.id, event.id, event.seq, event.response_id, now()
        from event join ${webhookEndpoints} w on ${endpointTakes(sql`w`, sql`event`)}
      )
      select changed.*, pg_notify(${EVENTS_CHANNEL}, notice.body)::text as notified
      from changed, event join (values ${sql.join(
        recorded.map((r) => r.notice),
        sql`, `,
      )}) as notice (id, body) on notice.id = event.id
      order by event.seq`),
  );
  return rows[0];
}
