/**
 * Who may embed an environment's forms: its `embedOrigins` setting, the public pages' CSP
 * `frame-ancestors` made from it (falling back to the server's FRAME_ANCESTORS while it is unset).
 *
 * - null: FRAME_ANCESTORS applies (default `'self'`);
 * - `[]`: no other site (`'self'`);
 * - a list of origins (`https://www.example.com`, `http://localhost:8080`): those sites and `'self'`;
 * - `["*"]`: any site.
 */
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client.ts';
import { preparedQuery } from '../db/prepared.ts';
import { environments } from '../db/schema.ts';
import type { FieldError } from '../errors.ts';

/** Most origins one environment may list. */
export const MAX_EMBED_ORIGINS = 50;
const MAX_ORIGIN_LENGTH = 300;
export const ANY_ORIGIN = '*';
export const EMBED_ORIGIN_MESSAGE = 'Must be an origin: http:// or https://, a host and an optional port, nothing else (e.g. https://www.example.com)';

/**
 * The origin `value` names, in the form browsers compare (`HTTPS://Example.COM:443` → `https://example.com`);
 * undefined when it is not exactly an http(s) origin (a path, query, fragment, user or wildcard makes it one no more).
 */
export function canonicalOrigin(value: string): string | undefined {
  if (value.length > MAX_ORIGIN_LENGTH || !/^https?:\/\/[^/?#@\\\s*]+$/i.test(value)) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.origin === 'null' || url.pathname !== '/' || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') return undefined;
  // What a CSP host-source can say (letters, digits, hyphens; dot-separated; an IDN as its punycode),
  // which also keeps `;`, quotes and commas, which URL parsing lets through, out of the header.
  return CSP_ORIGIN.test(url.origin) ? url.origin : undefined;
}

const CSP_ORIGIN = /^https?:\/\/[a-z0-9-]+(?:\.[a-z0-9-]+)*(?::\d{1,5})?$/;

/** `embedOrigins` as given to the settings: each an origin (stored canonical, without duplicates), or `["*"]` alone. */
export function parseEmbedOrigins(value: unknown): { origins: string[]; errors: FieldError[] } {
  const errors: FieldError[] = [];
  if (!Array.isArray(value)) return { origins: [], errors: [{ message: 'Must be a list of origins, or ["*"]', path: ['embedOrigins'] }] };
  if (value.length > MAX_EMBED_ORIGINS) return { origins: [], errors: [{ message: `At most ${MAX_EMBED_ORIGINS} origins`, path: ['embedOrigins'] }] };
  const origins: string[] = [];
  value.forEach((entry, index) => {
    const path = ['embedOrigins', index];
    if (typeof entry !== 'string') errors.push({ message: 'Must be a string', path });
    else if (entry === ANY_ORIGIN) {
      if (value.length > 1) errors.push({ message: '"*" (any site) must be the only entry', path });
      else origins.push(ANY_ORIGIN);
    } else {
      const origin = canonicalOrigin(entry);
      if (origin === undefined) errors.push({ message: EMBED_ORIGIN_MESSAGE, path });
      else if (!origins.includes(origin)) origins.push(origin);
    }
  });
  return { origins: errors.length > 0 ? [] : origins, errors };
}

/** `embedOrigins` in a request body (REST): a list of strings, each checked by parseEmbedOrigins with its path. */
export const embedOriginsSchema = z.array(z.string()).superRefine((value, ctx) => {
  for (const error of parseEmbedOrigins(value).errors) ctx.addIssue({ code: 'custom', message: error.message, path: error.path.slice(1) });
});

/** The CSP `frame-ancestors` sources of an environment's pages. */
export function frameAncestorsFor(embedOrigins: readonly string[] | null | undefined, fallback: string): string {
  if (embedOrigins === null || embedOrigins === undefined) return fallback;
  if (embedOrigins.includes(ANY_ORIGIN)) return ANY_ORIGIN;
  return ["'self'", ...embedOrigins].join(' ');
}

/** An environment's `embedOrigins` (null when unset or when there is no such environment). */
export async function embedOriginsOf(db: Db, environmentId: string): Promise<string[] | null> {
  const query = preparedQuery(db, 'environment_embed_origins', (handle) =>
    handle
      .select({ embedOrigins: environments.embedOrigins })
      .from(environments)
      .where(eq(environments.id, sql.placeholder('id')))
      .prepare('environment_embed_origins'),
  );
  const [row] = await query.execute({ id: environmentId });
  return row?.embedOrigins ?? null;
}
