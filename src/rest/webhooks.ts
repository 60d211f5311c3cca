/**
 * v1 REST of webhooks, adapters of the webhook operations (schema/operations/webhooks.graphql):
 *   GET/POST /api/v1/webhooks, GET/PATCH/DELETE /api/v1/webhooks/{id}, POST /api/v1/webhooks/{id}/test,
 *   GET /api/v1/webhooks/{id}/deliveries, POST /api/v1/webhook-deliveries/{id}/resend.
 * An environment's API key works in its own environment (the admin token uses GraphQL or the CLI).
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { invalidInput, type FieldError } from '../errors.ts';
import {
  CreateWebhookEndpointDocument,
  DeleteWebhookEndpointDocument,
  ResendWebhookDeliveryDocument,
  TestWebhookEndpointDocument,
  UpdateWebhookEndpointDocument,
  WebhookDeliveriesDocument,
  WebhookEndpointDocument,
  WebhookEndpointsDocument,
  type WebhookDeliveryFieldsFragment,
  type WebhookDeliveryStatus,
} from '../graphql/generated/graphql.ts';
import type { AppEnv } from '../http.ts';
import { methodNotAllowed, readJsonObject } from '../limits/request-safety.ts';
import { MAX_DELIVERY_PAGE } from '../events/webhooks.service.ts';
import { bodyErrors, execute, refuseUnlessApiKey, type RestDeps } from './respond.ts';
import { respondWithError } from '../graphql/errors.ts';
import { needs } from './access.ts';

const stringList = z.array(z.string().max(2048)).max(100);
/** The bodies of POST and PATCH /api/v1/webhooks (also the OpenAPI document's, rest/openapi.ts). */
export const createSchema = z.strictObject({
  url: z.string(),
  eventTypes: stringList,
  formIds: stringList.nullable().optional(),
  description: z.string().optional(),
  enabled: z.boolean().optional(),
  format: z.string().optional(),
  includeAnswers: z.boolean().optional(),
});
export const updateSchema = createSchema.partial();

/** A delivery as REST writes it: the status in lower case, as docs/webhooks.md documents. */
const restDelivery = (d: WebhookDeliveryFieldsFragment) => ({ ...d, status: d.status.toLowerCase() });

/** A Map, not an object: a query value such as `valueOf` or `__proto__` must not find Object.prototype's members. */
const STATUS_PARAM = new Map<string, WebhookDeliveryStatus>([
  ['pending', 'PENDING'],
  ['delivering', 'DELIVERING'],
  ['succeeded', 'SUCCEEDED'],
  ['failed', 'FAILED'],
]);

export function webhooksRoutes(deps: RestDeps) {
  const routes = new Hono<AppEnv>();

  routes.get('/webhooks', needs('webhooks:manage'), async (c) => {
    const refused = refuseUnlessApiKey(c);
    if (refused) return refused;
    const result = await execute(c, deps, WebhookEndpointsDocument, {});
    if ('response' in result) return result.response;
    return c.json({ data: result.data.webhookEndpoints }, 200);
  });
  routes.post('/webhooks', needs('webhooks:manage'), async (c) => {
    const refused = refuseUnlessApiKey(c);
    if (refused) return refused;
    const read = await readJsonObject(c, deps.maxJsonDepth);
    if ('response' in read) return read.response;
    const parsed = createSchema.safeParse(read.body);
    if (!parsed.success) return respondWithError(c, invalidInput(bodyErrors(parsed.error.issues)));
    const result = await execute(c, deps, CreateWebhookEndpointDocument, { input: parsed.data });
    if ('response' in result) return result.response;
    const { endpoint, secret } = result.data.createWebhookEndpoint;
    return c.json({ ...endpoint, secret }, 201);
  });
  routes.all('/webhooks', methodNotAllowed(['GET', 'POST']));

  routes.get('/webhooks/:id', needs('webhooks:manage'), async (c) => {
    const refused = refuseUnlessApiKey(c);
    if (refused) return refused;
    const result = await execute(c, deps, WebhookEndpointDocument, { id: c.req.param('id') });
    if ('response' in result) return result.response;
    return c.json(result.data.webhookEndpoint, 200);
  });
  routes.patch('/webhooks/:id', needs('webhooks:manage'), async (c) => {
    const refused = refuseUnlessApiKey(c);
    if (refused) return refused;
    const read = await readJsonObject(c, deps.maxJsonDepth);
    if ('response' in read) return read.response;
    const parsed = updateSchema.safeParse(read.body);
    if (!parsed.success) return respondWithError(c, invalidInput(bodyErrors(parsed.error.issues)));
    const result = await execute(c, deps, UpdateWebhookEndpointDocument, { id: c.req.param('id'), input: parsed.data });
    if ('response' in result) return result.response;
    return c.json(result.data.updateWebhookEndpoint, 200);
  });
  routes.delete('/webhooks/:id', needs('webhooks:manage'), async (c) => {
    const refused = refuseUnlessApiKey(c);
    if (refused) return refused;
    const result = await execute(c, deps, DeleteWebhookEndpointDocument, { id: c.req.param('id') });
    if ('response' in result) return result.response;
    return c.json(result.data.deleteWebhookEndpoint, 200);
  });
  routes.all('/webhooks/:id', methodNotAllowed(['GET', 'PATCH', 'DELETE']));

  routes.post('/webhooks/:id/test', needs('webhooks:manage'), async (c) => {
    const refused = refuseUnlessApiKey(c);
    if (refused) return refused;
    const result = await execute(c, deps, TestWebhookEndpointDocument, { id: c.req.param('id') });
    if ('response' in result) return result.response;
    return c.json(restDelivery(result.data.testWebhookEndpoint), 202);
  });
  routes.all('/webhooks/:id/test', methodNotAllowed(['POST']));

  routes.get('/webhooks/:id/deliveries', needs('webhooks:manage'), async (c) => {
    const refused = refuseUnlessApiKey(c);
    if (refused) return refused;
    const errors: FieldError[] = [];
    const limitRaw = c.req.query('limit');
    const statusRaw = c.req.query('status');
    const limit = limitRaw === undefined ? 20 : /^\d+$/.test(limitRaw) ? Number(limitRaw) : Number.NaN;
    if (!(limit >= 1 && limit <= MAX_DELIVERY_PAGE)) errors.push({ message: `limit must be an integer between 1 and ${MAX_DELIVERY_PAGE}`, path: ['limit'] });
    const status = statusRaw === undefined ? undefined : STATUS_PARAM.get(statusRaw);
    if (statusRaw !== undefined && !status) errors.push({ message: `status must be one of ${[...STATUS_PARAM.keys()].join(', ')}`, path: ['status'] });
    if (errors.length > 0) return c.json({ message: 'Invalid query parameters', errors }, 400);
    const result = await execute(c, deps, WebhookDeliveriesDocument, { id: c.req.param('id'), first: limit, status: status ?? null });
    if ('response' in result) return result.response;
    return c.json({ data: result.data.webhookEndpoint.deliveries.map(restDelivery) }, 200);
  });
  routes.all('/webhooks/:id/deliveries', methodNotAllowed(['GET']));

  routes.post('/webhook-deliveries/:id/resend', needs('webhooks:manage'), async (c) => {
    const refused = refuseUnlessApiKey(c);
    if (refused) return refused;
    const result = await execute(c, deps, ResendWebhookDeliveryDocument, { id: c.req.param('id') });
    if ('response' in result) return result.response;
    return c.json(restDelivery(result.data.resendWebhookDelivery), 202);
  });
  routes.all('/webhook-deliveries/:id/resend', methodNotAllowed(['POST']));

  return routes;
}
