/**
 * Idempotency keys with Stripe's semantics: within IDEMPOTENCY_TTL_MS, a request that repeats a key in
 * the same scope with the same request gets the first result again; with another request it is refused
 * (UNPROCESSABLE, 422). A request that fails stores nothing that counts: its retry runs again.
 *
 * Concurrency: the claim is an `INSERT … ON CONFLICT (scope, key)`. On PostgreSQL a second claim of a key
 * whose first claim is still uncommitted waits on the primary key until that transaction ends, then
 * sees its row (and result). Callers that claim inside the transaction that does the work therefore
 * make two concurrent requests do the work once; PGlite runs one transaction at a time anyway.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, lte, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { idempotencyKeys } from '../db/schema.ts';
import { AppError, invalidInput } from '../errors.ts';

/** How long a key is remembered. */
const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/** What a key may be: 1 to 255 visible ASCII characters (a UUID, say). */
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** The `Idempotency-Key` header's value checked; undefined when absent. Throws BAD_USER_INPUT when malformed. */
export function parseIdempotencyKey(value: string | undefined | null, minLength = 1): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (!KEY_PATTERN.test(value) || value.length < minLength) {
    throw invalidInput(
      [{ message: `Idempotency-Key must be ${minLength} to 255 visible ASCII characters (a random UUID, say)`, path: ['Idempotency-Key'] }],
      'Invalid Idempotency-Key header',
    );
  }
  return value;
}

/** JSON with object keys sorted, so equal requests hash equally whatever their key order. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

/** SHA-256 of a request's meaning (its parsed body and target). */
export function requestHash(request: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(canonical(request)))
    .digest('base64url');
}

/** A claim, with its random `nonce` (null: a claim stored before claims had one). */
export type Claim = { state: 'new'; nonce: string } | { state: 'repeat'; result: Record<string, unknown> | null; nonce: string | null };

const keyReusedError = () => new AppError('UNPROCESSABLE', 'This Idempotency-Key was already used with a different request; use a new key for a new request');

/**
 * Claims `key` in `scope` for a request hashing to `hash`: `new` when it was free (or its earlier use
 * expired), `repeat` with the stored result when the same request came before. Throws UNPROCESSABLE
 * when the key came with another request.
 */
export async function claimIdempotencyKey(db: Db, scope: string, key: string, hash: string, now = new Date()): Promise<Claim> {
  const expiresAt = new Date(now.getTime() + IDEMPOTENCY_TTL_MS);
  // An expired claim is replaced whole, its nonce too: nothing of the old request carries over.
  const nonce = randomBytes(18).toString('base64url');
  const claimed = await db
    .insert(idempotencyKeys)
    .values({ scope, key, requestHash: hash, nonce, createdAt: now, expiresAt })
    .onConflictDoUpdate({
      target: [idempotencyKeys.scope, idempotencyKeys.key],
      set: { requestHash: hash, result: null, nonce, createdAt: now, expiresAt },
      setWhere: lte(idempotencyKeys.expiresAt, sql`${now.toISOString()}::timestamptz`),
    })
    .returning({ scope: idempotencyKeys.scope });
  if (claimed.length > 0) return { state: 'new', nonce };
  const row = await liveClaim(db, scope, key, now);
  if (!row) throw new AppError('CONFLICT', 'A request with this Idempotency-Key is in progress; retry it');
  if (row.requestHash !== hash) throw keyReusedError();
  return { state: 'repeat', result: row.result, nonce: row.nonce };
}

async function liveClaim(db: Db, scope: string, key: string, now: Date) {
  const [row] = await db
    .select({ requestHash: idempotencyKeys.requestHash, result: idempotencyKeys.result, nonce: idempotencyKeys.nonce, expiresAt: idempotencyKeys.expiresAt })
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)));
  return row && row.expiresAt > now ? row : undefined;
}

/** The nonce of `key`'s claim in `scope` while it has not expired, without claiming it (undefined: none; null: a claim without one). */
export async function idempotencyClaimNonce(db: Db, scope: string, key: string, now = new Date()): Promise<string | null | undefined> {
  return (await liveClaim(db, scope, key, now))?.nonce;
}

/** Records the result a repeat of the key gets. */
export async function storeIdempotentResult(db: Db, scope: string, key: string, result: Record<string, unknown>): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ result })
    .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)));
}

/** Deletes expired keys (run now and then; an expired key is also replaced when claimed again). */
export async function deleteExpiredIdempotencyKeys(db: Db, now = new Date()): Promise<number> {
  const deleted = await db
    .delete(idempotencyKeys)
    .where(lte(idempotencyKeys.expiresAt, sql`${now.toISOString()}::timestamptz`))
    .returning({ key: idempotencyKeys.key });
  return deleted.length;
}
