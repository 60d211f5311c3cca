/**
 * A node's short-lived memory of results pages' figures, so a link opened by many people (or reloaded
 * in a loop) computes its form's summaries once per `ttlMs`, and concurrent requests share one
 * computation. Only figures are kept, by form and what the link shows; the link itself is looked up on
 * every request, so a revoked link is refused at once whatever is remembered here.
 */
export class FreshFor<T> {
  private readonly entries = new Map<string, { at: number; value: Promise<T> }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The value remembered for `key` if younger than the TTL, else `load()`'s (remembered unless it fails). */
  get(key: string, load: () => Promise<T>): Promise<T> {
    const at = this.now();
    const known = this.entries.get(key);
    if (known && at - known.at < this.ttlMs) return known.value;
    this.entries.delete(key);
    const value = load();
    if (this.ttlMs <= 0) return value;
    this.entries.set(key, { at, value });
    value.catch(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
    });
    // Oldest first in a Map: drop the oldest past the bound.
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    return value;
  }
}
