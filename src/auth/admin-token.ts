/**
 * The admin token and the secrets every node of a deployment shares.
 *
 * The admin token is `ADMIN_TOKEN`, or one generated on first start and kept in the data dir (mode
 * 0600): that file is the generated token's only home. The database never holds the token: on
 * PostgreSQL (several nodes) it holds the token's SHA-256 hash, which is how the other nodes check it.
 * A 256-bit random token needs no slow hash: its hash can't be inverted, only the token can be guessed.
 *
 * The signing keys (respondents' cookies and tokens, file URLs; src/auth/signing-keys.ts) and the key
 * that encrypts environment secrets live in `instance_secrets`, created once by whichever node starts
 * first. All are random, independent of the admin token (changing ADMIN_TOKEN signs nobody out).
 *
 * Upgrading an install whose database holds the token in clear (`admin-token`, as earlier releases
 * kept it on PostgreSQL): the start-up replaces it by its hash in one transaction, after copying the
 * token into this node's data dir if it has no copy yet. The same token keeps working everywhere.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Database, DatabaseHandle } from '../db/client.ts';
import { instanceSecrets } from '../db/schema.ts';
import { SecretBox } from './secret-box.ts';
import { deriveSecret } from './secrets.ts';
import { COOKIE_KEY, DEFAULT_SIGNING_KEY_GRACE_MS, ensureRandomSigningKeys, FILE_URL_KEY, randomKey, SigningKeyring } from './signing-keys.ts';

export const adminTokenFile = (dataDir: string) => join(dataDir, 'admin-token');

const newAdminToken = () => `fladm_${randomBytes(32).toString('base64url')}`;

const sha256 = (value: string) => createHash('sha256').update(value).digest();

/** Checks a presented admin token (in constant time), knowing the token or only its hash. */
export class AdminCredential {
  private constructor(private readonly hash: Buffer) {}
  static ofToken(token: string): AdminCredential {
    return new AdminCredential(sha256(token));
  }
  static ofHash(hexHash: string): AdminCredential {
    return new AdminCredential(Buffer.from(hexHash, 'hex'));
  }
  matches(presented: string): boolean {
    const hash = sha256(presented);
    return hash.length === this.hash.length && timingSafeEqual(hash, this.hash);
  }
}

/** What a node needs of the instance's secrets: checking the admin token, signing, encrypting. */
export interface InstanceSecrets {
  admin: AdminCredential;
  /** Sign respondents' session cookies and visitor tokens (`cookies`) and expiring file URLs (`fileUrls`). */
  signing: SigningKeyring;
  /** Encrypts environment secrets (captcha secret keys) at rest. */
  secretBox: SecretBox;
}

const ENVIRONMENT_SECRETS_KEY = 'environment-secrets-key';
/** Rows of earlier releases: the generated admin token in clear (replaced by its hash). */
const LEGACY_ADMIN_TOKEN = 'admin-token';
const ADMIN_TOKEN_HASH = 'admin-token-sha256';

/** Every secret derived from one token: for tests and benchmarks, which have no start-up (never a running server's keys). */
export function instanceSecretsOf(adminToken: string): InstanceSecrets {
  return {
    admin: AdminCredential.ofToken(adminToken),
    signing: SigningKeyring.fixed(deriveSecret(adminToken, COOKIE_KEY), deriveSecret(adminToken, FILE_URL_KEY)),
    secretBox: new SecretBox(Buffer.from(deriveSecret(adminToken, ENVIRONMENT_SECRETS_KEY), 'base64url')),
  };
}

/** The token a CLI on this machine should use when none is given: the one in the data dir, if any. */
export function readAdminTokenFile(dataDir: string): string | undefined {
  const file = adminTokenFile(dataDir);
  return existsSync(file) ? readFileSync(file, 'utf8').trim() || undefined : undefined;
}

function writeAdminTokenFile(dataDir: string, token: string) {
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(adminTokenFile(dataDir), `${token}\n`, { mode: 0o600 });
  chmodSync(adminTokenFile(dataDir), 0o600);
}

export interface ResolvedAdminToken {
  /** The token, when this node knows it (ADMIN_TOKEN, or the data dir's copy); only its hash otherwise. */
  token: string | undefined;
  /** True when this start created the token (it is printed once, then). */
  generated: boolean;
}

export interface StartedSecrets {
  adminToken: ResolvedAdminToken;
  secrets: InstanceSecrets;
}

/**
 * The admin token and the shared secrets of this node. Call it inside `runSerially` (src/bootstrap.ts):
 * two first starts must not store two tokens or two sets of keys.
 */
export async function resolveInstanceSecrets(
  config: { adminToken: string | undefined; dataDir: string; signingKeyGraceMs?: number },
  database: Pick<DatabaseHandle, 'kind' | 'db'>,
  logger?: Pick<Logger, 'warn'>,
): Promise<StartedSecrets> {
  const { db } = database;
  const stored = await readSecrets(db, [LEGACY_ADMIN_TOKEN, ADMIN_TOKEN_HASH]);
  const legacyToken = stored.get(LEGACY_ADMIN_TOKEN);
  let storedHash = stored.get(ADMIN_TOKEN_HASH);
  const fileToken = readAdminTokenFile(config.dataDir);

  // Which token this node accepts.
  let credential: AdminCredential;
  let adminToken: ResolvedAdminToken;
  if (legacyToken !== undefined && storedHash === undefined) storedHash = sha256(legacyToken).toString('hex');
  if (config.adminToken) {
    credential = AdminCredential.ofToken(config.adminToken);
    adminToken = { token: config.adminToken, generated: false };
  } else if (database.kind === 'pglite') {
    // One process owns the database: the data dir's file is the token, as it always was.
    const token = fileToken ?? newAdminToken();
    if (!fileToken) {
      mkdirSync(config.dataDir, { recursive: true });
      writeFileSync(adminTokenFile(config.dataDir), `${token}\n`, { mode: 0o600, flag: 'wx' });
    }
    credential = AdminCredential.ofToken(token);
    adminToken = { token, generated: !fileToken };
  } else if (storedHash !== undefined) {
    credential = AdminCredential.ofHash(storedHash);
    const known = legacyToken !== undefined && credential.matches(legacyToken) ? legacyToken : fileToken !== undefined && credential.matches(fileToken) ? fileToken : undefined;
    // The token's home is the data dir: an upgraded node keeps (or gets) its copy there.
    if (known !== undefined && known !== fileToken) writeAdminTokenFile(config.dataDir, known);
    if (fileToken !== undefined && known === undefined) logger?.warn('the admin token in the data dir is not this database’s; it is not accepted (ADMIN_TOKEN sets one)');
    adminToken = { token: known, generated: false };
  } else {
    // First start on this PostgreSQL: a data dir's existing token is kept, else one is made.
    const token = fileToken ?? newAdminToken();
    if (!fileToken) writeAdminTokenFile(config.dataDir, token);
    storedHash = sha256(token).toString('hex');
    credential = AdminCredential.ofToken(token);
    adminToken = { token, generated: !fileToken };
  }

  const values = await db.transaction(async (tx) => {
    await ensureRandomSigningKeys(tx, adminToken.generated ? undefined : adminToken.token);
    const wanted = new Map<string, string>([[ENVIRONMENT_SECRETS_KEY, randomKey()]]);
    // The hash is stored on PostgreSQL only, where other nodes need it (PGlite has one node and its file).
    if (database.kind === 'postgres' && storedHash !== undefined) wanted.set(ADMIN_TOKEN_HASH, storedHash);
    await tx
      .insert(instanceSecrets)
      .values([...wanted].map(([name, value]) => ({ name, value })))
      .onConflictDoNothing();
    if (legacyToken !== undefined) {
      const hash = (await readSecrets(tx, [ADMIN_TOKEN_HASH])).get(ADMIN_TOKEN_HASH);
      if (database.kind === 'postgres' && (hash === undefined || !AdminCredential.ofHash(hash).matches(legacyToken))) {
        logger?.warn('a clear admin token in instance_secrets did not match the stored hash (written by an older node?): removed, not accepted');
      }
      await tx.delete(instanceSecrets).where(eq(instanceSecrets.name, LEGACY_ADMIN_TOKEN));
    }
    return readSecrets(tx, [ENVIRONMENT_SECRETS_KEY]);
  });
  const signing = await SigningKeyring.load(db, config.signingKeyGraceMs ?? DEFAULT_SIGNING_KEY_GRACE_MS);
  return {
    adminToken,
    secrets: {
      admin: credential,
      signing,
      secretBox: new SecretBox(Buffer.from(values.get(ENVIRONMENT_SECRETS_KEY)!, 'base64url')),
    },
  };
}

async function readSecrets(db: Database, names: string[]): Promise<Map<string, string>> {
  const rows = await db.select({ name: instanceSecrets.name, value: instanceSecrets.value }).from(instanceSecrets).where(inArray(instanceSecrets.name, names));
  return new Map(rows.map((row) => [row.name, row.value]));
}
