/**
 * v1 REST of the personal data lifecycle, adapters of the operations in schema/operations/privacy.graphql:
 *   DELETE /api/v1/responses/{id}       one response
 *   POST   /api/v1/responses/delete     the responses matching a filter (the bulk form; a DELETE with a
 *                                       body is not something every client and proxy passes on)
 *   DELETE /api/v1/leads/{id}           erase a person
 *   GET    /api/v1/audit-log            the environment's audit log, newest first
 * Environment API keys only (the admin token uses GraphQL or the CLI), judged before body or parameters.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { invalidInput } from '../errors.ts';
import { appErrorOf, respondWithError } from '../graphql/errors.ts';
import { runOperation } from '../graphql/execute.ts';
import { AuditLogDocument, DeleteResponseDocument, DeleteResponsesDocument, EraseLeadDocument } from '../graphql/generated/graphql.ts';
import type { AppEnv } from '../http.ts';
import { methodNotAllowed, readJsonObject } from '../limits/request-safety.ts';
import { cursorParam, MAX_PAGE_SIZE } from '../keyset.ts';
import { bodyErrors, execute, operationContext, refuseUnlessApiKey, type RestDeps } from './respond.ts';
import { invalidQuery, parseParams, querySchema } from './responses.ts';
import { needs } from './access.ts';

/** The body of POST /api/v1/responses/delete (also the OpenAPI document's). */
export const bulkDeleteSchema = z
  .strictObject({
    formId: z.string().min(1).max(128).optional(),
    since: querySchema.shape.since,
    until: querySchema.shape.until,
    dateField: z.enum(['createdAt', 'updatedAt']).optional(),
    partialOnly: z.boolean().optional(),
  })
  .meta({ description: 'All conditions given must hold; give at least one of formId, since, until, partialOnly.' });

/** The query of GET /api/v1/audit-log. */
export const auditQuerySchema = z.object({
  limit: z
    .string()
    .regex(/^\d+$/, 'must be a positive integer')
    .transform(Number)
    .pipe(z.number().int().min(1, 'must be at least 1').max(MAX_PAGE_SIZE, `must be at most ${MAX_PAGE_SIZE}`))
    .optional(),
  after: cursorParam.optional(),
});

const AUDIT_PAGE_SIZE = 20;

/** An operation's argument problems with body paths (`filter.since` is `since`), else the error as it is. */
function withBodyPaths(error: unknown): unknown {
  const known = appErrorOf(error);
  if (known?.code !== 'BAD_USER_INPUT' || !known.errors) return error;
  return invalidInput(known.errors.map(({ message, path }) => ({ message, path: path[0] === 'filter' ? path.slice(1) : path })));
}

export function privacyRoutes(deps: RestDeps) {
  const routes = new Hono<AppEnv>();

  routes.post('/responses/delete', needs('responses:delete'), async (c) => {
    const refused = refuseUnlessApiKey(c);
    if (refused) return refused;
    const read = await readJsonObject(c, deps.maxJsonDepth);
    if ('response' in read) return read.response;
    const parsed = bulkDeleteSchema.safeParse(read.body);
    if (!parsed.success) return respondWithError(c, invalidInput(bodyErrors(parsed.error.issues)));
    const { formId, since, until, dateField, partialOnly } = parsed.data;
    const filter = {
      ...(formId !== undefined ? { formId } : {}),
      ...(since !== undefined ? { since } : {}),
      ...(until !== undefined ? { until } : {}),
      dateField: dateField === 'updatedAt' ? ('UPDATED_AT' as const) : ('CREATED_AT' as const),
      partialOnly: partialOnly ?? false,
    };
    const result = await runOperation(DeleteResponsesDocument, { filter }, operationContext(c, deps));
    if (result.error) return respondWithError(c, withBodyPaths(result.error));
    return c.json(result.data.deleteResponses, 200);
  });
  routes.all('/responses/delete', methodNotAllowed(['POST']));

  routes.delete('/responses/:id', needs('responses:delete'), async (c) => {
    const refused = refuseUnlessApiKey(c);
    if (refused) return refused;
    const result = await execute(c, deps, DeleteResponseDocument, { id: c.req.param('id') });
    if ('response' in result) return result.response;
    return c.json({ id: result.data.deleteResponse.id, deleted: true as const }, 200);
  });

  routes.delete('/leads/:id', needs('responses:delete'), async (c) => {
    const refused = refuseUnlessApiKey(c);
    if (refused) return refused;
    const result = await execute(c, deps, EraseLeadDocument, { id: c.req.param('id') });
    if ('response' in result) return result.response;
    return c.json(result.data.eraseLead, 200);
  });
  routes.all('/leads/:id', methodNotAllowed(['DELETE']));

  routes.get('/audit-log', needs('audit:read'), async (c) => {
    const refused = refuseUnlessApiKey(c);
    if (refused) return refused;
    const parsed = parseParams(c, auditQuerySchema);
    if ('errors' in parsed) return invalidQuery(c, parsed.errors);
    const result = await execute(c, deps, AuditLogDocument, { first: parsed.query.limit ?? AUDIT_PAGE_SIZE, after: parsed.query.after ?? null });
    if ('response' in result) return result.response;
    const { edges, pageInfo } = result.data.auditLog;
    return c.json({ data: edges.map((edge) => edge.node), nextCursor: pageInfo.hasNextPage ? (pageInfo.endCursor ?? null) : null }, 200);
  });
  routes.all('/audit-log', methodNotAllowed(['GET']));

  return routes;
}
