/**
 * v1 REST: GET /api/v1/responses. It parses the query string and reads the listing from the service
 * (`listResponseTexts`, the keyset listing the `formResponses` and `environmentResponses` queries run),
 * with answers and metadata as jsonb text, and writes each response as the operations' object
 * (`writeResponseJson`, held to the GraphQL listing byte for byte by test/responses/responses.rest.test.ts).
 *
 * - `?formId=F`: the form's 10 most recent responses (`after` pages back 10 at a time).
 * - no `formId`, no `limit`/`after`: every response of the environment, streamed as the client reads,
 *   so memory stays flat however many there are: the first page, then the service's batches.
 * - no `formId`, with `limit` and/or `after`: one page, plus `nextCursor`.
 *
 * Not through the in-process operations, as the other adapters are (docs/architecture.md): on the API's busiest
 * read, graphql-jit's result objects and the parse and stringify of every answer were about a third of
 * the request's CPU. The checks are the same: `parseQuery` refuses what the operations' `checkListingArgs`
 * refuses, with the same messages at the query parameters' names (the date range is the service's
 * `dateRangeProblems` for both), and the service scopes the listing to the key's environment and a live form.
 */
import { languageFilterSchema } from '../responses/language-filter.ts';
import type { Context } from 'hono';
import { Hono } from 'hono';
import { z } from 'zod';
import { requireApiKey } from '../auth/auth.service.ts';
import { listingFormsOf, reachesForm } from '../auth/form-limits.ts';
import { lagTolerantReads } from '../graphql/context.ts';
import { appErrorOf, respondWithError } from '../graphql/errors.ts';
import type { AppEnv } from '../http.ts';
import { methodNotAllowed } from '../limits/request-safety.ts';
import { notFound, type FieldError } from '../errors.ts';
import { cursorOf, cursorParam, decodeCursor, MAX_PAGE_SIZE } from '../keyset.ts';
import { dateRangeProblems, FORM_PAGE_SIZE, isListableInstant, listResponseTexts, UNLISTABLE_INSTANT } from '../responses/responses.service.ts';
import { refuseUnlessApiKey, type RestDeps } from './respond.ts';
import { ChunkWriter, jsonListingFormat, streamBody, type Listing } from '../responses/stream.ts';
import { needs } from './access.ts';

const INVALID_QUERY = 'Invalid query parameters';

// ---------------------------------------------------------------- query parameters

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

/** A calendar date that exists (no 2024-02-30). */
const realDate = (value: string) => {
  const [year, month, day] = value.slice(0, 10).split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day)).getUTCDate() === day && month >= 1 && month <= 12;
};

/** An ISO 8601 date (midnight UTC) or date-time with a time zone, as an ISO string (ms precision). */
const isoInstant = z.string().transform((value, ctx) => {
  const time = DATE_ONLY.test(value) ? Date.parse(`${value}T00:00:00Z`) : DATE_TIME.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(time) || !realDate(value)) {
    ctx.addIssue({ code: 'custom', message: 'must be an ISO 8601 date or date-time with a time zone, e.g. 2024-05-01T00:00:00Z' });
    return z.NEVER;
  }
  if (!isListableInstant(new Date(time))) {
    ctx.addIssue({ code: 'custom', message: UNLISTABLE_INSTANT });
    return z.NEVER;
  }
  return new Date(time).toISOString();
});

const booleanParam = z.enum(['true', 'false'], { message: 'must be true or false' }).transform((value) => value === 'true');
export const limitParam = z.string().regex(/^\d+$/, 'must be a positive integer').transform(Number).pipe(z.number().int().min(1, 'must be at least 1'));

/** The listing's parameters (the export takes its filters). */
export const querySchema = z.object({
  formId: z.string().min(1, 'must not be empty').max(128).optional(),
  returnPartials: booleanParam.optional(),
  since: isoInstant.optional(),
  until: isoInstant.optional(),
  dateField: z.enum(['createdAt', 'updatedAt'], { message: 'must be createdAt or updatedAt' }).optional(),
  language: languageFilterSchema.optional(),
  limit: limitParam.optional(),
  after: cursorParam.optional(),
});
type ResponsesQuery = z.output<typeof querySchema>;

/** The `since` and `until` parameters (ISO strings once parsed) as the dates the service checks. */
export const datesOf = (query: { since?: string | undefined; until?: string | undefined }) => ({
  since: query.since !== undefined ? new Date(query.since) : undefined,
  until: query.until !== undefined ? new Date(query.until) : undefined,
});

/**
 * Parses the query parameters `schema` names (each given at most once); unknown parameters are ignored.
 * Problems come back as `{message, path: [<parameter>]}`, all at once.
 */
export function parseParams<S extends z.ZodObject>(c: Context<AppEnv>, schema: S): { query: z.output<S> } | { errors: FieldError[] } {
  const errors: FieldError[] = [];
  const raw: Record<string, string> = {};
  const all = c.req.queries();
  for (const name of Object.keys(schema.shape)) {
    const values = all[name];
    if (!values || values.length === 0) continue;
    if (values.length > 1) errors.push({ message: `${name} must be given once`, path: [name] });
    raw[name] = values[0]!;
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const name = String(issue.path[0]);
      errors.push({ message: `${name} ${issue.message}`, path: [name] });
    }
  }
  if (errors.length > 0 || !parsed.success) return { errors };
  return { query: parsed.data };
}

function parseQuery(c: Context<AppEnv>): { query: ResponsesQuery } | { errors: FieldError[] } {
  const parsed = parseParams(c, querySchema);
  if ('errors' in parsed) return parsed;
  const errors: FieldError[] = [];
  const { query } = parsed;
  if (query.formId !== undefined && query.limit !== undefined && query.limit > FORM_PAGE_SIZE) {
    errors.push({ message: `limit must be at most ${FORM_PAGE_SIZE} with formId`, path: ['limit'] });
  }
  if (query.formId === undefined && query.limit !== undefined && query.limit > MAX_PAGE_SIZE) {
    errors.push({ message: `limit must be at most ${MAX_PAGE_SIZE}`, path: ['limit'] });
  }
  errors.push(...dateRangeProblems(datesOf(query), (bound) => [bound]));
  return errors.length > 0 ? { errors } : { query };
}

export const invalidQuery = (c: Context<AppEnv>, errors: FieldError[]) => c.json({ message: INVALID_QUERY, errors }, 400);

/** GraphQL argument paths as query parameter names (`first` is `limit`, filter fields are flat). */
function toQueryErrors(errors: readonly FieldError[]): FieldError[] {
  return errors.map(({ message, path }) => {
    const flat = path[0] === 'filter' ? path.slice(1) : path;
    return { message, path: flat[0] === 'first' ? ['limit', ...flat.slice(1)] : flat };
  });
}

/** The documented answer to an operation's error; argument problems read as query-parameter problems. */
export function respondWithOperationError(c: Context<AppEnv>, error: unknown): Response {
  const appError = appErrorOf(error);
  if (appError?.code === 'BAD_USER_INPUT') return invalidQuery(c, toQueryErrors(appError.errors ?? []));
  return respondWithError(c, error);
}

// ---------------------------------------------------------------- routes

export function responsesRoutes(deps: RestDeps) {
  const routes = new Hono<AppEnv>();

  routes.get('/responses', needs('responses:read'), async (c) => {
    const refused = refuseUnlessApiKey(c);
    if (refused) return refused;
    const parsed = parseQuery(c);
    if ('errors' in parsed) return invalidQuery(c, parsed.errors);
    const { query } = parsed;
    const { environmentId } = requireApiKey(c.var.principal);
    if (query.formId !== undefined && !reachesForm(c.var.principal, query.formId)) return respondWithError(c, notFound('Form not found'));
    // parseQuery has checked what the listing operations check (page size, cursor, dates).
    const listing = {
      environmentId,
      formId: query.formId,
      ...listingFormsOf(c.var.principal, query.formId),
      includePartials: query.returnPartials ?? false,
      ...datesOf(query),
      dateField: query.dateField ?? 'createdAt',
      language: query.language,
    } satisfies Listing;
    const after = query.after !== undefined ? decodeCursor(query.after) : undefined;
    const paged = query.limit !== undefined || query.after !== undefined;
    const limit = query.limit ?? (query.formId !== undefined ? FORM_PAGE_SIZE : MAX_PAGE_SIZE);

    // A lost database is the app's 503 (app.onError), as for every route. On a read replica when there
    // is a fresh one; a form it does not know (yet) is asked of the primary.
    const reads = lagTolerantReads(deps);
    const page = await reads.run(
      (db) => listResponseTexts(db, { ...listing, after, limit }),
      (found) => !found,
    );
    if (!page) return respondWithError(c, notFound('Form not found'));
    const last = page.responses.at(-1);
    const nextCursor = page.hasNextPage && last ? cursorOf(last) : null;

    if (query.formId !== undefined || paged) {
      // The documented body is {data}; asking for pages (limit/after) adds where the next one starts.
      const format = jsonListingFormat(deps.dropOffMs);
      const out = new ChunkWriter(page.responses.length * 2048 + 64);
      const now = new Date();
      out.text(format.head);
      page.responses.forEach((row, i) => format.row(out, row, i === 0, now));
      out.text(paged ? `],"nextCursor":${JSON.stringify(nextCursor)}}` : format.tail);
      return c.body(out.take() as Uint8Array<ArrayBuffer>, 200, JSON_CONTENT_TYPE);
    }

    // Unpaged: the first page decided the status; then stream every response (responses/stream.ts).
    const log = c.var.log;
    const first = { nodes: page.responses, nextCursor };
    const body = streamBody(reads.pick(), first, listing, jsonListingFormat(deps.dropOffMs), (error) => log.error({ err: error }, 'response stream failed mid-way'));
    return new Response(body, { status: 200, headers: { 'content-type': 'application/json; charset=UTF-8' } });
  });
  routes.all('/responses', methodNotAllowed(['GET']));

  return routes;
}

const JSON_CONTENT_TYPE = { 'content-type': 'application/json' };
