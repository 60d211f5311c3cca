/** The admin token: `ADMIN_TOKEN`, or one generated on first start and kept in the data dir (mode 0600). */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { DatabaseHandle } from '../db/client.ts';
import { instanceSecrets } from '../db/schema.ts';

export const adminTokenFile = (dataDir: string) => join(dataDir, 'admin-token');

const newAdminToken = () => `fladm_${randomBytes(32).toString('base64url')}`;

export function resolveAdminToken(config: { adminToken: string | undefined; dataDir: string }): {
  token: string;
  /** True when this call created the token (it is printed once, then). */
  generated: boolean;
} {
  if (config.adminToken) return { token: config.adminToken, generated: false };
  const file = adminTokenFile(config.dataDir);
  if (existsSync(file)) return { token: readFileSync(file, 'utf8').trim(), generated: false };
  mkdirSync(config.dataDir, { recursive: true });
  const token = newAdminToken();
  writeFileSync(file, `${token}\n`, { mode: 0o600, flag: 'wx' });
  return { token, generated: true };
}

/** The token a CLI on this machine should use when none is given: the one in the data dir, if any. */
export function readAdminTokenFile(dataDir: string): string | undefined {
  const file = adminTokenFile(dataDir);
  return existsSync(file) ? readFileSync(file, 'utf8').trim() || undefined : undefined;
}

const ADMIN_TOKEN_SECRET = 'admin-token';

/**
 * The admin token of a node. With ADMIN_TOKEN set, that (every node must be given the same value). On
 * PGlite, the data dir's file as above. On PostgreSQL without ADMIN_TOKEN, the token lives in the
 * database (`instance_secrets`), so every node sharing it has the same admin token and signs cookies and
 * visitor tokens alike: the first node to start stores it (an existing data-dir token if there is one,
 * else a new one), the others read it. The data-dir file is kept as a copy for a CLI on this machine.
 * Call it inside `runSerially` so two first starts can't store two tokens.
 */
export async function resolveSharedAdminToken(
  config: { adminToken: string | undefined; dataDir: string },
  database: Pick<DatabaseHandle, 'kind' | 'db'>,
): Promise<{ token: string; generated: boolean }> {
  if (config.adminToken || database.kind === 'pglite') return resolveAdminToken(config);
  const { db } = database;
  const [stored] = await db.select({ value: instanceSecrets.value }).from(instanceSecrets).where(eq(instanceSecrets.name, ADMIN_TOKEN_SECRET));
  let token = stored?.value;
  let generated = false;
  if (!token) {
    const fromFile = readAdminTokenFile(config.dataDir);
    token = fromFile ?? newAdminToken();
    generated = !fromFile;
    await db.insert(instanceSecrets).values({ name: ADMIN_TOKEN_SECRET, value: token });
  }
  if (readAdminTokenFile(config.dataDir) !== token) {
    mkdirSync(config.dataDir, { recursive: true });
    writeFileSync(adminTokenFile(config.dataDir), `${token}\n`, { mode: 0o600 });
    chmodSync(adminTokenFile(config.dataDir), 0o600);
  }
  return { token, generated };
}
