/**
 * Share links of a form's results page: `shareLinks(formId)`, `createShareLink` and `revokeShareLink`
 * (share-links.service.ts). A link shows what `responses:read` reads (the summaries and insights), so
 * that scope manages them.
 */
import { actorOf, recordAudit } from '../audit/audit.service.ts';
import { requireApiKey } from '../auth/auth.service.ts';
import { requireFormReach } from '../auth/form-limits.ts';
import { builder } from '../graphql/builder.ts';
import type { GraphQLContext } from '../graphql/context.ts';
import { notFound } from '../errors.ts';
import {
  createShareLink,
  listShareLinks,
  MAX_SHARE_LINKS_PER_FORM,
  revokeShareLink,
  shareLinkFormEnvironment,
  type CreatedShareLink,
  type ShareLink,
} from './share-links.service.ts';

const ShareLinkRef = builder.objectRef<ShareLink>('ShareLink').implement({
  description:
    "A link to the form's read-only results page (`/r/<token>`): funnel, drop-off, responses over time and every question's summary. The token is shown only when the link is made.",
  fields: (t) => ({
    id: t.exposeID('id'),
    formId: t.exposeID('formId'),
    includeTextAnswers: t.exposeBoolean('includeTextAnswers', {
      description: 'Whether the page lists free-text answers (ShortInput, LongInput). Never identity fields, e-mail, files or passwords.',
    }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true, description: 'null: until revoked.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const CreatedShareLinkRef = builder.objectRef<CreatedShareLink>('CreateShareLinkPayload').implement({
  fields: (t) => ({
    shareLink: t.field({ type: ShareLinkRef, resolve: (created) => created.link }),
    url: t.exposeString('url', { description: 'The page, `/r/<token>` (relative to the server): shown only now.' }),
  }),
});

const RevokedShareLinkRef = builder.objectRef<ShareLink>('RevokeShareLinkPayload').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    formId: t.exposeID('formId'),
    revoked: t.boolean({ resolve: () => true }),
  }),
});

const CreateShareLinkInput = builder.inputType('CreateShareLinkInput', {
  fields: (t) => ({
    expiresAt: t.field({
      type: 'DateTime',
      description: 'When the link stops working (in the future); left out: until revoked.',
    }),
    includeTextAnswers: t.boolean({
      defaultValue: false,
      description: 'List free-text answers on the page. Default false.',
    }),
  }),
});

/**
 * The environment a share-link operation acts in: the API key's, or (admin token) the form's own. A form
 * outside a key's forms is `unreachable`: what the operation answers for another environment's form.
 */
async function formEnvironment(ctx: GraphQLContext, formId: string, unreachable = 'Form not found'): Promise<string> {
  requireFormReach(ctx.principal, formId, unreachable);
  if (ctx.principal.kind !== 'admin') return requireApiKey(ctx.principal).environmentId;
  const environmentId = await shareLinkFormEnvironment(ctx.db, formId);
  if (environmentId === undefined) throw notFound('Form not found');
  return environmentId;
}

builder.queryField('shareLinks', (t) =>
  t.field({
    authScopes: { scope: 'responses:read' },
    type: [ShareLinkRef],
    description: "A form's links to its results page, oldest first (expired ones included until revoked).",
    args: { formId: t.arg.id({ required: true }) },
    resolve: async (_, args, ctx) => {
      const formId = String(args.formId);
      return listShareLinks(ctx.db, await formEnvironment(ctx, formId), formId);
    },
  }),
);

builder.mutationField('createShareLink', (t) =>
  t.field({
    authScopes: { scope: 'responses:read' },
    type: CreatedShareLinkRef,
    description: `Makes a link to the form's read-only results page; its URL is shown only in this payload. At most ${MAX_SHARE_LINKS_PER_FORM} links per form.`,
    args: { formId: t.arg.id({ required: true }), input: t.arg({ type: CreateShareLinkInput }) },
    resolve: async (_, args, ctx) => {
      const formId = String(args.formId);
      const environmentId = await formEnvironment(ctx, formId);
      const created = await createShareLink(ctx.db, environmentId, formId, args.input ?? {});
      await recordAudit(ctx.db, {
        environmentId,
        actor: actorOf(ctx.principal),
        action: 'share_link.create',
        targetIds: [created.link.id, formId],
      });
      return created;
    },
  }),
);

builder.mutationField('revokeShareLink', (t) =>
  t.field({
    authScopes: { scope: 'responses:read' },
    type: RevokedShareLinkRef,
    description: 'Revokes a share link: its page answers 404 from the next request, on every node.',
    args: { formId: t.arg.id({ required: true }), id: t.arg.id({ required: true }) },
    resolve: async (_, args, ctx) => {
      const formId = String(args.formId);
      const environmentId = await formEnvironment(ctx, formId, 'Share link not found');
      const revoked = await revokeShareLink(ctx.db, environmentId, formId, String(args.id));
      await recordAudit(ctx.db, {
        environmentId,
        actor: actorOf(ctx.principal),
        action: 'share_link.revoke',
        targetIds: [revoked.id, formId],
      });
      return revoked;
    },
  }),
);
