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
import DataLoader from 'dataloader';
import { listApiKeys, readScope, type Principal } from '../auth/auth.service.ts';
import { ApiKeyRef, EnvironmentRef } from '../environments/environments.graphql.ts';
import type { Environment } from '../environments/environments.service.ts';
import { invalidInput } from '../errors.ts';
import type { FieldError } from '../forms/components.ts';
import { FormRef, FormStatusEnum } from '../forms/forms.graphql.ts';
import { generatedFormPages, listForms, type Form, type ListedForm, type Page } from '../forms/forms.service.ts';
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
  responseConnection,
  ResponseDateFieldEnum,
  ResponseFilterInput,
  ROW_COST,
} from '../responses/responses.graphql.ts';
import { decodeCursor, encodeCursor, FORM_PAGE_SIZE, MAX_PAGE_SIZE, responsePagesByParent } from '../responses/responses.service.ts';
import { summaryCounts, summaryQuestions, summarySteps, type SummaryFilter } from '../responses/summary.service.ts';

// ---------------------------------------------------------------- keyset connections

const invalidArguments = (errors: FieldError[]) => invalidInput(errors, 'Invalid arguments');

interface PageArgs {
  first?: number | null;
  after?: string | null;
}

/** `first` (1..100, default 10) and `after` checked; BAD_USER_INPUT lists every problem. */
export function checkPageArgs(args: PageArgs, errors: FieldError[] = []) {
  const first = args.first ?? FORM_PAGE_SIZE;
  if (!Number.isInteger(first) || first < 1 || first > MAX_PAGE_SIZE) errors.push({ message: `first must be between 1 and ${MAX_PAGE_SIZE}`, path: ['first'] });
  const after = args.after === null || args.after === undefined ? undefined : decodeCursor(args.after);
  if (args.after !== null && args.after !== undefined && !after) errors.push({ message: 'after is not a valid cursor', path: ['after'] });
  if (errors.length > 0) throw invalidArguments(errors);
  return { first, after };
}

/** A newest-first keyset page as a Relay connection. */
export function keysetConnection<T extends { id: string; position: string }>(page: Page<T>, hasPrevious: boolean) {
  const cursor = (row: T) => encodeCursor({ createdAt: row.position, id: row.id });
  return {
    edges: page.rows.map((node) => ({
      node,
      get cursor() {
        return cursor(node);
      },
    })),
    pageInfo: {
      hasNextPage: page.hasNextPage,
      hasPreviousPage: hasPrevious,
      get startCursor() {
        return page.rows[0] ? cursor(page.rows[0]) : null;
      },
      get endCursor() {
        const last = page.rows.at(-1);
        return last ? cursor(last) : null;
      },
    },
  };
}

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
    return pages.map((page) => responseConnection(page, after !== undefined));
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
      return keysetConnection(page, after !== undefined);
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
      return keysetConnection(page, after !== undefined);
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
      return pages.map((page) => keysetConnection<ListedForm>(page, after !== undefined));
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
  description: 'How many responses reached a step: answered a question on it or on a later step, or finished the form.',
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
    "Counts over a form's responses, computed by the database. Status follows the responses' `status`: finished (4), in progress (2), dropped off (3).",
  fields: (t) => ({
    total: t.int({ description: 'Responses started.', resolve: async (s, _, ctx) => (await countsOf(s, ctx)).total }),
    finished: t.int({ description: 'Completed responses (status 4).', resolve: async (s, _, ctx) => (await countsOf(s, ctx)).finished }),
    partial: t.int({ description: 'Unfinished responses: in progress plus dropped off.', resolve: async (s, _, ctx) => { const c = await countsOf(s, ctx); return c.inProgress + c.droppedOff; } }),
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
