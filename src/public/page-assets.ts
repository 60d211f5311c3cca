/**
 * `GET /assets/…`: the pages' fixed files under hashed names, compressed and cached for a year
 * (static-assets.ts): the page script (client-script.ts), the embedded page's script (frame-script.ts),
 * and the self-hosted theme fonts (fonts.ts). Any site may load them (a form in a frame on another
 * site loads them from here: `Cross-Origin-Resource-Policy: cross-origin`). Like the form pages' GETs,
 * no rate limit: they read nothing and cost next to nothing.
 */
import type { Hono } from 'hono';
import type { AppEnv } from '../http.ts';
import { methodNotAllowed } from '../limits/request-safety.ts';
import { CLIENT_SCRIPT } from './client-script.ts';
import { fontAsset } from './fonts.ts';
import { FRAME_SCRIPT } from './frame-script.ts';
import { ASSETS_PREFIX, contentHash, IMMUTABLE_CACHE, sendAsset, staticAsset, type StaticAsset } from './static-assets.ts';

const JAVASCRIPT = 'text/javascript; charset=utf-8';
const hashedScript = (name: string, source: string) => ({
  path: `${ASSETS_PREFIX}${name}.${contentHash(source)}.js`,
  asset: staticAsset(source, JAVASCRIPT),
});

const PAGE_SCRIPT = hashedScript('page', CLIENT_SCRIPT);
const EMBEDDED_PAGE_SCRIPT = hashedScript('frame', FRAME_SCRIPT);

/** Where every page loads its script from. */
export const PAGE_SCRIPT_PATH = PAGE_SCRIPT.path;
/** Where a page in embed mode with a host origin loads its messaging script from. */
export const FRAME_SCRIPT_PATH = EMBEDDED_PAGE_SCRIPT.path;

function assetAt(path: string): StaticAsset | undefined {
  if (path === PAGE_SCRIPT.path) return PAGE_SCRIPT.asset;
  if (path === EMBEDDED_PAGE_SCRIPT.path) return EMBEDDED_PAGE_SCRIPT.asset;
  return fontAsset(path);
}

export function mountPageAssets(app: Hono<AppEnv>): void {
  app.get(`${ASSETS_PREFIX}*`, (c) => {
    const asset = assetAt(c.req.path);
    if (!asset) return c.notFound();
    c.header('Cross-Origin-Resource-Policy', 'cross-origin');
    c.header('Access-Control-Allow-Origin', '*');
    return sendAsset(c, asset, IMMUTABLE_CACHE);
  });
  app.all(`${ASSETS_PREFIX}*`, methodNotAllowed(['GET', 'HEAD']));
}
