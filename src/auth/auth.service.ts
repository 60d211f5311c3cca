/**
 * API keys and the admin token. Keys are `fl_<id>_<secret>`: `id` is the key's public prefix and its
 * primary key, the 256-bit secret is stored only as a SHA-256 hash and compared in constant time.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, gt, inArray, isNull, or } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { apiKeys, environments, forms } from '../db/schema.ts';
import { publishEvent } from '../events/notifications.ts';
import { AppError, forbidden, invalidCredentials, invalidInput, missingCredentials, MissingScopeError, notFound, type FieldError } from '../errors.ts';
import { isEnvironmentScope, isScope, SCOPES, type Scope } from './scopes.ts';

/** Who is calling. Resolved once per request from its headers. */
export type Principal =
  | { kind: 'admin' }
  | ({ kind: 'apiKey'; keyId: string; environmentId: string } & KeyGrant)
  /** No usable credentials; `offered` tells a missing credential from a wrong one. */
  | { kind: 'anonymous'; offered: boolean };

/** What a key may do: its scopes (null: all), its forms (null: every form of its environment) and until when (null: no end). */
export interface KeyGrant {
  scopes: readonly Scope[] | null;
  expiresAt: Date | null;
  formIds: readonly string[] | null;
}

/** Most forms a key may be limited to. */
export const MAX_KEY_FORMS = 100;

/**
 * The scopes a key may use: its own (every scope when made without), less the environment-wide ones
 * (ENVIRONMENT_SCOPES) for a key limited to forms, even one given them before this rule.
 */
export function usableScopes(grant: Pick<KeyGrant, 'formIds'> & { scopes: readonly string[] | null }): Scope[] {
  return SCOPES.filter((scope) => (grant.scopes === null || grant.scopes.includes(scope)) && (grant.formIds === null || !isEnvironmentScope(scope)));
}

/** Whether the caller holds `scope`: the admin token and unscoped keys hold every scope; a key limited to forms no environment-wide one. */
export function hasScope(principal: Principal, scope: Scope): boolean {
  if (principal.kind === 'admin') return true;
  if (principal.kind === 'anonymous') return false;
  if (principal.formIds !== null && isEnvironmentScope(scope)) return false;
  return principal.scopes === null || principal.scopes.includes(scope);
}

/** Throws unless the caller is authenticated and holds `scope` (UNAUTHENTICATED first, then FORBIDDEN). */
export function requireScope(principal: Principal, scope: Scope): void {
  if (principal.kind === 'anonymous') throw principal.offered ? invalidCredentials() : missingCredentials();
  if (!hasScope(principal, scope)) throw new MissingScopeError(scope);
}

const KEY_PATTERN = /^fl_([a-z0-9]{12})_([\w-]{43})$/;
const KEY_ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

const sha256 = (value: string) => createHash('sha256').update(value).digest();

/** What checks a presented admin token (src/auth/admin-token.ts: from the token, or only its hash). */
export interface AdminTokenCheck {
  matches(presented: string): boolean;
}

function randomKeyId(): string {
  const bytes = randomBytes(12);
  return Array.from(bytes, (b) => KEY_ID_ALPHABET[b % KEY_ID_ALPHABET.length]).join('');
}

export interface CreatedApiKey extends KeyGrant {
  id: string;
  environmentId: string;
  name: string;
  createdAt: Date;
  /** The full key. Returned once, never stored. */
  key: string;
}

/** What a new key asks for; a field left out is its creator's (a key's own grant; the admin token: everything). */
export interface KeyRequest {
  scopes?: readonly string[] | undefined;
  expiresAt?: Date | undefined;
  formIds?: readonly string[] | undefined;
}

/**
 * The grant of a key `creator` makes: at most the creator's scopes and lifetime. Problems are reported
 * at the request's field names (`scopes`, `expiresAt`).
 */
export function grantFor(creator: Principal, request: KeyRequest, now = new Date()): KeyGrant {
  const own: KeyGrant = creator.kind === 'apiKey' ? creator : { scopes: null, expiresAt: null, formIds: null };
  const problems: FieldError[] = formProblems(own, request.formIds);
  const formIds = request.formIds ? [...new Set(request.formIds)] : own.formIds;
  // A key limited to forms is refused an environment-wide scope whoever asks (environmentScopeProblems).
  const refusedEverywhere = (scope: Scope) => formIds !== null && isEnvironmentScope(scope);
  request.scopes?.forEach((scope, index) => {
    if (!isScope(scope)) problems.push({ message: `Unknown scope "${scope}"; one of ${SCOPES.join(', ')}`, path: ['scopes', index] });
    else if (own.scopes !== null && !own.scopes.includes(scope) && !refusedEverywhere(scope))
      problems.push({ message: `A key can grant only its own scopes; it lacks ${scope}`, path: ['scopes', index] });
  });
  if (request.scopes?.length === 0) problems.push({ message: "At least one scope (leave scopes out for the creator's)", path: ['scopes'] });
  if (formIds !== null) problems.push(...environmentScopeProblems(request.scopes));
  const { expiresAt } = request;
  if (expiresAt && expiresAt.getTime() <= now.getTime()) problems.push({ message: 'Must be in the future', path: ['expiresAt'] });
  if (expiresAt && own.expiresAt && expiresAt > own.expiresAt)
    problems.push({ message: `A key can grant no later expiry than its own, ${own.expiresAt.toISOString()}`, path: ['expiresAt'] });
  if (problems.length > 0) throw invalidInput(problems, 'Invalid arguments');
  const chosen = request.scopes ?? own.scopes;
  return { scopes: storedScopes(chosen, formIds), expiresAt: expiresAt ?? own.expiresAt, formIds };
}

/** The environment-wide scopes (ENVIRONMENT_SCOPES) among those asked for a key limited to forms, each at its place. */
function environmentScopeProblems(scopes: readonly string[] | null | undefined): FieldError[] {
  return (scopes ?? []).flatMap((scope, index) =>
    isScope(scope) && isEnvironmentScope(scope) ? [{ message: `A key limited to forms cannot hold ${scope}, which acts on the whole environment`, path: ['scopes', index] }] : [],
  );
}

/**
 * The scopes stored for a new key, in SCOPES' order: null (every scope) for a key made without scopes and
 * not limited to forms; a key limited to forms gets those it asked for (or every scope) less the environment-wide ones.
 */
function storedScopes(scopes: readonly string[] | null | undefined, formIds: readonly string[] | null | undefined): Scope[] | null {
  if (!formIds && !scopes) return null;
  return usableScopes({ scopes: scopes ?? null, formIds: formIds ?? null });
}

/** What is wrong with the forms a new key asks for: too many, none, or one its creator is not limited to. */
function formProblems(own: KeyGrant, formIds: readonly string[] | undefined): FieldError[] {
  if (formIds === undefined) return [];
  if (formIds.length === 0) return [{ message: "At least one form (leave formIds out for the creator's)", path: ['formIds'] }];
  if (formIds.length > MAX_KEY_FORMS) return [{ message: `At most ${MAX_KEY_FORMS} forms`, path: ['formIds'] }];
  const problems: FieldError[] = [];
  formIds.forEach((formId, index) => {
    if (own.formIds !== null && !own.formIds.includes(formId))
      problems.push({ message: 'A key can grant only its own forms; it is not limited to this one', path: ['formIds', index] });
  });
  return problems;
}

/**
 * A new key of an environment; a grant left out is full access (every scope and form, no expiry).
 * Each of `formIds` must be a live form of the environment (a problem at `formIds[i]`).
 */
export async function createApiKey(db: Db, input: { environmentId: string; name?: string | undefined } & Partial<KeyGrant>): Promise<CreatedApiKey> {
  const [environment] = await db.select({ id: environments.id }).from(environments).where(eq(environments.id, input.environmentId));
  if (!environment) throw notFound('Environment not found');
  if (input.formIds) {
    const problems = environmentScopeProblems(input.scopes);
    if (problems.length > 0) throw invalidInput(problems, 'Invalid arguments');
    await requireLiveForms(db, input.environmentId, input.formIds);
  }
  const id = randomKeyId();
  const secret = randomBytes(32).toString('base64url');
  const [row] = await db
    .insert(apiKeys)
    .values({
      id,
      environmentId: input.environmentId,
      name: input.name ?? 'API key',
      secretHash: sha256(secret).toString('hex'),
      scopes: storedScopes(input.scopes, input.formIds),
      expiresAt: input.expiresAt ?? null,
      formIds: input.formIds ? [...new Set(input.formIds)] : null,
    })
    .returning();
  return { id, environmentId: row!.environmentId, name: row!.name, createdAt: row!.createdAt, ...grantOf(row!), key: `fl_${id}_${secret}` };
}

async function requireLiveForms(db: Db, environmentId: string, formIds: readonly string[]) {
  const rows = await db
    .select({ id: forms.id })
    .from(forms)
    .where(and(eq(forms.environmentId, environmentId), isNull(forms.deletedAt), inArray(forms.id, [...formIds])));
  const live = new Set(rows.map((row) => row.id));
  const problems = formIds.flatMap((id, index) => (live.has(id) ? [] : [{ message: 'No form with this id in the environment', path: ['formIds', index] }]));
  if (problems.length > 0) throw invalidInput(problems, 'Invalid arguments');
}

function grantOf(row: { scopes: string[] | null; expiresAt: Date | null; formIds: string[] | null }): KeyGrant {
  return { scopes: row.scopes === null ? null : row.scopes.filter(isScope), expiresAt: row.expiresAt, formIds: row.formIds };
}

/** The environment of key `id`, revoked or not; undefined when there is no such key. */
export async function apiKeyEnvironment(db: Db, id: string): Promise<string | undefined> {
  const [row] = await db.select({ environmentId: apiKeys.environmentId }).from(apiKeys).where(eq(apiKeys.id, id));
  return row?.environmentId;
}

export async function revokeApiKey(db: Db, id: string) {
  forgetVerifiedKey(id);
  const row = await db.transaction(async (tx) => {
    const [revoked] = await tx
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
      .returning();
    // Every node drops its cached verification when this commits (src/events/notifications.ts).
    if (revoked) await publishEvent(tx, { type: 'api-key-revoked', keyId: id });
    return revoked;
  });
  // Again once the row says revoked: a verification that read it just before must not stay cached.
  forgetVerifiedKey(id);
  if (row) return row;
  const [existing] = await db.select().from(apiKeys).where(eq(apiKeys.id, id));
  if (!existing) throw notFound('API key not found');
  return existing; // already revoked: revoking is idempotent
}

/**
 * Keys verified recently, so a busy client costs no database round trip per request (profiling the
 * responses listing showed key verification at about a fifth of the REST path's CPU, plus a query).
 * An entry holds the key's stored hash and environment; each request still hashes the presented
 * secret and compares it in constant time. Revoking evicts the entry at once in this process, and in
 * every other process sharing the database through the 'api-key-revoked' event (the app wires its
 * event feed to `forgetVerifiedKey`, and bypasses the cache while the feed is not live). A revocation
 * no event reports (an UPDATE in SQL; a feed connection that dropped unnoticed) takes effect here
 * within `VERIFIED_KEY_TTL_MS`. Entries are per database handle, so two apps in one process never share them.
 */
export const VERIFIED_KEY_TTL_MS = 10_000;
/** How stale `lastUsedAt` may get before a verification writes it again. */
const LAST_USED_RESOLUTION_MS = 60_000;
const VERIFIED_KEY_CACHE_MAX = 10_000;
interface VerifiedKey {
  db: Db;
  environmentId: string;
  grant: KeyGrant;
  secretHash: Buffer;
  /** When this cache entry goes stale (not the key's own expiry, which is in `grant`). */
  staleAt: number;
}
const verifiedKeys = new Map<string, VerifiedKey>();
/** Bumped by every revocation: a lookup that raced one is not cached. */
let revocations = 0;

function rememberVerifiedKey(id: string, entry: VerifiedKey) {
  verifiedKeys.delete(id);
  if (verifiedKeys.size >= VERIFIED_KEY_CACHE_MAX) verifiedKeys.delete(verifiedKeys.keys().next().value!);
  verifiedKeys.set(id, entry);
}

/** Which of `ids` are keys that exist, are not revoked and have not expired (the live feed ends the streams of the others). */
export async function activeApiKeyIds(db: Db, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(and(inArray(apiKeys.id, [...ids]), isNull(apiKeys.revokedAt), or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, new Date()))));
  return new Set(rows.map((row) => row.id));
}

/** Drops a key from the verified-key cache (revocation). */
export function forgetVerifiedKey(id: string): void {
  revocations++;
  verifiedKeys.delete(id);
}

/** Empties the verified-key cache (revocations may have been missed, e.g. while the event feed was down). */
export function forgetAllVerifiedKeys(): void {
  revocations++;
  verifiedKeys.clear();
}

export interface VerifyOptions {
  /** False: read the key's row and cache nothing (while revocations from other nodes can't be heard). */
  useCache?: boolean;
}

const expired = (grant: KeyGrant) => grant.expiresAt !== null && grant.expiresAt.getTime() <= Date.now();

/** The environment and grant of a key, or null for a malformed, unknown, revoked or expired key. */
export async function verifyApiKey(db: Db, key: string, options: VerifyOptions = {}): Promise<({ keyId: string; environmentId: string } & KeyGrant) | null> {
  const useCache = options.useCache ?? true;
  const match = KEY_PATTERN.exec(key);
  if (!match) return null;
  const [, id, secret] = match as unknown as [string, string, string];
  const cached = useCache ? verifiedKeys.get(id) : undefined;
  if (cached && cached.db === db && cached.staleAt > Date.now()) {
    if (expired(cached.grant)) return null;
    return timingSafeEqual(sha256(secret), cached.secretHash) ? { keyId: id, environmentId: cached.environmentId, ...cached.grant } : null;
  }
  const revocationsBefore = revocations;
  const [row] = await db
    .select({
      environmentId: apiKeys.environmentId,
      secretHash: apiKeys.secretHash,
      revokedAt: apiKeys.revokedAt,
      lastUsedAt: apiKeys.lastUsedAt,
      scopes: apiKeys.scopes,
      expiresAt: apiKeys.expiresAt,
      formIds: apiKeys.formIds,
    })
    .from(apiKeys)
    .where(eq(apiKeys.id, id));
  const grant = row && grantOf(row);
  if (!row || !grant || row.revokedAt || expired(grant)) {
    verifiedKeys.delete(id);
    return null;
  }
  const secretHash = Buffer.from(row.secretHash, 'hex');
  const ok = timingSafeEqual(sha256(secret), secretHash);
  if (!ok) return null;
  // lastUsedAt is approximate: written when a verification reads the row (at most every
  // VERIFIED_KEY_TTL_MS per process with the cache) and the stored value is over a minute old.
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    await db.update(apiKeys).set({ lastUsedAt: new Date() }).where(eq(apiKeys.id, id));
  }
  if (useCache && revocations === revocationsBefore)
    rememberVerifiedKey(id, { db, environmentId: row.environmentId, grant, secretHash, staleAt: Date.now() + VERIFIED_KEY_TTL_MS });
  return { keyId: id, environmentId: row.environmentId, ...grant };
}

/**
 * Resolves the caller from request headers: `x-api-key` for environment access,
 * `Authorization: Bearer <admin token>` for administration.
 */
export async function authenticate(
  db: Db,
  admin: AdminTokenCheck,
  headers: { apiKey?: string | null | undefined; authorization?: string | null | undefined },
  options: VerifyOptions = {},
): Promise<Principal> {
  const bearer = headers.authorization?.match(/^Bearer\s(.+)$/i)?.[1]?.trim();
  const apiKey = headers.apiKey?.trim() || undefined;
  if (bearer !== undefined && admin.matches(bearer)) return { kind: 'admin' };
  const candidate = apiKey ?? bearer;
  if (candidate === undefined) return { kind: 'anonymous', offered: false };
  const verified = await verifyApiKey(db, candidate, options);
  return verified ? { kind: 'apiKey', ...verified } : { kind: 'anonymous', offered: true };
}

/** Throws unless the caller may act in `environmentId` (its own API key, or the admin token). */
export function requireEnvironmentAccess(principal: Principal, environmentId: string): void {
  if (principal.kind === 'admin') return;
  if (principal.kind === 'anonymous') throw principal.offered ? invalidCredentials() : missingCredentials();
  if (principal.environmentId !== environmentId) throw forbidden();
}

/** The environment an API-key caller works in (admin callers must name one). */
export function requireApiKey(principal: Principal): { environmentId: string } {
  if (principal.kind === 'apiKey') return principal;
  if (principal.kind === 'anonymous') throw principal.offered ? invalidCredentials() : missingCredentials();
  throw new AppError('FORBIDDEN', 'This operation needs an environment API key');
}

/**
 * The environment a reader of the graph is confined to: its API key's, or null for the admin token
 * (every environment). Anonymous callers are refused. Every loader of a node or list filters by it.
 */
export function readScope(principal: Principal): string | null {
  if (principal.kind === 'admin') return null;
  return requireApiKey(principal).environmentId;
}

/**
 * The environment a caller acts in when an operation takes an optional `environmentId`: an API key's
 * own (naming another is FORBIDDEN), or the one the admin token names (required).
 */
export function actingEnvironment(principal: Principal, named: string | number | null | undefined): string {
  const environmentId = named === null || named === undefined ? undefined : String(named);
  if (principal.kind === 'admin') {
    if (environmentId === undefined) throw invalidInput([{ message: 'environmentId is required with the admin token', path: ['environmentId'] }], 'Invalid arguments');
    return environmentId;
  }
  const own = requireApiKey(principal).environmentId;
  if (environmentId !== undefined) requireEnvironmentAccess(principal, environmentId);
  return own;
}

/**
 * The environment a caller acts in on a row it names by id: an API key's own (the row is then looked up
 * in it), or for the admin token the row's (`lookup`), NOT_FOUND (`missing`) when there is no such row.
 */
export async function rowEnvironment(principal: Principal, lookup: () => Promise<string | undefined>, missing: string): Promise<string> {
  if (principal.kind !== 'admin') return requireApiKey(principal).environmentId;
  const environmentId = await lookup();
  if (!environmentId) throw notFound(missing);
  return environmentId;
}

export type ApiKeyRow = Omit<typeof apiKeys.$inferSelect, 'secretHash'>;
const publicKeyColumns = {
  id: apiKeys.id,
  environmentId: apiKeys.environmentId,
  name: apiKeys.name,
  createdAt: apiKeys.createdAt,
  revokedAt: apiKeys.revokedAt,
  lastUsedAt: apiKeys.lastUsedAt,
  scopes: apiKeys.scopes,
  expiresAt: apiKeys.expiresAt,
  formIds: apiKeys.formIds,
};

/** Keys (never their hashes) by id, in one statement; each a key of `scope` (null: any environment), else null. */
export async function loadApiKeys(db: Db, scope: string | null, ids: readonly string[]): Promise<(ApiKeyRow | null)[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select(publicKeyColumns)
    .from(apiKeys)
    .where(and(inArray(apiKeys.id, [...ids]), scope === null ? undefined : eq(apiKeys.environmentId, scope)));
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id) ?? null);
}

/** An environment's keys, revoked ones included, newest first. */
export async function listApiKeys(db: Db, environmentId: string): Promise<ApiKeyRow[]> {
  return db.select(publicKeyColumns).from(apiKeys).where(eq(apiKeys.environmentId, environmentId)).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
}

export function requireAdmin(principal: Principal): void {
  if (principal.kind === 'admin') return;
  if (principal.kind === 'anonymous' && !principal.offered) throw new AppError('UNAUTHENTICATED', 'Missing admin token');
  if (principal.kind === 'anonymous') throw new AppError('UNAUTHENTICATED', 'Invalid admin token');
  throw new AppError('FORBIDDEN', 'This operation needs the admin token');
}
