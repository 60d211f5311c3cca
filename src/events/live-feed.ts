/**
 * The live feed behind the `responseEvents` subscription: each node hears every committed outbox
 * event over LISTEN/NOTIFY (whichever node made the change), reads its payload once, and hands it to
 * the subscribers of that environment (and form).
 *
 * Each stream is bounded:
 * - a subscriber that has `bufferSize` events waiting is cut off with an error rather than buffered
 *   without bound;
 * - it lasts at most `maxLifetimeMs` (less up to a tenth, at random, so streams opened together do not
 *   all reconnect together), then the server completes it and the client subscribes again;
 * - a holder (an API key, or the admin token) has at most `slots.cap` streams open (src/events/stream-slots.ts);
 * - the streams of an API key end, with an UNAUTHENTICATED error and nothing queued delivered, as soon
 *   as this node hears that the key was revoked (the 'api-key-revoked' event, on any node), and a key
 *   check finds revocations no event reported: when the event feed resumes after a drop (events may have
 *   been missed), and every `keyCheckMs`.
 */
import { eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import { activeApiKeyIds, VERIFIED_KEY_TTL_MS } from '../auth/auth.service.ts';
import type { Db } from '../db/client.ts';
import { outboxEvents } from '../db/schema.ts';
import { AppError, invalidCredentials, unavailable } from '../errors.ts';
import type { EventFeed } from './notifications.ts';
import type { EventPayload } from './outbox.ts';
import type { StreamSlot, StreamSlots } from './stream-slots.ts';

export interface LiveEvent extends EventPayload {
  id: string;
  formId: string | null;
}

/** Who holds a stream: its cap is counted per holder, and an API key's streams end when it is revoked. */
export type StreamHolder = { kind: 'apiKey'; keyId: string; expiresAt?: Date | null } | { kind: 'admin' };

export interface LiveFeedOptions {
  /** Unread events a subscriber may have before it is cut off. */
  bufferSize: number;
  /** Longest a stream stays open. */
  maxLifetimeMs: number;
  /** The per-holder cap on open streams; absent: no cap. */
  slots?: StreamSlots | undefined;
  /** How often the keys of open streams are checked against the database (default VERIFIED_KEY_TTL_MS). */
  keyCheckMs?: number;
}

/** How long a client refused for holding too many streams is asked to wait: a dead node's leases lapse within it. */
const TOO_MANY_STREAMS_RETRY_AFTER_SECONDS = 30;

/** 429: the holder has as many streams open as it may. */
export class TooManyStreamsError extends AppError {
  readonly retryAfterSeconds = TOO_MANY_STREAMS_RETRY_AFTER_SECONDS;
  constructor(cap: number) {
    super('RATE_LIMITED', `Too many open responseEvents streams for this API key (at most ${cap}); end one, or retry later`);
  }
}

interface Subscriber {
  environmentId: string;
  formId: string | undefined;
  /** Only these forms' events (the key's form limit); undefined: every form. */
  formIds: readonly string[] | undefined;
  /** The API key whose revocation ends the stream (undefined for the admin token). */
  keyId: string | undefined;
  queue: LiveEvent[];
  notify: (() => void) | undefined;
  failed: AppError | undefined;
  done: boolean;
  slot: StreamSlot | undefined;
  lifetime: NodeJS.Timeout | undefined;
  /** Ends the stream when its API key expires. */
  keyExpiry: NodeJS.Timeout | undefined;
}

export class LiveFeed {
  private readonly subscribers = new Set<Subscriber>();
  private chain: Promise<void> = Promise.resolve();
  private readonly stopListening: (() => void)[];
  private readonly keyCheck: NodeJS.Timeout;
  /** Closed (the node is draining): subscriptions end, and new ones are refused (503). */
  private closed = false;

  constructor(
    private readonly db: Db,
    events: EventFeed,
    private readonly options: LiveFeedOptions,
    private readonly logger: Logger,
  ) {
    this.stopListening = [
      events.on('outbox-event', (event) => {
        if (!event.eventType.startsWith('response.')) return;
        if (![...this.subscribers].some((s) => s.environmentId === event.environmentId)) return;
        // One read per event per node, in NOTIFY order.
        this.chain = this.chain.then(() => this.fanOut(event.eventId)).catch((error) => this.logger.error({ err: error }, 'live feed read failed'));
      }),
      // Synchronously, in NOTIFY order: no event committed after the revocation reaches the key's streams.
      events.on('api-key-revoked', ({ keyId }) => this.endStreamsOfKeys((id) => id === keyId)),
      events.onResume(() => void this.checkKeys()),
    ];
    this.keyCheck = setInterval(() => void this.checkKeys(), options.keyCheckMs ?? VERIFIED_KEY_TTL_MS).unref();
  }

  get subscriberCount(): number {
    return this.subscribers.size;
  }

  private async fanOut(eventId: string) {
    const [row] = await this.db.select().from(outboxEvents).where(eq(outboxEvents.id, eventId));
    if (!row) return;
    const event: LiveEvent = { id: row.id, formId: row.formId, ...row.payload };
    for (const subscriber of this.subscribers) {
      if (subscriber.environmentId !== row.environmentId) continue;
      if (subscriber.formId !== undefined && subscriber.formId !== row.formId) continue;
      if (subscriber.formIds !== undefined && !(row.formId !== null && subscriber.formIds.includes(row.formId))) continue;
      if (subscriber.queue.length >= this.options.bufferSize) {
        this.end(subscriber, { failure: new AppError('RATE_LIMITED', `The client fell behind by ${this.options.bufferSize} events and was cut off; subscribe again`) });
      } else {
        subscriber.queue.push(event);
        subscriber.notify?.();
      }
    }
  }

  /**
   * Ends a stream: it leaves the feed and frees its slot. With a failure the client gets it as an
   * error (after the queued events, unless `dropQueued`); without, the stream completes after them.
   */
  private end(subscriber: Subscriber, how: { failure?: AppError; dropQueued?: boolean } = {}) {
    this.subscribers.delete(subscriber);
    clearTimeout(subscriber.lifetime);
    clearTimeout(subscriber.keyExpiry);
    subscriber.slot?.release();
    subscriber.slot = undefined;
    if (how.dropQueued) subscriber.queue.length = 0;
    if (how.failure && !subscriber.done) subscriber.failed ??= how.failure;
    else subscriber.done = true;
    subscriber.notify?.();
  }

  /** Ends, at once, the streams of the API keys `revoked` picks: nothing queued for them is delivered. */
  private endStreamsOfKeys(revoked: (keyId: string) => boolean) {
    for (const subscriber of [...this.subscribers]) {
      if (subscriber.keyId !== undefined && revoked(subscriber.keyId)) this.end(subscriber, { failure: invalidCredentials(), dropQueued: true });
    }
  }

  /** Ends the streams of keys the database no longer holds as valid (revoked without an event this node heard). */
  private async checkKeys() {
    const keyIds = [...new Set([...this.subscribers].flatMap((s) => (s.keyId === undefined ? [] : [s.keyId])))];
    if (keyIds.length === 0) return;
    try {
      const active = await activeApiKeyIds(this.db, keyIds);
      this.endStreamsOfKeys((keyId) => keyIds.includes(keyId) && !active.has(keyId));
    } catch (error) {
      // The database away: streams go on (they carry nothing new while it is), checked again next time.
      this.logger.warn({ err: error }, 'live feed key check failed');
    }
  }

  /**
   * The events of an environment (and form) from now on, until `signal` aborts, the client falls
   * behind, the stream's lifetime ends, or its API key is revoked. Throws TooManyStreamsError when the
   * holder has as many streams open as it may, UNAUTHENTICATED when its key is no longer valid, and
   * UNAVAILABLE once the feed is closed (the node is draining).
   */
  async subscribe(request: {
    environmentId: string;
    formId: string | undefined;
    formIds?: readonly string[] | undefined;
    holder: StreamHolder;
    signal?: AbortSignal | undefined;
  }): Promise<AsyncIterableIterator<LiveEvent>> {
    const { holder, signal } = request;
    const subscriber: Subscriber = {
      environmentId: request.environmentId,
      formId: request.formId,
      formIds: request.formIds,
      keyId: holder.kind === 'apiKey' ? holder.keyId : undefined,
      queue: [],
      notify: undefined,
      failed: undefined,
      done: false,
      slot: undefined,
      lifetime: undefined,
      keyExpiry: undefined,
    };
    // A draining node takes no new stream: the client (or its load balancer) goes to another node.
    if (this.closed) throw unavailable();
    const iterator = this.iterate(subscriber);
    const { slots } = this.options;
    if (slots) {
      const slot = await slots.acquire(holder.kind === 'apiKey' ? holder.keyId : 'admin');
      if (!slot) throw new TooManyStreamsError(slots.cap);
      subscriber.slot = slot;
    }
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- either may have changed while a slot was awaited
    if (this.closed || signal?.aborted) {
      this.end(subscriber);
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- as above
      if (this.closed) throw unavailable();
      return iterator;
    }
    this.subscribers.add(subscriber);
    subscriber.lifetime = setTimeout(() => this.end(subscriber), this.options.maxLifetimeMs * (0.9 + 0.1 * Math.random())).unref();
    signal?.addEventListener('abort', () => this.end(subscriber), { once: true });
    const keyExpiresAt = holder.kind === 'apiKey' ? holder.expiresAt : null;
    if (keyExpiresAt) {
      // setTimeout's delay is a 32-bit count of milliseconds: a later expiry is left to the periodic key check.
      const delay = keyExpiresAt.getTime() - Date.now();
      if (delay < 2 ** 31 - 1) subscriber.keyExpiry = setTimeout(() => this.end(subscriber, { failure: invalidCredentials(), dropQueued: true }), Math.max(0, delay)).unref();
    }
    // A revocation heard before this stream was listed did not end it: read the key once, now that it is.
    if (subscriber.keyId !== undefined) {
      const active = await activeApiKeyIds(this.db, [subscriber.keyId]).catch((error: unknown) => {
        this.end(subscriber);
        throw error;
      });
      if (!active.has(subscriber.keyId)) {
        this.end(subscriber);
        throw invalidCredentials();
      }
    }
    return iterator;
  }

  private iterate(subscriber: Subscriber): AsyncIterableIterator<LiveEvent> {
    const iterator: AsyncIterableIterator<LiveEvent> = {
      [Symbol.asyncIterator]: () => iterator,
      next: async () => {
        for (;;) {
          const event = subscriber.queue.shift();
          if (event) return { value: event, done: false };
          if (subscriber.failed) {
            const failure = subscriber.failed;
            subscriber.failed = undefined;
            subscriber.done = true;
            throw failure;
          }
          if (subscriber.done) return { value: undefined, done: true };
          await new Promise<void>((resolve) => (subscriber.notify = resolve));
          subscriber.notify = undefined;
        }
      },
      return: () => {
        this.end(subscriber);
        return Promise.resolve({ value: undefined, done: true });
      },
    };
    return iterator;
  }

  /** Ends every subscription, and refuses those asked for later (the node is stopping). */
  close() {
    if (this.closed) return;
    this.closed = true;
    for (const stop of this.stopListening) stop();
    clearInterval(this.keyCheck);
    for (const subscriber of [...this.subscribers]) this.end(subscriber);
    this.options.slots?.close();
  }
}
