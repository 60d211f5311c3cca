/**
 * `GET /embed.js`: the embed script (src/embed/host-script.ts, docs/embedding.md). The same text for
 * everyone, so it is cacheable: browsers and CDNs keep it for 5 minutes, then revalidate with its ETag
 * (304 while unchanged). Any site may load it (`Access-Control-Allow-Origin: *`, for `crossorigin` and
 * subresource integrity; `Cross-Origin-Resource-Policy: cross-origin`, for sites that isolate
 * themselves). No rate limit: like the form pages' GETs, it reads nothing and costs next to nothing,
 * and many visitors of one site can share an address.
 */
import type { Hono } from 'hono';
import type { AppEnv } from '../http.ts';
import { corsMiddleware } from '../limits/cors.ts';
import { methodNotAllowed } from '../limits/request-safety.ts';
import { HOST_SCRIPT, HOST_SCRIPT_ETAG } from '../embed/host-script.ts';

export const EMBED_SCRIPT_PATH = '/embed.js';
const CACHE_CONTROL = 'public, max-age=300, stale-while-revalidate=86400';

/** Whether an If-None-Match header names the script's current ETag (weak or strong, or `*`). */
function matches(ifNoneMatch: string | undefined): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const value = tag.trim();
    return value === '*' || value === HOST_SCRIPT_ETAG || value === `W/${HOST_SCRIPT_ETAG}`;
  });
}

export function mountEmbedScript(app: Hono<AppEnv>): void {
  app.use(
    EMBED_SCRIPT_PATH,
    corsMiddleware({ allowOrigin: () => '*', allowMethods: ['GET', 'HEAD', 'OPTIONS'], allowHeaders: [], exposeHeaders: ['ETag'], maxAgeSeconds: 600 }),
  );
  app.get(EMBED_SCRIPT_PATH, (c) => {
    c.header('ETag', HOST_SCRIPT_ETAG);
    c.header('Cache-Control', CACHE_CONTROL);
    c.header('Cross-Origin-Resource-Policy', 'cross-origin');
    if (matches(c.req.header('if-none-match'))) return c.body(null, 304);
    return c.body(HOST_SCRIPT, 200, { 'Content-Type': 'text/javascript; charset=utf-8' });
  });
  app.all(EMBED_SCRIPT_PATH, methodNotAllowed(['GET', 'HEAD']));
}
