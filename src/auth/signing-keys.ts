/**
 * The signing keys every node shares: respondents' cookies and tokens (`public-cookies`) and expiring
 * file URLs (`file-urls`). Each is 256 random bits in `instance_secrets`, independent of the admin token.
 *
 * Rotation (`formloom secrets rotate`, the `rotateSigningKeys` mutation) stores a new random key and
 * keeps the one it replaces as `<name>:previous`, accepted (never used to sign) for the grace period
 * after the rotation (SIGNING_KEY_GRACE_HOURS, 24 h by default). Nodes read the keys again at most
 * `KEYRING_MAX_AGE_MS` after their last read, so every node signs with the new key within that time;
 * until then the others accept what it signs because they accept the previous key.
 *
 * Earlier releases derived these keys from the admin token. A start that finds such keys (no
 * `signing-keys-random` row) rotates them once: the derived key becomes the previous one, accepted for
 * the grace period, so cookies and file URLs issued before the upgrade keep working that long. A first
 * start with a token it did not generate (ADMIN_TOKEN, the data dir's file) keeps that token's derived
 * keys as the previous ones likewise: releases that did not store the keys derived them at every start.
 */
import { randomBytes } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { instanceSecrets } from '../db/schema.ts';
import { deriveSecret } from './secrets.ts';

export const COOKIE_KEY = 'public-cookies';
export const FILE_URL_KEY = 'file-urls';
const SIGNING_KEYS = [COOKIE_KEY, FILE_URL_KEY] as const;
/** Marks a database whose signing keys are random (not derived from the admin token). */
const RANDOM_KEYS_MARKER = 'signing-keys-random';
const previousName = (name: string) => `${name}:previous`;

/** How long a node signs and verifies with the keys it read before reading them again. */
export const KEYRING_MAX_AGE_MS = 30_000;

/** SIGNING_KEY_GRACE_HOURS's default (src/config.ts). */
export const DEFAULT_SIGNING_KEY_GRACE_MS = 24 * 3_600_000;

export const randomKey = (): string => randomBytes(32).toString('base64url');

/** One purpose's keys: the current one signs; it and (within its grace period) the previous one verify. */
export class SigningKeys {
  constructor(
    public current: string,
    public previous?: { key: string; acceptedUntil: number },
  ) {}

  /** The keys a signature may have been made with at `now`, current first. */
  accepted(now = Date.now()): string[] {
    return this.previous && now < this.previous.acceptedUntil ? [this.current, this.previous.key] : [this.current];
  }

  /** The first answer of `check` that is not undefined, trying each accepted key. */
  verify<T>(check: (key: string) => T | undefined, now = Date.now()): T | undefined {
    for (const key of this.accepted(now)) {
      const result = check(key);
      if (result !== undefined) return result;
    }
    return undefined;
  }
}

/** The node's signing keys, read again from the database when they are older than `maxAgeMs`. */
export class SigningKeyring {
  private readAt: number;
  private reading: Promise<void> | undefined;

  constructor(
    readonly cookies: SigningKeys,
    readonly fileUrls: SigningKeys,
    private readonly source?: { db: Database; graceMs: number; maxAgeMs?: number },
  ) {
    this.readAt = Date.now();
  }

  /** Fixed keys (tests and benchmarks, which have no database start-up). */
  static fixed(cookieKey: string, fileUrlKey: string): SigningKeyring {
    return new SigningKeyring(new SigningKeys(cookieKey), new SigningKeys(fileUrlKey));
  }

  static async load(db: Database, graceMs: number, maxAgeMs = KEYRING_MAX_AGE_MS): Promise<SigningKeyring> {
    const keyring = new SigningKeyring(new SigningKeys(''), new SigningKeys(''), { db, graceMs, maxAgeMs });
    await keyring.refresh();
    return keyring;
  }

  get graceMs(): number | undefined {
    return this.source?.graceMs;
  }

  /** Reads the keys again when the last read is older than the keyring's maximum age. */
  async refreshIfStale(now = Date.now()): Promise<void> {
    if (!this.source || now - this.readAt < (this.source.maxAgeMs ?? KEYRING_MAX_AGE_MS)) return;
    await this.refresh();
  }

  async refresh(): Promise<void> {
    if (!this.source) return;
    this.reading ??= this.read(this.source).finally(() => (this.reading = undefined));
    await this.reading;
  }

  private async read(source: { db: Database; graceMs: number }) {
    const names = SIGNING_KEYS.flatMap((name) => [name, previousName(name)]);
    const rows = await source.db.select().from(instanceSecrets).where(inArray(instanceSecrets.name, names));
    const byName = new Map(rows.map((row) => [row.name, row]));
    for (const [name, keys] of [
      [COOKIE_KEY, this.cookies],
      [FILE_URL_KEY, this.fileUrls],
    ] as const) {
      const current = byName.get(name);
      if (!current) throw new Error(`instance_secrets has no ${name} key (the start-up creates it)`);
      const previous = byName.get(previousName(name));
      keys.current = current.value;
      keys.previous = previous && { key: previous.value, acceptedUntil: previous.createdAt.getTime() + source.graceMs };
    }
    this.readAt = Date.now();
  }
}

/**
 * Creates the signing keys on a new database, or replaces keys of an earlier release (derived from the
 * admin token) by random ones, the derived ones kept as previous keys. Runs in the start-up transaction.
 */
export async function ensureRandomSigningKeys(tx: Database, earlierToken: string | undefined): Promise<void> {
  const rows = await tx
    .select({ name: instanceSecrets.name })
    .from(instanceSecrets)
    .where(inArray(instanceSecrets.name, [...SIGNING_KEYS, RANDOM_KEYS_MARKER]));
  const present = new Set(rows.map((row) => row.name));
  if (present.has(RANDOM_KEYS_MARKER)) return;
  if (SIGNING_KEYS.some((name) => present.has(name))) await rotateKeys(tx, new Date());
  else {
    // Releases before the keys were stored derived them from the token at every start.
    const earlier = earlierToken === undefined ? [] : SIGNING_KEYS.map((name) => ({ name: previousName(name), value: deriveSecret(earlierToken, name) }));
    await tx.insert(instanceSecrets).values([...SIGNING_KEYS.map((name) => ({ name, value: randomKey() })), ...earlier]);
  }
  await tx.insert(instanceSecrets).values({ name: RANDOM_KEYS_MARKER, value: 'true' });
}

export interface SigningKeyRotation {
  rotatedAt: Date;
}

/** Replaces every signing key by a new random one; the replaced keys become the previous ones (their grace period starts now). */
export async function rotateSigningKeys(db: Database, now = new Date()): Promise<SigningKeyRotation> {
  await db.transaction((tx) => rotateKeys(tx, now));
  return { rotatedAt: now };
}

async function rotateKeys(tx: Database, now: Date) {
  for (const name of SIGNING_KEYS) {
    const [current] = await tx.select({ value: instanceSecrets.value }).from(instanceSecrets).where(eq(instanceSecrets.name, name)).for('update');
    const fresh = randomKey();
    if (current) {
      await tx.delete(instanceSecrets).where(eq(instanceSecrets.name, previousName(name)));
      await tx.insert(instanceSecrets).values({ name: previousName(name), value: current.value, createdAt: now });
      await tx.update(instanceSecrets).set({ value: fresh, createdAt: now }).where(eq(instanceSecrets.name, name));
    } else {
      await tx.insert(instanceSecrets).values({ name, value: fresh, createdAt: now });
    }
  }
}
