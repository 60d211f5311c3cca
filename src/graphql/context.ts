import type { Principal } from '../auth/auth.service.ts';
import type { SecretBox } from '../auth/secret-box.ts';
import type { SigningKeyring } from '../auth/signing-keys.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { primaryReads, type LagTolerantReads } from '../db/replicas.ts';
import type { LiveFeed } from '../events/live-feed.ts';
import type { EndpointRules } from '../events/webhooks.service.ts';
import type { FileStorage } from '../uploads/storage.ts';

/** What every resolver gets: the database handle, the authenticated caller, and response settings. */
export interface GraphQLContext {
  db: Db;
  /** Where lag-tolerant reads (listings, summaries) run: a fresh read replica, else `db` (absent: `db`). */
  reads?: LagTolerantReads | undefined;
  principal: Principal;
  /** Unfinished responses untouched this long are "dropped off" (status 3). */
  dropOffMs: number;
  /**
   * JSON fields may resolve to RawJson text (graphql/raw-json.ts): set for /graphql, whose results are
   * written as JSON; in-process operations, which read their results as objects, leave it unset.
   */
  rawJson?: boolean | undefined;
  /**
   * The request's `Idempotency-Key` (generateForm honours it); `replayed` is set when the operation
   * answered with a stored result instead of doing the work again.
   */
  idempotency?: { key: string; replayed: boolean } | undefined;
  /** Where webhook endpoints may point (WEBHOOK_ALLOW_PRIVATE). */
  webhookRules: EndpointRules;
  /** The node's live feed of events, for subscriptions (absent in in-process REST operations). */
  liveFeed?: LiveFeed | undefined;
  /** A signed, expiring URL of an uploaded file (GraphQL's FileUploaderAnswer.fileUrl); absent: the plain URL. */
  signFileUrl?: ((uploadId: string) => string) | undefined;
  /** Where uploaded files live: deleting responses removes theirs (absent: the uploads sweep does, within a day). */
  fileStorage?: FileStorage | undefined;
  /**
   * Environments' captcha keys: the server's keys (CAPTCHA config), which apply where an environment
   * has none, and the box that seals secret keys. Absent (an in-process context built by hand): the
   * operations that need it fail.
   */
  captchaKeyring?: CaptchaKeyring | undefined;
  /** Whether an SMTP server is configured: without one, pending e-mail deliveries are listed as waiting for it. */
  smtpConfigured?: boolean | undefined;
  /** The node's signing keys (the admin's rotation reads them again at once); absent: rotation is refused. */
  signing?: SigningKeyring | undefined;
  /**
   * What is left of the request's budget of definition bytes (GRAPHQL_MAX_DEFINITION_BYTES): reading a
   * version's definition spends its size. Absent: no budget.
   */
  definitionBudget?: { max: number; left: number } | undefined;
  /** Versions a form may have (FORM_MAX_VERSIONS; absent or 0: unlimited). */
  formMaxVersions?: number | undefined;
  /** Aborted when the client goes away (subscriptions end with it). */
  signal?: AbortSignal | undefined;
}

export interface CaptchaKeyring {
  /** The server's keys and settings, which apply where an environment has none. */
  defaults: Config['captcha'];
  box: SecretBox;
}

/** The context's captcha keyring (every context the app builds has one). */
export function captchaKeyringOf(ctx: GraphQLContext): CaptchaKeyring {
  if (!ctx.captchaKeyring) throw new Error('This operation needs the captcha keyring in its context');
  return ctx.captchaKeyring;
}

/** A request's budget of definition bytes: `max` of them, none when `max` is 0 (off). */
export const definitionBudget = (max: number) => (max > 0 ? { max, left: max } : undefined);

/** `ctx` with a whole budget of definition bytes of the same size again: for the next of several operations (REST gives each its own). */
export const withFreshDefinitionBudget = (ctx: GraphQLContext): GraphQLContext => ({
  ...ctx,
  definitionBudget: ctx.definitionBudget && definitionBudget(ctx.definitionBudget.max),
});

/** The context's lag-tolerant reads: its replicas when it has them, else its database handle. */
export function lagTolerantReads(ctx: Pick<GraphQLContext, 'db' | 'reads'>): LagTolerantReads {
  return ctx.reads ?? primaryReads(ctx.db);
}
