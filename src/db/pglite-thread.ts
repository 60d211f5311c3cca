/**
 * The embedded database on its own thread: the main thread's side of pglite-worker.ts.
 *
 * `PGliteThread` offers the part of PGlite's interface that drizzle's pglite driver, the event feed
 * (`listen`) and backups (`transaction`, `dumpDataDir`) use, and forwards each call to the worker.
 * Why: PGlite runs Postgres as WebAssembly on the thread that calls it; on the main thread every
 * statement stalls HTTP parsing, JSON, validation and rendering of every other request (under 100
 * concurrent sessions some requests waited 20–30 s). On its own thread the database works while the
 * main thread serves, and the two use both cores.
 *
 * PGlite is one connection, so a transaction must have it to itself. The worker runs requests one at a
 * time in arrival order; here a FIFO lock is held from BEGIN to COMMIT/ROLLBACK, and a statement
 * outside a transaction waits only while a transaction holds the lock (then it is sent at once: the
 * worker's order keeps it after everything sent before). Statements are pipelined otherwise.
 */
import { Worker } from 'node:worker_threads';
import type { PGlite, QueryOptions, Results, Transaction } from '@electric-sql/pglite';
import type { PgliteWorkerData, SerializedError, WorkerReply, WorkerRequest } from './pglite-worker.ts';

type Request = WorkerRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

/**
 * The worker entry beside this module: the built file in dist/, or (running from source, in dev and
 * tests) the TypeScript file loaded through tsx's loader, registered in the worker first (a worker's
 * `--import` is not honoured on every supported Node version).
 */
function workerEntry(): { script: URL | string; eval: boolean } {
  if (!import.meta.url.endsWith('.ts')) return { script: new URL('./pglite-worker.js', import.meta.url), eval: false };
  const source = new URL('./pglite-worker.ts', import.meta.url).href;
  return {
    script: `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}); });`,
    eval: true,
  };
}

/** An error from the worker, with PostgreSQL's fields (code, detail, constraint …) as PGlite's errors carry them. */
function reviveError(serialized: SerializedError): Error {
  const error = Object.assign(new Error(serialized.message), serialized.fields);
  error.name = serialized.name;
  if (serialized.stack) error.stack = serialized.stack;
  return error;
}

/** A FIFO lock: `acquire` resolves in call order; `busy` while held or wanted. */
class FifoLock {
  private held = false;
  private readonly waiting: (() => void)[] = [];
  get busy() {
    return this.held || this.waiting.length > 0;
  }
  async acquire(): Promise<void> {
    if (!this.busy) {
      this.held = true;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }
  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.held = false;
  }
}

export class PGliteThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private readonly listeners = new Map<string, Set<(payload: string) => void>>();
  private readonly transactionLock = new FifoLock();
  private nextId = 1;
  private failure: Error | undefined;
  private closed = false;
  /** `close()` has sent the close: the worker's exit that follows is the close, not a crash. */
  private closing = false;

  private constructor(worker: Worker) {
    this.worker = worker;
  }

  /** Starts the worker and opens the database there (a data dir, a dump to load, or in memory). */
  static async create(dataDir: string | undefined, options: { loadDataDir?: Blob | undefined } = {}): Promise<PGliteThread> {
    const loadDataDir = options.loadDataDir ? await options.loadDataDir.arrayBuffer() : undefined;
    const entry = workerEntry();
    const worker = new Worker(entry.script, {
      eval: entry.eval,
      workerData: { dataDir, loadDataDir } satisfies PgliteWorkerData,
      transferList: loadDataDir ? [loadDataDir] : [],
    });
    const thread = new PGliteThread(worker);
    await new Promise<void>((resolve, reject) => {
      const onExit = (code: number) => reject(new Error(`the PGlite worker exited with ${code} before the database opened`));
      worker.once('error', reject);
      worker.once('exit', onExit);
      worker.on('message', (message: WorkerReply) => {
        if (!('op' in message)) return;
        if (message.op === 'ready') {
          worker.off('error', reject);
          worker.off('exit', onExit);
          resolve();
        } else if (message.op === 'failed') reject(reviveError(message.error));
      });
    }).catch(async (error: unknown) => {
      await worker.terminate();
      throw error;
    });
    thread.wire();
    return thread;
  }

  /** Wires replies, notifications and the worker's end to the callers waiting for them. */
  private wire() {
    this.worker.on('message', (message: WorkerReply) => {
      if ('id' in message) {
        const waiter = this.pending.get(message.id);
        if (!waiter) return;
        this.pending.delete(message.id);
        if (this.pending.size === 0) this.worker.unref();
        if (message.ok) waiter.resolve(message.value);
        else waiter.reject(reviveError(message.error));
      } else if (message.op === 'notify') {
        for (const callback of this.listeners.get(message.channel) ?? []) callback(message.payload);
      }
    });
    const fail = (error: Error) => {
      this.failure ??= error;
      for (const waiter of this.pending.values()) waiter.reject(this.failure);
      this.pending.clear();
    };
    this.worker.on('error', fail);
    // The worker may exit before close()'s await resumes and sets `closed`, hence `closing`.
    this.worker.on('exit', (code) => fail(new Error(this.closing ? 'PGlite is closed' : `the PGlite worker exited (code ${code})`)));
    // Idle, the worker keeps nothing alive; a request in flight does (see send).
    this.worker.unref();
  }

  private send(request: Request, transfer: ArrayBuffer[] = []): Promise<unknown> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.closed && request.op !== 'close') return Promise.reject(new Error('PGlite is closed'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...request, id }, transfer);
    });
  }

  private sendQuery<T>(sql: string, params: unknown[] | undefined, options: QueryOptions | undefined): Promise<Results<T>> {
    const rawTypes = Object.keys(options?.parsers ?? {}).map(Number);
    return this.send({ op: 'query', sql, params, rowMode: options?.rowMode, rawTypes }) as Promise<Results<T>>;
  }

  /** A statement outside any transaction: sent at once unless a transaction has (or waits for) the connection. */
  async query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    if (this.transactionLock.busy) {
      await this.transactionLock.acquire();
      // Sending is enough: the worker runs it before anything sent later.
      try {
        return this.sendQuery<T>(sql, params, options);
      } finally {
        this.transactionLock.release();
      }
    }
    return this.sendQuery<T>(sql, params, options);
  }

  async exec(sql: string): Promise<Results[]> {
    if (this.transactionLock.busy) {
      await this.transactionLock.acquire();
      try {
        return this.send({ op: 'exec', sql }) as Promise<Results[]>;
      } finally {
        this.transactionLock.release();
      }
    }
    return this.send({ op: 'exec', sql }) as Promise<Results[]>;
  }

  /** PGlite's transaction: BEGIN, the callback's statements with the connection to themselves, COMMIT (ROLLBACK on error). */
  async transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
    await this.transactionLock.acquire();
    try {
      await this.send({ op: 'exec', sql: 'BEGIN' });
      let closed = false;
      const checkClosed = () => {
        if (closed) throw new Error('Transaction is closed');
      };
      const tx = {
        query: async <R>(sql: string, params?: unknown[], options?: QueryOptions) => {
          checkClosed();
          return this.sendQuery<R>(sql, params, options);
        },
        sql: () => Promise.reject(new Error('tx.sql is not offered by the PGlite thread')),
        exec: async (sql: string) => {
          checkClosed();
          return this.send({ op: 'exec', sql }) as Promise<Results[]>;
        },
        rollback: async () => {
          checkClosed();
          await this.send({ op: 'exec', sql: 'ROLLBACK' });
          closed = true;
        },
        listen: () => Promise.reject(new Error('LISTEN inside a transaction is not offered by the PGlite thread')),
        get closed() {
          return closed;
        },
      } as unknown as Transaction;
      try {
        const result = await callback(tx);
        // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- the callback may have rolled back
        if (!closed) {
          closed = true;
          const [commit] = (await this.send({ op: 'exec', sql: 'COMMIT' })) as Results[];
          // COMMIT of a transaction that failed part-way answers ROLLBACK, as in PGlite.
          if (commit?.command === 'ROLLBACK') throw new Error('Transaction was aborted');
        }
        return result;
      } catch (error) {
        if (!closed) {
          closed = true;
          await this.send({ op: 'exec', sql: 'ROLLBACK' }).catch(() => {});
        }
        throw error;
      }
    } finally {
      this.transactionLock.release();
    }
  }

  /** PGlite's listen: `callback` for every notification on `channel`; resolves to the unsubscribe. */
  async listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>> {
    let callbacks = this.listeners.get(channel);
    if (!callbacks) {
      callbacks = new Set();
      this.listeners.set(channel, callbacks);
      await this.send({ op: 'listen', channel });
    }
    callbacks.add(callback);
    return async () => {
      const set = this.listeners.get(channel);
      if (!set?.delete(callback) || set.size > 0) return;
      this.listeners.delete(channel);
      if (!this.closed && !this.failure) await this.send({ op: 'unlisten', channel });
    };
  }

  /** The data dir as a tar (PGlite's dumpDataDir), made in the worker. */
  async dumpDataDir(compression: 'none' | 'gzip' | 'auto' = 'auto'): Promise<Blob> {
    const bytes = (await this.send({ op: 'dump', compression })) as ArrayBuffer;
    return new Blob([bytes], { type: compression === 'none' ? 'application/x-tar' : 'application/x-gzip' });
  }

  /** Closes the database (after every statement sent before) and ends the worker. */
  async close(): Promise<void> {
    if (this.closed) return;
    await this.transactionLock.acquire();
    try {
      this.closing = true;
      if (!this.failure) await this.send({ op: 'close' });
      this.closed = true;
    } finally {
      this.transactionLock.release();
      await this.worker.terminate();
    }
  }
}

/** Narrow adapter: the drizzle pglite driver types its client as PGlite; it uses the subset above. */
export const asPGlite = (thread: PGliteThread) => thread as unknown as PGlite;
