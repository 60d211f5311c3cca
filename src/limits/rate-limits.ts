/**
 * The rate limits at the edge, counted by rate-limiter-flexible:
 *
 * - `apiKey`: requests per API key (or the admin token) per minute, REST and GraphQL together;
 * - `authFailures`: failed authentications per client address per minute; past the limit the address is
 *   refused for a cool-down (so keys can't be guessed at speed);
 * - `anonymous`: API requests without any credentials per client address per minute (GraphiQL's page,
 *   401s), so even a caller that never authenticates can't make the API work without bound;
 * - `publicSubmissions`: public submissions (page posts and the public JSON API) per client address per minute.
 * - `publicPages`: reads of public pages and definitions (GET `/s/:formId`, `/s/:formId/definition`) per client address per minute.
 *
 * The per-address limits count an IPv4 client by its address and an IPv6 client by its /64
 * (`clientAddressKey`): providers give one host a whole /64, so counting single IPv6 addresses would
 * give one client 2^64 budgets.
 *
 * Counters live in this process's memory by default. Given a Redis client they live in Redis, so every
 * node behind a load balancer shares them; if Redis stops answering, each node falls back to counting in
 * its own memory (rate-limiter-flexible's insurance limiter) instead of failing requests.
 */
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Config } from '../config.ts';
import { networkOf, parseIp, unmapIp } from '../ip.ts';

export interface RateDecision {
  allowed: boolean;
  /** The policy's name, quota and window, for the RateLimit-Policy and RateLimit headers. */
  policy: RatePolicy;
  remaining: number;
  /** Seconds until the quota is restored (for `Retry-After` and the RateLimit header's `t`). */
  resetSeconds: number;
}

export interface RatePolicy {
  name: string;
  quota: number;
  windowSeconds: number;
}

/** Where the counters live: this process, or a Redis every node shares. */
export type RateLimitStore = { kind: 'memory' } | { kind: 'redis'; client: Redis };

/** One counted limit. A limit of 0 is off: every call is allowed and nothing is counted. */
export class RateLimit {
  private readonly limiter: RateLimiterAbstract | undefined;
  /** When set, the event that uses up the quota blocks the key for this long (a cool-down). */
  private readonly blockSeconds: number | undefined;

  constructor(
    readonly policy: RatePolicy,
    store: RateLimitStore,
    options: { blockSeconds?: number } = {},
  ) {
    this.blockSeconds = options.blockSeconds;
    if (policy.quota <= 0) return;
    const settings = { keyPrefix: `formloom:rl:${policy.name}`, points: policy.quota, duration: policy.windowSeconds };
    this.limiter =
      store.kind === 'redis'
        ? new RateLimiterRedis({ ...settings, storeClient: store.client, insuranceLimiter: new RateLimiterMemory(settings) })
        : new RateLimiterMemory(settings);
  }

  /** Counts one event for `key`. */
  async consume(key: string): Promise<RateDecision> {
    if (!this.limiter) return this.decision(true, undefined);
    try {
      const state = await this.limiter.consume(key);
      if (this.blockSeconds && state.remainingPoints <= 0) return this.decision(true, await this.limiter.block(key, this.blockSeconds));
      return this.decision(true, state);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return this.decision(false, rejection);
      throw rejection;
    }
  }

  /** The state for `key` without counting (an address in its cool-down is refused). */
  async peek(key: string): Promise<RateDecision> {
    if (!this.limiter) return this.decision(true, undefined);
    const state = await this.limiter.get(key);
    if (!state) return this.decision(true, undefined);
    return this.decision(state.remainingPoints > 0 || state.msBeforeNext <= 0, state);
  }

  private decision(allowed: boolean, state: RateLimiterRes | undefined | null): RateDecision {
    const remaining = state ? Math.max(0, state.remainingPoints) : this.policy.quota;
    const resetSeconds = state ? Math.max(1, Math.ceil(state.msBeforeNext / 1000)) : this.policy.windowSeconds;
    return { allowed, policy: this.policy, remaining, resetSeconds };
  }
}

/** The network an IPv6 client is counted by: one host gets a whole /64 from any provider. */
const IPV6_CLIENT_PREFIX = 64;

/**
 * What a per-address limit counts a client address by: an IPv4 address itself (an IPv4-mapped IPv6
 * address counts as the IPv4 address it maps), an IPv6 address's /64 (`2001:db8:1:2::/64`), and
 * `unknown` for anything else (no socket, a malformed forwarded address), which all share one budget.
 */
export function clientAddressKey(ip: string): string {
  const zone = ip.indexOf('%');
  const parsed = parseIp(zone < 0 ? ip : ip.slice(0, zone));
  if (!parsed) return 'unknown';
  const address = unmapIp(parsed);
  return address.kind() === 'ipv4' ? address.toString() : `${networkOf(address, IPV6_CLIENT_PREFIX)}/${IPV6_CLIENT_PREFIX}`;
}

export interface RateLimits {
  apiKey: RateLimit;
  authFailures: RateLimit;
  anonymous: RateLimit;
  publicSubmissions: RateLimit;
  publicPages: RateLimit;
}

export function createRateLimits(config: Config, store: RateLimitStore = { kind: 'memory' }): RateLimits {
  return {
    apiKey: new RateLimit({ name: 'api-key', quota: config.apiRateLimitPerMinute, windowSeconds: 60 }, store),
    authFailures: new RateLimit({ name: 'auth-failures', quota: config.authFailureLimitPerMinute, windowSeconds: 60 }, store, {
      blockSeconds: config.authFailureBlockSeconds,
    }),
    anonymous: new RateLimit({ name: 'anonymous', quota: config.anonymousRateLimitPerMinute, windowSeconds: 60 }, store),
    publicSubmissions: new RateLimit({ name: 'public', quota: config.publicRateLimitPerMinute, windowSeconds: 60 }, store),
    publicPages: new RateLimit({ name: 'public-pages', quota: config.pageRateLimitPerMinute, windowSeconds: 60 }, store),
  };
}

/**
 * The IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers): the policy, and what is left
 * of it. Nothing when the limit is off.
 */
export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  const { name, quota, windowSeconds } = decision.policy;
  if (quota <= 0) return {};
  return {
    'RateLimit-Policy': `"${name}";q=${quota};w=${windowSeconds}`,
    RateLimit: `"${name}";r=${decision.remaining};t=${decision.resetSeconds}`,
  };
}
