/**
 * Database metrics: every statement drizzle sends is timed by its kind (`select`, `insert`, `update`,
 * `delete`, `with`, `begin`…, else `other`: never the SQL text, so the label set stays small), and the
 * statements and transactions in flight are counted against the pool's size.
 *
 * `instrumentClient` wraps the driver's client (postgres.js `Sql` or `PGlite`) before drizzle gets it;
 * everything else passes through untouched. A statement's time runs from when it is awaited to its
 * answer, so it includes waiting for a free connection: that is the latency requests see.
 * `databaseMetricsOf(db)` finds the metrics of a drizzle handle (declared in src/metrics.ts).
 */
import type { DatabaseMetrics } from '../metrics.ts';
import { withPreparedStatement } from './statements.ts';

const OPERATIONS = new Set([
  'select',
  'insert',
  'update',
  'delete',
  'with',
  'begin',
  'commit',
  'rollback',
  'savepoint',
  'release',
  'set',
  'listen',
  'notify',
  'create',
  'alter',
  'drop',
]);

/** The statement's first keyword when it is a known one, else `other`. */
function operationOf(text: unknown): string {
  if (typeof text !== 'string') return 'other';
  const word = /^\s*(?:\(\s*)*([a-z]+)/i.exec(text)?.[1]?.toLowerCase();
  return word !== undefined && OPERATIONS.has(word) ? word : 'other';
}

const metricsOfClient = new WeakMap<object, DatabaseMetrics>();

/** The metrics of a drizzle handle whose client was instrumented (its `$client`), if any. */
export function databaseMetricsOf(db: unknown): DatabaseMetrics | undefined {
  const client = (db as { $client?: unknown } | undefined)?.$client;
  return (typeof client === 'object' && client !== null) || typeof client === 'function' ? metricsOfClient.get(client) : undefined;
}

type AnyFunction = (...args: unknown[]) => unknown;

/** Calls to `target`'s methods run on `target` itself; what a method returns as `this` comes back as `self`. */
function passThrough(target: object, prop: string | symbol, self: object): unknown {
  const value = Reflect.get(target, prop, target) as unknown;
  if (typeof value !== 'function') return value;
  return (...args: unknown[]) => {
    const result = (value as AnyFunction).apply(target, args);
    return result === target ? self : result;
  };
}

export interface InstrumentOptions {
  /**
   * postgres.js: cancel a statement that has not answered within this many milliseconds (waiting for a
   * connection included), the statement timeout kept from this side where the server's cannot be set
   * per session (through a transaction pooler). Undefined: never.
   */
  cancelAfterMs?: number | undefined;
}

type CancellableQuery = PromiseLike<unknown> & { cancel?: () => unknown };

/**
 * Awaits `query`, cancelling it when it has not answered within `ms`: postgres.js takes a query that
 * waits for a connection out of the queue, and asks the server (through the pooler, which passes the
 * request on) to cancel one that runs. Either way it fails with SQLSTATE 57014, as a statement cut off by
 * `statement_timeout` does, and the request gets 503.
 */
function cancelledAfter(query: CancellableQuery, ms: number): Promise<unknown> {
  const timer = setTimeout(() => void Promise.resolve(query.cancel?.()).catch(() => {}), ms);
  return Promise.resolve(query).finally(() => clearTimeout(timer));
}

/**
 * postgres.js: `unsafe(text, params)` (all drizzle sends) returns a lazy query; it is timed from its
 * first `then` (when it runs). `begin(fn)` hands `fn` an instrumented transaction client.
 */
function instrumentPostgres<T extends object>(client: T, metrics: DatabaseMetrics, { cancelAfterMs }: InstrumentOptions): T {
  const wrapQuery = (query: object, operation: string): object => {
    let timed: Promise<unknown> | undefined;
    const execute = cancelAfterMs === undefined ? () => query as PromiseLike<unknown> : () => cancelledAfter(query as CancellableQuery, cancelAfterMs);
    const run = () => (timed ??= metrics.time(operation, execute));
    const proxy: object = new Proxy(query, {
      get(target, prop) {
        if (prop === 'then') return (onFulfilled?: AnyFunction, onRejected?: AnyFunction) => run().then(onFulfilled, onRejected);
        if (prop === 'catch') return (onRejected?: AnyFunction) => run().catch(onRejected);
        if (prop === 'finally') return (onFinally?: () => void) => run().finally(onFinally);
        return passThrough(target, prop, proxy);
      },
    });
    return proxy;
  };
  const wrapSql = (sql: T): T => {
    const proxy: T = new Proxy(sql, {
      get(target, prop) {
        if (prop === 'unsafe') {
          return (text: unknown, params?: unknown, options?: unknown) =>
            wrapQuery((Reflect.get(target, prop, target) as AnyFunction).apply(target, [text, params, withPreparedStatement(text, params, options)]) as object, operationOf(text));
        }
        if (prop === 'begin') {
          return (...args: unknown[]) => {
            const fn = args.pop() as (tx: T) => unknown;
            const begin = Reflect.get(target, prop, target) as AnyFunction;
            return metrics.transaction(() => begin.apply(target, [...args, (tx: T) => fn(wrapSql(tx))]) as PromiseLike<unknown>);
          };
        }
        return passThrough(target, prop, proxy);
      },
    });
    return proxy;
  };
  return wrapSql(client);
}

/** PGlite: `query` and `exec` are timed; `transaction(fn)` hands `fn` an instrumented transaction. */
function instrumentPGlite<T extends object>(client: T, metrics: DatabaseMetrics): T {
  const wrap = <C extends object>(target: C): C => {
    const proxy: C = new Proxy(target, {
      get(inner, prop) {
        if (prop === 'query' || prop === 'exec') {
          const method = Reflect.get(inner, prop, inner) as AnyFunction;
          return (...args: unknown[]) => metrics.time(operationOf(args[0]), () => method.apply(inner, args) as PromiseLike<unknown>);
        }
        if (prop === 'transaction') {
          const method = Reflect.get(inner, prop, inner) as AnyFunction;
          return (fn: (tx: object) => unknown) => metrics.transaction(() => method.apply(inner, [(tx: object) => fn(wrap(tx))]) as PromiseLike<unknown>);
        }
        return passThrough(inner, prop, proxy);
      },
    });
    return proxy;
  };
  return wrap(client);
}

/** The driver's client, instrumented (see the module comment); `databaseMetricsOf` finds `metrics` from it. */
export function instrumentClient<T extends object>(driver: 'postgres' | 'pglite', client: T, metrics: DatabaseMetrics, options: InstrumentOptions = {}): T {
  const instrumented = driver === 'postgres' ? instrumentPostgres(client, metrics, options) : instrumentPGlite(client, metrics);
  metricsOfClient.set(instrumented, metrics);
  return instrumented;
}
