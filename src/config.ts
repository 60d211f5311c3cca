/**
 * The only reader of process.env. Every setting is validated here; a bad value stops start-up with
 * one message that names every bad variable.
 */
import { z } from 'zod';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  DATA_DIR: z.string().min(1).default('./.data'),
  ADMIN_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  /** Largest accepted request body, in bytes. */
  MAX_BODY_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
  /** Proxies in front of the service whose X-Forwarded-For entries are trusted (0: use the socket address). */
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  /** Request header carrying the respondent's country code (empty when absent). */
  COUNTRY_HEADER: z.string().regex(/^[A-Za-z0-9-]+$/, 'must be a header name').default('cf-ipcountry'),
  /** Minutes after which an untouched unfinished response counts as dropped off (status 3). */
  DROP_OFF_MINUTES: z.coerce.number().positive().default(30),
  /** Public submissions (pages and the public JSON API) allowed per IP per minute. */
  PUBLIC_RATE_LIMIT: z.coerce.number().int().min(1).default(120),
  /** Largest public submission body, in bytes. */
  PUBLIC_MAX_BODY_BYTES: z.coerce.number().int().min(1024).default(65_536),
  /** Stylesheet service (Google Fonts css2 API) that serves the theme fonts on public pages; `none`: locally installed fonts only. */
  FONTS_CSS_URL: z
    .string()
    .refine((value) => value === 'none' || /^https?:\/\/[^\s?#]+$/.test(value), 'must be an http(s) URL without query, or "none"')
    .default('https://fonts.googleapis.com/css2'),
});

export interface Config {
  port: number;
  host: string;
  /** PostgreSQL through postgres.js when set; embedded PGlite in `dataDir` otherwise. */
  databaseUrl: string | undefined;
  dataDir: string;
  adminToken: string | undefined;
  logLevel: (typeof LOG_LEVELS)[number];
  maxBodyBytes: number;
  trustProxy: number;
  countryHeader: string;
  dropOffMs: number;
  publicRateLimitPerMinute: number;
  publicMaxBodyBytes: number;
  /** Theme font stylesheet service for public pages; undefined: no external font loading. */
  fontsCssUrl: string | undefined;
}

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
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message} (got ${JSON.stringify(present[String(issue.path[0])])})`),
    );
  }
  const c = parsed.data;
  return {
    port: c.PORT,
    host: c.HOST,
    databaseUrl: c.DATABASE_URL,
    dataDir: c.DATA_DIR,
    adminToken: c.ADMIN_TOKEN,
    logLevel: c.LOG_LEVEL,
    maxBodyBytes: c.MAX_BODY_BYTES,
    trustProxy: c.TRUST_PROXY,
    countryHeader: c.COUNTRY_HEADER.toLowerCase(),
    dropOffMs: c.DROP_OFF_MINUTES * 60_000,
    publicRateLimitPerMinute: c.PUBLIC_RATE_LIMIT,
    publicMaxBodyBytes: c.PUBLIC_MAX_BODY_BYTES,
    fontsCssUrl: c.FONTS_CSS_URL === 'none' ? undefined : c.FONTS_CSS_URL,
  };
}
