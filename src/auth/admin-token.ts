/** The admin token: `ADMIN_TOKEN`, or one generated on first start and kept in the data dir (mode 0600). */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const adminTokenFile = (dataDir: string) => join(dataDir, 'admin-token');

export function resolveAdminToken(config: { adminToken: string | undefined; dataDir: string }): {
  token: string;
  /** True when this call created the token (it is printed once, then). */
  generated: boolean;
} {
  if (config.adminToken) return { token: config.adminToken, generated: false };
  const file = adminTokenFile(config.dataDir);
  if (existsSync(file)) return { token: readFileSync(file, 'utf8').trim(), generated: false };
  mkdirSync(config.dataDir, { recursive: true });
  const token = `fladm_${randomBytes(32).toString('base64url')}`;
  writeFileSync(file, `${token}\n`, { mode: 0o600, flag: 'wx' });
  return { token, generated: true };
}

/** The token a CLI on this machine should use when none is given: the one in the data dir, if any. */
export function readAdminTokenFile(dataDir: string): string | undefined {
  const file = adminTokenFile(dataDir);
  return existsSync(file) ? readFileSync(file, 'utf8').trim() || undefined : undefined;
}
