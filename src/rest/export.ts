/**
 * v1 REST: GET /api/v1/responses/export?format=csv|ndjson, an adapter of the `form`, `formResponses`
 * and `environmentResponses` queries. The filters are the listing's (`formId`, `returnPartials`,
 * `since`, `until`, `dateField`, `language`); every matching response is written, newest first, streamed as the
 * client reads: the operation's first page, then the service's batches (about 256 KB queued and one batch in
 * memory, however many there are; responses/stream.ts).
 *
 * - `format=csv` (default): RFC 4180 (responses/csv.ts: CRLF line ends, fields quoted when they hold a comma,
 *   quote or line break), columns and cells as src/responses/export.ts documents. A later batch's row of
 *   the environment export writes its `data` cell from the jsonb text, compacted and quoted in the chunk
 *   (`ChunkWriter.jsonbCsvField`), without parsing it.
 * - `format=ndjson`: one response object of `GET /api/v1/responses` per line.
 *
 * An environment's API key exports its environment; the admin token exports any form (`formId`), or an
 * environment it names with `environmentId`.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { requireApiKey, requireEnvironmentAccess } from '../auth/auth.service.ts';
import { listingFormsOf } from '../auth/form-limits.ts';
import { notFound } from '../errors.ts';
import { lagTolerantReads } from '../graphql/context.ts';
import { runOperation } from '../graphql/execute.ts';
import { EnvironmentResponsesPageDocument, FormResponsesPageDocument, type EnvironmentResponsesPageQuery, type ResponseFilter } from '../graphql/generated/graphql.ts';
import type { AppEnv } from '../http.ts';
import { methodNotAllowed } from '../limits/request-safety.ts';
import { EXPORT_FORMATS, exportFormat, type ExportColumn, type ExportFormat } from '../responses/export.ts';
import { formExportColumns } from '../responses/export-columns.ts';
import { MAX_PAGE_SIZE } from '../keyset.ts';
import { dateRangeProblems, type ResponseFilter as ServiceFilter } from '../responses/responses.service.ts';
import { operationContext, type RestDeps } from './respond.ts';
import { datesOf, invalidQuery, parseParams, querySchema, respondWithOperationError } from './responses.ts';
import { streamBody, type Listing } from '../responses/stream.ts';
import { respondWithError } from '../graphql/errors.ts';
import { needs } from './access.ts';

/** The export's query parameters: the listing's filters, the format and (admin token) the environment. */
export const exportQuerySchema = querySchema.pick({ formId: true, returnPartials: true, since: true, until: true, dateField: true, language: true }).extend({
  format: z.enum(EXPORT_FORMATS, { message: 'must be csv or ndjson' }).optional(),
  environmentId: z.string().min(1, 'must not be empty').max(128).optional(),
});

const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8; header=present',
  ndjson: 'application/x-ndjson; charset=utf-8',
};

type Connection = EnvironmentResponsesPageQuery['environmentResponses'];

/** The operation's filter as the service takes it (what the GraphQL listing makes of it). */
function listingFilterOf(filter: ResponseFilter): ServiceFilter {
  return {
    includePartials: filter.returnPartials ?? false,
    since: filter.since ? new Date(filter.since) : undefined,
    until: filter.until ? new Date(filter.until) : undefined,
    dateField: filter.dateField === 'UPDATED_AT' ? 'updatedAt' : 'createdAt',
    language: filter.language ?? undefined,
  };
}

/** The cursor of the page after this one, or null on the last page. */
const nextCursorOf = (pageInfo: { hasNextPage: boolean; endCursor?: string | null }) => (pageInfo.hasNextPage ? (pageInfo.endCursor ?? null) : null);

/** `responses-<form or environment>-<UTC date>.<format>`, with only safe characters in the id. */
function exportFileName(subject: string, format: ExportFormat, now = new Date()): string {
  const safe = subject.replace(/[^\w-]/g, '_').slice(0, 64) || 'export';
  return `responses-${safe}-${now.toISOString().slice(0, 10)}.${format}`;
}

export function exportRoutes(deps: RestDeps) {
  const routes = new Hono<AppEnv>();

  routes.get('/responses/export', needs('responses:read'), async (c) => {
    const principal = c.var.principal;
    try {
      if (principal.kind !== 'admin') requireApiKey(principal);
    } catch (error) {
      return respondWithError(c, error);
    }
    const parsed = parseParams(c, exportQuerySchema);
    if ('errors' in parsed) return invalidQuery(c, parsed.errors);
    const { query } = parsed;
    const rangeProblems = dateRangeProblems(datesOf(query), (bound) => [bound]);
    if (rangeProblems.length > 0) return invalidQuery(c, rangeProblems);
    if (query.environmentId !== undefined) {
      try {
        requireEnvironmentAccess(principal, query.environmentId);
      } catch (error) {
        return respondWithError(c, error);
      }
    }
    const format: ExportFormat = query.format ?? 'csv';
    const filter: ResponseFilter = {
      returnPartials: query.returnPartials ?? false,
      dateField: query.dateField === 'updatedAt' ? 'UPDATED_AT' : 'CREATED_AT',
      ...(query.since !== undefined ? { since: query.since } : {}),
      ...(query.until !== undefined ? { until: query.until } : {}),
      ...(query.language !== undefined ? { language: query.language } : {}),
    };
    const context = operationContext(c, deps);

    let columns: ExportColumn[] | undefined;
    let runPage: () => Promise<{ data?: Connection; error?: unknown }>;
    // Where the batches after the first page are read: the environment (and form) that page was answered
    // for. An API key's own environment (a named one must be it); for the admin token, the form's or the named one.
    let listing: Listing;
    const environmentOf = (adminChoice: string | undefined) => (principal.kind === 'apiKey' ? principal.environmentId : (adminChoice ?? ''));
    if (query.formId !== undefined) {
      const formId = query.formId;
      // Each further page of versions its own operation, with its own budget of definition bytes.
      const found = await formExportColumns(formId, context, () => operationContext(c, deps));
      if ('error' in found) return respondWithOperationError(c, found.error);
      const { form } = found;
      if (!form || (query.environmentId !== undefined && form.environmentId !== query.environmentId)) {
        return respondWithError(c, notFound('Form not found'));
      }
      columns = found.columns;
      const environmentId = principal.kind === 'admin' ? form.environmentId : null;
      runPage = async () => {
        const result = await runOperation(FormResponsesPageDocument, { formId, environmentId, filter, first: MAX_PAGE_SIZE, after: null }, context);
        return result.error ? { error: result.error } : { data: result.data.formResponses };
      };
      listing = { environmentId: environmentOf(form.environmentId), formId, ...listingFilterOf(filter) };
    } else {
      const environmentId = query.environmentId ?? null;
      runPage = async () => {
        const result = await runOperation(EnvironmentResponsesPageDocument, { environmentId, filter, first: MAX_PAGE_SIZE, after: null }, context);
        return result.error ? { error: result.error } : { data: result.data.environmentResponses };
      };
      // (The admin token must name one: without it the first page is refused.)
      listing = { environmentId: environmentOf(query.environmentId), ...listingFormsOf(principal), ...listingFilterOf(filter) };
    }

    // The first page decides the status (arguments, access); then every response is streamed (responses/stream.ts).
    const first = await runPage();
    if (first.error || !first.data) return respondWithOperationError(c, first.error);
    const log = c.var.log;
    const subject = query.formId ?? query.environmentId ?? (principal.kind === 'apiKey' ? principal.environmentId : 'environment');
    const { edges, pageInfo } = first.data;
    const firstPage = { nodes: edges.map((edge) => edge.node), nextCursor: nextCursorOf(pageInfo) };
    const onError = (error: unknown) => log.error({ err: error }, 'export stream failed mid-way');
    // The batches after the first page: on a fresh read replica too when there is one.
    const body = streamBody(lagTolerantReads(deps).pick(), firstPage, listing, exportFormat(format, columns, deps.dropOffMs), onError);
    return new Response(body, {
      status: 200,
      headers: {
        'content-type': CONTENT_TYPES[format],
        'content-disposition': `attachment; filename="${exportFileName(subject, format)}"`,
        'cache-control': 'no-store',
      },
    });
  });
  routes.all('/responses/export', methodNotAllowed(['GET']));

  return routes;
}
