/**
 * The embedded database's own thread: one PGlite instance in a node:worker_threads Worker, driven by
 * pglite-thread.ts (the main thread's side). Every statement runs here, so the WebAssembly Postgres
 * never blocks the thread that parses and answers HTTP.
 *
 * Protocol (see pglite-thread.ts): requests `{id, op, ...}` are handled one at a time in arrival order
 * (the main side relies on that order to keep transactions whole); each gets `{id, ok, value | error}`.
 * Notifications on a listened channel arrive as `{op: 'notify', channel, payload}`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type QueryOptions } from '@electric-sql/pglite';
import { pgliteStartParams } from './pglite-settings.ts';

export interface PgliteWorkerData {
  dataDir: string | undefined;
  /** A dump (from `dumpDataDir`) to start from, as bytes. */
  loadDataDir: ArrayBuffer | undefined;
}

export type WorkerRequest =
  | { id: number; op: 'query'; sql: string; params: unknown[] | undefined; rowMode: 'array' | 'object' | undefined; rawTypes: number[] }
  | { id: number; op: 'exec'; sql: string }
  | { id: number; op: 'dump'; compression: 'none' | 'gzip' | 'auto' }
  | { id: number; op: 'listen'; channel: string }
  | { id: number; op: 'unlisten'; channel: string }
  | { id: number; op: 'close' };

export type WorkerReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: SerializedError }
  | { op: 'notify'; channel: string; payload: string }
  | { op: 'ready' }
  | { op: 'failed'; error: SerializedError };

/** An error's message, name and plain fields (PostgreSQL's code, detail, constraint …): what survives postMessage. */
export interface SerializedError {
  name: string;
  message: string;
  stack: string | undefined;
  fields: Record<string, string | number | boolean>;
}

function serializeError(error: unknown): SerializedError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), stack: undefined, fields: {} };
  const fields: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(error)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') fields[key] = value;
  }
  return { name: error.name, message: error.message, stack: error.stack, fields };
}

const identity = (value: string) => value;

async function main() {
  const port = parentPort!;
  const data = workerData as PgliteWorkerData;
  let pglite: PGlite;
  try {
    pglite = await PGlite.create(data.dataDir, {
      startParams: pgliteStartParams(PGlite.defaultStartParams),
      ...(data.loadDataDir ? { loadDataDir: new Blob([data.loadDataDir]) } : {}),
    });
  } catch (error) {
    port.postMessage({ op: 'failed', error: serializeError(error) } satisfies WorkerReply);
    return;
  }
  const unlisteners = new Map<string, () => Promise<void>>();

  async function handle(request: WorkerRequest): Promise<unknown> {
    switch (request.op) {
      case 'query': {
        // The caller's parsers can't cross threads; drizzle's only keep some types as their text, so
        // the caller names those types and they get the identity parser here.
        const options: QueryOptions = {};
        if (request.rowMode) options.rowMode = request.rowMode;
        if (request.rawTypes.length > 0) options.parsers = Object.fromEntries(request.rawTypes.map((type) => [type, identity]));
        return pglite.query(request.sql, request.params, options);
      }
      case 'exec':
        return pglite.exec(request.sql);
      case 'dump': {
        const dump = await pglite.dumpDataDir(request.compression);
        return dump.arrayBuffer();
      }
      case 'listen':
        if (!unlisteners.has(request.channel)) {
          const channel = request.channel;
          unlisteners.set(channel, await pglite.listen(channel, (payload) => port.postMessage({ op: 'notify', channel, payload } satisfies WorkerReply)));
        }
        return undefined;
      case 'unlisten': {
        const unlisten = unlisteners.get(request.channel);
        unlisteners.delete(request.channel);
        await unlisten?.();
        return undefined;
      }
      case 'close':
        await pglite.close();
        return undefined;
    }
  }

  // One request at a time, in arrival order: a transaction's statements (sent by the one caller that
  // holds the transaction lock) are never interleaved with another caller's.
  let tail = Promise.resolve();
  port.on('message', (request: WorkerRequest) => {
    tail = tail.then(async () => {
      try {
        const value = await handle(request);
        const transfer = value instanceof ArrayBuffer ? [value] : [];
        port.postMessage({ id: request.id, ok: true, value } satisfies WorkerReply, transfer);
      } catch (error) {
        port.postMessage({ id: request.id, ok: false, error: serializeError(error) } satisfies WorkerReply);
      }
      if (request.op === 'close') port.close();
    });
  });
  port.postMessage({ op: 'ready' } satisfies WorkerReply);
}

if (parentPort) void main();
