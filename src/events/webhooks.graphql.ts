/** GraphQL of webhooks (endpoints, deliveries, attempts, re-send) and the `responseEvents` subscription. */
import { actorOf, recordAudit } from '../audit/audit.service.ts';
import { actingEnvironment, requireScope, rowEnvironment } from '../auth/auth.service.ts';
import { coversForms, formLimitOf, requireFormReach } from '../auth/form-limits.ts';
import { DELIVERY_STATUSES } from '../db/schema.ts';
import { invalidInput, notFound } from '../errors.ts';
import { findForm } from '../forms/forms.service.ts';
import { GraphQLError } from 'graphql';
import { builder } from '../graphql/builder.ts';
import type { GraphQLContext } from '../graphql/context.ts';
import { appErrorOf, HTTP_STATUS, toGraphQLError } from '../graphql/errors.ts';
import { TooManyStreamsError, type LiveEvent } from './live-feed.ts';
import { WEBHOOK_EVENT_TYPES } from './outbox.ts';
import {
  attemptsOf,
  createEndpoint,
  deleteEndpoint,
  deliveryEndpoint,
  deliveryEnvironment,
  endpointEnvironment,
  endpointFormIds,
  getEndpoint,
  listDeliveries,
  listEndpoints,
  resendDelivery,
  testEndpoint,
  updateEndpoint,
  MAX_DELIVERY_PAGE,
  type DeliveryWithEvent,
  type EndpointInput,
  type WebhookAttempt,
  type WebhookDelivery,
  type WebhookEndpoint,
} from './webhooks.service.ts';

const invalidArguments = (message: string, path: string[]) => invalidInput([{ message, path }], 'Invalid arguments');

const EVENT_TYPES_DOC = `Event types: ${WEBHOOK_EVENT_TYPES.map((type) => `\`${type}\``).join(', ')}.`;

const DeliveryStatusEnum = builder.enumType('WebhookDeliveryStatus', {
  description: 'pending: waiting for its (next) attempt; delivering: being sent; succeeded; failed: every attempt failed.',
  values: Object.fromEntries(DELIVERY_STATUSES.map((status) => [status.toUpperCase(), { value: status }])),
});

const AttemptRef = builder.objectRef<WebhookAttempt>('WebhookAttempt').implement({
  description: 'One HTTP attempt of a delivery.',
  fields: (t) => ({
    attempt: t.exposeInt('attempt', { description: '1 for the first attempt.' }),
    startedAt: t.expose('startedAt', { type: 'DateTime' }),
    durationMs: t.exposeInt('durationMs', { description: 'From sending to the end of the answer (or the error).' }),
    statusCode: t.exposeInt('statusCode', { nullable: true, description: "The receiver's HTTP status; null when it did not answer." }),
    error: t.exposeString('error', { nullable: true, description: 'Why the attempt failed (HTTP status, timeout, connection error); null on success.' }),
    succeeded: t.exposeBoolean('succeeded'),
  }),
});

type DeliveryRecord = WebhookDelivery & Partial<Pick<DeliveryWithEvent, 'eventType' | 'payload'>>;

const DeliveryRef = builder.objectRef<DeliveryWithEvent>('WebhookDelivery').implement({
  description: 'One event for one endpoint. Its id is the `webhook-id` header, the same on every attempt and re-send.',
  fields: (t) => ({
    id: t.exposeID('id'),
    endpointId: t.exposeID('endpointId'),
    eventId: t.exposeID('eventId'),
    eventType: t.exposeString('eventType', { description: 'One of the WebhookEventType wire names, or `webhook.test`.' }),
    payload: t.field({ type: 'JSON', description: 'The JSON body sent: `{type, timestamp, data}`.', resolve: (d) => d.payload }),
    status: t.field({ type: DeliveryStatusEnum, resolve: (d) => d.status }),
    attemptCount: t.exposeInt('attempts', { description: 'Attempts made so far.' }),
    nextAttemptAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When the next attempt is due (pending deliveries only).',
      resolve: (d) => (d.status === 'pending' ? d.nextAttemptAt : null),
    }),
    lastStatusCode: t.exposeInt('lastStatusCode', { nullable: true }),
    lastError: t.exposeString('lastError', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    attempts: t.field({
      type: [AttemptRef],
      description: 'Every attempt, oldest first.',
      resolve: async (d, _, { db }) => (await attemptsOf(db, [d.id])).get(d.id) ?? [],
    }),
  }),
});

const EndpointRef = builder.objectRef<WebhookEndpoint>('WebhookEndpoint').implement({
  description: 'Where events of an environment are POSTed, signed per Standard Webhooks. The signing secret is shown only by createWebhookEndpoint.',
  fields: (t) => ({
    id: t.exposeID('id'),
    environmentId: t.exposeID('environmentId'),
    url: t.exposeString('url'),
    description: t.exposeString('description'),
    eventTypes: t.exposeStringList('eventTypes', { description: EVENT_TYPES_DOC }),
    formIds: t.exposeIDList('formIds', { nullable: true, description: 'Only events of these forms; null: every form.' }),
    enabled: t.exposeBoolean('enabled'),
    disabledReason: t.exposeString('disabledReason', {
      nullable: true,
      description: '`manual` (disabled by a caller) or `failing` (disabled after too many failed deliveries in a row); null when enabled.',
    }),
    failedDeliveriesInARow: t.exposeInt('failedDeliveriesInARow'),
    format: t.exposeString('format', { description: FORMAT_DOC }),
    includeAnswers: t.exposeBoolean('includeAnswers', { description: INCLUDE_ANSWERS_DOC }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    deliveries: t.field({
      type: [DeliveryRef],
      description: `The most recent deliveries, newest first (at most ${MAX_DELIVERY_PAGE}).`,
      args: { first: t.arg.int({ defaultValue: 20 }), status: t.arg({ type: DeliveryStatusEnum }) },
      complexity: (args) => ({ field: 1, multiplier: Math.min(Math.max(args.first ?? 20, 1), MAX_DELIVERY_PAGE) }),
      resolve: (e, args, { db }) => {
        const first = args.first ?? 20;
        if (first < 1 || first > MAX_DELIVERY_PAGE) throw invalidArguments(`first must be between 1 and ${MAX_DELIVERY_PAGE}`, ['first']);
        return listDeliveries(db, e.environmentId, e.id, { limit: first, status: args.status ?? undefined });
      },
    }),
  }),
});

const CreatePayload = builder.objectRef<{ endpoint: WebhookEndpoint; secret: string }>('CreateWebhookEndpointPayload').implement({
  fields: (t) => ({
    endpoint: t.field({ type: EndpointRef, resolve: (p) => p.endpoint }),
    secret: t.exposeString('secret', { description: 'The signing secret (`whsec_…`). Shown only here: store it now.' }),
  }),
});

const DeletedRef = builder.objectRef<{ id: string; deleted: boolean }>('DeletedWebhookEndpoint').implement({
  fields: (t) => ({ id: t.exposeID('id'), deleted: t.exposeBoolean('deleted') }),
});

const FORMAT_DOC = '`standard` (the event as JSON, the default) or `slack` (`{text, blocks}` that Slack and Mattermost incoming webhooks show; still signed).';
const INCLUDE_ANSWERS_DOC = "`slack` only: put the response's answers in the message (passwords never). Default false.";

const CreateInput = builder.inputType('CreateWebhookEndpointInput', {
  fields: (t) => ({
    environmentId: t.id({ description: 'Required with the admin token; an API key works in its own environment.' }),
    url: t.string({ required: true, description: 'http(s) URL; loopback, private and link-local addresses are refused unless WEBHOOK_ALLOW_PRIVATE=1.' }),
    eventTypes: t.stringList({ required: true, description: `At least one. ${EVENT_TYPES_DOC}` }),
    formIds: t.idList({ description: 'Only events of these forms (of the environment); omit or null for every form.' }),
    description: t.string(),
    enabled: t.boolean({ description: 'Default true.' }),
    format: t.string({ description: FORMAT_DOC }),
    includeAnswers: t.boolean({ description: INCLUDE_ANSWERS_DOC }),
  }),
});

const UpdateInput = builder.inputType('UpdateWebhookEndpointInput', {
  fields: (t) => ({
    url: t.string(),
    eventTypes: t.stringList({ description: EVENT_TYPES_DOC }),
    formIds: t.idList({ description: 'null: every form.' }),
    description: t.string(),
    enabled: t.boolean({ description: 'true re-enables an endpoint (also one disabled for failing) and clears its failure count.' }),
    format: t.string({ description: FORMAT_DOC }),
    includeAnswers: t.boolean({ description: INCLUDE_ANSWERS_DOC }),
  }),
});

function endpointInput(
  input: {
    url?: string | null;
    eventTypes?: readonly string[] | null;
    formIds?: readonly (string | number)[] | null;
    description?: string | null;
    enabled?: boolean | null;
    format?: string | null;
    includeAnswers?: boolean | null;
  },
  partial: boolean,
): EndpointInput {
  return {
    url: input.url ?? undefined,
    eventTypes: input.eventTypes ?? undefined,
    formIds: input.formIds === null ? (partial ? null : undefined) : input.formIds?.map(String),
    description: input.description ?? undefined,
    enabled: input.enabled ?? undefined,
    format: input.format ?? undefined,
    includeAnswers: input.includeAnswers ?? undefined,
  };
}

/**
 * Throws NOT_FOUND (`missing`) unless the caller may manage endpoint `endpointId`: a key limited to forms
 * manages only endpoints limited to forms that are all its own (an endpoint of every form is another's).
 */
async function requireEndpointReach(ctx: GraphQLContext, endpointId: string | undefined, missing: string) {
  if (formLimitOf(ctx.principal) === null) return;
  const formIds = endpointId === undefined ? undefined : await endpointFormIds(ctx.db, endpointId);
  if (formIds === undefined || !coversForms(ctx.principal, formIds)) throw notFound(missing);
}

/** The environment of endpoint `id` for a caller that may manage it. */
async function endpointScope(ctx: GraphQLContext, id: string): Promise<string> {
  await requireEndpointReach(ctx, id, 'Webhook endpoint not found');
  return rowEnvironment(ctx.principal, () => endpointEnvironment(ctx.db, id), 'Webhook endpoint not found');
}

/**
 * The forms an endpoint made or changed by the caller listens to: a key limited to forms may name only
 * its own (the service reports another as `No form with this id in the environment`, as for another
 * environment's form) and, naming none, gets its own; it cannot make an endpoint of every form.
 */
function reachableEndpointForms(ctx: GraphQLContext, input: EndpointInput, partial: boolean): EndpointInput {
  const limit = formLimitOf(ctx.principal);
  if (limit === null) return input;
  return { ...input, formLimit: limit, ...(input.formIds === undefined && !partial ? { formIds: [...limit] } : {}) };
}

builder.queryField('webhookEndpoints', (t) =>
  t.field({
    authScopes: { scope: 'webhooks:manage' },
    type: [EndpointRef],
    description: "The environment's webhook endpoints, oldest first.",
    args: { environmentId: t.arg.id({ description: 'Required with the admin token.' }) },
    resolve: async (_, args, ctx) =>
      (await listEndpoints(ctx.db, actingEnvironment(ctx.principal, args.environmentId))).filter((endpoint) => coversForms(ctx.principal, endpoint.formIds)),
  }),
);

builder.queryField('webhookEndpoint', (t) =>
  t.field({
    authScopes: { scope: 'webhooks:manage' },
    type: EndpointRef,
    description: 'One webhook endpoint of the environment.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_, args, ctx) => {
      const id = String(args.id);
      return getEndpoint(ctx.db, await endpointScope(ctx, id), id);
    },
  }),
);

builder.mutationField('createWebhookEndpoint', (t) =>
  t.field({
    authScopes: { scope: 'webhooks:manage' },
    type: CreatePayload,
    description: 'Creates an endpoint; the payload carries its signing secret, shown only this once.',
    args: { input: t.arg({ type: CreateInput, required: true }) },
    resolve: async (_, { input }, ctx) => {
      const environmentId = actingEnvironment(ctx.principal, input.environmentId);
      const created = await createEndpoint(ctx.db, environmentId, reachableEndpointForms(ctx, endpointInput(input, false), false), ctx.webhookRules);
      await recordAudit(ctx.db, { environmentId, actor: actorOf(ctx.principal), action: 'webhook.create', targetIds: [created.endpoint.id] });
      return created;
    },
  }),
);

builder.mutationField('updateWebhookEndpoint', (t) =>
  t.field({
    authScopes: { scope: 'webhooks:manage' },
    type: EndpointRef,
    description: 'Changes an endpoint: URL, event types, forms, description, enabled.',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateInput, required: true }) },
    resolve: async (_, args, ctx) => {
      const id = String(args.id);
      const environmentId = await endpointScope(ctx, id);
      const updated = await updateEndpoint(ctx.db, environmentId, id, reachableEndpointForms(ctx, endpointInput(args.input, true), true), ctx.webhookRules);
      await recordAudit(ctx.db, { environmentId, actor: actorOf(ctx.principal), action: 'webhook.update', targetIds: [id] });
      return updated;
    },
  }),
);

builder.mutationField('deleteWebhookEndpoint', (t) =>
  t.field({
    authScopes: { scope: 'webhooks:manage' },
    type: DeletedRef,
    description: 'Deletes an endpoint with its deliveries.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_, args, ctx) => {
      const id = String(args.id);
      const environmentId = await endpointScope(ctx, id);
      const deleted = await deleteEndpoint(ctx.db, environmentId, id);
      await recordAudit(ctx.db, { environmentId, actor: actorOf(ctx.principal), action: 'webhook.delete', targetIds: [id] });
      return { id: deleted.id, deleted: true };
    },
  }),
);

builder.mutationField('testWebhookEndpoint', (t) =>
  t.field({
    authScopes: { scope: 'webhooks:manage' },
    type: DeliveryRef,
    description: 'Queues a `webhook.test` event for this endpoint only and returns its delivery.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_, args, ctx) => {
      const id = String(args.id);
      const environmentId = await endpointScope(ctx, id);
      const delivery: DeliveryRecord = await testEndpoint(ctx.db, environmentId, id);
      return { ...delivery, eventType: 'webhook.test', payload: { type: 'webhook.test', timestamp: delivery.createdAt.toISOString(), data: {} } };
    },
  }),
);

builder.mutationField('resendWebhookDelivery', (t) =>
  t.field({
    authScopes: { scope: 'webhooks:manage' },
    type: DeliveryRef,
    description: 'Sends a delivery again now, with the same webhook-id, whatever its status (CONFLICT while it is being sent).',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_, args, ctx) => {
      const id = String(args.id);
      if (formLimitOf(ctx.principal) !== null) await requireEndpointReach(ctx, await deliveryEndpoint(ctx.db, id), 'Webhook delivery not found');
      const environmentId = await rowEnvironment(ctx.principal, () => deliveryEnvironment(ctx.db, id), 'Webhook delivery not found');
      return resendDelivery(ctx.db, environmentId, id);
    },
  }),
);

// ---------------------------------------------------------------- live feed

const ResponseEventRef = builder.objectRef<LiveEvent>('ResponseEvent').implement({
  description: 'A response event, as webhooks receive it: `data` is the response object of `GET /api/v1/responses`.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The event id (the same event on every node and every subscriber).' }),
    type: t.exposeString('type', { description: '`response.created`, `response.updated` or `response.finished`.' }),
    timestamp: t.field({ type: 'DateTime', resolve: (e) => e.timestamp }),
    formId: t.exposeID('formId', { nullable: true }),
    data: t.field({ type: 'JSON', resolve: (e) => e.data }),
  }),
});

/**
 * A subscription refused before it starts (no key, a foreign form) is answered with the error's
 * documented status (401, 403, 404 …), as yoga reads it from `extensions.http`; otherwise yoga calls
 * every failure to start a stream a 500.
 */
async function withHttpStatus<T>(start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (error) {
    const appError = appErrorOf(error);
    if (!appError) throw error;
    const graphQLError = toGraphQLError(appError);
    const retryAfter = appError instanceof TooManyStreamsError ? { headers: { 'Retry-After': String(appError.retryAfterSeconds) } } : {};
    // Without originalError, so the masking keeps it as the client's error with its status.
    throw new GraphQLError(graphQLError.message, {
      extensions: { ...graphQLError.extensions, http: { status: HTTP_STATUS[appError.code], ...retryAfter } },
    });
  }
}

builder.subscriptionType({ description: 'Live feeds, over server-sent events (`Accept: text/event-stream`).' });

builder.subscriptionField('responseEvents', (t) =>
  t.field({
    authScopes: { scope: 'responses:read' },
    type: ResponseEventRef,
    description:
      "The environment's response events from now on (of one form with formId), whichever node the change happened on. A client that falls behind by SUBSCRIPTION_BUFFER events is cut off with an error; a stream ends with an UNAUTHENTICATED error as soon as its API key is revoked or expires, and is completed by the server after SUBSCRIPTION_MAX_LIFETIME (subscribe again). An API key may hold SUBSCRIPTION_MAX_PER_KEY streams at once; the next is refused with 429 and Retry-After.",
    args: { formId: t.arg.id(), environmentId: t.arg.id({ description: 'Required with the admin token.' }) },
    subscribe: (_, args, ctx) =>
      withHttpStatus(async () => {
        requireScope(ctx.principal, 'responses:read');
        const environmentId = actingEnvironment(ctx.principal, args.environmentId);
        const formId = args.formId === null || args.formId === undefined ? undefined : String(args.formId);
        if (formId !== undefined) requireFormReach(ctx.principal, formId);
        if (formId !== undefined && !(await findForm(ctx.db, environmentId, formId))) throw notFound('Form not found');
        if (!ctx.liveFeed) throw new Error('live feed not configured');
        const holder = ctx.principal.kind === 'apiKey' ? { kind: 'apiKey' as const, keyId: ctx.principal.keyId, expiresAt: ctx.principal.expiresAt } : { kind: 'admin' as const };
        return ctx.liveFeed.subscribe({ environmentId, formId, formIds: formLimitOf(ctx.principal) ?? undefined, holder, signal: ctx.signal });
      }),
    resolve: (event) => event,
  }),
);
