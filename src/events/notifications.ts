/**
 * Notifications between the nodes sharing one database, over PostgreSQL LISTEN/NOTIFY.
 *
 * - `publishEvent(db, event)` is a `pg_notify` on the caller's handle: inside a transaction, every node
 *   (this one included) hears the event when the transaction commits, and never when it rolls back.
 * - `openEventFeed(...)` is one node's ear: a dedicated connection that LISTENs, hands each event to the
 *   handlers registered for its type, and says whether it is `live`. When that connection drops, the
 *   feed is not live (events published meanwhile are lost to this node) and it re-LISTENs with a
 *   bounded backoff until the database answers again; then `onResume` handlers run, so caches can drop
 *   whatever a missed event might have invalidated.
 *
 * On PGlite (one process) the same events arrive through PGlite's own LISTEN; the feed is always live.
 * Key revocation (api-key-revoked) evicts cached verifications and ends the key's `responseEvents`
 * streams, and the outbox (outbox-event) wakes webhook delivery and feeds those streams.
 */
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db, DatabaseHandle } from '../db/client.ts';

export const EVENTS_CHANNEL = 'formloom_events';

/** Every event nodes tell each other. Keep payloads small (NOTIFY allows under 8000 bytes). */
export type NodeEvent =
  | { type: 'api-key-revoked'; keyId: string }
  /** An outbox event committed (src/events/outbox.ts): wakes the webhook dispatchers and feeds subscriptions. */
  | { type: 'outbox-event'; eventId: string; environmentId: string; formId: string | null; eventType: string };
export type NodeEventType = NodeEvent['type'];
type EventOf<T extends NodeEventType> = Extract<NodeEvent, { type: T }>;

/** Tells every node about `event` when the transaction `db` belongs to commits (at once outside one). */
export async function publishEvent(db: Db, event: NodeEvent): Promise<void> {
  await db.execute(sql`select pg_notify(${EVENTS_CHANNEL}, ${JSON.stringify(event)})`);
}

export interface EventFeed {
  /** Calls `handler` for each event of `type` from any node; returns a function that stops it. */
  on<T extends NodeEventType>(type: T, handler: (event: EventOf<T>) => void): () => void;
  /** Calls `handler` each time the feed is listening again after a drop (events may have been missed). */
  onResume(handler: () => void): () => void;
  /** True while this node is listening: no event published now can pass it by. */
  readonly live: boolean;
  close(): Promise<void>;
}

/** Re-LISTEN backoff after the connection drops: 100 ms doubling to at most this. */
const MAX_RELISTEN_DELAY_MS = 2_000;

export async function openEventFeed(
  database: Pick<DatabaseHandle, 'kind' | 'db'>,
  options: { databaseUrl: string | undefined; connectTimeoutMs?: number; logger: Logger },
): Promise<EventFeed> {
  const handlers = new Map<NodeEventType, Set<(event: NodeEvent) => void>>();
  const resumeHandlers = new Set<() => void>();
  const { logger } = options;

  function deliver(payload: string) {
    let event: NodeEvent;
    try {
      event = JSON.parse(payload) as NodeEvent;
    } catch {
      logger.warn({ payload }, 'unreadable event ignored');
      return;
    }
    for (const handler of handlers.get(event.type) ?? []) {
      try {
        handler(event);
      } catch (error) {
        logger.error({ err: error, event: event.type }, 'event handler failed');
      }
    }
  }
  function resumed() {
    for (const handler of resumeHandlers) handler();
  }
  const registry = {
    on<T extends NodeEventType>(type: T, handler: (event: EventOf<T>) => void) {
      const set = handlers.get(type) ?? new Set();
      handlers.set(type, set);
      const untyped = handler as (event: NodeEvent) => void;
      set.add(untyped);
      return () => void set.delete(untyped);
    },
    onResume(handler: () => void) {
      resumeHandlers.add(handler);
      return () => void resumeHandlers.delete(handler);
    },
  };

  if (database.kind === 'pglite') {
    // Narrow adapter: drizzle keeps the driver's client on `$client`.
    const client = (database.db as unknown as { $client: PGlite }).$client;
    const unlisten = await client.listen(EVENTS_CHANNEL, deliver);
    return { ...registry, live: true, close: () => unlisten() };
  }

  if (!options.databaseUrl) throw new Error('openEventFeed: a PostgreSQL database needs its URL');
  const { default: postgres } = await import('postgres');
  let live = false;
  let closed = false;
  let relistening = false;
  // A connection of its own, never idle-closed: postgres.js's `sql.listen` gives up re-listening if the
  // first attempt after a drop fails, so this feed keeps the connection and its LISTEN itself.
  const connection = postgres(options.databaseUrl, {
    max: 1,
    idle_timeout: 0,
    max_lifetime: null,
    fetch_types: false,
    connect_timeout: Math.ceil((options.connectTimeoutMs ?? 2_000) / 1000),
    onnotice: () => {},
    onclose: () => {
      if (closed) return;
      if (live) logger.warn('event feed lost its database connection; key cache bypassed until it is back');
      live = false;
      void relisten();
    },
    // Not in postgres.js's types, but an option it reads: called for every NOTIFY on this connection.
    ...({ onnotify: (channel: string, payload: string) => channel === EVENTS_CHANNEL && deliver(payload) } as object),
  });

  async function listenOnce() {
    await connection.unsafe(`listen ${EVENTS_CHANNEL}`);
    live = true;
  }
  async function relisten() {
    if (relistening || closed) return;
    relistening = true;
    let delay = 100;
    try {
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- close() sets it while this waits
      while (!closed) {
        try {
          await listenOnce();
          logger.info('event feed listening again');
          resumed();
          return;
        } catch (error) {
          logger.debug({ err: error }, 're-listen failed; retrying');
          await new Promise((resolve) => setTimeout(resolve, delay).unref());
          delay = Math.min(delay * 2, MAX_RELISTEN_DELAY_MS);
        }
      }
    } finally {
      relistening = false;
    }
  }

  try {
    await listenOnce();
  } catch (error) {
    // Start anyway: the feed is not live (caches are bypassed) and keeps trying.
    logger.warn({ err: error }, 'event feed could not listen yet; retrying in the background');
    void relisten();
  }
  return {
    ...registry,
    get live() {
      return live;
    },
    async close() {
      closed = true;
      live = false;
      await connection.end({ timeout: 1 });
    },
  };
}
