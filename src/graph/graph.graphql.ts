/**
 * The connected graph: `viewer`, and the edges between the domains' types (an environment's forms,
 * keys, leads and responses; a form's responses, template lineage and summary; a lead's responses; a
 * response's form and lead).
 *
 * Tenancy: every object is reached either from the caller's own environment or through a loader that
 * filters by it (`readScope`: the API key's environment, any for the admin token), so no edge leads
 * from what a key can see to another environment's rows.
 *
 * No N+1: per-parent lists are `t.loadable` fields with `byPath` (@pothos/plugin-dataloader): all the
 * parents at one path of the query are answered by one statement (a lateral keyset scan per parent).
 * Summaries use request-scoped DataLoaders, one statement per part for all forms at a path.
 */
import { brandWithType } from '@pothos/core';
import { decodeGlobalID, encodeGlobalID } from '@pothos/plugin-relay';
import DataLoader from 'dataloader';
import { listApiKeys, readScope, type Principal } from '../auth/auth.service.ts';
import { ApiKeyRef, EnvironmentRef } from '../environments/environments.graphql.ts';
import type { Environment } from '../environments/environments.service.ts';
import type { FieldError } from '../forms/components.ts';
import { FormRef, FormStatusEnum } from '../forms/forms.graphql.ts';
import { generatedFormPages, listForms, type Form } from '../forms/forms.service.ts';
import { builder } from '../graphql/builder.ts';
import type { Db } from '../db/client.ts';
import { lagTolerantReads, type GraphQLContext } from '../graphql/context.ts';
import { LeadRef } from '../leads/leads.graphql.ts';
import { listLeads, type ListedLead } from '../leads/leads.service.ts';
import {
  checkListingArgs,
  FormResponseConnection,
  FormResponseRef,
  listingComplexity,
  resolveListing,
  ResponseDateFieldEnum,
  ResponseFilterInput,
  ROW_COST,
} from '../responses/responses.graphql.ts';
import { FORM_PAGE_SIZE, responsePagesByParent } from '../responses/responses.service.ts';
import { MAX_PAGE_SIZE } from '../keyset.ts';
import { NodeRef } from '../graphql/node.ts';
import { checkPageArgs, invalidArguments, keysetConnection } from '../graphql/pagination.ts';
import { summaryCounts, summaryQuestions, summarySteps, type SummaryFilter } from '../responses/summary.service.ts';

/** The cost of a page of `first` rows (ROW_COST each), its selection counting once per row. */
const pageComplexity = (args: { first?: number | null }) => listingComplexity(args);


// ---------------------------------------------------------------- connection types

const FormConnection = builder.connectionObject(
  {
    type: FormRef,
    name: 'FormConnection',
    description: 'A page of forms, newest first (created_at DESC, id DESC).',
    edgesNullable: { list: false, items: false },
    nodeNullable: false,
  },
  { name: 'FormEdge' },
);

const LeadConnection = builder.connectionObject(
  {
    type: LeadRef,
    name: 'LeadConnection',
    description: 'A page of leads, newest first (created_at DESC, id DESC).',
    edgesNullable: { list: false, items: false },
    nodeNullable: false,
  },
  { name: 'LeadEdge' },
);

const FormFilterInput = builder.inputType('FormFilter', {
  description: 'Which forms a listing holds. Deleted forms are never listed.',
  fields: (t) => ({
    status: t.field({ type: FormStatusEnum, description: 'Only forms in this state.' }),
    nameContains: t.string({ description: 'Only forms whose name contains this text (case-insensitive).' }),
  }),
});

const LeadFilterInput = builder.inputType('LeadFilter', {
  description: 'Which leads a listing holds.',
  fields: (t) => ({
    email: t.string({ description: 'Only the lead with this e-mail (compared lower-cased).' }),
  }),
});

const formFilterOf = (filter: { status?: Form['status'] | null; nameContains?: string | null } | null | undefined, errors: FieldError[]) => {
  const nameContains = filter?.nameContains ?? undefined;
  if (nameContains !== undefined && nameContains.length > 200) errors.push({ message: 'nameContains must be at most 200 characters', path: ['filter', 'nameContains'] });
  return { status: filter?.status ?? undefined, nameContains };
};

// ---------------------------------------------------------------- viewer

type ViewerShape = Exclude<Principal, { kind: 'anonymous' }>;

const ViewerKindEnum = builder.enumType('ViewerKind', {
  description: 'How the caller authenticated.',
  values: {
    ADMIN: { value: 'admin', description: 'The admin token: every environment.' },
    API_KEY: { value: 'apiKey', description: "An environment's API key: that environment only." },
  } as const,
});

const ViewerRef = builder.objectRef<ViewerShape>('Viewer').implement({
  description: 'The caller: where exploring the graph starts.',
  fields: (t) => ({
    kind: t.field({ type: ViewerKindEnum, resolve: (viewer) => viewer.kind }),
    environment: t.field({
      type: EnvironmentRef,
      nullable: true,
      description: "The API key's environment; null for the admin token (use `environment(id:)`).",
      resolve: (viewer) => (viewer.kind === 'apiKey' ? viewer.environmentId : null),
    }),
    apiKey: t.field({
      type: ApiKeyRef,
      nullable: true,
      description: "The key's public metadata; null for the admin token.",
      resolve: (viewer) => (viewer.kind === 'apiKey' ? viewer.keyId : null),
    }),
  }),
});

builder.queryField('viewer', (t) =>
  t.field({
    type: ViewerRef,
    description: 'Who is calling: the API key and its environment (or the admin token). UNAUTHENTICATED without credentials.',
    resolve: (_, __, { principal }) => {
      readScope(principal);
      return principal as ViewerShape;
    },
  }),
);

// ---------------------------------------------------------------- Environment

/** The arguments of every response listing of the graph (the same as `formResponses`). */
const responseListingArgs = builder.args((t) => ({
  filter: t.field({ type: ResponseFilterInput }),
  first: t.int({ defaultValue: FORM_PAGE_SIZE, description: `Page size, 1 to ${MAX_PAGE_SIZE}.` }),
  after: t.string({ description: '`endCursor` of the previous page: continue with older responses.' }),
}));

/** One page of responses for each form or lead, in one statement (the dataloader batches the parents). */
function loadResponsePages(kind: 'form' | 'lead') {
  return async (parentIds: string[], ctx: GraphQLContext, args: Parameters<typeof checkListingArgs>[0]) => {
    const { first, after, filter } = checkListingArgs(args);
    const pages = await lagTolerantReads(ctx).run((db) => responsePagesByParent(db, kind, readScope(ctx.principal), parentIds, { ...filter, after, limit: first }));
    return pages.map((page) => keysetConnection(page.responses, page.hasNextPage, after !== undefined));
  };
}

builder.objectFields(EnvironmentRef, (t) => ({
  forms: t.field({
    type: FormConnection,
    description: 'Forms of the environment (deleted ones excepted), newest first.',
    args: {
      filter: t.arg({ type: FormFilterInput }),
      first: t.arg.int({ defaultValue: FORM_PAGE_SIZE, description: `Page size, 1 to ${MAX_PAGE_SIZE}.` }),
      after: t.arg.string({ description: '`endCursor` of the previous page.' }),
    },
    complexity: pageComplexity,
    resolve: async (environment: Environment, args, ctx) => {
      const errors: FieldError[] = [];
      const filter = formFilterOf(args.filter, errors);
      const { first, after } = checkPageArgs(args, errors);
      const page = await listForms(ctx.db, { environmentId: environment.id, filter, after, limit: first });
      return keysetConnection(page.rows, page.hasNextPage, after !== undefined);
    },
  }),
  apiKeys: t.field({
    type: [ApiKeyRef],
    description: 'Every API key of the environment, revoked ones included, newest first. Never a secret.',
    complexity: { field: 10, multiplier: 10 },
    resolve: (environment: Environment, _, ctx) => listApiKeys(ctx.db, environment.id),
  }),
  leads: t.field({
    type: LeadConnection,
    description: 'Leads of the environment, newest first.',
    args: {
      filter: t.arg({ type: LeadFilterInput }),
      first: t.arg.int({ defaultValue: FORM_PAGE_SIZE, description: `Page size, 1 to ${MAX_PAGE_SIZE}.` }),
      after: t.arg.string({ description: '`endCursor` of the previous page.' }),
    },
    complexity: pageComplexity,
    resolve: async (environment: Environment, args, ctx) => {
      const errors: FieldError[] = [];
      const email = args.filter?.email ?? undefined;
      if (email !== undefined && email.length > 320) errors.push({ message: 'email must be at most 320 characters', path: ['filter', 'email'] });
      const { first, after } = checkPageArgs(args, errors);
      const page = await listLeads(ctx.db, { environmentId: environment.id, email, after, limit: first });
      return keysetConnection(page.rows, page.hasNextPage, after !== undefined);
    },
  }),
  responses: t.field({
    type: FormResponseConnection,
    description: 'Responses of every form of the environment, newest first: the same as `environmentResponses`.',
    args: responseListingArgs,
    complexity: listingComplexity,
    resolve: (environment: Environment, args, ctx) => resolveListing(ctx, { ...args, environmentId: environment.id }, undefined),
  }),
}));

// ---------------------------------------------------------------- Form

builder.objectFields(FormRef, (t) => ({
  responses: t.loadable({
    type: FormResponseConnection,
    description: 'Responses of this form, newest first, with the filters of `formResponses`.',
    args: responseListingArgs,
    complexity: listingComplexity,
    byPath: true,
    load: loadResponsePages('form'),
    resolve: (form) => form.id,
  }),
  sourceForm: t.field({
    type: FormRef,
    nullable: true,
    description: 'The template this form was generated from; null for an imported form, or when the template was deleted.',
    resolve: (form) => form.sourceFormId,
  }),
  generatedForms: t.loadable({
    type: FormConnection,
    description: 'The forms generated from this one as their template (deleted ones excepted), newest first.',
    args: {
      filter: t.arg({ type: FormFilterInput }),
      first: t.arg.int({ defaultValue: FORM_PAGE_SIZE, description: `Page size, 1 to ${MAX_PAGE_SIZE}.` }),
      after: t.arg.string({ description: '`endCursor` of the previous page.' }),
    },
    complexity: pageComplexity,
    byPath: true,
    load: async (formIds: string[], ctx: GraphQLContext, args) => {
      const errors: FieldError[] = [];
      const filter = formFilterOf(args.filter, errors);
      const { first, after } = checkPageArgs(args, errors);
      // The parents were loaded within the caller's scope, and a generated form shares its template's environment.
      const pages = await generatedFormPages(ctx.db, formIds, { filter, after, limit: first });
      return pages.map((page) => keysetConnection(page.rows, page.hasNextPage, after !== undefined));
    },
    resolve: (form) => form.id,
  }),
  summary: t.field({
    type: FormSummaryRef,
    description: "A summary of the form's responses (finished and unfinished), computed by the database.",
    args: {
      filter: t.arg({ type: SummaryFilterInput }),
    },
    complexity: SUMMARY_COST,
    resolve: (form, args) => {
      const filter = args.filter ?? {};
      const errors: FieldError[] = [];
      if (filter.since && filter.until && filter.since >= filter.until) errors.push({ message: 'until must be later than since', path: ['filter', 'until'] });
      for (const bound of ['since', 'until'] as const) {
        const date = filter[bound];
        if (date && (Number.isNaN(date.getTime()) || date.getUTCFullYear() < 1 || date.getUTCFullYear() > 9999)) {
          errors.push({ message: `${bound} must be between years 0001 and 9999 (UTC)`, path: ['filter', bound] });
        }
      }
      if (errors.length > 0) throw invalidArguments(errors);
      return { form, filter: { since: filter.since ?? undefined, until: filter.until ?? undefined, dateField: filter.dateField ?? 'createdAt' } };
    },
  }),
}));

// ---------------------------------------------------------------- Lead and FormResponse

builder.objectFields(LeadRef, (t) => ({
  responses: t.loadable({
    type: FormResponseConnection,
    description: "The lead's responses to any form of its environment, newest first.",
    args: responseListingArgs,
    complexity: listingComplexity,
    byPath: true,
    load: loadResponsePages('lead'),
    resolve: (lead) => lead.id,
  }),
}));

builder.objectFields(FormResponseRef, (t) => ({
  form: t.field({ type: FormRef, nullable: true, description: 'The form answered; null once it is deleted.', resolve: (response) => response.formId }),
  lead: t.field({ type: LeadRef, nullable: true, description: 'The respondent.', resolve: (response) => response.leadId }),
}));

// ---------------------------------------------------------------- node and nodes

/** Most ids one `nodes` call takes. */
export const MAX_NODES = 100;

/**
 * The types implementing Node, in the order a lookup tries them, each with its loader (request-scoped,
 * one statement for all the ids of a request; it answers only the caller's rows, any for the admin token).
 */
const NODE_TYPES = [
  ['Environment', EnvironmentRef],
  ['Form', FormRef],
  ['FormResponse', FormResponseRef],
  ['Lead', LeadRef],
  ['ApiKey', ApiKeyRef],
] as const;
type NodeTypename = (typeof NODE_TYPES)[number][0];

/** The type and id of a former global id (`nodeId`: base64 of `Type:id`), if `id` is one of a Node type. */
function formerGlobalId(id: string): { typename: NodeTypename; id: string } | undefined {
  try {
    const decoded = decodeGlobalID(id);
    const type = NODE_TYPES.find(([typename]) => typename === decoded.typename);
    return type ? { typename: type[0], id: decoded.id } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The objects `node`/`nodes` answer for ids, in order (null where none). `Node.id` is each type's own
 * id, so an id names no type: it is looked up as every Node type (the loaders batch all of them) and the
 * first type holding it answers. Ids are random (119 bits), so only an environment given a chosen Site
 * ID could repeat another object's id; the environment is tried first. A former global id resolves as
 * its type only.
 */
async function lookUpNodes(ctx: GraphQLContext, ids: readonly string[]): Promise<unknown[]> {
  readScope(ctx.principal); // anonymous callers: UNAUTHENTICATED, before any lookup
  const typeOf = (typename: NodeTypename) => NODE_TYPES.find(([name]) => name === typename)![1];
  return Promise.all(
    ids.map(async (id) => {
      const former = formerGlobalId(id);
      const candidates = [...NODE_TYPES.map(([typename]) => ({ typename, id })), ...(former ? [former] : [])].map(({ typename, id }) => ({ ref: typeOf(typename), id }));
      const found = await Promise.all(candidates.map(({ ref, id }) => (ref.getDataloader(ctx) as DataLoader<string, object | null>).load(id)));
      const at = found.findIndex((object) => object !== null && object !== undefined);
      if (at < 0) return null;
      // The object's type, for the Node interface to resolve (as the object was loaded as, not guessed).
      brandWithType(found[at], candidates[at]!.ref);
      return found[at];
    }),
  );
}

builder.queryFields((t) => ({
  node: t.field({
    type: NodeRef,
    nullable: true,
    description: 'Any object implementing Node, by its `id`; null when the id names no object the caller may see.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_, { id }, ctx) => (await lookUpNodes(ctx, [String(id)]))[0] as { id: string } | null,
  }),
  nodes: t.field({
    type: [NodeRef],
    nullable: { list: false, items: true },
    description: `Objects by their ids, in order; null for each id that names no object the caller may see. At most ${MAX_NODES} ids.`,
    args: { ids: t.arg.idList({ required: true }) },
    complexity: (args) => ({ field: 1 + Math.min(args.ids.length, MAX_NODES) * 5, multiplier: Math.min(args.ids.length, MAX_NODES) }),
    resolve: (_, { ids }, ctx) => {
      if (ids.length > MAX_NODES) throw invalidArguments([{ message: `At most ${MAX_NODES} ids`, path: ['ids'] }]);
      return lookUpNodes(ctx, ids.map(String)) as Promise<({ id: string } | null)[]>;
    },
  }),
}));

/**
 * `nodeId`, the global id `node(id:)` took before it took `id`: base64 of `Type:id`. Kept, deprecated,
 * for clients that stored one; `node(id:)` still resolves it.
 */
const formerNodeId = (typename: NodeTypename) => ({
  type: 'ID' as const,
  deprecationReason: 'Use `id`: `node(id:)` and `nodes(ids:)` take it.',
  resolve: (object: { id: string }) => encodeGlobalID(typename, object.id),
});
builder.objectField(EnvironmentRef, 'nodeId', (t) => t.field(formerNodeId('Environment')));
builder.objectField(ApiKeyRef, 'nodeId', (t) => t.field(formerNodeId('ApiKey')));
builder.objectField(FormRef, 'nodeId', (t) => t.field(formerNodeId('Form')));
builder.objectField(FormResponseRef, 'nodeId', (t) => t.field(formerNodeId('FormResponse')));
builder.objectField(LeadRef, 'nodeId', (t) => t.field(formerNodeId('Lead')));

// ---------------------------------------------------------------- summaries

/**
 * A summary aggregates every response of its form (through the form's index, one statement for all
 * forms at a path): priced like two response rows, so 100 forms with their summaries and last 3
 * responses fit the default cost limit, and a 100-form page asking for two summaries each does not.
 */
const SUMMARY_COST = 2 * ROW_COST;

const SummaryFilterInput = builder.inputType('SummaryFilter', {
  description: 'Which responses a summary counts (all of them by default, finished or not).',
  fields: (t) => ({
    since: t.field({ type: 'DateTime', description: 'Only responses whose `dateField` is at or after this instant.' }),
    until: t.field({ type: 'DateTime', description: 'Only responses whose `dateField` is before this instant.' }),
    dateField: t.field({ type: ResponseDateFieldEnum, defaultValue: 'createdAt', description: 'Defaults to CREATED_AT.' }),
  }),
});

interface SummaryShape {
  form: Form;
  filter: SummaryFilter;
}

/**
 * Request-scoped DataLoaders: one per part and filter, so every form at one place in the query is
 * summarised by one statement per part. Kept per GraphQL context (one per request).
 */
const summaryLoaders = new WeakMap<object, Map<string, DataLoader<Form, unknown, string>>>();
function summaryLoader<V>(ctx: GraphQLContext, part: string, filter: SummaryFilter, batch: (db: Db, forms: readonly Form[]) => Promise<V[]>): DataLoader<Form, V, string> {
  let loaders = summaryLoaders.get(ctx);
  if (!loaders) summaryLoaders.set(ctx, (loaders = new Map()));
  const key = `${part}:${filter.since?.toISOString() ?? ''}:${filter.until?.toISOString() ?? ''}:${filter.dateField ?? ''}`;
  let loader = loaders.get(key);
  // Summaries tolerate a little lag: a read replica's when there is a fresh one.
  const read = (forms: readonly Form[]) => lagTolerantReads(ctx).run((db) => batch(db, forms));
  if (!loader) loaders.set(key, (loader = new DataLoader<Form, unknown, string>(read, { cacheKeyFn: (form) => form.id })));
  return loader as DataLoader<Form, V, string>;
}

const countsOf = (s: SummaryShape, ctx: GraphQLContext) =>
  summaryLoader(ctx, 'counts', s.filter, (db, forms) => summaryCounts(db, forms.map((f) => f.id), s.filter, ctx.dropOffMs)).load(s.form);

const StepReachRef = builder.objectRef<{ stepId: string; index: number; name: string; reached: number }>('StepReach').implement({
  description:
    "How many responses reached a step: went through it on their path (`meta.path`). A response stored before paths were recorded: answered a question on it or on a later step, or finished the form.",
  fields: (t) => ({
    stepId: t.exposeID('stepId'),
    index: t.exposeInt('index', { description: 'Position of the step, from 0.' }),
    name: t.exposeString('name'),
    reached: t.exposeInt('reached'),
  }),
});

const OptionCountRef = builder.objectRef<{ option: string; count: number }>('OptionCount').implement({
  description: 'How often one option was chosen.',
  fields: (t) => ({
    option: t.exposeString('option', { description: 'The option (a Disclaimer has "checked" and "unchecked").' }),
    count: t.exposeInt('count'),
  }),
});

const QuestionSummaryRef = builder
  .objectRef<{ questionId: string; stepId: string; type: string; headline: string | null; answers: number; options: { option: string; count: number }[] | null }>(
    'QuestionSummary',
  )
  .implement({
    description: 'Answers to one question of the form.',
    fields: (t) => ({
      questionId: t.exposeID('questionId'),
      stepId: t.exposeID('stepId'),
      type: t.exposeString('type', { description: 'The component type.' }),
      headline: t.exposeString('headline', { nullable: true, description: 'The question text, if it has one.' }),
      answers: t.exposeInt('answers', { description: 'Responses that answered it.' }),
      options: t.field({
        type: [OptionCountRef],
        nullable: true,
        description:
          'Choice types (Dropdown, MultipleOptionsQuestion, GraphicOptions, Disclaimer): every option with how often it was chosen, in the form\'s order (options since removed from the form last); null for other types.',
        resolve: (q) => q.options,
      }),
    }),
  });

const FormSummaryRef = builder.objectRef<SummaryShape>('FormSummary').implement({
  description:
    "Counts over a form's responses, computed by the database. Status follows the responses' `status`: finished (4), in progress (2), dropped off (3), invalid (5).",
  fields: (t) => ({
    total: t.int({ description: 'Responses started.', resolve: async (s, _, ctx) => (await countsOf(s, ctx)).total }),
    finished: t.int({ description: 'Completed responses (status 4).', resolve: async (s, _, ctx) => (await countsOf(s, ctx)).finished }),
    invalid: t.int({
      description: 'Responses that ended at an invalid step or action (status 5): neither completed nor dropped off.',
      resolve: async (s, _, ctx) => (await countsOf(s, ctx)).invalid,
    }),
    partial: t.int({ description: 'Unfinished responses: in progress plus dropped off (not invalid).', resolve: async (s, _, ctx) => { const c = await countsOf(s, ctx); return c.inProgress + c.droppedOff; } }),
    inProgress: t.int({ description: 'Unfinished and touched within the drop-off time (status 2).', resolve: async (s, _, ctx) => (await countsOf(s, ctx)).inProgress }),
    droppedOff: t.int({ description: 'Unfinished and untouched for the drop-off time (status 3).', resolve: async (s, _, ctx) => (await countsOf(s, ctx)).droppedOff }),
    completionRate: t.float({
      description: 'finished / total, from 0 to 1; 0 when there are no responses.',
      resolve: async (s, _, ctx) => {
        const c = await countsOf(s, ctx);
        return c.total === 0 ? 0 : c.finished / c.total;
      },
    }),
    steps: t.field({
      type: [StepReachRef],
      description: 'Per step, in order, how many responses reached it: where respondents drop off.',
      resolve: (s, _, ctx) => summaryLoader(ctx, 'steps', s.filter, (db, forms) => summarySteps(db, forms, s.filter)).load(s.form),
    }),
    questions: t.field({
      type: [QuestionSummaryRef],
      description: 'Per answerable question, in form order: its answer count and, for choice types, the count per option.',
      resolve: (s, _, ctx) => summaryLoader(ctx, 'questions', s.filter, (db, forms) => summaryQuestions(db, forms, s.filter)).load(s.form),
    }),
  }),
});
