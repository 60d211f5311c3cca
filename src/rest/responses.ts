/**
 * v1 REST: GET /api/v1/responses, an adapter of the `formResponses` and `environmentResponses`
 * queries. It parses the query string, runs the typed operations in-process and writes their results
 * in the documented shape.
 *
 * - `?formId=F`: the form's 10 most recent responses (`after` pages back 10 at a time).
 * - no `formId`, no `limit`/`after`: every response of the environment, streamed as the client reads,
 *   so memory stays flat however many there are: the operation's first page, then the service's
 *   batches (rest/stream.ts says why).
 * - no `formId`, with `limit` and/or `after`: one page, plus `nextCursor`.
 */
import type { Context } from 'hono';
import { Hono } from 'hono';
import { z } from 'zod';
import { requireApiKey } from '../auth/auth.service.ts';
import { appErrorOf } from '../graphql/errors.ts';
import { runOperation } from '../graphql/execute.ts';
import {
  EnvironmentResponsesPageDocument,
  FormResponsesPageDocument,
  type ResponseFilter,
} from '../graphql/generated/graphql.ts';
import type { AppEnv } from '../http.ts';
import { methodNotAllowed } from '../limits/request-safety.ts';
import type { FieldError } from '../forms/components.ts';
import { decodeCursor, FORM_PAGE_SIZE, isListableInstant, MAX_PAGE_SIZE } from '../responses/responses.service.ts';
import { operationContext, refuseUnlessApiKey, respondWithError, type RestDeps } from './respond.ts';
import { jsonOfItem, listingFilterOf, nextCursorOf, responsesAfter, streamBody, type BodyFormat, type StreamItem } from './stream.ts';

/** The first page of the unpaged environment listing (the operation's); rest/stream.ts reads the rest. */
const STREAM_PAGE_SIZE = MAX_PAGE_SIZE;
const INVALID_QUERY = 'Invalid query parameters';

// ---------------------------------------------------------------- query parameters

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

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
    ctx.addIssue({ code: 'custom', message: 'must be between years 0001 and 9999 (UTC)' });
    return z.NEVER;
  }
  return new Date(time).toISOString();
});

const booleanParam = z.enum(['true', 'false'], { message: 'must be true or false' }).transform((value) => value === 'true');
const limitParam = z
  .string()
  .regex(/^\d+$/, 'must be a positive integer')
  .transform(Number)
  .pipe(z.number().int().min(1, 'must be at least 1'));

/** The listing's parameters (the export takes its filters). */
export const querySchema = z.object({
  formId: z.string().min(1, 'must not be empty').max(128).optional(),
  returnPartials: booleanParam.optional(),
  since: isoInstant.optional(),
  until: isoInstant.optional(),
  dateField: z.enum(['createdAt', 'updatedAt'], { message: 'must be createdAt or updatedAt' }).optional(),
  limit: limitParam.optional(),
  after: z
    .string()
    .refine((value) => decodeCursor(value) !== undefined, 'is not a valid cursor')
    .optional(),
});
type ResponsesQuery = z.output<typeof querySchema>;

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
  if (query.since !== undefined && query.until !== undefined && query.since >= query.until) {
    errors.push({ message: 'until must be later than since', path: ['until'] });
  }
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

  routes.get('/responses', async (c) => {
    const refused = refuseUnlessApiKey(c);
    if (refused) return refused;
    const parsed = parseQuery(c);
    if ('errors' in parsed) return invalidQuery(c, parsed.errors);
    const { query } = parsed;
    const filter: ResponseFilter = {
      returnPartials: query.returnPartials ?? false,
      dateField: query.dateField === 'updatedAt' ? 'UPDATED_AT' : 'CREATED_AT',
      ...(query.since !== undefined ? { since: query.since } : {}),
      ...(query.until !== undefined ? { until: query.until } : {}),
    };
    const paged = query.limit !== undefined || query.after !== undefined;
    const context = operationContext(c, deps);

    if (query.formId !== undefined) {
      const result = await runOperation(
        FormResponsesPageDocument,
        { formId: query.formId, filter, first: query.limit ?? FORM_PAGE_SIZE, after: query.after ?? null },
        context,
      );
      if (result.error) return respondWithOperationError(c, result.error);
      const { edges, pageInfo } = result.data.formResponses;
      const data = edges.map((edge) => edge.node);
      // The documented body is {data}; asking for pages (limit/after) adds where the next one starts.
      return c.json(paged ? { data, nextCursor: nextCursorOf(pageInfo) } : { data }, 200);
    }

    const runPage = (first: number, after: string | null) => runOperation(EnvironmentResponsesPageDocument, { filter, first, after }, context);

    if (paged) {
      const result = await runPage(query.limit ?? MAX_PAGE_SIZE, query.after ?? null);
      if (result.error) return respondWithOperationError(c, result.error);
      const { edges, pageInfo } = result.data.environmentResponses;
      return c.json({ data: edges.map((edge) => edge.node), nextCursor: nextCursorOf(pageInfo) }, 200);
    }

    // Unpaged: the first page decides the status (auth, arguments); then stream every response (rest/stream.ts).
    const first = await runPage(STREAM_PAGE_SIZE, null);
    if (first.error) return respondWithOperationError(c, first.error);
    const log = c.var.log;
    const { edges, pageInfo } = first.data.environmentResponses;
    const { environmentId } = requireApiKey(c.var.principal);
    const responses = responsesAfter(
      deps.db,
      { nodes: edges.map((edge) => edge.node), nextCursor: nextCursorOf(pageInfo) },
      { environmentId, ...listingFilterOf(filter) },
    );
    const body = streamBody(responses, jsonListing(deps.dropOffMs), (error) => log.error({ err: error }, 'response stream failed mid-way'));
    return new Response(body, { status: 200, headers: { 'content-type': 'application/json; charset=UTF-8' } });
  });
  routes.all('/responses', methodNotAllowed(['GET']));

  return routes;
}

/** `{"data":[…]}`, the listing's body. */
function jsonListing(dropOffMs: number): BodyFormat<StreamItem> {
  return {
    head: '{"data":[',
    rows: (rows, first) => {
      const now = new Date();
      return (first ? '' : ',') + rows.map((row) => jsonOfItem(row, now, dropOffMs)).join(',');
    },
    tail: ']}',
  };
}
