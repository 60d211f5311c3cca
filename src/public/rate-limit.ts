/**
 * A fixed-window rate limiter kept in memory (one per process: with several instances behind a load
 * balancer each one counts its own share). Windows are aligned to the clock, so the whole table is
 * dropped when a window ends and memory stays bounded by one window's distinct keys.
 */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window ends (for `Retry-After`). */
  retryAfterSeconds: number;
}

export class FixedWindowRateLimiter {
  private window = -1;
  private counts = new Map<string, number>();

  constructor(
    private readonly limit: number,
    private readonly windowMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  hit(key: string): RateDecision {
    const now = this.now();
    const window = Math.floor(now / this.windowMs);
    if (window !== this.window) {
      this.window = window;
      this.counts = new Map();
    }
    const count = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, count);
    return {
      allowed: count <= this.limit,
      limit: this.limit,
      remaining: Math.max(0, this.limit - count),
      retryAfterSeconds: Math.max(1, Math.ceil(((window + 1) * this.windowMs - now) / 1000)),
    };
  }
}
