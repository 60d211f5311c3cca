/**
 * Password answers are hashed with scrypt: ~50 ms of CPU and 16 MB per hash, run on libuv's thread
 * pool (4 threads by default, shared with file and DNS work). Unbounded, a flood of submissions keeps
 * every pool thread and core busy hashing while other tenants' requests wait for CPU; so one hasher
 * per app lets at most `concurrency` hashes run at once (PASSWORD_HASH_CONCURRENCY) and queues the
 * rest in arrival order. The queue is bounded too (WAITING_PER_SLOT per slot): past it a submission is
 * refused with 503 at once, rather than queueing work whose client will have given up by the time it runs.
 */
import { unavailable } from '../errors.ts';
import { hashPassword } from './shapes.ts';

/** Hashes that may wait per running slot before new ones are refused (2 slots, ~50 ms a hash: ~13 s of queue, under the 30 s request timeout). */
export const WAITING_PER_SLOT = 256;

export class PasswordHasher {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly concurrency: number,
    private readonly hashOne: (clear: string) => Promise<string> = hashPassword,
  ) {
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError('concurrency must be a positive integer');
  }

  /** The stored form of `clear` (`scrypt$…`), once a slot is free. */
  async hash(clear: string): Promise<string> {
    if (this.running < this.concurrency) this.running++;
    else if (this.waiting.length >= this.concurrency * WAITING_PER_SLOT) throw unavailable();
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await this.hashOne(clear);
    } finally {
      // Hand the slot straight to the next in line, so a newcomer can't overtake it.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
