/**
 * v1 REST of forms, adapters of the form operations (schema/operations/forms.graphql):
 *   POST  /api/v1/environments/{environmentId}/forms/generate            generateForm
 *   POST  /api/v1/environments/{environmentId}/forms/{formId}/close|reopen   closeForm / reopenForm
 *   GET   /api/v1/forms                the environment's forms, newest first, keyset pages (Environment.forms)
 *   GET   /api/v1/forms/{formId}       one form with its definition; ETag: "<version>"
 *   PATCH /api/v1/forms/{formId}       updateForm: a new version; If-Match: "<version>", Idempotency-Key
 * The /forms routes take an environment's API key, in its own environment: another environment's
 * form is 404 like an unknown one.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { requireEnvironmentAccess } from '../auth/auth.service.ts';
import { invalidInput, notFound, toFieldErrors } from '../errors.ts';
import { findForm } from '../forms/forms.service.ts';
import { generateFormInputSchema, updateFormInputSchema } from '../forms/components.ts';
import {
  CloseFormDocument,
  EnvironmentFormsDocument,
  GenerateFormDocument,
  ReopenFormDocument,
  RestFormDocument,
  UpdateFormDocument,
  type FormStatus,
  type RestFormFieldsFragment,
  type UpdateFormInput,
} from '../graphql/generated/graphql.ts';
import type { AppEnv } from '../http.ts';
import { methodNotAllowed, readJsonObject } from '../limits/request-safety.ts';
import { parseIdempotencyKey } from '../idempotency/idempotency.service.ts';
import { runOperation } from '../graphql/execute.ts';
import { cursorParam, MAX_PAGE_SIZE } from '../keyset.ts';
import { DEFAULT_PAGE_SIZE } from '../graphql/pagination.ts';
import { bodyErrors, execute, operationContext, refuseUnlessApiKey, type RestDeps } from './respond.ts';
import { respondWithError } from '../graphql/errors.ts';
import { invalidQuery, limitParam, parseParams, respondWithOperationError } from './responses.ts';
import { needs } from './access.ts';

/** The query parameters of GET /api/v1/forms (also the OpenAPI document's). */
export const formsQuerySchema = z.object({
  limit: limitParam.pipe(z.number().max(MAX_PAGE_SIZE, `must be at most ${MAX_PAGE_SIZE}`)).optional(),
  after: cursorParam.optional(),
  status: z.enum(['draft', 'published', 'closed'], { message: 'must be draft, published or closed' }).optional(),
  nameContains: z.string().min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional(),
});

/** A form as the REST API lists it (its status in lower case, as the close and reopen answers write it). */
const restForm = (form: RestFormFieldsFragment) => ({ ...form, status: form.status.toLowerCase() });

/** The ETag of a form's version: the version number, quoted. */
export const etagOf = (version: number) => `"${version}"`;

/**
 * The version an If-Match header names: one entity tag, `"<version>"`, or `*` (any: undefined). A tag
 * that is not a version (weak, or not a number) names none that can be current: `expectedVersion` 0.
 */
export function expectedVersionOf(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  const value = header.trim();
  if (value === '*') return undefined;
  const tag = /^(W\/)?"([\x21\x23-\x7e]*)"$/.exec(value);
  if (!tag) {
    throw invalidInput([{ message: 'If-Match must be one entity tag: the form\'s version in quotes, e.g. "3" (or *)', path: ['If-Match'] }], 'Invalid If-Match header');
  }
  return !tag[1] && /^[1-9]\d{0,9}$/.test(tag[2]!) && Number(tag[2]) <= 2_147_483_647 ? Number(tag[2]) : 0;
}

export function formsRoutes(deps: RestDeps) {
  const routes = new Hono<AppEnv>();

  routes.post('/environments/:environmentId/forms/generate', needs('forms:write'), async (c) => {
    const environmentId = c.req.param('environmentId');
    // Credentials are judged before the body, so a caller without access learns nothing from it.
    try {
      requireEnvironmentAccess(c.var.principal, environmentId);
    } catch (error) {
      return respondWithError(c, error);
    }
    const read = await readJsonObject(c, deps.maxJsonDepth);
    if ('response' in read) return read.response;
    // The body is checked against the same zod schema generateForm validates with, here, so that
    // shape errors GraphQL's type system would reject first (a number for `name`, say) are reported
    // together with every other problem, with paths from the body's root.
    const parsed = generateFormInputSchema.safeParse(read.body);
    if (!parsed.success) return respondWithError(c, invalidInput(toFieldErrors(parsed.error.issues)));

    let key: string | undefined;
    try {
      key = parseIdempotencyKey(c.req.header('idempotency-key'));
    } catch (error) {
      return respondWithError(c, error);
    }
    const context = { ...operationContext(c, deps), idempotency: key === undefined ? undefined : { key, replayed: false } };
    const result = await runOperation(GenerateFormDocument, { environmentId, input: parsed.data }, context);
    if (result.error) return respondWithError(c, result.error);
    const { success, form } = result.data.generateForm;
    if (context.idempotency?.replayed) c.header('Idempotent-Replayed', 'true');
    return c.json({ success, result: { form: { id: form.id, url: form.url } } }, 200);
  });
  routes.all('/environments/:environmentId/forms/generate', methodNotAllowed(['POST']));

  // Closing and reopening (no body): adapters of `closeForm` / `reopenForm`. The form must be a live
  // form of the path's environment; another environment's form is 404 like an unknown one.
  for (const action of ['close', 'reopen'] as const) {
    const path = `/environments/:environmentId/forms/:formId/${action}`;
    routes.post(path, needs('forms:write'), async (c) => {
      const environmentId = c.req.param('environmentId') ?? '';
      const formId = c.req.param('formId') ?? '';
      try {
        requireEnvironmentAccess(c.var.principal, environmentId);
        // The admin token names the environment in the path: the form must be one of its forms.
        if (c.var.principal.kind === 'admin' && !(await findForm(deps.db, environmentId, formId))) throw notFound('Form not found');
      } catch (error) {
        return respondWithError(c, error);
      }
      const result =
        action === 'close'
          ? await execute(c, deps, CloseFormDocument, { id: formId }).then((r) => ('response' in r ? r : { data: r.data.closeForm }))
          : await execute(c, deps, ReopenFormDocument, { id: formId }).then((r) => ('response' in r ? r : { data: r.data.reopenForm }));
      if ('response' in result) return result.response;
      return c.json({ id: result.data.id, status: result.data.status.toLowerCase() }, 200);
    });
    routes.all(path, methodNotAllowed(['POST']));
  }

  routes.get('/forms', needs('forms:read'), async (c) => {
    const refused = refuseUnlessApiKey(c);
    if (refused) return refused;
    const parsed = parseParams(c, formsQuerySchema);
    if ('errors' in parsed) return invalidQuery(c, parsed.errors);
    const { limit, after, status, nameContains } = parsed.query;
    const filter = { ...(status ? { status: status.toUpperCase() as FormStatus } : {}), ...(nameContains !== undefined ? { nameContains } : {}) };
    const result = await runOperation(EnvironmentFormsDocument, { first: limit ?? DEFAULT_PAGE_SIZE, after: after ?? null, filter }, operationContext(c, deps));
    if (result.error) return respondWithOperationError(c, result.error);
    const forms = result.data.viewer.environment!.forms;
    return c.json({ data: forms.edges.map((edge) => restForm(edge.node)), nextCursor: forms.pageInfo.hasNextPage ? (forms.pageInfo.endCursor ?? null) : null }, 200);
  });
  routes.all('/forms', methodNotAllowed(['GET']));

  routes.get('/forms/:formId', needs('forms:read'), async (c) => {
    const refused = refuseUnlessApiKey(c);
    if (refused) return refused;
    const result = await execute(c, deps, RestFormDocument, { id: c.req.param('formId') });
    if ('response' in result) return result.response;
    const form = result.data.form;
    if (!form) return respondWithError(c, notFound('Form not found'));
    const { definition, limits, finishedResponses, quotas, ...fields } = form;
    // The definition's fields: hidden fields, steps, and any added later.
    // Its name as the definition writes it: one text per language when translated (what PATCH takes back).
    const { name, hiddenFields, steps, ...more } = definition.json as Record<string, unknown>;
    c.header('ETag', etagOf(form.version));
    const settings = { limits: limits ? restLimits(limits) : null, finishedResponses, quotas: quotas.map((quota) => ({ ...(quota.json as object), count: quota.count })) };
    return c.json({ data: { ...restForm(fields), name, hiddenFields, steps, ...more, ...settings } }, 200);
  });

  routes.patch('/forms/:formId', needs('forms:write'), async (c) => {
    const refused = refuseUnlessApiKey(c);
    if (refused) return refused;
    let expectedVersion: number | undefined;
    let key: string | undefined;
    try {
      expectedVersion = expectedVersionOf(c.req.header('if-match'));
      key = parseIdempotencyKey(c.req.header('idempotency-key'));
    } catch (error) {
      return respondWithError(c, error);
    }
    const read = await readJsonObject(c, deps.maxJsonDepth);
    if ('response' in read) return read.response;
    // Checked here with updateForm's schema so that every problem comes back at once with its body path,
    // including those GraphQL's types would refuse first (a number for `name`, say), as generate does.
    const parsed = updateFormInputSchema.safeParse(read.body);
    if (!parsed.success) return respondWithError(c, invalidInput(bodyErrors(parsed.error.issues)));
    const context = { ...operationContext(c, deps), idempotency: key === undefined ? undefined : { key, replayed: false } };
    const variables = { id: c.req.param('formId'), input: parsed.data satisfies UpdateFormInput, expectedVersion: expectedVersion ?? null };
    const result = await runOperation(UpdateFormDocument, variables, context);
    if (result.error) return respondWithError(c, result.error);
    const { success, version, form } = result.data.updateForm;
    if (context.idempotency?.replayed) c.header('Idempotent-Replayed', 'true');
    c.header('ETag', etagOf(version));
    return c.json({ success, result: { form: { id: form.id, url: form.url, version } } }, 200);
  });
  routes.all('/forms/:formId', methodNotAllowed(['GET', 'PATCH']));

  return routes;
}

/** A form's limits as GET shows them and PATCH takes them back: a translated message as one text per language. */
function restLimits({ json, ...limits }: { json: unknown; closedMessage?: string | null; notYetOpenMessage?: string | null }) {
  const given = json as { closedMessage?: unknown; notYetOpenMessage?: unknown };
  return { ...limits, closedMessage: given.closedMessage ?? null, notYetOpenMessage: given.notYetOpenMessage ?? null };
}
