/** The audit log in GraphQL: `auditLog`, an environment's entries newest first, with cursors. */
import { builder } from '../graphql/builder.ts';
import { actingEnvironment } from '../auth/auth.service.ts';
import { checkPageArgs, keysetConnection } from '../graphql/pagination.ts';
import { listAudit, type ListedAuditEntry } from './audit.service.ts';

const AuditEntryRef = builder.objectRef<ListedAuditEntry>('AuditEntry').implement({
  description: 'One administrative action. Names ids and counts only, never secrets or personal data.',
  fields: (t) => ({
    id: t.exposeID('id'),
    environmentId: t.exposeID('environmentId'),
    at: t.expose('createdAt', { type: 'DateTime' }),
    actorKind: t.exposeString('actorKind', { description: '`apiKey`, `admin` (the admin token) or `system` (the retention job).' }),
    actorKeyId: t.exposeID('actorKeyId', { nullable: true, description: 'The API key that acted; null otherwise.' }),
    action: t.exposeString('action', { description: 'e.g. `form.generate`, `responses.delete`, `lead.erase` (docs/privacy.md, "Audit log").' }),
    targetIds: t.exposeIDList('targetIds', { description: 'The ids acted on.' }),
    details: t.field({ type: 'JSON', description: 'Counts and setting values of the action.', resolve: (entry) => entry.details }),
  }),
});

const AuditConnection = builder.connectionObject(
  {
    type: AuditEntryRef,
    name: 'AuditLogConnection',
    description: 'A page of audit entries, newest first.',
    edgesNullable: { list: false, items: false },
    nodeNullable: false,
  },
  { name: 'AuditLogEdge' },
);

builder.queryField('auditLog', (t) =>
  t.field({
    authScopes: { scope: 'audit:read' },
    type: AuditConnection,
    description: "An environment's audit log, newest first.",
    args: {
      environmentId: t.arg.id({ description: 'Required with the admin token; with an API key, its own environment (the default).' }),
      first: t.arg.int({ defaultValue: 20, description: 'Page size, 1 to 100.' }),
      after: t.arg.string({ description: '`endCursor` of the previous page: continue with older entries.' }),
    },
    complexity: (args) => ({ field: 1 + Math.min(Math.max(args.first ?? 20, 1), 100), multiplier: Math.min(Math.max(args.first ?? 20, 1), 100) }),
    resolve: async (_, args, ctx) => {
      const environmentId = actingEnvironment(ctx.principal, args.environmentId);
      const { first, after } = checkPageArgs(args);
      const page = await listAudit(ctx.db, { environmentId, after, limit: first });
      return keysetConnection(page.rows, page.hasNextPage, after !== undefined);
    },
  }),
);
