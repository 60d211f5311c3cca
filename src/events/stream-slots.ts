/**
 * How many live-feed streams each holder (an API key, or the admin token) has open, against a cap
 * (SUBSCRIPTION_MAX_PER_KEY).
 *
 * Always counted in this process. With Redis (REDIS_URL) the count is also kept across the nodes, so a
 * key gets the same cap whichever nodes its streams land on: each open stream is a lease in a sorted set
 * per holder (member: the stream, score: when the lease ends, in Redis's own clock), renewed by its node
 * every `RENEW_MS` and removed when the stream ends; the leases of a node that died lapse within
 * `LEASE_MS`. If Redis does not answer (commands time out after 250 ms, src/limits/redis.ts), a stream is
 * admitted on this node's count alone, as the rate limits fall back to memory; the renewals put it back
 * into Redis's count once Redis answers again.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

/** How long a stream's lease in Redis lasts without renewal (a dead node's streams stop counting then). */
const LEASE_MS = 30_000;
const RENEW_MS = LEASE_MS / 3;

/** Drops lapsed leases, and adds the stream if the holder has fewer than the cap. 1: added, 0: at the cap. */
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

/** Extends (or restores) the leases of this node's streams of one holder. */
const RENEW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
for i = 2, #ARGV do redis.call('ZADD', KEYS[1], now + tonumber(ARGV[1]), ARGV[i]) end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return #ARGV - 1`;

export interface StreamSlot {
  /** Frees the slot (idempotent). */
  release(): void;
}

export class StreamSlots {
  /** This node's open streams per holder (their lease ids). */
  private readonly local = new Map<string, Set<string>>();
  private readonly renewal: NodeJS.Timeout | undefined;

  constructor(
    /** Streams per holder; must be at least 1. */
    readonly cap: number,
    private readonly redis: Redis | undefined,
    private readonly logger: Logger,
  ) {
    if (redis) this.renewal = setInterval(() => void this.renew(), RENEW_MS).unref();
  }

  private key(holder: string) {
    return `formloom:streams:${holder}`;
  }

  /** Streams `holder` has open on this node. */
  openOnThisNode(holder: string): number {
    return this.local.get(holder)?.size ?? 0;
  }

  /** A slot for one more stream of `holder`, or undefined when it has `cap` open (here, or across the nodes). */
  async acquire(holder: string): Promise<StreamSlot | undefined> {
    const mine = this.local.get(holder) ?? new Set<string>();
    if (mine.size >= this.cap) return undefined;
    // Taken here first, so two subscriptions of the same holder arriving together can't both pass.
    const id = randomUUID();
    mine.add(id);
    this.local.set(holder, mine);
    const release = () => {
      if (!mine.delete(id)) return;
      if (mine.size === 0 && this.local.get(holder) === mine) this.local.delete(holder);
      this.redis?.zrem(this.key(holder), id).catch(() => {}); // else the lease lapses
    };
    if (this.redis) {
      let admitted: unknown = 1;
      try {
        admitted = await this.redis.eval(ACQUIRE, 1, this.key(holder), this.cap, LEASE_MS, id);
      } catch (error) {
        this.logger.debug({ err: error }, 'stream cap checked on this node only (redis did not answer)');
      }
      if (admitted === 0) {
        release();
        return undefined;
      }
    }
    return { release };
  }

  private async renew() {
    for (const [holder, ids] of this.local) {
      if (ids.size === 0) continue;
      try {
        await this.redis!.eval(RENEW, 1, this.key(holder), LEASE_MS, ...ids);
      } catch (error) {
        this.logger.debug({ err: error }, 'stream leases not renewed (redis did not answer)');
        return;
      }
    }
  }

  close() {
    clearInterval(this.renewal);
  }
}
