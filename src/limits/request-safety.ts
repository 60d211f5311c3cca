/**
 * Hostile input that arrives outside a body: percent-encoded NUL characters in a path segment or query
 * parameter (PostgreSQL would refuse them with a 500), wrong methods, and oversized bodies. Each is
 * answered with a 4xx that says what and where.
 */
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../http.ts';
import type { FieldError } from '../errors.ts';
import { parseJsonSafely } from './json-safety.ts';

export interface InputProblem {
  message: 'Invalid request path' | 'Invalid query parameters';
  errors: FieldError[];
}

const NUL_PROBLEM = 'must not contain NUL (%00) characters';

/**
 * The first NUL character in a request URL's path segments or query parameters. HTTP forbids it raw,
 * and percent-decoding can't produce an unpaired surrogate (malformed UTF-8 decodes to U+FFFD, or stays
 * as written), so the one character a URL can smuggle to the database is NUL, written `%00`: a URL
 * without it costs one scan.
 */
function findUrlProblem(url: string): InputProblem | undefined {
  const pathStart = url.indexOf('/', url.indexOf('://') + 3);
  if (pathStart < 0 || !url.includes('%00', pathStart)) return undefined;
  const queryStart = url.indexOf('?', pathStart);
  const segments = url.slice(pathStart + 1, queryStart >= 0 ? queryStart : url.length).split('/');
  for (const [index, segment] of segments.entries()) {
    if (segment.includes('%00')) {
      return { message: 'Invalid request path', errors: [{ message: `Path segment ${index + 1} ${NUL_PROBLEM}`, path: ['path', index + 1] }] };
    }
  }
  if (queryStart < 0) return undefined;
  for (const [name, value] of new URLSearchParams(url.slice(queryStart + 1))) {
    if (name.includes('\u0000')) return { message: 'Invalid query parameters', errors: [{ message: `A parameter name ${NUL_PROBLEM}`, path: [] }] };
    if (value.includes('\u0000')) return { message: 'Invalid query parameters', errors: [{ message: `${name} ${NUL_PROBLEM}`, path: [name] }] };
  }
  return undefined;
}

/** Refuses a request whose URL carries hostile input, answered by `respond` (JSON for the API, a page for pages). */
export function rejectHostileUrls(respond: (c: Context<AppEnv>, problem: InputProblem) => Response | Promise<Response>) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const problem = findUrlProblem(c.req.url);
    if (problem) return respond(c, problem);
    await next();
  });
}

/** 405 with `Allow`, for a known path asked with a method it does not have. */
export function methodNotAllowed(allowed: readonly string[]) {
  return (c: Context) => {
    c.header('Allow', allowed.join(', '));
    return c.json({ message: `Method ${c.req.method} not allowed here; allowed: ${allowed.join(', ')}` }, 405);
  };
}

export const UNSUPPORTED_MEDIA_TYPE = 'Unsupported media type: send the body as application/json';

/** 415, with a GraphQL `errors` list on /graphql. */
export function unsupportedMediaType(c: Context, options: { graphql?: boolean } = {}): Response {
  const body = options.graphql
    ? { message: UNSUPPORTED_MEDIA_TYPE, errors: [{ message: UNSUPPORTED_MEDIA_TYPE, extensions: { code: 'UNSUPPORTED_MEDIA_TYPE' } }] }
    : { message: UNSUPPORTED_MEDIA_TYPE };
  return c.json(body, 415);
}

/**
 * A body size limit. The 413 closes the connection (`Connection: close`): the unread rest of the body
 * must not be taken for the next request on a keep-alive connection, and a client pool must not reuse it.
 * GET and HEAD carry no body; checking them would cost the Node adapter a full Request per call.
 */
export function limitBodySize(maxBytes: number, respond: (c: Context<AppEnv>, message: string) => Response | Promise<Response>) {
  const tooLarge = (c: Context) => {
    c.header('Connection', 'close');
    return respond(c as Context<AppEnv>, `Request body too large (limit ${maxBytes} bytes)`);
  };
  const limit = bodyLimit({ maxSize: maxBytes, onError: tooLarge });
  return createMiddleware<AppEnv>(async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    // hono's own test for a declared length, on the headers alone: bodyLimit first touches
    // c.req.raw.body, which makes the Node adapter build a WHATWG Request and stream that a handler
    // reading the body with c.req.text()/json() does not need. Without a length it reads the body.
    const length = c.req.header('content-length');
    if (length !== undefined && c.req.header('transfer-encoding') === undefined) return parseInt(length, 10) > maxBytes ? tooLarge(c) : next();
    return limit(c, next);
  });
}

const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/**
 * Reads a JSON object body. Another media type is a 415; malformed JSON, nesting deeper than
 * `maxDepth`, a NUL character or an unpaired surrogate anywhere, or a non-object is the documented 400
 * with the path of the first offending value. A missing Content-Type is read as JSON.
 */
export async function readJsonObject(c: Context<AppEnv>, maxDepth: number): Promise<{ body: Record<string, unknown> } | { response: Response }> {
  const type = c.req.header('content-type');
  if (type !== undefined && !JSON_MEDIA_TYPE.test(type)) {
    return { response: unsupportedMediaType(c) };
  }
  const parsed = parseJsonSafely(await c.req.text(), maxDepth);
  if (!parsed.ok) return { response: c.json({ message: 'Invalid request body', errors: [parsed.error] }, 400) };
  const body = parsed.value;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { response: c.json({ message: 'Invalid request body', errors: [{ message: 'Body must be a JSON object', path: [] }] }, 400) };
  }
  return { body: body as Record<string, unknown> };
}
