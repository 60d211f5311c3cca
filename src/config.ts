/**
 * The only reader of process.env. Every setting is validated here; a bad value stops start-up with
 * one message that names every bad variable.
 */
import { z } from 'zod';
import { withoutTrailingSlashes } from './paths.ts';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Standard Webhooks' usual schedule: retries after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (about 27.6 h in all). */
const DEFAULT_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,10h';

/** DRAIN_DELAY_MS when unset: long enough for a load balancer checking readiness every 2 s to see two failures. */
const DEFAULT_DRAIN_DELAY_MS = 5_000;

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };
/** `500ms`, `5s`, `5m`, `2h` in milliseconds; undefined when unreadable. */
function parseDuration(text: string): number | undefined {
  const match = /^(\d+)(ms|[smh])$/.exec(text);
  return match ? Number(match[1]) * DURATION_UNITS[match[2]!]! : undefined;
}

/** Comma-separated waits before each retry (WEBHOOK_RETRY_SCHEDULE, MAIL_RETRY_SCHEDULE), in milliseconds. */
const retrySchedule = z.string().transform((value, ctx) => {
  const delays = value.split(',').map((part) => parseDuration(part.trim()));
  if (delays.length === 0 || delays.length > 20 || delays.some((d) => d === undefined)) {
    ctx.addIssue({ code: 'custom', message: 'must be 1-20 comma-separated durations like 500ms, 5s, 5m, 2h' });
    return z.NEVER;
  }
  return delays as number[];
});

/** An address (`a@b.example`) or a display name and one (`Acme <a@b.example>`), on one line. */
const MAIL_FROM_PATTERN = /^(?:[^<>\r\n"]{0,100} ?<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/;

/** The weakest ADMIN_TOKEN accepted (a generated one is 49 characters of 64). */
/** `fontsCssUrl` when FONTS_CSS_URL is unset: the theme fonts come from formloom itself (src/public/fonts.ts). */
export const SELF_HOSTED_FONTS = 'self';

export const ADMIN_TOKEN_MIN_LENGTH = 24;
export const ADMIN_TOKEN_MIN_DISTINCT = 10;

const postgresUrl = z.string().regex(/^postgres(ql)?:\/\/\S+$/, 'must be a postgres:// or postgresql:// URL');

const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  HOST: z.string().min(1).default('127.0.0.1'),
  // The `formloom` command's server (the server itself does not read it).
  FORMLOOM_URL: z
    .string()
    .regex(/^https?:\/\/\S+$/, 'must be an http(s) URL')
    .optional(),
  // The API key `formloom mcp` calls the server's /mcp with.
  FORMLOOM_API_KEY: z.string().min(1).optional(),
  DATABASE_URL: postgresUrl.optional(),
  /** A session connection straight to the primary, when DATABASE_URL is a transaction pooler (README "PgBouncer"). */
  DATABASE_DIRECT_URL: postgresUrl.optional(),
  /** Streaming replicas for lag-tolerant reads, comma-separated (README "Read replicas"). */
  DATABASE_REPLICA_URLS: z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((url) => url.trim())
        .filter(Boolean),
    )
    .pipe(z.array(postgresUrl).min(1, 'must list at least one URL'))
    .optional(),
  /** A replica further behind than this (its replay lag) is skipped. */
  REPLICA_MAX_LAG_MS: z.coerce.number().int().min(0).max(3_600_000).default(1_000),
  DATA_DIR: z.string().min(1).default('./.data'),
  /** Operator-chosen admin token: refused below ADMIN_TOKEN_MIN_LENGTH characters or ADMIN_TOKEN_MIN_DISTINCT different ones. */
  ADMIN_TOKEN: z
    .string()
    .refine(
      (token) => token.length >= ADMIN_TOKEN_MIN_LENGTH && new Set(token).size >= ADMIN_TOKEN_MIN_DISTINCT,
      `must be at least ${ADMIN_TOKEN_MIN_LENGTH} characters with at least ${ADMIN_TOKEN_MIN_DISTINCT} different ones (make one with: openssl rand -base64 32)`,
    )
    .optional(),
  /** Hours a replaced signing key (cookies, file URLs) is still accepted after `formloom secrets rotate`. */
  SIGNING_KEY_GRACE_HOURS: z.coerce.number().min(0).max(8760).default(24),
  /** Bearer token Prometheus scrapes GET /metrics with (the admin token works too). */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  /** Largest accepted request body, in bytes. */
  MAX_BODY_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
  /** Proxies in front of the service whose X-Forwarded-For entries are trusted (0: use the socket address). */
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  /** Request header carrying the respondent's country code (empty when absent). */
  COUNTRY_HEADER: z
    .string()
    .regex(/^[A-Z0-9-]+$/i, 'must be a header name')
    .default('cf-ipcountry'),
  /** Minutes after which an untouched unfinished response counts as dropped off (status 3). */
  DROP_OFF_MINUTES: z.coerce.number().positive().default(30),
  /** Hours an unfinished response stays on the older form version it started on; then it moves to the current version. 0: off (it stays). */
  PINNED_VERSION_MAX_AGE_HOURS: z.coerce.number().min(0).default(72),
  /** Public submissions (pages and the public JSON API) allowed per IP per minute; 0: off. */
  PUBLIC_RATE_LIMIT: z.coerce.number().int().min(0).default(120),
  /** Public page reads (GET of a form's page and of its definition) allowed per IP per minute; 0: off. */
  PAGE_RATE_LIMIT: z.coerce.number().int().min(0).default(300),
  /** Seconds a node reuses a form's figures on its results pages (share links); 0: computed on every request. */
  RESULTS_FRESH_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  /** Largest public submission body, in bytes. */
  PUBLIC_MAX_BODY_BYTES: z.coerce.number().int().min(1024).default(65_536),
  /**
   * Stylesheet service (Google Fonts css2 API or a mirror) that serves the theme fonts on public pages;
   * unset: formloom serves the fonts it ships itself (nothing from a third party); `none`: installed fonts only.
   */
  FONTS_CSS_URL: z
    .string()
    .refine((value) => value === 'none' || /^https?:\/\/[^\s?#]+$/.test(value), 'must be an http(s) URL without query, or "none"')
    .optional(),

  // ---- limits at the edge (docs/security.md); 0 turns a rate limit off
  /** Requests per minute per API key (and for the admin token), REST and GraphQL together. */
  API_RATE_LIMIT: z.coerce.number().int().min(0).default(600),
  /** Failed authentications per client address per minute before that address is refused. */
  AUTH_FAILURE_LIMIT: z.coerce.number().int().min(0).default(20),
  /** Requests per client address per minute that carry no credentials at all (GraphiQL, 401s). */
  ANONYMOUS_RATE_LIMIT: z.coerce.number().int().min(0).default(300),
  /** How long an address that exceeded AUTH_FAILURE_LIMIT is refused, in seconds. */
  AUTH_FAILURE_BLOCK_SECONDS: z.coerce.number().int().min(1).default(300),
  /** Deepest nesting of arrays/objects accepted in any JSON body or GraphQL variable/literal. */
  MAX_JSON_DEPTH: z.coerce.number().int().min(8).max(1000).default(32),
  /** Origins allowed to call /graphql and /api/v1 from a browser (comma-separated; empty: none). */
  CORS_ORIGINS: z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(/^https?:\/\/[^/\s,;]+$/, 'each origin must be scheme://host[:port]')))
    .default([]),
  /** CSP frame-ancestors of public form pages: who may embed forms (`'self'`, `*`, or origins). */
  FRAME_ANCESTORS: z
    .string()
    .regex(/^[\w :/.*'-]+$/, "must be CSP source expressions such as 'self' https://example.com")
    .default("'self'"),
  /** GraphQL operation limits (GraphQL Armor and the list-aware cost limit). */
  GRAPHQL_MAX_DEPTH: z.coerce.number().int().min(1).default(12),
  GRAPHQL_MAX_ALIASES: z.coerce.number().int().min(0).default(15),
  GRAPHQL_MAX_TOKENS: z.coerce.number().int().min(100).default(2_000),
  GRAPHQL_MAX_DIRECTIVES: z.coerce.number().int().min(0).default(10),
  GRAPHQL_MAX_COST: z.coerce.number().int().min(1).default(5_000),
  GRAPHQL_PERSISTED_ONLY: z.enum(['0', '1'], { message: 'must be 0 or 1' }).default('0'),
  GRAPHQL_PERSISTED_ONLY_GRAPHIQL: z.enum(['0', '1'], { message: 'must be 0 or 1' }).default('1'),
  /** Bytes of form definitions (Form.versions' `definition`) one GraphQL request may read and answer with; 0: off. */
  GRAPHQL_MAX_DEFINITION_BYTES: z.coerce.number().int().min(0).default(16_777_216),
  /** Versions a form may have: an update beyond it is refused (409); 0: unlimited. */
  FORM_MAX_VERSIONS: z.coerce.number().int().min(0).default(100),
  /** Password answers hashed at once across the process (scrypt, off the event loop). */
  PASSWORD_HASH_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2),
  /** Password answers accepted in one submission. */
  MAX_PASSWORD_ANSWERS: z.coerce.number().int().min(1).default(5),
  /** Node HTTP server timeouts, in milliseconds. */
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(1_000).default(10_000),
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1_000).default(30_000),
  KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(1_000).default(5_000),

  // ---- production operations
  /** How long a SIGTERM/SIGINT drain may take, from the signal (the drain delay included), before the process exits anyway. */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
  /**
   * After SIGTERM/SIGINT the node keeps accepting and answering this long (readiness 503, every answer
   * `Connection: close`), so a load balancer takes it out of rotation before it stops listening. Unset:
   * 5 s, or half of SHUTDOWN_TIMEOUT_MS when that is shorter than 10 s.
   */
  DRAIN_DELAY_MS: z.coerce.number().int().min(0).optional(),
  /** Redis for counters and notifications shared between several nodes (rate limits, key revocation). */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .optional(),
  /** Prefix of every key formloom writes to Redis (several deployments, or test runs, sharing one Redis). */
  REDIS_KEY_PREFIX: z.string().max(100).regex(/^\S*$/, 'must not contain spaces').default(''),
  /** PostgreSQL: longest statement, and longest wait for a connection, in milliseconds. */
  DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).default(15_000),
  DB_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).default(1_500),

  // ---- webhooks (docs/webhooks.md)
  /** 1: endpoints may point at loopback, private and link-local addresses (only for trusted setups and tests). */
  WEBHOOK_ALLOW_PRIVATE: z.enum(['0', '1'], { message: 'must be 0 or 1' }).default('0'),
  /** Longest wait for a receiver's answer (connect, send, status line), in milliseconds. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /** Waits before each retry, comma-separated durations such as 5s,5m,30m,2h (each gets ±20% jitter). */
  WEBHOOK_RETRY_SCHEDULE: retrySchedule.prefault(DEFAULT_RETRY_SCHEDULE),
  /** Deliveries in a row that end failed before the endpoint is disabled automatically; 0: never. */
  WEBHOOK_DISABLE_AFTER: z.coerce.number().int().min(0).default(5),
  /** Deliveries in flight at once from this node, and at once to one endpoint (across the nodes). */
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(16),
  WEBHOOK_ENDPOINT_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  /** Days an event is kept once every delivery of it has ended (succeeded or failed), attempts included; 0: forever. */
  WEBHOOK_RETENTION_DAYS: z.coerce.number().int().min(0).max(3650).default(30),
  /** 0: this node records events but does not deliver them (another node does). */
  WEBHOOK_WORKER: z.enum(['0', '1'], { message: 'must be 0 or 1' }).default('1'),
  /** Events a live-feed (subscription) client may have waiting before it is cut off. */
  SUBSCRIPTION_BUFFER: z.coerce.number().int().min(1).max(10_000).default(100),
  /**
   * Live-feed streams one API key (or the admin token) may hold open at once; the next is refused with
   * 429. Counted across the nodes in Redis when REDIS_URL is set, else per node. 0: no cap.
   */
  SUBSCRIPTION_MAX_PER_KEY: z.coerce.number().int().min(0).max(100_000).default(20),
  /** Longest a live-feed stream stays open: the server then completes it, and the client subscribes again. */
  SUBSCRIPTION_MAX_LIFETIME: z
    .string()
    .transform((value, ctx) => {
      const ms = parseDuration(value);
      if (ms === undefined || ms < 1_000 || ms > 24 * 3_600_000) {
        ctx.addIssue({ code: 'custom', message: 'must be a duration from 1s to 24h, like 30m or 1h' });
        return z.NEVER;
      }
      return ms;
    })
    .prefault('1h'),

  // ---- e-mail notifications (docs/notifications.md)
  /** The SMTP server messages go through: smtp://user:pass@host:587 (STARTTLS) or smtps://…:465; unset: deliveries wait. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^\s/?#]+\/?$/, 'must be smtp://[user:pass@]host[:port] or smtps://…')
    .optional(),
  /** 0: an smtp:// server may be used without STARTTLS (only for trusted local relays and tests). */
  SMTP_REQUIRE_TLS: z.enum(['0', '1'], { message: 'must be 0 or 1' }).default('1'),
  /** The sender of every message (environments may have their own). */
  MAIL_FROM: z.string().regex(MAIL_FROM_PATTERN, 'must be an address or "Name <address>" on one line').optional(),
  /** Waits before each retry of a message; unset: the webhooks' schedule. */
  MAIL_RETRY_SCHEDULE: retrySchedule.optional(),
  /** The service's public address, for links in messages; unset: http://HOST:PORT. */
  PUBLIC_URL: z
    .string()
    .regex(/^https?:\/\/[^\s/?#]+(?:\/[^\s?#]*)?$/, 'must be an http(s) URL without query')
    .transform(withoutTrailingSlashes)
    .optional(),

  // ---- personal data lifecycle (docs/privacy.md)
  /** How often the retention job runs (once per interval across all nodes), e.g. 1h, 30m. */
  RETENTION_INTERVAL: z
    .string()
    .transform((value, ctx) => {
      const ms = parseDuration(value);
      if (ms === undefined || ms < 1_000) {
        ctx.addIssue({ code: 'custom', message: 'must be a duration of at least 1s, like 30m or 1h' });
        return z.NEVER;
      }
      return ms;
    })
    .prefault('1h'),
  /** Days a soft-deleted form (with its responses) is kept before the retention job purges it; 0: never. */
  FORM_PURGE_DAYS: z.coerce.number().int().min(0).max(36_500).default(30),
  /** 0: this node never runs the retention job (another node does). */
  RETENTION_WORKER: z.enum(['0', '1'], { message: 'must be 0 or 1' }).default('1'),
  // ---- file uploads (docs/public-pages.md, "File uploads")
  /** Largest upload request (POST /s/:formId/uploads) or page post carrying files, in bytes; also caps a FileUploader's maxSize. */
  UPLOAD_MAX_BODY_BYTES: z.coerce.number().int().min(65_536).default(26_214_400),
  /** How long a signed file URL (GraphQL FileUploaderAnswer.fileUrl) stays valid, in seconds. */
  FILE_URL_TTL_SECONDS: z.coerce.number().int().min(10).max(604_800).default(3_600),
  /** An S3-compatible bucket for uploaded files; unset: the DATA_DIR/uploads folder. */
  S3_BUCKET: z.string().min(3).max(63).optional(),
  /** The S3 API's address for non-AWS services (MinIO, R2, …); unset: AWS. */
  S3_ENDPOINT: z
    .string()
    .regex(/^https?:\/\/\S+$/, 'must be an http(s) URL')
    .optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** 1: bucket in the path (`endpoint/bucket/key`), as most S3-compatible servers want. */
  S3_FORCE_PATH_STYLE: z.enum(['0', '1'], { message: 'must be 0 or 1' }).default('0'),
  /** Prefix of every object key formloom writes to the bucket. */
  S3_KEY_PREFIX: z
    .string()
    .max(200)
    .regex(/^[\w./-]*$/, 'must be letters, digits, _ . / -')
    .default(''),

  // ---- captchas (docs/public-pages.md, "Captchas")
  TURNSTILE_SITE_KEY: z.string().min(1).max(200).optional(),
  /** Turnstile's secret: with it, TurnstileWidget steps are accepted only with a token the verify URL confirms. */
  TURNSTILE_SECRET_KEY: z.string().min(1).optional(),
  TURNSTILE_VERIFY_URL: z
    .string()
    .regex(/^https?:\/\/\S+$/, 'must be an http(s) URL')
    .default('https://challenges.cloudflare.com/turnstile/v0/siteverify'),
  RECAPTCHA_SITE_KEY: z.string().min(1).max(200).optional(),
  /** reCAPTCHA's secret: with it, Recaptcha steps are accepted only with a token the verify URL confirms. */
  RECAPTCHA_SECRET_KEY: z.string().min(1).optional(),
  RECAPTCHA_VERIFY_URL: z
    .string()
    .regex(/^https?:\/\/\S+$/, 'must be an http(s) URL')
    .default('https://www.google.com/recaptcha/api/siteverify'),
  /** 1: accept a captcha step when the provider can't be reached (fail open); 0 (default): refuse it. */
  CAPTCHA_FAIL_OPEN: z.enum(['0', '1'], { message: 'must be 0 or 1' }).default('0'),
  /** Longest wait for the provider's verify answer, in milliseconds. */
  CAPTCHA_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5_000),
});

export interface CaptchaProviderConfig {
  siteKey: string | undefined;
  /** Unset: the captcha is shown (when a site key is known) but not enforced. */
  secretKey: string | undefined;
  verifyUrl: string;
}

/** An S3-compatible bucket for uploaded files (uploads/storage.ts). */
export interface S3Settings {
  bucket: string;
  endpoint: string | undefined;
  region: string;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  forcePathStyle: boolean;
  keyPrefix: string;
}

export interface UploadsConfig {
  maxBodyBytes: number;
  fileUrlTtlSeconds: number;
  s3: S3Settings | undefined;
}

export interface WebhookConfig {
  allowPrivate: boolean;
  timeoutMs: number;
  /** Wait before retry 1, 2, …: a delivery gets 1 + retryDelaysMs.length attempts. */
  retryDelaysMs: number[];
  disableAfterFailedDeliveries: number;
  concurrency: number;
  endpointConcurrency: number;
  worker: boolean;
  /** Days finished events (their deliveries and attempts) are kept; 0: forever (events/retention.ts). */
  retentionDays: number;
}

/** A server to send e-mail through (the server-wide SMTP_URL, or an environment's own settings). */
export interface SmtpSettings {
  url: string;
  /** smtp:// only: refuse to send unless the server offers STARTTLS. */
  requireTls: boolean;
}

export interface MailConfig {
  /** Undefined: no server-wide SMTP; deliveries wait unless their environment has its own. */
  smtp: SmtpSettings | undefined;
  from: string;
  /** Wait before retry 1, 2, …: a message gets 1 + retryDelaysMs.length attempts. */
  retryDelaysMs: number[];
  /** Where links in messages point: the service's public address, no trailing slash. */
  publicUrl: string;
}

export interface Config {
  port: number;
  host: string;
  /** FORMLOOM_URL: the server the `formloom` command talks to; unset, it is made of `host` and `port`. */
  formloomUrl: string | undefined;
  /** FORMLOOM_API_KEY: the API key `formloom mcp` acts with. */
  formloomApiKey: string | undefined;
  /** PostgreSQL through postgres.js when set; embedded PGlite in `dataDir` otherwise. */
  databaseUrl: string | undefined;
  dataDir: string;
  adminToken: string | undefined;
  /** How long a replaced signing key is still accepted (src/auth/signing-keys.ts). */
  signingKeyGraceMs: number;
  /** Bearer token for GET /metrics besides the admin token; undefined: the admin token only. */
  metricsToken: string | undefined;
  logLevel: (typeof LOG_LEVELS)[number];
  maxBodyBytes: number;
  trustProxy: number;
  countryHeader: string;
  dropOffMs: number;
  /** How long a response stays on an older version it started on (0: for ever). */
  pinnedVersionMaxAgeMs: number;
  publicRateLimitPerMinute: number;
  pageRateLimitPerMinute: number;
  /** How long a node reuses a form's results-page figures, in ms (0: never). */
  resultsFreshMs: number;
  publicMaxBodyBytes: number;
  /** Theme font stylesheet service for public pages; `SELF_HOSTED_FONTS`: formloom's own; undefined: none loaded. */
  fontsCssUrl: string | undefined;
  /** Per API key (or admin token) per minute; 0: off. */
  apiRateLimitPerMinute: number;
  /** Failed authentications per address per minute; 0: off. */
  authFailureLimitPerMinute: number;
  authFailureBlockSeconds: number;
  /** Requests without credentials per address per minute; 0: off. */
  anonymousRateLimitPerMinute: number;
  maxJsonDepth: number;
  corsOrigins: string[];
  frameAncestors: string;
  graphql: {
    maxDepth: number;
    maxAliases: number;
    maxTokens: number;
    maxDirectives: number;
    maxCost: number;
    /** GRAPHQL_PERSISTED_ONLY: /graphql runs only trusted documents (graphql/persisted.ts). */
    persistedOnly: boolean;
    /** GRAPHQL_PERSISTED_ONLY_GRAPHIQL: with persistedOnly, GraphiQL still runs documents typed into it. */
    graphiqlAdHoc: boolean;
    /** GRAPHQL_MAX_DEFINITION_BYTES: the definition bytes one request may read (0: no budget). */
    maxDefinitionBytes: number;
  };
  /** Versions a form may have (0: unlimited). */
  formMaxVersions: number;
  passwordHashConcurrency: number;
  maxPasswordAnswers: number;
  http: { headersTimeoutMs: number; requestTimeoutMs: number; keepAliveTimeoutMs: number };
  shutdownTimeoutMs: number;
  /** How long a node keeps serving (readiness 503, `Connection: close`) after the signal before it stops listening. */
  drainDelayMs: number;
  redisUrl: string | undefined;
  redisKeyPrefix: string;
  db: {
    statementTimeoutMs: number;
    connectTimeoutMs: number;
    /** DATABASE_DIRECT_URL: set, DATABASE_URL is taken for a transaction pooler. */
    directUrl: string | undefined;
    /** DATABASE_REPLICA_URLS (empty: none). */
    replicaUrls: string[];
    replicaMaxLagMs: number;
  };
  webhooks: WebhookConfig;
  mail: MailConfig;
  /** The `responseEvents` live feed (src/events/live-feed.ts). */
  subscriptions: {
    /** Unread events a stream may have before it is cut off. */
    bufferSize: number;
    /** Streams open at once per API key (admin token: one key); 0: no cap. */
    maxPerKey: number;
    /** A stream is completed by the server after at most this long. */
    maxLifetimeMs: number;
  };
  retention: { intervalMs: number; formPurgeDays: number; worker: boolean };
  uploads: UploadsConfig;
  captcha: { turnstile: CaptchaProviderConfig; recaptcha: CaptchaProviderConfig; failOpen: boolean; timeoutMs: number };
}

const SECRET_VARIABLES = new Set([
  'ADMIN_TOKEN',
  'FORMLOOM_API_KEY',
  'DATABASE_URL',
  'DATABASE_DIRECT_URL',
  'DATABASE_REPLICA_URLS',
  'REDIS_URL',
  'S3_SECRET_ACCESS_KEY',
  'TURNSTILE_SECRET_KEY',
  'RECAPTCHA_SECRET_KEY',
  'SMTP_URL',
]);

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable (`PORT=`) means "not set", as shells make it easy to write.
  const present = Object.fromEntries(
    Object.keys(configSchema.shape)
      .map((name) => [name, env[name]] as const)
      .filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = configSchema.safeParse(present);
  // The database's other connections are the PostgreSQL deployment's: they need its DATABASE_URL.
  const withoutDatabaseUrl = present.DATABASE_URL
    ? []
    : (['DATABASE_DIRECT_URL', 'DATABASE_REPLICA_URLS'] as const).filter((name) => present[name] !== undefined).map((name) => `${name}: needs DATABASE_URL (PostgreSQL) too`);
  if (!parsed.success || withoutDatabaseUrl.length > 0) {
    throw new ConfigError([
      ...(parsed.error?.issues ?? []).map((issue) => {
        const name = String(issue.path[0]);
        // Values that may hold a secret (a token, a password in a URL) are not repeated into logs.
        const shown = SECRET_VARIABLES.has(name) ? '(hidden)' : JSON.stringify(present[name]);
        return `${issue.path.join('.')}: ${issue.message} (got ${shown})`;
      }),
      ...withoutDatabaseUrl,
    ]);
  }
  const c = parsed.data;
  // The delay is part of the shutdown timeout: it must leave time for the drain itself.
  const drainDelayMs = c.DRAIN_DELAY_MS ?? Math.min(DEFAULT_DRAIN_DELAY_MS, Math.floor(c.SHUTDOWN_TIMEOUT_MS / 2));
  if (drainDelayMs > 0 && drainDelayMs >= c.SHUTDOWN_TIMEOUT_MS) {
    throw new ConfigError([`DRAIN_DELAY_MS: must be shorter than SHUTDOWN_TIMEOUT_MS (${c.SHUTDOWN_TIMEOUT_MS}) (got ${JSON.stringify(present.DRAIN_DELAY_MS)})`]);
  }
  return {
    port: c.PORT,
    host: c.HOST,
    formloomUrl: c.FORMLOOM_URL,
    formloomApiKey: c.FORMLOOM_API_KEY,
    databaseUrl: c.DATABASE_URL,
    dataDir: c.DATA_DIR,
    adminToken: c.ADMIN_TOKEN,
    signingKeyGraceMs: c.SIGNING_KEY_GRACE_HOURS * 3_600_000,
    metricsToken: c.METRICS_TOKEN,
    logLevel: c.LOG_LEVEL,
    maxBodyBytes: c.MAX_BODY_BYTES,
    trustProxy: c.TRUST_PROXY,
    countryHeader: c.COUNTRY_HEADER.toLowerCase(),
    dropOffMs: c.DROP_OFF_MINUTES * 60_000,
    pinnedVersionMaxAgeMs: c.PINNED_VERSION_MAX_AGE_HOURS * 3_600_000,
    publicRateLimitPerMinute: c.PUBLIC_RATE_LIMIT,
    pageRateLimitPerMinute: c.PAGE_RATE_LIMIT,
    resultsFreshMs: c.RESULTS_FRESH_SECONDS * 1000,
    publicMaxBodyBytes: c.PUBLIC_MAX_BODY_BYTES,
    fontsCssUrl: c.FONTS_CSS_URL === 'none' ? undefined : (c.FONTS_CSS_URL ?? SELF_HOSTED_FONTS),
    apiRateLimitPerMinute: c.API_RATE_LIMIT,
    authFailureLimitPerMinute: c.AUTH_FAILURE_LIMIT,
    authFailureBlockSeconds: c.AUTH_FAILURE_BLOCK_SECONDS,
    anonymousRateLimitPerMinute: c.ANONYMOUS_RATE_LIMIT,
    maxJsonDepth: c.MAX_JSON_DEPTH,
    corsOrigins: c.CORS_ORIGINS,
    frameAncestors: c.FRAME_ANCESTORS,
    graphql: {
      maxDepth: c.GRAPHQL_MAX_DEPTH,
      maxAliases: c.GRAPHQL_MAX_ALIASES,
      maxTokens: c.GRAPHQL_MAX_TOKENS,
      maxDirectives: c.GRAPHQL_MAX_DIRECTIVES,
      maxCost: c.GRAPHQL_MAX_COST,
      persistedOnly: c.GRAPHQL_PERSISTED_ONLY === '1',
      graphiqlAdHoc: c.GRAPHQL_PERSISTED_ONLY_GRAPHIQL === '1',
      maxDefinitionBytes: c.GRAPHQL_MAX_DEFINITION_BYTES,
    },
    formMaxVersions: c.FORM_MAX_VERSIONS,
    passwordHashConcurrency: c.PASSWORD_HASH_CONCURRENCY,
    maxPasswordAnswers: c.MAX_PASSWORD_ANSWERS,
    http: { headersTimeoutMs: c.HEADERS_TIMEOUT_MS, requestTimeoutMs: c.REQUEST_TIMEOUT_MS, keepAliveTimeoutMs: c.KEEP_ALIVE_TIMEOUT_MS },
    shutdownTimeoutMs: c.SHUTDOWN_TIMEOUT_MS,
    drainDelayMs,
    redisUrl: c.REDIS_URL,
    redisKeyPrefix: c.REDIS_KEY_PREFIX,
    db: {
      statementTimeoutMs: c.DB_STATEMENT_TIMEOUT_MS,
      connectTimeoutMs: c.DB_CONNECT_TIMEOUT_MS,
      directUrl: c.DATABASE_DIRECT_URL,
      replicaUrls: c.DATABASE_REPLICA_URLS ?? [],
      replicaMaxLagMs: c.REPLICA_MAX_LAG_MS,
    },
    webhooks: {
      allowPrivate: c.WEBHOOK_ALLOW_PRIVATE === '1',
      timeoutMs: c.WEBHOOK_TIMEOUT_MS,
      retryDelaysMs: c.WEBHOOK_RETRY_SCHEDULE,
      disableAfterFailedDeliveries: c.WEBHOOK_DISABLE_AFTER,
      concurrency: c.WEBHOOK_CONCURRENCY,
      endpointConcurrency: c.WEBHOOK_ENDPOINT_CONCURRENCY,
      worker: c.WEBHOOK_WORKER === '1',
      retentionDays: c.WEBHOOK_RETENTION_DAYS,
    },
    mail: mailConfig(c),
    subscriptions: { bufferSize: c.SUBSCRIPTION_BUFFER, maxPerKey: c.SUBSCRIPTION_MAX_PER_KEY, maxLifetimeMs: c.SUBSCRIPTION_MAX_LIFETIME },
    retention: { intervalMs: c.RETENTION_INTERVAL, formPurgeDays: c.FORM_PURGE_DAYS, worker: c.RETENTION_WORKER === '1' },
    uploads: {
      maxBodyBytes: c.UPLOAD_MAX_BODY_BYTES,
      fileUrlTtlSeconds: c.FILE_URL_TTL_SECONDS,
      s3: c.S3_BUCKET
        ? {
            bucket: c.S3_BUCKET,
            endpoint: c.S3_ENDPOINT,
            region: c.S3_REGION,
            accessKeyId: c.S3_ACCESS_KEY_ID,
            secretAccessKey: c.S3_SECRET_ACCESS_KEY,
            forcePathStyle: c.S3_FORCE_PATH_STYLE === '1',
            keyPrefix: c.S3_KEY_PREFIX,
          }
        : undefined,
    },
    captcha: {
      turnstile: { siteKey: c.TURNSTILE_SITE_KEY, secretKey: c.TURNSTILE_SECRET_KEY, verifyUrl: c.TURNSTILE_VERIFY_URL },
      recaptcha: { siteKey: c.RECAPTCHA_SITE_KEY, secretKey: c.RECAPTCHA_SECRET_KEY, verifyUrl: c.RECAPTCHA_VERIFY_URL },
      failOpen: c.CAPTCHA_FAIL_OPEN === '1',
      timeoutMs: c.CAPTCHA_TIMEOUT_MS,
    },
  };
}

function mailConfig(c: z.output<typeof configSchema>): MailConfig {
  const publicUrl = c.PUBLIC_URL ?? `http://${c.HOST.includes(':') ? `[${c.HOST}]` : c.HOST}:${c.PORT}`;
  return {
    smtp: c.SMTP_URL ? { url: c.SMTP_URL, requireTls: c.SMTP_REQUIRE_TLS === '1' } : undefined,
    from: c.MAIL_FROM ?? `formloom <notifications@${new URL(publicUrl).hostname.replace(/^\[|\]$/g, '')}>`,
    retryDelaysMs: c.MAIL_RETRY_SCHEDULE ?? c.WEBHOOK_RETRY_SCHEDULE,
    publicUrl,
  };
}
