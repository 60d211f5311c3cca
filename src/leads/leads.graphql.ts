/** The Lead type: a person known to an environment (its edges to responses are in graph/graph.graphql.ts). */
import { readScope } from '../auth/auth.service.ts';
import { builder } from '../graphql/builder.ts';
import { NodeRef } from '../graphql/node.ts';
import { loadLeads, type Lead } from './leads.service.ts';

/** Loaded by id (node lookups, a response's `lead`) only within the caller's environment (any for the admin token). */
export const LeadRef = builder.loadableObjectRef<Lead | null, string, string, Lead>('Lead', {
  load: (ids: string[], ctx) => loadLeads(ctx.db, readScope(ctx.principal), ids),
});

LeadRef.implement({
  description:
    "A respondent, known to one environment: one anonymous visitor across visits, or everyone who answered with the same e-mail. A response's `leadId` names it.",
  interfaces: [NodeRef],
  fields: (t) => ({
    environmentId: t.exposeID('environmentId'),
    email: t.exposeString('email', { nullable: true, description: 'Lower-cased; null while the lead is anonymous.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the lead first submitted an answer.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});
