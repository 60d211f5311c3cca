/**
 * Every Prometheus metric formloom exports (prom-client), declared here: served at GET /metrics to the
 * metrics token or the admin token (app.ts probes the database first, `scrapeMetrics`).
 *
 * Labels stay bounded: `route` is the matched route template (`/s/:formId`, never a raw path; requests
 * no route matched are `unmatched`), `method` is one of the HTTP methods below or `OTHER`, `status` a
 * status code. Process metrics (memory, CPU, event-loop lag, GC, handles) are prom-client's defaults,
 * collected once per process; the application's metrics belong to each app (tests build many); the
 * database's (statement durations by kind, statements and transactions in flight, pool size) belong to
 * its handle (`DatabaseMetrics`, which db/instrument.ts feeds).
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

let processRegistry: Registry | undefined;

/** The process's default metrics, registered on first use. */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry, eventLoopMonitoringPrecision: 10 });
  }
  return processRegistry;
}

export const METRICS_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;

export class AppMetrics {
  readonly registry = new Registry();

  readonly requests = new Counter({
    name: 'formloom_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });

  readonly duration = new Histogram({
    name: 'formloom_http_request_duration_seconds',
    help: 'Time to the response headers (a streamed body may take longer), by method, route template and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  readonly rateLimited = new Counter({
    name: 'formloom_rate_limited_total',
    help: 'Requests refused with 429 by a rate limit, by route template.',
    labelNames: ['route'] as const,
    registers: [this.registry],
  });

  readonly responsesCreated = new Counter({
    name: 'formloom_responses_created_total',
    help: 'Form responses created, by source (page or api).',
    labelNames: ['source'] as const,
    registers: [this.registry],
  });

  readonly responsesFinished = new Counter({
    name: 'formloom_responses_finished_total',
    help: 'Form responses finished (completed), by source (page or api).',
    labelNames: ['source'] as const,
    registers: [this.registry],
  });

  readonly databasePing = new Gauge({
    name: 'formloom_database_ping_seconds',
    help: "Round trip of readiness's database check, measured at each scrape.",
    registers: [this.registry],
  });

  readonly databaseUp = new Gauge({
    name: 'formloom_database_up',
    help: '1 when the database answered within a second at the last scrape and is not a standby in recovery, else 0.',
    registers: [this.registry],
  });

  readonly replicaInUse = new Gauge({
    name: 'formloom_db_replica_in_use',
    help: 'Per read replica (DATABASE_REPLICA_URLS, by host:port): 1 while lag-tolerant reads go to it, 0 while it is skipped.',
    labelNames: ['replica'] as const,
    registers: [this.registry],
  });

  readonly replicaLag = new Gauge({
    name: 'formloom_db_replica_lag_seconds',
    help: 'Per read replica: how far behind the primary it was at its last check (+Inf: unknown, or over a minute).',
    labelNames: ['replica'] as const,
    registers: [this.registry],
  });

  readonly retentionLastRun = new Gauge({
    name: 'formloom_retention_last_run_timestamp_seconds',
    help: 'When the last retention run (on any node) finished; 0 before the first.',
    registers: [this.registry],
  });

  readonly retentionLastSuccess = new Gauge({
    name: 'formloom_retention_last_run_success',
    help: '1 when the last retention run succeeded, 0 when it failed (or none has run).',
    registers: [this.registry],
  });

  readonly retentionLastDeleted = new Gauge({
    name: 'formloom_retention_last_run_deleted_responses',
    help: 'Responses the last retention run deleted (retention and the purge of deleted forms).',
    registers: [this.registry],
  });

  readonly retentionLastPurged = new Gauge({
    name: 'formloom_retention_last_run_purged_forms',
    help: 'Deleted forms the last retention run removed for good.',
    registers: [this.registry],
  });

  readonly emailDeliveries = new Counter({
    name: 'formloom_email_deliveries_total',
    help: 'E-mail notifications this node finished with, by kind (team or respondent) and outcome (sent, failed, suppressed).',
    labelNames: ['kind', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly emailQueueAge = new Gauge({
    name: 'formloom_email_queue_age_seconds',
    help: 'How long the oldest due e-mail delivery (on any node) has been waiting; 0 when none is due.',
    registers: [this.registry],
  });

  /** Records one answered request. */
  observeRequest(method: string, route: string, status: number, seconds: number): void {
    const labels = { method: METHODS.has(method) ? method : 'OTHER', route, status: String(status) };
    this.requests.inc(labels);
    this.duration.observe(labels, seconds);
    if (status === 429) this.rateLimited.inc({ route });
  }

  /** Records a public submission's outcome. */
  responseSubmitted(source: 'page' | 'api', outcome: { created: boolean; finished: boolean }): void {
    if (outcome.created) this.responsesCreated.inc({ source });
    if (outcome.finished) this.responsesFinished.inc({ source });
  }

  /** The text exposition: the process's metrics, this app's, and those of its database handle (`DatabaseMetrics`). */
  async text(database: DatabaseMetrics | undefined): Promise<string> {
    return `${await processMetrics().metrics()}\n${await this.registry.metrics()}${database ? `\n${await database.registry.metrics()}` : ''}`;
  }
}

/**
 * The database's metrics, kept with its handle (db/instrument.ts times every statement drizzle sends and
 * counts the statements and transactions in flight).
 */
export class DatabaseMetrics {
  readonly registry = new Registry();

  readonly duration = new Histogram({
    name: 'formloom_db_query_duration_seconds',
    help: 'Statements sent to the database, by kind (first keyword): from being awaited (waiting for a connection included) to the answer.',
    labelNames: ['operation'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15],
    registers: [this.registry],
  });

  readonly errors = new Histogram({
    name: 'formloom_db_query_errors_duration_seconds',
    help: 'Statements that failed, by kind, and how long they took to fail.',
    labelNames: ['operation'] as const,
    buckets: [0.001, 0.01, 0.1, 1, 5, 15],
    registers: [this.registry],
  });

  readonly inFlight = new Gauge({
    name: 'formloom_db_queries_in_flight',
    help: 'Statements awaited and not yet answered (more than the pool size: statements wait for a connection).',
    registers: [this.registry],
  });

  readonly transactions = new Gauge({
    name: 'formloom_db_transactions_open',
    help: 'Transactions open; each holds one pool connection until it ends.',
    registers: [this.registry],
  });

  readonly poolSize = new Gauge({
    name: 'formloom_db_pool_max_connections',
    help: 'Connections the pool may open (postgres.js `max`; 1 for the embedded PGlite).',
    labelNames: ['driver'] as const,
    registers: [this.registry],
  });

  constructor(driver: 'postgres' | 'pglite', maxConnections: number) {
    this.poolSize.set({ driver }, maxConnections);
  }

  /** Times `run` (one statement). */
  async time<T>(operation: string, run: () => PromiseLike<T>): Promise<T> {
    const started = performance.now();
    this.inFlight.inc();
    try {
      const value = await run();
      this.duration.observe({ operation }, (performance.now() - started) / 1000);
      return value;
    } catch (error) {
      this.errors.observe({ operation }, (performance.now() - started) / 1000);
      throw error;
    } finally {
      this.inFlight.dec();
    }
  }

  /** Counts the open transaction around `run`. */
  async transaction<T>(run: () => PromiseLike<T>): Promise<T> {
    this.transactions.inc();
    try {
      return await run();
    } finally {
      this.transactions.dec();
    }
  }
}
