/**
 * The fixed files formloom serves to browsers: the page script, the theme fonts' stylesheets and font
 * files (fonts.ts), and the embed script. Each is kept in memory with its gzip and Brotli forms made
 * once, and sent in the form the request's Accept-Encoding prefers (`Vary: Accept-Encoding`).
 *
 * An asset under `/assets/` has a hash of its bytes in its name, so the name changes whenever the
 * bytes do: browsers and CDNs may keep it for a year without asking again (`immutable`).
 */
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Context } from 'hono';
import type { AppEnv } from '../http.ts';

export const ASSETS_PREFIX = '/assets/';
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';

export interface StaticAsset {
  /** The file's bytes as sent without compression. */
  body: Uint8Array;
  contentType: string;
  /** Strong ETag: a hash of the bytes. */
  etag: string;
  /** The compressed forms; none for types that are compressed already (woff2). */
  gzip?: Uint8Array | undefined;
  br?: Uint8Array | undefined;
}

export const contentHash = (bytes: Uint8Array | string): string => createHash('sha256').update(bytes).digest('base64url').slice(0, 12);

/** An asset from its bytes: text types get gzip and Brotli forms (at the best compression: made once). */
export function staticAsset(content: Uint8Array | string, contentType: string): StaticAsset {
  const body = typeof content === 'string' ? new TextEncoder().encode(content) : content;
  const compressible = /^(?:text\/|application\/(?:javascript|json)|image\/svg)/.test(contentType);
  return {
    body,
    contentType,
    etag: `"${contentHash(body)}"`,
    gzip: compressible ? gzipSync(body, { level: 9 }) : undefined,
    br: compressible
      ? brotliCompressSync(body, {
          params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
        })
      : undefined,
  };
}

/**
 * The coding to answer with, from an Accept-Encoding header: the one with the highest q the asset has
 * (Brotli before gzip on a tie), `identity` when the client takes neither. `*` stands for the codings
 * not named; q=0 refuses one.
 */
export function negotiateEncoding(header: string | undefined, asset: Pick<StaticAsset, 'gzip' | 'br'>): 'br' | 'gzip' | 'identity' {
  if (!header) return 'identity';
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([01](?:\.\d{0,3})?)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    weights.set(name, q === undefined ? 1 : Number(q));
  }
  const weight = (coding: string) => weights.get(coding) ?? weights.get('*') ?? 0;
  const offered = (['br', 'gzip'] as const).filter((coding) => asset[coding] !== undefined && weight(coding) > 0);
  const best = offered.sort((a, b) => weight(b) - weight(a))[0];
  return best ?? 'identity';
}

/** Whether an If-None-Match header names the asset's ETag (weak or strong, or `*`). */
function notModified(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const value = tag.trim();
    return value === '*' || value === etag || value === `W/${etag}`;
  });
}

/** Sends an asset in the coding the request prefers, with its ETag and `cacheControl` (304 when unchanged). */
export function sendAsset(c: Context<AppEnv>, asset: StaticAsset, cacheControl: string): Response {
  const coding = negotiateEncoding(c.req.header('accept-encoding'), asset);
  c.header('Cache-Control', cacheControl);
  c.header('ETag', asset.etag);
  if (asset.gzip) c.header('Vary', 'Accept-Encoding', { append: true });
  if (notModified(c.req.header('if-none-match'), asset.etag)) return c.body(null, 304);
  const bytes = coding === 'identity' ? asset.body : asset[coding]!;
  if (coding !== 'identity') c.header('Content-Encoding', coding);
  c.header('Content-Type', asset.contentType);
  c.header('Content-Length', String(bytes.byteLength));
  return c.body(bytes as Uint8Array<ArrayBuffer>, 200);
}
