/** v1 REST: POST /api/v1/environments/{environmentId}/forms/generate, an adapter of `generateForm`. */
import { Hono } from 'hono';
import { requireEnvironmentAccess } from '../auth/auth.service.ts';
import { invalidInput, notFound, toFieldErrors } from '../errors.ts';
import { findForm } from '../forms/forms.service.ts';
import { generateFormInputSchema } from '../forms/components.ts';
import { CloseFormDocument, GenerateFormDocument, ReopenFormDocument } from '../graphql/generated/graphql.ts';
import type { AppEnv } from '../http.ts';
import { methodNotAllowed, readJsonObject } from '../limits/request-safety.ts';
import { parseIdempotencyKey } from '../idempotency/idempotency.service.ts';
import { runOperation } from '../graphql/execute.ts';
import { execute, operationContext, type RestDeps } from './respond.ts';
import { respondWithError } from '../graphql/errors.ts';

export function formsRoutes(deps: RestDeps) {
  const routes = new Hono<AppEnv>();

  routes.post('/environments/:environmentId/forms/generate', async (c) => {
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
    routes.post(path, async (c) => {
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

  return routes;
}
