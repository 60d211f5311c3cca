/**
 * The live feed behind the `responseEvents` subscription: each node hears every committed outbox
 * event over LISTEN/NOTIFY (whichever node made the change), reads its payload once, and hands it to
 * the subscribers of that environment (and form). A subscriber that has `bufferSize` events waiting
 * is cut off with an error rather than buffered without bound.
 */
import { eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../db/client.ts';
import { outboxEvents } from '../db/schema.ts';
import { AppError } from '../errors.ts';
import type { EventFeed } from './notifications.ts';
import type { EventPayload } from './outbox.ts';

export interface LiveEvent extends EventPayload {
  id: string;
  formId: string | null;
}

interface Subscriber {
  environmentId: string;
  formId: string | undefined;
  queue: LiveEvent[];
  notify: (() => void) | undefined;
  failed: AppError | undefined;
  done: boolean;
}

export class LiveFeed {
  private readonly subscribers = new Set<Subscriber>();
  private chain: Promise<void> = Promise.resolve();
  private readonly stopListening: () => void;
  /** Closed (the node is draining): subscriptions end, and new ones end at once. */
  private closed = false;

  constructor(
    private readonly db: Db,
    events: EventFeed,
    private readonly bufferSize: number,
    private readonly logger: Logger,
  ) {
    this.stopListening = events.on('outbox-event', (event) => {
      if (!event.eventType.startsWith('response.')) return;
      if (![...this.subscribers].some((s) => s.environmentId === event.environmentId)) return;
      // One read per event per node, in NOTIFY order.
      this.chain = this.chain.then(() => this.fanOut(event.eventId)).catch((error) => this.logger.error({ err: error }, 'live feed read failed'));
    });
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
      if (subscriber.queue.length >= this.bufferSize) {
        subscriber.failed = new AppError('RATE_LIMITED', `The client fell behind by ${this.bufferSize} events and was cut off; subscribe again`);
        this.subscribers.delete(subscriber);
      } else subscriber.queue.push(event);
      subscriber.notify?.();
    }
  }

  /** The events of an environment (and form) from now on, until `signal` aborts or the client falls behind. */
  subscribe(environmentId: string, formId: string | undefined, signal?: AbortSignal): AsyncIterableIterator<LiveEvent> {
    const subscriber: Subscriber = { environmentId, formId, queue: [], notify: undefined, failed: undefined, done: this.closed };
    if (!this.closed) this.subscribers.add(subscriber);
    const end = () => {
      subscriber.done = true;
      this.subscribers.delete(subscriber);
      subscriber.notify?.();
    };
    signal?.addEventListener('abort', end, { once: true });
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
      return: async () => {
        end();
        return { value: undefined, done: true };
      },
    };
    return iterator;
  }

  /** Ends every subscription, and any made later at once (the node is stopping). */
  close() {
    if (this.closed) return;
    this.closed = true;
    this.stopListening();
    for (const subscriber of [...this.subscribers]) {
      subscriber.done = true;
      this.subscribers.delete(subscriber);
      subscriber.notify?.();
    }
  }
}
