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
import { notificationDeliveries, outboxEvents, webhookDeliveries, webhookEndpoints, type NotificationKind } from '../db/schema.ts';
import { createId } from '../ids.ts';
import { rowsOf } from '../db/rows.ts';
import { EVENTS_CHANNEL, type NodeEvent } from './notifications.ts';

/** The event types an endpoint may subscribe to. */
export const WEBHOOK_EVENT_TYPES = ['response.created', 'response.updated', 'response.finished', 'form.generated', 'form.updated'] as const;
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
  /** E-mails this event sends (notifications/recipients.ts), stored with it: the mail outbox. */
  notifications?: readonly NewNotification[] | undefined;
}

/** One e-mail to one address about one response (a notification_deliveries row). */
export interface NewNotification {
  kind: NotificationKind;
  trigger: string;
  responseId: string;
  recipient: string;
  rule: { includeAnswers: boolean; subject?: string | undefined; body?: string | undefined };
  /** Unique per response: the same notification is stored once however often the response finishes. */
  dedupeKey: string;
}

/**
 * A delivery id; it is the `webhook-id` header, the same on every attempt and re-send. `msg_` and a
 * random UUID's 32 hex digits, the shape `NEW_DELIVERY_ID_SQL` gives the deliveries `recordEvents` stores.
 */
export const deliveryId = () => `msg_${randomUUID().replaceAll('-', '')}`;
const NEW_DELIVERY_ID_SQL = sql`'msg_' || replace(gen_random_uuid()::text, '-', '')`;

/**
 * Records `event` in the transaction `tx` (see the module comment). Returns the event's id.
 *
 * One statement stores the event and its deliveries (one per endpoint that takes it) and sends the
 * NOTIFY: one round trip, whatever the endpoints.
 */
export async function recordEvent(tx: Db, event: NewEvent): Promise<string> {
  const [id] = await recordEvents(tx, [event]);
  return id!;
}

/**
 * `recordEvent` for several events of one change (a response updated and finished), in the same
 * statement: their `seq` follows the list's order. Returns their ids in that order.
 */
export async function recordEvents(tx: Db, events: readonly NewEvent[]): Promise<string[]> {
  const rows = rowsOf<{ event_id: string }>(await tx.execute(eventsStatement(events)));
  return rows.map((row) => row.event_id);
}

/**
 * `recordEvents` for a change made by one statement with no transaction around it: the events, their
 * deliveries and NOTIFYs are stored by that same statement, so they commit with the change or not at
 * all. `change.ctes` are the statement's CTEs, the last named `changed` with the one changed row;
 * `change.dataPatch`, jsonb over `changed`, is merged into each event's `data` (what only the statement
 * knows: ids and counts it chose). Returns `changed`'s row (none if it changed nothing, and then no
 * event is stored either).
 */
export async function recordEventsOfChange<Row>(db: Db, events: readonly NewEvent[], change: { ctes: SQL; dataPatch?: SQL }): Promise<Row | undefined> {
  return rowsOf<Row>(await db.execute(eventsStatement(events, change)))[0];
}

/**
 * The statement of `recordEvents` and `recordEventsOfChange`: the events in the list's order (a
 * multi-row insert from a sorted select numbers them so), a delivery per endpoint that takes each (its
 * ordering key the response, else the event: one delivery per endpoint and event), a NOTIFY per event.
 * It returns a row per event, in order: `event_id`, and with a change, `changed`'s columns.
 */
function eventsStatement(events: readonly NewEvent[], change?: { ctes: SQL; dataPatch?: SQL }): SQL {
  const recorded = events.map((event, order) => {
    const id = `evt_${createId()}`;
    const payload: EventPayload = { type: event.type, timestamp: event.at.toISOString(), data: event.data };
    const notice: NodeEvent = { type: 'outbox-event', eventId: id, environmentId: event.environmentId, formId: event.formId, eventType: event.type };
    return sql`(${id}::text, ${event.environmentId}::text, ${event.type}::text, ${event.formId}::text, ${event.responseId ?? null}::text,
      ${JSON.stringify(payload)}::jsonb, ${event.at.toISOString()}::timestamptz, ${order}::integer, ${JSON.stringify(notice)}::text)`;
  });
  const payload = change?.dataPatch ? sql`jsonb_set(e.payload, '{data}', (e.payload -> 'data') || ${change.dataPatch})` : sql`e.payload`;
  return sql`
    with ${change ? sql`${change.ctes},` : sql``}
    e (id, environment_id, type, form_id, response_id, payload, created_at, ord, notice) as (values ${sql.join(recorded, sql`, `)}),
    event as (
      insert into ${outboxEvents} (id, environment_id, type, form_id, response_id, payload, created_at)
      select e.id, e.environment_id, e.type, e.form_id, e.response_id, ${payload}, e.created_at
      from ${change ? sql`changed cross join e` : sql`e`}
      order by e.ord
      returning id, seq, environment_id, type, form_id, response_id
    ),
    delivery as (
      insert into ${webhookDeliveries} (id, environment_id, endpoint_id, event_id, event_seq, ordering_key, next_attempt_at)
      select ${NEW_DELIVERY_ID_SQL}, event.environment_id, w.id, event.id, event.seq, coalesce(event.response_id, event.id), now()
      -- The enabled endpoints of the event's environment that take its type and form.
      from event join ${webhookEndpoints} w on w.environment_id = event.environment_id and w.enabled
        and w.event_types @> array[event.type]::text[] and (w.form_ids is null or w.form_ids @> array[event.form_id]::text[])
    )${notificationsCte(events, Boolean(change))}
    select ${change ? sql`changed.*, ` : sql``}event.id as event_id, pg_notify(${EVENTS_CHANNEL}, e.notice)::text as notified
    from ${change ? sql`changed, ` : sql``}event join e on e.id = event.id
    order by event.seq`;
}

/**
 * The CTE storing the events' notifications (none: nothing), joined to `changed` for a one-statement
 * change so that they are stored only when it changed its row. A notification already stored for the
 * response (its dedupe key) is left as it is.
 */
function notificationsCte(events: readonly NewEvent[], withChange: boolean): SQL {
  const rows = events.flatMap((event) =>
    (event.notifications ?? []).map(
      (n) => sql`(${`ntf_${createId()}`}::text, ${event.environmentId}::text, ${event.formId}::text, ${n.responseId}::text, ${n.kind}::text,
        ${n.trigger}::text, ${n.recipient}::text, ${JSON.stringify(n.rule)}::jsonb, ${n.dedupeKey}::text)`,
    ),
  );
  if (rows.length === 0) return sql``;
  return sql`,
    notification as (
      insert into ${notificationDeliveries} (id, environment_id, form_id, response_id, kind, trigger, recipient, rule, dedupe_key)
      select n.id, n.environment_id, n.form_id, n.response_id, n.kind, n.trigger, n.recipient, n.rule, n.dedupe_key
      from (values ${sql.join(rows, sql`, `)}) n (id, environment_id, form_id, response_id, kind, trigger, recipient, rule, dedupe_key)
      ${withChange ? sql`cross join changed` : sql``}
      on conflict (response_id, dedupe_key) do nothing
    )`;
}
