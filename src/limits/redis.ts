/**
 * The Redis client behind the shared rate-limit counters and stream caps (REDIS_URL). Set up so that
 * Redis being slow or gone never holds up or fails a request: commands are not queued while disconnected
 * and time out quickly, so rate-limiter-flexible falls back to its in-memory insurance limiter (and the
 * stream cap to this node's count); reconnects go on in the background with a capped backoff; connection
 * errors are logged (at most once per outage), not thrown.
 */
import { Redis } from 'ioredis';
import type { Logger } from 'pino';

/** Longest a rate-limit check waits for Redis before counting in memory instead. */
const COMMAND_TIMEOUT_MS = 250;
const CONNECT_TIMEOUT_MS = 1_000;
/** Reconnect delay: 50 ms more per attempt, capped. */
const MAX_RECONNECT_DELAY_MS = 2_000;

export function openRedis(url: string, options: { logger: Logger; keyPrefix?: string }): Redis {
  const { logger } = options;
  const client = new Redis(url, {
    keyPrefix: options.keyPrefix ?? '',
    enableOfflineQueue: false,
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectTimeout: CONNECT_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    retryStrategy: (attempt) => Math.min(attempt * 50, MAX_RECONNECT_DELAY_MS),
    // Not every deployment allows CLIENT SETNAME/INFO; none is needed.
    enableReadyCheck: false,
    connectionName: undefined,
  });
  let down = false;
  client.on('error', (error: Error) => {
    if (down) return;
    down = true;
    logger.warn({ err: error }, 'redis unreachable; rate limits and stream caps count in this process until it is back');
  });
  client.on('ready', () => {
    if (down) logger.info('redis reachable again');
    down = false;
  });
  return client;
}
