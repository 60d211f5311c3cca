/** The Lead type: a person known to an environment (its responses: responses/responses.graphql.ts), and the listing of leads. */
import { readScope } from '../auth/auth.service.ts';
import { formLimitOf } from '../auth/form-limits.ts';
import { builder } from '../graphql/builder.ts';
import type { FieldError } from '../errors.ts';
import { NodeRef } from '../graphql/node.ts';
import { checkPageArgs, DEFAULT_PAGE_SIZE, type PageArgs } from '../graphql/pagination.ts';
import { MAX_PAGE_SIZE } from '../keyset.ts';
import { loadLeads, type Lead } from './leads.service.ts';

/** Loaded by id (node lookups, a response's `lead`) only within the caller's environment (any for the admin token). */
export const LeadRef = builder.loadableObjectRef<Lead | null, string, string, Lead>('Lead', {
  load: (ids: string[], ctx) => loadLeads(ctx.db, readScope(ctx.principal), ids, formLimitOf(ctx.principal)),
});

LeadRef.implement({
  description: "A respondent, known to one environment: one anonymous visitor across visits, or everyone who answered with the same e-mail. A response's `leadId` names it.",
  interfaces: [NodeRef],
  fields: (t) => ({
    environmentId: t.exposeID('environmentId'),
    email: t.exposeString('email', { nullable: true, description: 'Lower-cased; null while the lead is anonymous.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the lead first submitted an answer.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

// ---------------------------------------------------------------- listing

export const LeadConnection = builder.connectionObject(
  {
    type: LeadRef,
    name: 'LeadConnection',
    description: 'A page of leads, newest first (created_at DESC, id DESC).',
    edgesNullable: { list: false, items: false },
    nodeNullable: false,
  },
  { name: 'LeadEdge' },
);

const LeadFilterInput = builder.inputType('LeadFilter', {
  description: 'Which leads a listing holds.',
  fields: (t) => ({
    email: t.string({ description: 'Only the lead with this e-mail (compared lower-cased).' }),
  }),
});

/** The arguments of an environment's listing of leads. */
export const leadListingArgs = builder.args((t) => ({
  filter: t.field({ type: LeadFilterInput }),
  first: t.int({ defaultValue: DEFAULT_PAGE_SIZE, description: `Page size, 1 to ${MAX_PAGE_SIZE}.` }),
  after: t.string({ description: '`endCursor` of the previous page.' }),
}));

/** A listing of leads' arguments checked (BAD_USER_INPUT listing every problem). */
export function checkLeadListingArgs(args: PageArgs & { filter?: { email?: string | null } | null }) {
  const errors: FieldError[] = [];
  const email = args.filter?.email ?? undefined;
  if (email !== undefined && email.length > 320) errors.push({ message: 'email must be at most 320 characters', path: ['filter', 'email'] });
  const { first, after } = checkPageArgs(args, errors);
  return { email, first, after };
}
