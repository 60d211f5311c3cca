/**
 * E-mail delivery: the webhook dispatcher's loop (events/claim-loop.ts) over notification_deliveries.
 * A claim leases due deliveries `FOR UPDATE SKIP LOCKED`, so one node sends each; a node that dies
 * mid-send leaves a lease that expires and the delivery is claimed again. The message is made from the
 * response and the form as they are when it is sent. 4xx replies and connection failures are retried
 * on MAIL_RETRY_SCHEDULE; a 5xx reply, or the last retry, fails it. Without an SMTP server the loop
 * does not run: deliveries stay pending (listed as `waiting-for-smtp`) until one is configured.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { MailConfig } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { FormLanguages, ResponseAnswer, ResponseMeta, StoredStep, TextTranslations } from '../db/json-columns.ts';
import { rowsOf } from '../db/rows.ts';
import type { NotificationKind } from '../db/schema.ts';
import { retryDelay, startClaimLoop, type ClaimLoop } from '../events/claim-loop.ts';
import { defaultLanguageOf } from '../forms/translations.ts';
import { responseFormVersionSql } from '../forms/versions.service.ts';
import type { RecallShown } from '../responses/recall-values.ts';
import type { EventFeed } from '../events/notifications.ts';
import type { SecretBox } from '../auth/secret-box.ts';
import { composeMessage } from './message.ts';
import { ownSmtpSettings } from './smtp-settings.ts';
import { createMailTransport, type MailTransport, type SendOutcome, type TransportOptions } from './transport.ts';

/** A claimed delivery's lease: longer than a send can take (connection, greeting and reply timeouts). */
const LEASE_MS = 90_000;
/** Messages sent at once by one node. */
const MAIL_CONCURRENCY = 4;

/** The confirmations' abuse limits (docs/notifications.md): more are recorded as `suppressed`. */
export interface ConfirmationLimits {
  perAddressPerDay: number;
  perFormPerHour: number;
}
export const CONFIRMATION_LIMITS: ConfirmationLimits = { perAddressPerDay: 3, perFormPerHour: 100 };

export interface MailDispatcherOptions {
  db: Db;
  config: MailConfig;
  logger: Logger;
  events?: EventFeed | undefined;
  pollMs?: number;
  random?: () => number;
  /** A file's signed path, for files in answers. */
  signFileUrl?: ((uploadId: string) => string) | undefined;
  limits?: ConfirmationLimits;
  /** Called once per delivery this node finishes with (not for a retry to come). */
  onOutcome?: ((kind: NotificationKind, outcome: 'sent' | 'failed' | 'suppressed') => void) | undefined;
  /** Tests: trust the test server's certificate. */
  transport?: TransportOptions;
  /** Opens environments' sealed SMTP passwords; without it only the server's SMTP_URL is used. */
  box?: SecretBox | undefined;
}

interface Claimed {
  id: string;
  attempts: number;
  kind: NotificationKind;
  trigger: string;
  recipient: string;
  rule: { includeAnswers: boolean; subject?: string; body?: string };
  formId: string;
  responseId: string;
  token: string;
  environmentId: string;
  /** The environment's own server, if it has one (else the server's). */
  own: { smtpUrl: string; smtpPasswordSealed: string | null; mailFrom: string | null } | undefined;
}

/** What the module-level steps read from the dispatcher's options. */
type Context = Pick<MailDispatcherOptions, 'db' | 'config' | 'logger' | 'random' | 'signFileUrl' | 'onOutcome' | 'transport' | 'box'> & {
  limits: ConfirmationLimits;
  transports: Map<string, MailTransport>;
};

/** The transport of a delivery's server: the environment's own (one per environment and settings), else the server's. */
function transportFor(ctx: Context, claimed: Claimed): { transport: MailTransport; from: string } | undefined {
  const { box, config, transports } = ctx;
  const own =
    claimed.own && box
      ? ownSmtpSettings(box, claimed.environmentId, {
          smtpUrl: claimed.own.smtpUrl,
          smtpPasswordSealed: claimed.own.smtpPasswordSealed,
        })
      : undefined;
  const settings = own ?? config.smtp;
  if (!settings) return undefined;
  const key = own ? `${claimed.environmentId}\n${claimed.own!.smtpUrl}\n${claimed.own!.smtpPasswordSealed ?? ''}` : '';
  let transport = transports.get(key);
  if (!transport) {
    // Settings changed: the environment's old transport goes.
    for (const [other, stale] of transports) {
      if (own && other.startsWith(`${claimed.environmentId}\n`)) {
        stale.close();
        transports.delete(other);
      }
    }
    transport = createMailTransport(settings, ctx.transport);
    transports.set(key, transport);
  }
  return { transport, from: (own ? claimed.own?.mailFrom : undefined) ?? config.from };
}

/** Leases up to `room` due deliveries that have a server to go through. */
async function claimDeliveries(ctx: Context, room: number): Promise<Claimed[]> {
  const token = randomBytes(12).toString('base64url');
  const serverSmtp = ctx.config.smtp !== undefined;
  const rows = rowsOf<Record<string, unknown>>(
    await ctx.db.execute(sql`
      with picked as (
        select n.id from notification_deliveries n
        join environments e on e.id = n.environment_id
        where ((n.status = 'pending' and n.next_attempt_at <= now()) or (n.status = 'sending' and n.lease_until <= now()))
          and (${serverSmtp}::boolean or (${ctx.box !== undefined}::boolean and e.smtp_url is not null))
        order by n.next_attempt_at
        limit ${room}
        for update of n skip locked
      )
      update notification_deliveries d
      set status = 'sending', attempts = d.attempts + 1, lease_token = ${token},
        lease_until = now() + ${LEASE_MS} * interval '1 millisecond', updated_at = now()
      from picked, environments e
      where d.id = picked.id and e.id = d.environment_id
      returning d.id, d.attempts, d.kind, d.trigger, d.recipient, d.rule, d.form_id, d.response_id, d.environment_id,
        e.smtp_url, e.smtp_password_sealed, e.mail_from`),
  );
  return rows.map((row) => ({
    id: String(row.id),
    attempts: Number(row.attempts),
    kind: row.kind as NotificationKind,
    trigger: String(row.trigger),
    recipient: String(row.recipient),
    rule: (typeof row.rule === 'string' ? JSON.parse(row.rule) : row.rule) as Claimed['rule'],
    formId: String(row.form_id),
    responseId: String(row.response_id),
    token,
    environmentId: String(row.environment_id),
    own:
      typeof row.smtp_url === 'string'
        ? {
            smtpUrl: row.smtp_url,
            smtpPasswordSealed: typeof row.smtp_password_sealed === 'string' ? row.smtp_password_sealed : null,
            mailFrom: typeof row.mail_from === 'string' ? row.mail_from : null,
          }
        : undefined,
  }));
}

/** Over a confirmation limit: marked suppressed. Counted: what was sent, and what was recorded before it and is on its way, so simultaneous sends settle by their order. */
async function suppressed(ctx: Context, claimed: Claimed): Promise<boolean> {
  const { limits } = ctx;
  const rows = rowsOf(
    await ctx.db.execute(sql`
      update notification_deliveries set status = 'suppressed', lease_token = null, lease_until = null, updated_at = now(),
        last_reply = 'suppressed: confirmation limit reached'
      where id = ${claimed.id} and lease_token = ${claimed.token} and status = 'sending' and (
        (${limits.perAddressPerDay}::int > 0 and (select count(*) from notification_deliveries o
          where o.form_id = ${claimed.formId} and o.kind = 'respondent' and o.id <> ${claimed.id} and lower(o.recipient) = lower(${claimed.recipient})
            and (o.status = 'sent' or (o.status in ('sending', 'pending') and (o.created_at, o.id) < (select m.created_at, m.id from notification_deliveries m where m.id = ${claimed.id}))) and o.created_at > now() - interval '1 day') >= ${limits.perAddressPerDay}::int)
        or (${limits.perFormPerHour}::int > 0 and (select count(*) from notification_deliveries o
          where o.form_id = ${claimed.formId} and o.kind = 'respondent' and o.id <> ${claimed.id}
            and (o.status = 'sent' or (o.status in ('sending', 'pending') and (o.created_at, o.id) < (select m.created_at, m.id from notification_deliveries m where m.id = ${claimed.id}))) and o.created_at > now() - interval '1 hour') >= ${limits.perFormPerHour}::int))
      returning id`),
  );
  return rows.length > 0;
}

/** The form and the response a delivery is about, as they are now, in the language the response was answered in. */
async function subjectOf(db: Db, claimed: Claimed) {
  const rows = rowsOf<{
    name: string;
    locale: string;
    response_id: string | null;
    updated_at: string | Date;
    data: unknown;
    meta: unknown;
    form_name: string;
    form_locale: string;
    steps: unknown;
    languages: unknown;
    texts: unknown;
  }>(
    await db.execute(sql`
      select coalesce(f.texts->'name'->>(r.meta->>'language'), f.name) as name, coalesce(r.meta->>'language', v.definition->>'locale', f.locale) as locale, r.id as response_id, r.updated_at, r.data, r.meta,
        f.name as form_name, f.locale as form_locale, f.steps, f.languages, f.texts
      from forms f left join responses r on r.id = ${claimed.responseId} and r.form_id = f.id
      -- The response's language: the one a multilingual form was answered in (its name in it, when translated), else its version's locale.
      left join form_versions v on v.form_id = f.id and v.version = ${responseFormVersionSql(sql`r.meta`)}
      where f.id = ${claimed.formId}`),
  );
  return rows[0];
}

/** Records a send's outcome (only while this node still holds the lease). */
async function recordOutcome(ctx: Context, claimed: Claimed, outcome: SendOutcome): Promise<void> {
  const delay = outcome.ok || !outcome.retry ? undefined : retryDelay(ctx.config.retryDelaysMs, claimed.attempts, ctx.random);
  const status = outcome.ok ? 'sent' : delay === undefined ? 'failed' : 'pending';
  await ctx.db.execute(sql`
    update notification_deliveries set status = ${status}, lease_token = null, lease_until = null, last_reply = ${outcome.reply},
      next_attempt_at = now() + ${delay ?? 0} * interval '1 millisecond', updated_at = now(),
      sent_at = case when ${status} = 'sent' then now() else sent_at end
    where id = ${claimed.id} and lease_token = ${claimed.token} and status = 'sending'`);
  if (status !== 'pending') ctx.onOutcome?.(claimed.kind, status);
  if (status === 'failed') ctx.logger.warn({ deliveryId: claimed.id, attempts: claimed.attempts, reply: outcome.reply }, 'e-mail delivery failed');
}

type Found = NonNullable<Awaited<ReturnType<typeof subjectOf>>>;
const parsed = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;

/** The form as it is now, and the language the response was answered in: what its recalled choices show. */
function shownOf(found: Found, meta: ResponseMeta): RecallShown {
  const form = {
    name: found.form_name,
    locale: found.form_locale,
    steps: parsed<StoredStep[]>(found.steps),
    languages: parsed<FormLanguages | null>(found.languages),
    texts: parsed<TextTranslations | null>(found.texts),
  };
  return { form, language: meta.language ?? defaultLanguageOf(form), written: true };
}

function compose(ctx: Context, claimed: Claimed, found: Found, responseId: string, from: string) {
  const meta = parsed<ResponseMeta | null>(found.meta) ?? {};
  return composeMessage({
    deliveryId: claimed.id,
    kind: claimed.kind,
    trigger: claimed.trigger,
    to: claimed.recipient,
    from,
    publicUrl: ctx.config.publicUrl,
    form: { id: claimed.formId, name: found.name, locale: found.locale },
    response: {
      id: responseId,
      updatedAt: new Date(found.updated_at),
      data: parsed<ResponseAnswer[]>(found.data),
      meta,
    },
    shown: shownOf(found, meta),
    rule: claimed.rule,
    signFileUrl: ctx.signFileUrl,
  });
}

/** Gives a claimed delivery back without counting the attempt. */
async function release(db: Db, claimed: Claimed): Promise<void> {
  await db.execute(sql`
    update notification_deliveries set status = 'pending', attempts = attempts - 1, lease_token = null, lease_until = null,
      next_attempt_at = now(), updated_at = now()
    where id = ${claimed.id} and lease_token = ${claimed.token} and status = 'sending'`);
}

/** Sends one claimed delivery: suppressed over a limit, failed without its response, else through its server. */
async function sendDelivery(ctx: Context, claimed: Claimed, signal: AbortSignal): Promise<void> {
  if (claimed.kind === 'respondent' && (await suppressed(ctx, claimed))) {
    ctx.onOutcome?.(claimed.kind, 'suppressed');
    return;
  }
  const found = await subjectOf(ctx.db, claimed);
  if (!found?.response_id) {
    await recordOutcome(ctx, claimed, { ok: false, retry: false, reply: 'not sent: the response no longer exists' });
    return;
  }
  const server = transportFor(ctx, claimed);
  if (!server) {
    // Its environment's server went away since the claim: back to waiting.
    await release(ctx.db, claimed);
    return;
  }
  let message: ReturnType<typeof composeMessage>;
  try {
    message = compose(ctx, claimed, found, found.response_id, server.from);
  } catch (error) {
    ctx.logger.error({ err: error, deliveryId: claimed.id }, 'composing an e-mail failed');
    await recordOutcome(ctx, claimed, { ok: false, retry: false, reply: 'not sent: the message could not be made' });
    return;
  }
  await recordOutcome(ctx, claimed, await server.transport.send(message, signal));
}

/**
 * Starts sending. Only deliveries with a server to go through are claimed: the environment's own, else
 * the server's SMTP_URL; without either (and without `box`, which environments' servers need), none
 * runs and undefined is returned.
 */
export function startMailDispatcher(options: MailDispatcherOptions): ClaimLoop | undefined {
  if (!options.config.smtp && !options.box) return undefined;
  const ctx: Context = { ...options, limits: options.limits ?? CONFIRMATION_LIMITS, transports: new Map() };
  const loop = startClaimLoop<Claimed>({
    concurrency: MAIL_CONCURRENCY,
    pollMs: options.pollMs ?? 1_000,
    logger: options.logger,
    what: 'e-mail deliveries',
    events: options.events,
    claim: (room) => claimDeliveries(ctx, room),
    work: (claimed, signal) => sendDelivery(ctx, claimed, signal),
    release: (claimed) => release(options.db, claimed),
  });
  return {
    kick: () => loop.kick(),
    get inFlight() {
      return loop.inFlight;
    },
    stopClaiming: () => loop.stopClaiming(),
    async stop() {
      await loop.stop();
      for (const transport of ctx.transports.values()) transport.close();
    },
  };
}

export type { MailTransport };
