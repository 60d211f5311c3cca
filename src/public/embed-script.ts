/**
 * `GET /embed.js`: the embed script (src/embed/host-script.ts, docs/embedding.md). The same text for
 * everyone, so it is cacheable: browsers and CDNs keep it for 5 minutes, then revalidate with its ETag
 * (304 while unchanged), compressed (gzip or Brotli, as the request's Accept-Encoding prefers). Its
 * address stays the same (sites paste it), so it is not kept for a year like /assets/. Any site may
 * load it (`Access-Control-Allow-Origin: *`, for `crossorigin` and subresource integrity; `Cross-Origin-Resource-Policy: cross-origin`, for sites that isolate
 * themselves). No rate limit: like the form pages' GETs, it reads nothing and costs next to nothing,
 * and many visitors of one site can share an address.
 */
import type { Hono } from 'hono';
import type { AppEnv } from '../http.ts';
import { corsMiddleware } from '../limits/cors.ts';
import { methodNotAllowed } from '../limits/request-safety.ts';
import { HOST_SCRIPT, HOST_SCRIPT_ETAG } from '../embed/host-script.ts';
import { sendAsset, staticAsset } from './static-assets.ts';

export const EMBED_SCRIPT_PATH = '/embed.js';
const CACHE_CONTROL = 'public, max-age=300, stale-while-revalidate=86400';

// The asset keeps the script's own ETag (host-script.ts), which embedding sites may already hold.
const HOST_SCRIPT_ASSET = { ...staticAsset(HOST_SCRIPT, 'text/javascript; charset=utf-8'), etag: HOST_SCRIPT_ETAG };

export function mountEmbedScript(app: Hono<AppEnv>): void {
  app.use(EMBED_SCRIPT_PATH, corsMiddleware({ allowOrigin: () => '*', allowMethods: ['GET', 'HEAD', 'OPTIONS'], allowHeaders: [], exposeHeaders: ['ETag'], maxAgeSeconds: 600 }));
  app.get(EMBED_SCRIPT_PATH, (c) => {
    c.header('Cross-Origin-Resource-Policy', 'cross-origin');
    return sendAsset(c, HOST_SCRIPT_ASSET, CACHE_CONTROL);
  });
  app.all(EMBED_SCRIPT_PATH, methodNotAllowed(['GET', 'HEAD']));
}
