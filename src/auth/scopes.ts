/**
 * What an API key may do. A key holds a list of scopes (null: every scope, the keys made before scopes
 * existed and the admin token's unscoped keys) and may expire.
 */
export const SCOPES = ['forms:read', 'forms:write', 'responses:read', 'responses:delete', 'webhooks:manage', 'settings:manage', 'audit:read', 'keys:manage'] as const;
export type Scope = (typeof SCOPES)[number];

export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  'forms:read': 'Read forms: listings, definitions, versions, lineage.',
  'forms:write': 'Generate, import, update, close, reopen and delete forms, and set their retention.',
  'responses:read': 'Read responses and leads: listings, exports, summaries, the live feed, uploaded files.',
  'responses:delete': 'Delete responses (one, or by filter) and erase people.',
  'webhooks:manage': 'Read, create, change, test and delete webhook endpoints and their deliveries.',
  'settings:manage': "Read and change the environment's settings: privacy, captcha keys, embedding.",
  'audit:read': "Read the environment's audit log.",
  'keys:manage': "List the environment's API keys, create keys (with at most the creator's scopes and forms) and revoke them.",
};

/**
 * The scopes over the whole environment, which a key limited to forms can neither be given nor use: the
 * environment's settings (privacy, captcha and SMTP secrets, embedding) and its audit log (which names
 * every form). The others act on forms, responses, webhook endpoints or keys, each within the key's forms.
 */
export const ENVIRONMENT_SCOPES: readonly Scope[] = ['settings:manage', 'audit:read'];

export const isEnvironmentScope = (scope: Scope): boolean => ENVIRONMENT_SCOPES.includes(scope);

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** `responses:read` → `RESPONSES_READ`, the GraphQL enum's name of a scope. */
export function scopeEnumName(scope: Scope): string {
  return scope.replace(':', '_').toUpperCase();
}

/** `RESPONSES_READ` → `responses:read`; undefined for a name that is no scope's. */
export function scopeOfEnumName(name: string): Scope | undefined {
  return SCOPES.find((scope) => scopeEnumName(scope) === name);
}

const DURATION = /^(\d{1,9})([smhd])$/;
const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
/** The latest expiry a key may have (PostgreSQL and JavaScript both hold it). */
const LATEST_EXPIRY = Date.UTC(9999, 11, 31);

/**
 * When a key given `--expires VALUE` expires: a duration from `now` (`90s`, `15m`, `12h`, `30d`) or an
 * ISO 8601 instant with a time zone (`2027-01-31T00:00:00Z`). Undefined when `value` is neither.
 */
export function parseKeyExpiry(value: string, now = new Date()): Date | undefined {
  const duration = DURATION.exec(value);
  const at = duration ? now.getTime() + Number(duration[1]) * UNIT_MS[duration[2] as keyof typeof UNIT_MS] : isoInstant(value);
  return at !== undefined && Number.isFinite(at) && at <= LATEST_EXPIRY ? new Date(at) : undefined;
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/;
function isoInstant(value: string): number | undefined {
  return ISO_INSTANT.test(value) ? Date.parse(value) : undefined;
}

export const KEY_EXPIRY_FORMAT = 'a duration (90s, 15m, 12h, 30d) or an ISO 8601 instant with a time zone (2027-01-31T00:00:00Z)';
