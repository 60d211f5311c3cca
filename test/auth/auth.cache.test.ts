/**
 * The verified-API-key cache of `verifyApiKey` (src/auth/auth.service.ts): a key verified once is
 * trusted from memory for VERIFIED_KEY_TTL_MS, so a revocation made by another process (here: an
 * UPDATE straight in SQL, which this process's cache never hears of) takes effect within the TTL;
 * the presented secret is still checked against the cached hash; and entries are per database handle.
 */
import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { VERIFIED_KEY_TTL_MS, verifyApiKey } from '../../src/auth/auth.service.ts';
import type { Database } from '../../src/db/client.ts';
import { apiKeys } from '../../src/db/schema.ts';
import { createTenant, openTestDatabase, setupTestApp } from '../support/helpers.ts';

let db: Database;

beforeAll(async () => {
  ({ db } = await setupTestApp());
});

afterEach(() => {
  vi.useRealTimers();
});

/** Revokes a key as another process sharing the database would: without this process's cache knowing. */
const revokeInSql = (target: Database, keyId: string) => target.execute(sql`update api_keys set revoked_at = now() where id = ${keyId}`);

/** The same key id with another (well-formed) secret. */
const withWrongSecret = (key: string) => key.replace(/_[\w-]{43}$/, `_${'A'.repeat(43)}`);

describe('verified-key cache', () => {
  it('accepts a key revoked elsewhere until VERIFIED_KEY_TTL_MS has passed since it was verified, then refuses it', async () => {
    const tenant = await createTenant(db);
    vi.useFakeTimers({ toFake: ['Date'] });
    const granted = { keyId: tenant.apiKeyId, environmentId: tenant.environmentId, scopes: null, expiresAt: null, formIds: null };
    expect(await verifyApiKey(db, tenant.apiKey)).toEqual(granted);

    await revokeInSql(db, tenant.apiKeyId);
    expect(await verifyApiKey(db, tenant.apiKey)).toEqual(granted); // from the cache: the revocation is not seen yet
    vi.advanceTimersByTime(VERIFIED_KEY_TTL_MS - 1);
    expect(await verifyApiKey(db, tenant.apiKey)).toEqual(granted);

    vi.advanceTimersByTime(2); // past the TTL: looked up again, and the row says revoked
    expect(await verifyApiKey(db, tenant.apiKey)).toBeNull();
    vi.useRealTimers();
    expect(await verifyApiKey(db, tenant.apiKey)).toBeNull(); // and it stays refused
  });

  it('refuses a cached key presented with a wrong secret', async () => {
    const tenant = await createTenant(db);
    expect(await verifyApiKey(db, tenant.apiKey)).toEqual({ keyId: tenant.apiKeyId, environmentId: tenant.environmentId, scopes: null, expiresAt: null, formIds: null });
    // Revoked in SQL so that an answer can only come from the cache: the right secret still passes...
    await revokeInSql(db, tenant.apiKeyId);
    expect(await verifyApiKey(db, tenant.apiKey)).toEqual({ keyId: tenant.apiKeyId, environmentId: tenant.environmentId, scopes: null, expiresAt: null, formIds: null });
    // ...and a wrong one is compared against the cached hash and refused.
    const wrong = withWrongSecret(tenant.apiKey);
    expect(wrong).not.toBe(tenant.apiKey);
    expect(wrong.startsWith(`fl_${tenant.apiKeyId}_`)).toBe(true);
    expect(await verifyApiKey(db, wrong)).toBeNull();
    expect(await verifyApiKey(db, tenant.apiKey)).toEqual({ keyId: tenant.apiKeyId, environmentId: tenant.environmentId, scopes: null, expiresAt: null, formIds: null });
  });

  it('keeps entries per database handle: a key cached for one handle is not accepted through another', async () => {
    const other = await openTestDatabase();
    try {
      const tenant = await createTenant(db);
      expect(await verifyApiKey(db, tenant.apiKey)).toEqual({ keyId: tenant.apiKeyId, environmentId: tenant.environmentId, scopes: null, expiresAt: null, formIds: null });
      // The second handle's api_keys lacks the key: on PGlite it is a separate database anyway; on
      // PostgreSQL both handles reach one database, so the row is deleted (the first handle's entry stays cached).
      await db.execute(sql`delete from api_keys where id = ${tenant.apiKeyId}`);
      expect(await other.db.select().from(apiKeys).where(eq(apiKeys.id, tenant.apiKeyId))).toEqual([]);
      expect(await verifyApiKey(db, tenant.apiKey)).toEqual({ keyId: tenant.apiKeyId, environmentId: tenant.environmentId, scopes: null, expiresAt: null, formIds: null });
      // A cache shared between handles would answer this from the first handle's entry.
      expect(await verifyApiKey(other.db, tenant.apiKey)).toBeNull();
    } finally {
      await other.close();
    }
  });
});
