/**
 * Webhook delivery: a poller in every node (PGlite's single process included) that claims due
 * deliveries and POSTs them.
 *
 * - Claiming: one statement picks due deliveries `FOR UPDATE SKIP LOCKED` and marks them
 *   `delivering` with a lease (the HTTP timeout plus a margin) and a token. Nodes never claim the same
 *   row; a node that dies mid-delivery leaves a lease that expires, and the delivery is claimed again.
 * - Order: a delivery waits while an earlier delivery of the same endpoint and response (by outbox
 *   seq) is still pending or in flight, so the events of one response arrive in order.
 * - Fairness: at most `endpointConcurrency` deliveries of one endpoint are in flight at once (counted
 *   across nodes from the leases), and at most `concurrency` from this node, so a slow or dead
 *   receiver holds a few slots and never the whole node; the API and pages never wait for delivery.
 * - Sending: Standard Webhooks headers (`standardwebhooks` signs), a timeout, redirects not followed
 *   (a 3xx is a failure), a resolved address checked against the private ranges at connect time.
 * - Outcome: 2xx succeeds. Anything else is retried after `retryDelaysMs[n]` ±20% jitter; after the
 *   last attempt the delivery is failed, and an endpoint whose deliveries end failed
 *   `disableAfterFailedDeliveries` times in a row is disabled (`disabledReason: failing`).
 * - Wake-ups: the NOTIFY of each committed outbox event (events/notifications.ts), and a poll every
 *   `pollMs` for retries that fall due.
 * - Connections: on PostgreSQL the dispatcher runs on a small pool of its own (`openDeliveryDatabase`):
 *   sharing the API's pool, its claims queued behind every request of a burst and deliveries fell
 *   seconds behind (bench/webhooks.ts: p50 2.6-3.5 s → 70-220 ms); on its own, it never takes a
 *   connection a request is waiting for either.
 * - Database work per attempt: a share of one claim statement (it claims a batch), and one statement
 *   recording the outcome, the attempt and the endpoint's failure count.
 * - Stop: no new claims; requests in flight are aborted and their deliveries released (not counted
 *   as an attempt), so a shutdown never turns into a failure.
 */
import { randomBytes } from 'node:crypto';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { Webhook } from 'standardwebhooks';
import type { WebhookConfig } from '../config.ts';
import { openDatabase, type DatabaseHandle, type Db, type OpenOptions } from '../db/client.ts';
import { rowsOf } from '../db/rows.ts';
import { createId } from '../ids.ts';
import { guardedLookup, isPrivateAddress } from './address-rules.ts';
import type { EventFeed } from './notifications.ts';
import { retryDelay, startClaimLoop, type ClaimLoop } from './claim-loop.ts';
import type { EventPayload } from './outbox.ts';
import { slackBody } from './slack.ts';
import type { WebhookFormat } from '../db/schema.ts';

/** The lease of a claimed delivery outlives the HTTP timeout by this much. */
const LEASE_MARGIN_MS = 30_000;
/** Bytes of a receiver's answer read (and discarded) before the connection is closed. */
const MAX_ANSWER_BYTES = 64 * 1024;
/** Longest error text kept per attempt. */
const MAX_ERROR_LENGTH = 500;
const USER_AGENT = 'formloom-webhooks/1';

export interface DispatcherOptions {
  db: Db;
  config: WebhookConfig;
  logger: Logger;
  /** NOTIFY feed: wakes the poller when events commit anywhere. */
  events?: EventFeed | undefined;
  /** Poll for due retries this often (default 1 s). */
  pollMs?: number;
  /** Jitter source (tests may fix it). */
  random?: () => number;
}

/** Connections of the dispatcher's own pool on PostgreSQL (a claim and recordings in flight at once). */
const DELIVERY_POOL_SIZE = 3;

/**
 * The database handle deliveries run on: on PostgreSQL a pool of its own (see the module comment), on
 * PGlite (one connection in this process) the same handle. `close()` closes only what was opened here.
 */
export async function openDeliveryDatabase(
  database: DatabaseHandle,
  options: Pick<OpenOptions, 'databaseUrl' | 'directUrl' | 'statementTimeoutMs' | 'connectTimeoutMs'>,
): Promise<{ db: Db; close: () => Promise<void> }> {
  if (database.kind !== 'postgres' || !options.databaseUrl) return { db: database.db, close: async () => {} };
  const own = await openDatabase({ ...options, maxConnections: DELIVERY_POOL_SIZE });
  return { db: own.db, close: () => own.close() };
}

/** Stopping aborts requests in flight and releases their deliveries. */
export type WebhookDispatcher = ClaimLoop;

interface Claimed {
  id: string;
  attempts: number;
  url: string;
  secret: string;
  payload: unknown;
  token: string;
  format: WebhookFormat;
  includeAnswers: boolean;
  formName: string | null;
}

interface Outcome {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  startedAt: Date;
  aborted: boolean;
}

/**
 * Claims up to `room` due deliveries for this node (see the module comment: order, fairness, leases).
 */
async function claimDeliveries(db: Db, room: number, config: WebhookConfig, leaseMs: number): Promise<Claimed[]> {
  const token = randomBytes(12).toString('base64url');
  const cap = config.endpointConcurrency;
  // Per enabled endpoint, its oldest due deliveries (an index scan of webhook_deliveries_endpoint_due_idx
  // that stops after `cap` rows, however long the queue) whose earlier events of the same response are
  // done, plus any lease that expired (a node died mid-delivery). Each endpoint gets up to its free
  // slots, and the picks fill the slots round-robin (an endpoint with nothing in flight before one's
  // second in flight, whatever the age of their queues), so one tenant's backlog never delays another's.
  const list = rowsOf<Record<string, unknown>>(
    await db.execute(sql`
    with busy as (
      select endpoint_id, count(*)::int as n from webhook_deliveries
      where status = 'delivering' and lease_until > now() group by endpoint_id
    ),
    candidates as (
      select c.id, c.next_attempt_at, c.event_seq, c.rn + coalesce(busy.n, 0) as slot
      from webhook_endpoints e
      left join busy on busy.endpoint_id = e.id
      cross join lateral (
        select u.id, u.next_attempt_at, u.event_seq, row_number() over (order by u.next_attempt_at, u.event_seq) as rn
        from (
          (select d.id, d.next_attempt_at, d.event_seq from webhook_deliveries d
           where d.endpoint_id = e.id and d.status = 'pending' and d.next_attempt_at <= now()
             and not exists (
               select 1 from webhook_deliveries p
               where p.endpoint_id = d.endpoint_id and p.ordering_key = d.ordering_key and p.event_seq < d.event_seq
                 and p.status in ('pending', 'delivering'))
           order by d.next_attempt_at, d.event_seq
           limit ${cap})
          union all
          (select d.id, d.next_attempt_at, d.event_seq from webhook_deliveries d
           where d.endpoint_id = e.id and d.status = 'delivering' and d.lease_until <= now()
           limit ${cap})
        ) u
        order by u.next_attempt_at, u.event_seq
        limit ${cap}
      ) c
      where e.enabled and c.rn + coalesce(busy.n, 0) <= ${cap}
    ),
    picked as (
      select d.id from webhook_deliveries d
      join candidates c on c.id = d.id
      where (d.status = 'pending' and d.next_attempt_at <= now()) or (d.status = 'delivering' and d.lease_until <= now())
      order by c.slot, c.next_attempt_at, c.event_seq
      limit ${room}
      for update of d skip locked
    )
    update webhook_deliveries w
    set status = 'delivering', attempts = w.attempts + 1, lease_token = ${token},
        lease_until = now() + ${leaseMs} * interval '1 millisecond', updated_at = now()
    from picked, webhook_endpoints e, outbox_events ev
    where w.id = picked.id and e.id = w.endpoint_id and ev.id = w.event_id
    returning w.id, w.attempts, e.url, e.secret, ev.payload, e.format, e.include_answers,
      (select f.name from forms f where f.id = ev.form_id) as form_name
  `),
  );
  return list.map((row) => ({
    id: String(row.id),
    attempts: Number(row.attempts),
    url: String(row.url),
    secret: String(row.secret),
    payload: typeof row.payload === 'string' ? (JSON.parse(row.payload) as unknown) : row.payload,
    token,
    format: row.format === 'slack' ? 'slack' : 'standard',
    includeAnswers: row.include_answers === true,
    formName: typeof row.form_name === 'string' ? row.form_name : null,
  }));
}

/** POSTs a claimed delivery, signed; resolves (never rejects) with what happened. */
function postDelivery(claimed: Claimed, signal: AbortSignal, config: WebhookConfig, lookup: ReturnType<typeof guardedLookup>): Promise<Outcome> {
  const startedAt = new Date();
  const started = performance.now();
  const body = JSON.stringify(
    claimed.format === 'slack' ? slackBody(claimed.payload as EventPayload, { formName: claimed.formName, includeAnswers: claimed.includeAnswers }) : claimed.payload,
  );
  const finish = (statusCode: number | null, error: string | null, aborted = false): Outcome => ({
    statusCode,
    error: error && error.slice(0, MAX_ERROR_LENGTH),
    durationMs: Math.round(performance.now() - started),
    startedAt,
    aborted,
  });
  let url: URL;
  try {
    url = new URL(claimed.url);
  } catch {
    return Promise.resolve(finish(null, 'invalid URL'));
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!config.allowPrivate && isIP(host) && isPrivateAddress(host)) return Promise.resolve(finish(null, 'refused: private address'));
  const signature = new Webhook(claimed.secret).sign(claimed.id, startedAt, body);
  const headers = {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    'user-agent': USER_AGENT,
    'webhook-id': claimed.id,
    'webhook-timestamp': String(Math.floor(startedAt.getTime() / 1000)),
    'webhook-signature': signature,
  };
  return new Promise<Outcome>((resolve) => {
    let settled = false;
    const settle = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(url, { method: 'POST', headers, lookup, agent: false }, (res: IncomingMessage) => {
      const statusCode = res.statusCode ?? 0;
      let read = 0;
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_ANSWER_BYTES) res.destroy();
      });
      const done = () =>
        settle(
          finish(
            statusCode,
            statusCode >= 200 && statusCode < 300 ? null : statusCode >= 300 && statusCode < 400 ? `HTTP ${statusCode} (redirects are not followed)` : `HTTP ${statusCode}`,
          ),
        );
      res.on('end', done);
      res.on('close', done);
      res.on('error', done);
    });
    const timer = setTimeout(() => {
      settle(finish(null, `timed out after ${config.timeoutMs} ms`));
      req.destroy();
    }, config.timeoutMs);
    const onAbort = () => {
      settle(finish(null, 'aborted: the node is stopping', true));
      req.destroy();
    };
    signal.addEventListener('abort', onAbort);
    req.on('error', (error: NodeJS.ErrnoException) => settle(finish(null, error.code ? `${error.code}: ${error.message}` : error.message)));
    req.end(body);
  });
}

/** Records an attempt's outcome: the delivery's next state, the attempt, and the endpoint's run of failures. */
async function recordOutcome(db: Db, claimed: Claimed, outcome: Outcome, options: Pick<DispatcherOptions, 'config' | 'logger' | 'random'>): Promise<void> {
  const { config, logger } = options;
  const random = options.random ?? Math.random;
  if (outcome.aborted) {
    // Stopping: give the delivery back without counting the attempt.
    await db.execute(sql`
      update webhook_deliveries set status = 'pending', attempts = attempts - 1, lease_token = null, lease_until = null,
        next_attempt_at = now(), updated_at = now()
      where id = ${claimed.id} and lease_token = ${claimed.token} and status = 'delivering'`);
    return;
  }
  const succeeded = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
  const delay = succeeded ? undefined : retryDelay(config.retryDelaysMs, claimed.attempts, random);
  const status = succeeded ? 'succeeded' : delay === undefined ? 'failed' : 'pending';
  const threshold = config.disableAfterFailedDeliveries;
  // One statement, so one transaction and one round trip: the delivery's outcome (only while this node
  // still holds the lease: else the lease expired and whoever claimed it again records that attempt),
  // the attempt, and the endpoint's run of failures (reset by a success; a delivery that ends failed
  // adds one, and disables the endpoint at the threshold).
  const disabling = sql`(${threshold}::int > 0 and e.failed_deliveries_in_a_row + 1 >= ${threshold}::int)`;
  await db.execute(sql`
    with updated as (
      update webhook_deliveries set status = ${status}, lease_token = null, lease_until = null,
        next_attempt_at = now() + ${delay ?? 0} * interval '1 millisecond',
        last_status_code = ${outcome.statusCode}::int, last_error = ${outcome.error}::text, updated_at = now()
      where id = ${claimed.id} and lease_token = ${claimed.token} and status = 'delivering'
      returning endpoint_id
    ),
    attempt as (
      insert into webhook_attempts (id, delivery_id, attempt, started_at, duration_ms, status_code, error, succeeded)
      select ${createId()}, ${claimed.id}, ${claimed.attempts}::int, ${outcome.startedAt.toISOString()}::timestamptz, ${outcome.durationMs}::int,
        ${outcome.statusCode}::int, ${outcome.error}::text, ${succeeded}::boolean
      from updated
    )
    update webhook_endpoints e set
      failed_deliveries_in_a_row = case when ${succeeded}::boolean then 0 else e.failed_deliveries_in_a_row + 1 end,
      enabled = case when not ${succeeded}::boolean and ${disabling} then false else e.enabled end,
      disabled_reason = case when not ${succeeded}::boolean and ${disabling} and e.enabled then 'failing' else e.disabled_reason end,
      updated_at = case when ${succeeded}::boolean then e.updated_at else now() end
    from updated
    where e.id = updated.endpoint_id
      and ((${succeeded}::boolean and e.failed_deliveries_in_a_row <> 0) or ${status}::text = 'failed')`);
  if (status === 'failed') logger.warn({ deliveryId: claimed.id, attempts: claimed.attempts, error: outcome.error }, 'webhook delivery failed');
}

export function startWebhookDispatcher(options: DispatcherOptions): WebhookDispatcher {
  const { db, config, logger } = options;
  const pollMs = options.pollMs ?? 1_000;
  const leaseMs = config.timeoutMs + LEASE_MARGIN_MS;
  const lookup = guardedLookup(config.allowPrivate);

  async function deliver(claimed: Claimed, signal: AbortSignal): Promise<void> {
    try {
      const outcome = await postDelivery(claimed, signal, config, lookup);
      await recordOutcome(db, claimed, outcome, options);
    } catch (error) {
      // The database was unreachable: the lease expires and the delivery is claimed again.
      logger.error({ err: error, deliveryId: claimed.id }, 'recording a webhook attempt failed');
    }
  }

  return startClaimLoop<Claimed>({
    concurrency: config.concurrency,
    pollMs,
    logger,
    what: 'webhook deliveries',
    events: options.events,
    claim: (room) => claimDeliveries(db, room, config, leaseMs),
    work: deliver,
    release: (claimed) => recordOutcome(db, claimed, { statusCode: null, error: null, durationMs: 0, startedAt: new Date(), aborted: true }, options),
  });
}
