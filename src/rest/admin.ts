/**
 * Administration over HTTP, for the `formloom` CLI (admin token only):
 * GET /api/v1/admin/backup — a consistent gzip-compressed dump of the embedded (PGlite) database.
 * On PostgreSQL the answer is 409 pointing to pg_dump: that database is backed up where it lives.
 */
import { Hono } from 'hono';
import { requireAdmin } from '../auth/auth.service.ts';
import type { AppEnv } from '../http.ts';
import { respondWithError } from '../graphql/errors.ts';
import { needs } from './access.ts';

export const POSTGRES_BACKUP_MESSAGE =
  'This server stores its data in PostgreSQL (DATABASE_URL): back it up with pg_dump, e.g. pg_dump --format=custom --file=formloom.dump "$DATABASE_URL", and restore with pg_restore';

/** The server's own dump of its database (db/backup.ts), which the app hands over; absent on PostgreSQL. */
export interface ServerBackup {
  dump(): Promise<ReadableStream<Uint8Array>>;
}

export function adminRoutes(deps: { backup: ServerBackup | undefined }) {
  const routes = new Hono<AppEnv>();

  routes.get('/admin/backup', needs('admin'), async (c) => {
    try {
      requireAdmin(c.var.principal);
    } catch (error) {
      return respondWithError(c, error);
    }
    if (!deps.backup) return c.json({ message: POSTGRES_BACKUP_MESSAGE }, 409);
    const started = performance.now();
    const body = await deps.backup.dump();
    c.var.log.info({ dumpMs: Math.round(performance.now() - started) }, 'backup dumped');
    const stamp = new Date()
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d+Z$/, 'Z');
    return c.body(body, 200, {
      'content-type': 'application/gzip',
      'content-disposition': `attachment; filename="formloom-backup-${stamp}.tar.gz"`,
      'cache-control': 'no-store',
    });
  });

  return routes;
}
