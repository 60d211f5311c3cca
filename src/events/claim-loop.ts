/**
 * The delivery loop both outboxes share (webhooks: events/dispatcher.ts; e-mail:
 * notifications/dispatcher.ts): claim due rows (the caller's statement leases them, so no two nodes
 * hold one), work on each with an abort signal, claim again when a slot frees, when an outbox event
 * commits anywhere (the NOTIFY feed) or every `pollMs`. When the node starts draining: no new claims
 * (other nodes take what is due), work in flight goes on. On stop: no new claims, work in flight is
 * aborted, and whatever was claimed while stopping is handed back with `release`.
 */
import type { Logger } from 'pino';
import type { EventFeed } from './notifications.ts';

export interface ClaimLoopOptions<Item> {
  /** Items worked on at once by this node. */
  concurrency: number;
  pollMs: number;
  logger: Logger;
  /** What is claimed, for log lines ("webhook deliveries"). */
  what: string;
  /** Wakes the loop when outbox events commit on any node. */
  events?: EventFeed | undefined;
  claim(room: number): Promise<Item[]>;
  /** Must not throw for an item's own failure (record it); `signal` aborts when the loop stops. */
  work(item: Item, signal: AbortSignal): Promise<void>;
  /** Gives back an item claimed while the loop was stopping, without counting an attempt. */
  release(item: Item): Promise<void>;
}

export interface ClaimLoop {
  /** Look for due items now. */
  kick(): void;
  /** Claims nothing more; work in flight goes on (the node is draining). */
  stopClaiming(): void;
  /** Stops claiming, aborts work in flight and waits for it. */
  stop(): Promise<void>;
  /** Items in flight on this node. */
  readonly inFlight: number;
}

/** Wait before retry `attemptsMade` (1-based count of attempts made), with ±20% jitter; undefined: no retries left. */
export function retryDelay(delays: readonly number[], attemptsMade: number, random: () => number = Math.random): number | undefined {
  const base = delays[attemptsMade - 1];
  if (base === undefined) return undefined;
  return Math.round(base * (0.8 + 0.4 * random()));
}

export function startClaimLoop<Item>(options: ClaimLoopOptions<Item>): ClaimLoop {
  const { concurrency, pollMs, logger } = options;
  const controllers = new Set<AbortController>();
  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  let claiming = true;
  let kicked = true;
  let wake: (() => void) | undefined;

  function kick() {
    kicked = true;
    wake?.();
  }
  const unsubscribe = options.events?.on('outbox-event', kick);

  function start(item: Item) {
    const controller = new AbortController();
    controllers.add(controller);
    const promise: Promise<void> = options
      .work(item, controller.signal)
      .catch((error: unknown) => logger.error({ err: error }, `working on ${options.what} failed`))
      .finally(() => {
        controllers.delete(controller);
        inFlight.delete(promise);
        kick();
      });
    inFlight.add(promise);
  }

  const loop = (async () => {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- stop() sets it while this waits
    while (!stopped) {
      const room = concurrency - inFlight.size;
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- stopClaiming() sets it while this waits
      if (room > 0 && kicked && claiming) {
        kicked = false;
        let claimed: Item[] = [];
        try {
          claimed = await options.claim(room);
        } catch (error) {
          logger.warn({ err: error }, `claiming ${options.what} failed; retrying`);
        }
        // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- stop() or stopClaiming() may have run during the claim
        if (stopped || !claiming) {
          // Claimed while stopping: hand them back at once.
          await Promise.all(claimed.map((item) => options.release(item).catch(() => {})));
          continue;
        }
        for (const item of claimed) start(item);
        if (claimed.length === room) kicked = true; // there may be more
        if (kicked) continue;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          kicked = true;
          resolve();
        }, pollMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
  })();

  return {
    kick,
    get inFlight() {
      return inFlight.size;
    },
    stopClaiming() {
      claiming = false;
      unsubscribe?.();
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      unsubscribe?.();
      wake?.();
      await loop;
      for (const controller of controllers) controller.abort();
      await Promise.all([...inFlight]);
    },
  };
}
