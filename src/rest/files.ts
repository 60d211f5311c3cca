/**
 * v1 REST: GET /api/v1/files/{fileId} serves an uploaded file (docs/public-pages.md, "File uploads") to the
 * environment's API key or the admin token, or to anyone with a valid signed URL (`expires`,
 * `signature`; GraphQL's FileUploaderAnswer.fileUrl hands them out). Always as a download
 * (`Content-Disposition: attachment`, `nosniff`, a CSP that runs nothing), never rendered inline.
 *
 * The one adapter that does not run a GraphQL operation: it sends bytes from the file storage, which
 * GraphQL does not carry; the lookup is the uploads service's, filtered by the caller's environment.
 */
import { reachesForm } from '../auth/form-limits.ts';
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../http.ts';
import { methodNotAllowed } from '../limits/request-safety.ts';
import { checkFileSignature } from '../uploads/file-urls.ts';
import { findUpload } from '../uploads/uploads.service.ts';
import type { FileStorage } from '../uploads/storage.ts';
import type { SigningKeys } from '../auth/signing-keys.ts';
import type { RestDeps } from './respond.ts';
import { toFieldErrors } from '../errors.ts';
import { needs } from './access.ts';

export const fileQuerySchema = z.strictObject({
  expires: z
    .string()
    .regex(/^\d{1,12}$/, 'must be a Unix time in seconds')
    .optional(),
  signature: z
    .string()
    .regex(/^[\w-]{1,128}$/, 'must be a base64url signature')
    .optional(),
});
const fileIdSchema = z.string().regex(/^upl_[a-z0-9]{1,64}$/);

const FILE_NOT_FOUND = { message: 'File not found' } as const;

/** `filename*` (RFC 6266/8187) with an ASCII fallback: the stored name never reaches the header raw. */
function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export function filesRoutes(deps: Pick<RestDeps, 'db'> & { storage: FileStorage; keys: SigningKeys }) {
  const routes = new Hono<AppEnv>();
  routes.get('/files/:fileId', needs('responses:read', { onlyApiKeys: true }), async (c) => {
    const query = fileQuerySchema.safeParse(c.req.query());
    if (!query.success) return c.json({ message: 'Invalid query parameters', errors: toFieldErrors(query.error.issues) }, 400);
    const fileId = c.req.param('fileId');
    const principal = c.var.principal;
    const { expires, signature } = query.data;
    let scope: string | null;
    if (principal.kind === 'admin') scope = null;
    else if (principal.kind === 'apiKey') scope = principal.environmentId;
    else if (principal.offered) return c.json({ message: 'Invalid API key' }, 401);
    else if (expires === undefined || signature === undefined) {
      return c.json({ message: 'Missing API key (or a signed URL: expires and signature)' }, 401);
    } else {
      const check =
        deps.keys.verify((key) => {
          const result = checkFileSignature(key, fileId, expires, signature);
          return result === 'invalid' ? undefined : result;
        }) ?? 'invalid';
      if (check === 'invalid') return c.json({ message: 'Invalid file signature' }, 403);
      if (check === 'expired') return c.json({ message: 'This file link has expired' }, 403);
      scope = null;
    }
    const found = fileIdSchema.safeParse(fileId).success ? await findUpload(deps.db, fileId, scope) : undefined;
    const upload = found && reachesForm(principal, found.formId) ? found : undefined;
    const bytes = upload ? await deps.storage.get(upload.storageKey) : undefined;
    if (!upload || !bytes) return c.json(FILE_NOT_FOUND, 404);
    c.header('Content-Disposition', contentDisposition(upload.name));
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Content-Security-Policy', "default-src 'none'; sandbox");
    c.header('Cache-Control', 'private, no-store');
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200, { 'Content-Type': upload.contentType, 'Content-Length': String(bytes.byteLength) });
  });
  routes.all('/files/:fileId', methodNotAllowed(['GET']));
  return routes;
}
