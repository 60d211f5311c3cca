/**
 * v1 REST of a form's e-mail delivery log, adapters of schema/operations/notifications.graphql:
 *   GET /api/v1/forms/{formId}/notifications/deliveries (`limit`, `after`: one page and `nextCursor`),
 *   POST /api/v1/forms/{formId}/notifications/deliveries/{id}/retry.
 * An environment's API key works on its own forms; another environment's form is 404.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { FormNotificationDeliveriesDocument, RetryNotificationDeliveryDocument, type NotificationDeliveryFieldsFragment } from '../graphql/generated/graphql.ts';
import type { AppEnv } from '../http.ts';
import { cursorParam, MAX_PAGE_SIZE } from '../keyset.ts';
import { methodNotAllowed } from '../limits/request-safety.ts';
import { needs } from './access.ts';
import { bodyErrors, execute, refuseUnlessApiKey, type RestDeps } from './respond.ts';
import { limitParam } from './responses.ts';

/** The listing's query parameters (also the OpenAPI document's, rest/openapi.ts). */
export const deliveriesQuerySchema = z.strictObject({
  limit: limitParam.pipe(z.number().max(MAX_PAGE_SIZE, `must be at most ${MAX_PAGE_SIZE}`)).optional(),
  after: cursorParam.optional(),
});

/** A delivery as REST writes it: kind and status in lower case, as docs/notifications.md shows them. */
export const restNotificationDelivery = (d: NotificationDeliveryFieldsFragment) => ({
  ...d,
  kind: d.kind.toLowerCase(),
  status: d.status.toLowerCase().replaceAll('_', '-'),
});

export function notificationsRoutes(deps: RestDeps) {
  const routes = new Hono<AppEnv>();
  const path = '/forms/:formId/notifications/deliveries';

  routes.get(path, needs('responses:read'), async (c) => {
    const refused = refuseUnlessApiKey(c);
    if (refused) return refused;
    const parsed = deliveriesQuerySchema.safeParse(c.req.query());
    if (!parsed.success) return c.json({ message: 'Invalid query parameters', errors: bodyErrors(parsed.error.issues) }, 400);
    const variables = {
      formId: c.req.param('formId'),
      first: parsed.data.limit ?? 20,
      after: parsed.data.after ?? null,
    };
    const result = await execute(c, deps, FormNotificationDeliveriesDocument, variables);
    if ('response' in result) return result.response;
    const { edges, pageInfo } = result.data.formNotificationDeliveries;
    return c.json(
      {
        data: edges.map((edge) => restNotificationDelivery(edge.node)),
        nextCursor: pageInfo.hasNextPage ? pageInfo.endCursor : null,
      },
      200,
    );
  });
  routes.all(path, methodNotAllowed(['GET']));

  routes.post(`${path}/:id/retry`, needs('settings:manage'), async (c) => {
    const refused = refuseUnlessApiKey(c);
    if (refused) return refused;
    const result = await execute(c, deps, RetryNotificationDeliveryDocument, {
      id: c.req.param('id'),
      formId: c.req.param('formId'),
    });
    if ('response' in result) return result.response;
    return c.json(restNotificationDelivery(result.data.retryNotificationDelivery), 202);
  });
  routes.all(`${path}/:id/retry`, methodNotAllowed(['POST']));

  return routes;
}
