/**
 * v1 REST of share links, adapters of schema/operations/share-links.graphql:
 *   GET    /api/v1/forms/{formId}/share-links        the form's links (never a token)
 *   POST   /api/v1/forms/{formId}/share-links        a new link: 201 with its URL, shown once
 *   DELETE /api/v1/forms/{formId}/share-links/{id}   revoke it at once
 * For an environment's API key with `responses:read`.
 */
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { invalidInput } from '../errors.ts';
import { CreateShareLinkDocument, FormShareLinksDocument, RevokeShareLinkDocument } from '../graphql/generated/graphql.ts';
import { respondWithError } from '../graphql/errors.ts';
import type { AppEnv } from '../http.ts';
import { methodNotAllowed, readJsonObject } from '../limits/request-safety.ts';
import { needs } from './access.ts';
import { bodyErrors, execute, refuseUnlessApiKey, type RestDeps } from './respond.ts';

/** The body of POST …/share-links (also the OpenAPI document's). */
export const createShareLinkBodySchema = z.strictObject({
  expiresAt: z.iso
    .datetime({ offset: true, message: 'must be an ISO 8601 date-time with its offset (2027-01-31T00:00:00Z)' })
    .optional()
    .meta({
      description: 'When the link stops working (in the future). Left out: until revoked.',
      examples: ['2027-01-31T00:00:00Z'],
    }),
  includeTextAnswers: z.boolean().optional().meta({ description: 'List free-text answers (ShortInput, LongInput) on the page. Default false.' }),
});

export function shareLinksRoutes(deps: RestDeps) {
  const routes = new Hono<AppEnv>();
  const path = '/forms/:formId/share-links';

  routes.get(path, needs('responses:read'), async (c) => {
    const refused = refuseUnlessApiKey(c);
    if (refused) return refused;
    const result = await execute(c, deps, FormShareLinksDocument, { formId: c.req.param('formId') });
    if ('response' in result) return result.response;
    return c.json({ data: result.data.shareLinks }, 200);
  });
  routes.post(path, needs('responses:read'), createLink(deps));
  routes.all(path, methodNotAllowed(['GET', 'POST']));

  routes.delete(`${path}/:id`, needs('responses:read'), async (c) => {
    const refused = refuseUnlessApiKey(c);
    if (refused) return refused;
    const result = await execute(c, deps, RevokeShareLinkDocument, {
      formId: c.req.param('formId'),
      id: c.req.param('id'),
    });
    if ('response' in result) return result.response;
    return c.json(result.data.revokeShareLink, 200);
  });
  routes.all(`${path}/:id`, methodNotAllowed(['DELETE']));
  return routes;
}

const createLink = (deps: RestDeps) => async (c: Context<AppEnv>) => {
  const refused = refuseUnlessApiKey(c);
  if (refused) return refused;
  const read = await readJsonObject(c, deps.maxJsonDepth);
  if ('response' in read) return read.response;
  const parsed = createShareLinkBodySchema.safeParse(read.body);
  if (!parsed.success) return respondWithError(c, invalidInput(bodyErrors(parsed.error.issues)));
  const input = {
    includeTextAnswers: parsed.data.includeTextAnswers ?? false,
    ...(parsed.data.expiresAt === undefined ? {} : { expiresAt: new Date(parsed.data.expiresAt).toISOString() }),
  };
  const result = await execute(c, deps, CreateShareLinkDocument, { formId: c.req.param('formId')!, input });
  if ('response' in result) return result.response;
  const { url, shareLink } = result.data.createShareLink;
  return c.json({ ...shareLink, url }, 201);
};
