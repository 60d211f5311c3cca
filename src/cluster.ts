/**
 * What the nodes behind one load balancer share besides the database: Redis for the rate-limit
 * counters and the per-key stream cap (REDIS_URL; without it each node counts on its own), and the
 * database's notifications for evicting cached key verifications, and ending live streams, when a key
 * is revoked anywhere.
 */
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/client.ts';
import { openEventFeed, type EventFeed } from './events/notifications.ts';
import type { RateLimitStore } from './limits/rate-limits.ts';
import { openRedis } from './limits/redis.ts';

export interface ClusterLinks {
  rateLimitStore: RateLimitStore;
  events: EventFeed;
  close(): Promise<void>;
}

export async function joinCluster(config: Config, database: DatabaseHandle, logger: Logger): Promise<ClusterLinks> {
  const redis = config.redisUrl ? openRedis(config.redisUrl, { logger, keyPrefix: config.redisKeyPrefix }) : undefined;
  // LISTEN needs a session of its own: on DATABASE_DIRECT_URL when set (a transaction pooler cannot carry it).
  const events = await openEventFeed(database, { databaseUrl: database.sessionUrl, connectTimeoutMs: config.db.connectTimeoutMs, logger });
  return {
    rateLimitStore: redis ? { kind: 'redis', client: redis } : { kind: 'memory' },
    events,
    async close() {
      await events.close();
      if (redis) await redis.quit().catch(() => redis.disconnect());
    },
  };
}
