/** The GraphQL of a form's e-mail delivery log: `Form.notificationDeliveries` and `retryNotificationDelivery`. */
import { requireApiKey, rowEnvironment } from '../auth/auth.service.ts';
import { formLimitOf, requireFormReach } from '../auth/form-limits.ts';
import { notFound } from '../errors.ts';
import { findForm, findFormById, type Form } from '../forms/forms.service.ts';
import type { GraphQLContext } from '../graphql/context.ts';
import { FormRef } from '../forms/forms.graphql.ts';
import { builder } from '../graphql/builder.ts';
import { checkPageArgs, DEFAULT_PAGE_SIZE, keysetConnection, pageComplexity } from '../graphql/pagination.ts';
import { MAX_PAGE_SIZE } from '../keyset.ts';
import { environmentHasSmtp } from './smtp-settings.ts';
import { deliveryPage, LISTED_STATUSES, notificationEnvironment, notificationForm, retryNotificationDelivery, type ListedDelivery } from './deliveries.service.ts';

// ---------------------------------------------------------------- the delivery log

const NotificationKindEnum = builder.enumType('NotificationKind', {
  description: '`TEAM`: an alert to the team; `RESPONDENT`: a confirmation to the respondent.',
  values: { TEAM: { value: 'team' }, RESPONDENT: { value: 'respondent' } } as const,
});

const NotificationStatusEnum = builder.enumType('NotificationDeliveryStatus', {
  description:
    '`PENDING` (due, or waiting for a retry), `SENDING` (a node is sending it), `SENT` (the SMTP server took it), `FAILED` (a 5xx reply, or no retries left), `SUPPRESSED` (a confirmation limit kept it back), `WAITING_FOR_SMTP` (pending, and no SMTP server is configured).',
  values: Object.fromEntries(LISTED_STATUSES.map((status) => [status.toUpperCase().replaceAll('-', '_'), { value: status }])),
});

const NotificationDeliveryRef = builder.objectRef<ListedDelivery>('NotificationDelivery').implement({
  description: 'One e-mail to one address about one response.',
  fields: (t) => ({
    id: t.exposeID('id'),
    formId: t.exposeID('formId'),
    responseId: t.exposeID('responseId'),
    kind: t.field({ type: NotificationKindEnum, resolve: (d) => d.kind }),
    trigger: t.exposeString('trigger', {
      description: 'The event it was sent on: response.finished or response.invalid.',
    }),
    recipient: t.exposeString('recipient', { description: 'The address, masked (`a***@example.com`).' }),
    status: t.field({ type: NotificationStatusEnum, resolve: (d) => d.status }),
    attempts: t.exposeInt('attempts'),
    lastReply: t.exposeString('lastReply', {
      nullable: true,
      description: "The SMTP server's last reply, or the connection error.",
    }),
    nextAttemptAt: t.expose('nextAttemptAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When the next attempt is due (pending deliveries only).',
    }),
    sentAt: t.expose('sentAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const NotificationDeliveryConnection = builder.connectionObject(
  {
    type: NotificationDeliveryRef,
    name: 'NotificationDeliveryConnection',
    description: "A page of a form's e-mail deliveries, newest first.",
    edgesNullable: { list: false, items: false },
    nodeNullable: false,
  },
  { name: 'NotificationDeliveryEdge' },
);

/** One page of a form's delivery log (`waiting-for-smtp` where neither the node nor the environment has a server). */
async function resolveDeliveries(form: Pick<Form, 'id' | 'environmentId'>, args: { first?: number | null; after?: string | null }, ctx: GraphQLContext) {
  const { first, after } = checkPageArgs(args);
  const smtpConfigured = (ctx.smtpConfigured ?? false) || (await environmentHasSmtp(ctx.db, form.environmentId));
  const page = await deliveryPage(ctx.db, form.id, { after, limit: first, smtpConfigured });
  return keysetConnection(page.rows, page.hasNextPage, after !== undefined);
}

const DELIVERIES_DOC = "The form's e-mail deliveries, newest first: one per recipient address (docs/notifications.md).";

builder.objectField(FormRef, 'notificationDeliveries', (t) =>
  t.field({
    authScopes: { scope: 'responses:read' },
    type: NotificationDeliveryConnection,
    description: DELIVERIES_DOC,
    args: {
      first: t.arg.int({ defaultValue: DEFAULT_PAGE_SIZE, description: `Page size, 1 to ${MAX_PAGE_SIZE}.` }),
      after: t.arg.string({ description: '`endCursor` of the previous page.' }),
    },
    complexity: pageComplexity,
    resolve: (form, args, ctx) => resolveDeliveries(form, args, ctx),
  }),
);

// The log without forms:read (a key that reads responses reads their e-mails): `Form not found` (NOT_FOUND)
// when the form is not a live form of the caller's environment.
builder.queryField('formNotificationDeliveries', (t) =>
  t.field({
    authScopes: { scope: 'responses:read' },
    type: NotificationDeliveryConnection,
    description: `${DELIVERIES_DOC} \`Form not found\` (NOT_FOUND) when it is not a live form of the caller's environment.`,
    args: {
      formId: t.arg.id({ required: true }),
      first: t.arg.int({ defaultValue: DEFAULT_PAGE_SIZE, description: `Page size, 1 to ${MAX_PAGE_SIZE}.` }),
      after: t.arg.string({ description: '`endCursor` of the previous page.' }),
    },
    complexity: pageComplexity,
    resolve: async (_, args, ctx) => {
      const formId = String(args.formId);
      requireFormReach(ctx.principal, formId);
      const form = ctx.principal.kind === 'admin' ? await findFormById(ctx.db, formId) : await findForm(ctx.db, requireApiKey(ctx.principal).environmentId, formId);
      if (!form) throw notFound('Form not found');
      return resolveDeliveries(form, args, ctx);
    },
  }),
);

builder.mutationField('retryNotificationDelivery', (t) =>
  t.field({
    authScopes: { scope: 'settings:manage' },
    type: NotificationDeliveryRef,
    description: 'Sends a FAILED or SUPPRESSED delivery again, with a fresh run of retries; a pending one is returned as it is; a SENT one is CONFLICT.',
    args: {
      id: t.arg.id({ required: true }),
      formId: t.arg.id({ description: 'When given, the delivery must be one of this form.' }),
    },
    resolve: async (_, args, ctx) => {
      const id = String(args.id);
      if (formLimitOf(ctx.principal) !== null) requireFormReach(ctx.principal, await notificationForm(ctx.db, id), 'Notification delivery not found');
      const environmentId = await rowEnvironment(ctx.principal, () => notificationEnvironment(ctx.db, id), 'Notification delivery not found');
      return retryNotificationDelivery(
        ctx.db,
        { environmentId, formId: args.formId ?? undefined },
        id,
        (ctx.smtpConfigured ?? false) || (await environmentHasSmtp(ctx.db, environmentId)),
      );
    },
  }),
);
