/**
 * GraphQL types and queries of responses: `formResponses` and `environmentResponses`, Relay-style
 * forward connections (`first` ≤ 100, `after`) over the keyset listings of responses.service.ts.
 * Each answer is offered raw (`response`, as stored) and typed (`answer`, the Answer union of the
 * component modules, components.graphql.ts).
 */
import { filterLanguage, LANGUAGE_FILTER_MESSAGE } from './language-filter.ts';
import { actingEnvironment, readScope } from '../auth/auth.service.ts';
import { formLimitOf, listingFormsOf, requireFormReach } from '../auth/form-limits.ts';
import { notFound, type FieldError } from '../errors.ts';
import { AnswerUnion } from '../components/components.graphql.ts';
import { FormRef } from '../forms/forms.graphql.ts';
import { LeadRef } from '../leads/leads.graphql.ts';
import { builder } from '../graphql/builder.ts';
import { NodeRef } from '../graphql/node.ts';
import { lagTolerantReads, type GraphQLContext } from '../graphql/context.ts';
import { metaJsonOfText, RESPONSE_STATUS, responseStatus, type ResponseRecord } from './model.ts';
import { checkPageArgs, keysetConnection, pageComplexity } from '../graphql/pagination.ts';
import { MAX_PAGE_SIZE } from '../keyset.ts';
import {
  FORM_PAGE_SIZE,
  dateRangeProblems,
  listResponses,
  listResponseTexts,
  loadResponses,
  responsePagesByParent,
  type ListedResponse,
  type ResponseDateField,
  type StreamedResponse,
} from './responses.service.ts';
import type { Db } from '../db/client.ts';
import { jsonOfJsonbText } from '../db/jsonb-text.ts';
import { RawJson } from '../graphql/raw-json.ts';
import type { ResponseAnswer, ResponseMeta } from '../db/json-columns.ts';

const QuestionResponseRef = builder.objectRef<ResponseAnswer>('QuestionResponse').implement({
  description: 'One answer of a response.',
  fields: (t) => ({
    questionId: t.exposeID('questionId', { description: 'The id of the form component answered.' }),
    key: t.string({ nullable: true, description: "The component's key, when it has one.", resolve: (a) => a.key ?? null }),
    response: t.field({ type: 'JSON', description: 'The answer exactly as stored (what the REST API returns).', resolve: (a) => a.response }),
    answer: t.field({ type: AnswerUnion, description: 'The same answer, typed.', resolve: (a) => a.response }),
  }),
});

// ---------------------------------------------------------------- responses

const PersonAttributesRef = builder.objectRef<Pick<ResponseRecord, 'ip' | 'country' | 'visitedForm' | 'completedForm'>>('PersonAttributes').implement({
  description: 'Attributes of the submitter.',
  fields: (t) => ({
    ip: t.exposeString('ip'),
    country: t.exposeString('country', { description: 'Country code; empty when unknown.' }),
    visitedForm: t.exposeInt('visitedForm', { description: 'Times this lead has visited the form.' }),
    completedForm: t.exposeInt('completedForm', { description: 'Times this lead has completed the form.' }),
  }),
});

/**
 * A response as a listing reads it: parsed, or (the /graphql listings, `rawJson`) with its answers and
 * metadata as jsonb text and its timestamps as ISO text, which the JSON fields write out unparsed.
 */
type ResponseSource = ListedResponse | StreamedResponse;

const answersOf = (r: ResponseSource): ResponseAnswer[] => (typeof r.data === 'string' ? (JSON.parse(r.data) as ResponseAnswer[]) : r.data);

interface ResponseVariable {
  name: string;
  value: number | string;
}
const ResponseVariableRef = builder.objectRef<ResponseVariable>('ResponseVariable').implement({
  description: 'A form variable of a response: `number` for a number variable, `text` for a text variable.',
  fields: (t) => ({
    name: t.exposeString('name'),
    number: t.float({ nullable: true, resolve: (v) => (typeof v.value === 'number' ? v.value : null) }),
    text: t.string({ nullable: true, resolve: (v) => (typeof v.value === 'string' ? v.value : null) }),
  }),
});
const variablesOf = (meta: ResponseMeta): ResponseVariable[] =>
  Object.entries(meta.variables ?? {}).flatMap(([name, value]) => (typeof value === 'number' || typeof value === 'string' ? [{ name, value }] : []));

/** Loaded by id (node lookups) only within the caller's environment (any for the admin token). */
export const FormResponseRef = builder.loadableObjectRef<ResponseSource | null, string, string, ResponseSource>('FormResponse', {
  load: (ids: string[], ctx) => loadResponses(ctx.db, readScope(ctx.principal), ids, formLimitOf(ctx.principal)),
});
FormResponseRef.implement({
  description: 'A response to a form: the response object of `GET /api/v1/responses`.',
  interfaces: [NodeRef],
  fields: (t) => ({
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    dataUpdatedAt: t.expose('dataUpdatedAt', { type: 'DateTime', description: 'Last change of the answers.' }),
    finished: t.exposeBoolean('finished', { description: 'true: completed; false: partial.' }),
    status: t.int({
      description: `${RESPONSE_STATUS.completed} completed, ${RESPONSE_STATUS.invalid} invalid (ended at an invalid step or action: unfinished, \`meta.invalid\`), ${RESPONSE_STATUS.droppedOff} dropped off (unfinished and untouched for the drop-off time), ${RESPONSE_STATUS.inProgress} in progress.`,
      resolve: (r, _, { dropOffMs }) => responseStatus(r, new Date(), dropOffMs),
    }),
    formId: t.exposeID('formId'),
    version: t.exposeString('version', { description: 'Version of the response format.' }),
    leadId: t.exposeID('leadId'),
    data: t.field({ type: [QuestionResponseRef], description: 'The answers, each raw and typed.', resolve: answersOf }),
    rawData: t.field({
      type: 'JSON',
      description: 'The answers exactly as stored, as one value: `[{questionId, response}]` (what the REST API returns as `data`).',
      resolve: (r) => (typeof r.data === 'string' ? new RawJson(jsonOfJsonbText(r.data)) : r.data),
    }),
    meta: t.field({
      type: 'JSON',
      description:
        'Metadata; includes `leadId`, `path` (the keys of the steps the response went through) and `hiddenFields` (the values it brought), and `invalid: true` on an invalid response.',
      resolve: (r) => (typeof r.meta === 'string' ? new RawJson(metaJsonOfText(r.meta, r.leadId)) : { ...r.meta, leadId: r.leadId }),
    }),
    personAttributes: t.field({ type: PersonAttributesRef, resolve: (r) => r }),
    variables: t.field({
      type: [ResponseVariableRef],
      description: "The form variables as the rules along the response's path left them (`meta.variables`), by name.",
      resolve: (r) => variablesOf(typeof r.meta === 'string' ? (JSON.parse(r.meta) as ResponseMeta) : r.meta),
    }),
  }),
});

export const FormResponseConnection = builder.connectionObject(
  {
    type: FormResponseRef,
    name: 'FormResponseConnection',
    description: 'A page of responses, newest first (created_at DESC, id DESC).',
    edgesNullable: { list: false, items: false },
    nodeNullable: false,
  },
  { name: 'FormResponseEdge' },
);

export const ResponseDateFieldEnum = builder.enumType('ResponseDateField', {
  description: 'The timestamp `since` and `until` filter on.',
  values: { CREATED_AT: { value: 'createdAt' }, UPDATED_AT: { value: 'updatedAt' } } as const,
});

const ResponseFilterInput = builder.inputType('ResponseFilter', {
  description: 'Filters of both response listings (the same as the REST query parameters).',
  fields: (t) => ({
    returnPartials: t.boolean({ defaultValue: false, description: 'Include unfinished (partial) responses.' }),
    since: t.field({ type: 'DateTime', description: 'Only responses whose `dateField` is at or after this instant.' }),
    until: t.field({ type: 'DateTime', description: 'Only responses whose `dateField` is before this instant.' }),
    dateField: t.field({ type: ResponseDateFieldEnum, defaultValue: 'createdAt', description: 'Defaults to CREATED_AT.' }),
    language: t.string({
      description:
        "Only the responses answered in this language (`meta.language`; a response without one counts as its form's default language's): a built-in language, a region read as its language (`de-CH`).",
    }),
  }),
});

export interface ListingArgs {
  environmentId?: string | number | null | undefined;
  filter?: { returnPartials?: boolean | null; since?: Date | null; until?: Date | null; dateField?: ResponseDateField | null; language?: string | null } | null;
  first?: number | null;
  after?: string | null;
}

/** A listing's arguments checked (BAD_USER_INPUT listing every problem): page size, cursor, filter. */
export function checkListingArgs(args: ListingArgs) {
  const errors: FieldError[] = [];
  const filter = args.filter ?? {};
  errors.push(...dateRangeProblems(filter, (bound) => ['filter', bound]));
  const language = filter.language == null ? undefined : filterLanguage(filter.language);
  if (filter.language != null && language === undefined) errors.push({ message: `language ${LANGUAGE_FILTER_MESSAGE}`, path: ['filter', 'language'] });
  const { first, after } = checkPageArgs(args, errors, FORM_PAGE_SIZE);
  return {
    first,
    after,
    filter: {
      includePartials: filter.returnPartials ?? false,
      since: filter.since ?? undefined,
      until: filter.until ?? undefined,
      dateField: filter.dateField ?? ('createdAt' as const),
      language,
    },
  };
}

export async function resolveListing(ctx: GraphQLContext, args: ListingArgs, formId: string | undefined) {
  const environmentId = actingEnvironment(ctx.principal, args.environmentId);
  const { first, after, filter } = checkListingArgs(args);
  if (formId !== undefined) requireFormReach(ctx.principal, formId);
  const input = { environmentId, formId, ...listingFormsOf(ctx.principal, formId), ...filter, after, limit: first };
  // /graphql writes the answers and metadata as the database's text (rawJson); in-process operations read objects.
  // On a read replica when there is a fresh one; a form it does not know (yet) is asked of the primary.
  const read = (db: Db): Promise<{ responses: ResponseSource[]; hasNextPage: boolean } | null> => (ctx.rawJson ? listResponseTexts(db, input) : listResponses(db, input));
  const page = await lagTolerantReads(ctx).run(read, (found) => !found);
  if (!page) throw notFound('Form not found');
  return keysetConnection<ResponseSource>(page.responses, page.hasNextPage, after !== undefined);
}

/** The arguments of every listing of responses (a form's, a lead's, an environment's). */
export const responseListingArgs = builder.args((t) => ({
  filter: t.field({ type: ResponseFilterInput }),
  first: t.int({ defaultValue: FORM_PAGE_SIZE, description: `Page size, 1 to ${MAX_PAGE_SIZE}.` }),
  after: t.string({ description: '`endCursor` of the previous page: continue with older responses.' }),
}));

builder.queryFields((t) => {
  const listingArgs = {
    environmentId: t.arg.id({ description: 'The Site ID. Required with the admin token; with an API key, its own environment (the default).' }),
    ...responseListingArgs,
  };
  return {
    formResponses: t.field({
      authScopes: { scope: 'responses:read' },
      type: FormResponseConnection,
      description: "Responses of one form of the environment, newest first. `Form not found` (NOT_FOUND) when the form is not a live form of the caller's environment.",
      args: { formId: t.arg.id({ required: true }), ...listingArgs },
      complexity: pageComplexity,
      resolve: (_, args, ctx) => resolveListing(ctx, args, String(args.formId)),
    }),
    environmentResponses: t.field({
      authScopes: { scope: 'responses:read' },
      type: FormResponseConnection,
      description: 'Responses of every form of the environment, newest first.',
      args: listingArgs,
      complexity: pageComplexity,
      resolve: (_, args, ctx) => resolveListing(ctx, args, undefined),
    }),
  };
});

// ---------------------------------------------------------------- the responses of forms and leads, a response's form and lead

/** One page of responses for each form or lead, in one statement (the dataloader batches the parents). */
function loadResponsePages(kind: 'form' | 'lead') {
  return async (parentIds: string[], ctx: GraphQLContext, args: ListingArgs) => {
    const { first, after, filter } = checkListingArgs(args);
    const limits = formLimitOf(ctx.principal);
    const pages = await lagTolerantReads(ctx).run((db) =>
      responsePagesByParent(db, kind, readScope(ctx.principal), parentIds, { ...filter, after, limit: first, formIds: limits ?? undefined }),
    );
    return pages.map((page) => keysetConnection(page.responses, page.hasNextPage, after !== undefined));
  };
}

builder.objectFields(FormRef, (t) => ({
  responses: t.loadable({
    authScopes: { scope: 'responses:read' },
    type: FormResponseConnection,
    description: 'Responses of this form, newest first, with the filters of `formResponses`.',
    args: responseListingArgs,
    complexity: pageComplexity,
    byPath: true,
    load: loadResponsePages('form'),
    resolve: (form) => form.id,
  }),
}));

builder.objectFields(LeadRef, (t) => ({
  responses: t.loadable({
    type: FormResponseConnection,
    description: "The lead's responses to any form of its environment, newest first.",
    args: responseListingArgs,
    complexity: pageComplexity,
    byPath: true,
    load: loadResponsePages('lead'),
    resolve: (lead) => lead.id,
  }),
}));

builder.objectFields(FormResponseRef, (t) => ({
  form: t.field({
    authScopes: { scope: 'forms:read' },
    type: FormRef,
    nullable: true,
    description: 'The form answered; null once it is deleted.',
    resolve: (response) => response.formId,
  }),
  lead: t.field({ type: LeadRef, nullable: true, description: 'The respondent.', resolve: (response) => response.leadId }),
}));
