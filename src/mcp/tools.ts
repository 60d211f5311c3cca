/**
 * The MCP server's tools: each a thin adapter over the same GraphQL operations the REST adapters run, as
 * the calling API key, with its input checked (and described) by the REST bodies' zod schemas. A tool
 * needs its scope; the operation checks the scope, tenancy and the key's forms again.
 */
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { z } from 'zod';
import { requireApiKey } from '../auth/auth.service.ts';
import type { Scope } from '../auth/scopes.ts';
import { withFreshDefinitionBudget, type GraphQLContext } from '../graphql/context.ts';
import { runOperation } from '../graphql/execute.ts';
import { generateFormInputSchema, updateFormInputSchema } from '../forms/components.ts';
import { csvRecord } from '../responses/csv.ts';
import { headerRow, responseRow, type ExportColumn, type ExportedResponse } from '../responses/export.ts';
import { formExportColumns } from '../responses/export-columns.ts';
import {
  CloseFormDocument,
  EnvironmentFormsDocument,
  EnvironmentResponsesPageDocument,
  FormResponsesPageDocument,
  GenerateFormDocument,
  McpFormSummaryDocument,
  McpResponseDocument,
  RestFormDocument,
  UpdateFormDocument,
  WebhookEndpointsDocument,
  type FormStatus,
} from '../graphql/generated/graphql.ts';

/** A tool's "not found" (a null where the operation found nothing), reported as REST reports it. */
export class NotFound extends Error {}

/** Most items a listing tool returns at once. */
export const MAX_TOOL_PAGE = 100;
/** Most responses `export_responses` returns at once. */
export const MAX_EXPORT = 1000;

export interface Tool<Input extends z.ZodType = z.ZodType> {
  name: string;
  scope: Scope;
  description: string;
  input: Input;
  /** The JSON Schema of `structuredContent`. */
  output: z.ZodType;
  /** The input field that is a REST body: its problems are reported at the body's paths (without this field). */
  bodyField?: string;
  run(args: z.output<Input>, ctx: GraphQLContext): Promise<Record<string, unknown>>;
}

const tool = <Input extends z.ZodType>(definition: Tool<Input>) => definition as unknown as Tool;

/** The data of an operation, or the AppError it failed with (thrown, for the tool's error). */
export async function operation<TData, TVariables extends Record<string, unknown>>(document: TypedDocumentNode<TData, TVariables>, variables: TVariables, ctx: GraphQLContext) {
  const result = await runOperation(document, variables, ctx);
  if (result.error) throw result.error;
  return result.data;
}

const page = z.object({
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_TOOL_PAGE)
    .optional()
    .meta({ description: `Items per page, 1-${MAX_TOOL_PAGE} (default 20).` }),
  after: z.string().max(512).optional().meta({ description: '`nextCursor` of the previous page.' }),
});
const formId = z.string().min(1).max(64).meta({ description: "A form of the key's environment." });
const formSummary = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  status: z.string(),
  version: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
const nextCursor = z.string().nullable();

export const TOOLS: Tool[] = [
  tool({
    name: 'list_forms',
    scope: 'forms:read',
    description: "The environment's forms, newest first, a page at a time.",
    input: page.extend({
      status: z.enum(['draft', 'published', 'closed']).optional(),
      nameContains: z.string().min(1).max(200).optional(),
    }),
    output: z.object({ forms: z.array(formSummary), nextCursor }),
    async run({ limit, after, status, nameContains }, ctx) {
      const filter = {
        ...(status ? { status: status.toUpperCase() as FormStatus } : {}),
        ...(nameContains ? { nameContains } : {}),
      };
      const data = await operation(EnvironmentFormsDocument, { first: limit ?? 20, after: after ?? null, filter }, ctx);
      const forms = data.viewer.environment!.forms;
      return {
        forms: forms.edges.map(({ node }) => ({ ...node, status: node.status.toLowerCase() })),
        nextCursor: forms.pageInfo.hasNextPage ? (forms.pageInfo.endCursor ?? null) : null,
      };
    },
  }),
  tool({
    name: 'get_form',
    scope: 'forms:read',
    description: 'One form with its definition (name, theme, steps, hidden fields).',
    input: z.object({ formId }),
    output: formSummary.extend({ definition: z.unknown() }),
    async run(args, ctx) {
      const { form } = await operation(RestFormDocument, { id: args.formId }, ctx);
      if (!form) throw new NotFound('Form not found');
      return { ...form, status: form.status.toLowerCase(), definition: form.definition.json };
    },
  }),
  tool({
    name: 'generate_form',
    scope: 'forms:write',
    description: 'Generate a published form from a template form of the environment: the body of POST /api/v1/environments/{environmentId}/forms/generate.',
    input: generateFormInputSchema,
    output: z.object({ id: z.string(), url: z.string() }),
    async run(input, ctx) {
      const { environmentId } = requireApiKey(ctx.principal);
      const { generateForm } = await operation(GenerateFormDocument, { environmentId, input }, ctx);
      return { id: generateForm.form.id, url: generateForm.form.url };
    },
  }),
  tool({
    name: 'close_form',
    scope: 'forms:write',
    description: 'Close a published form to new responses.',
    input: z.object({ formId }),
    output: z.object({ id: z.string(), status: z.string() }),
    async run(args, ctx) {
      const { closeForm } = await operation(CloseFormDocument, { id: args.formId }, ctx);
      return { id: closeForm.id, status: closeForm.status.toLowerCase() };
    },
  }),
  tool({
    name: 'list_responses',
    scope: 'responses:read',
    description: 'Responses of one form (formId) or of the whole environment, newest first, a page of at most 100 at a time.',
    input: page.extend({
      formId: formId.optional(),
      includePartials: z.boolean().optional().meta({ description: 'Include unfinished responses.' }),
    }),
    output: z.object({ responses: z.array(z.unknown()), nextCursor }),
    async run({ formId: id, limit, after, includePartials }, ctx) {
      const variables = {
        first: limit ?? 20,
        after: after ?? null,
        filter: { returnPartials: includePartials ?? false },
      };
      const listing =
        id === undefined
          ? (await operation(EnvironmentResponsesPageDocument, variables, ctx)).environmentResponses
          : (await operation(FormResponsesPageDocument, { ...variables, formId: id }, ctx)).formResponses;
      return {
        responses: listing.edges.map(({ node }) => node),
        nextCursor: listing.pageInfo.hasNextPage ? (listing.pageInfo.endCursor ?? null) : null,
      };
    },
  }),
  tool({
    name: 'update_form',
    scope: 'forms:write',
    description:
      "Change a form's definition (name, steps, hidden fields, locale, notifications): a new version. `changes` is the body of PATCH /api/v1/forms/{formId}; `expectedVersion` refuses the change when another version is current.",
    input: z.object({
      formId,
      expectedVersion: z.number().int().min(1).optional().meta({ description: 'The version this change is made to.' }),
      changes: updateFormInputSchema,
    }),
    bodyField: 'changes',
    output: z.object({ id: z.string(), url: z.string(), version: z.number() }),
    async run({ formId: id, expectedVersion, changes }, ctx) {
      const { updateForm } = await operation(UpdateFormDocument, { id, input: changes, expectedVersion: expectedVersion ?? null }, ctx);
      return { id: updateForm.form.id, url: updateForm.form.url, version: updateForm.version };
    },
  }),
  tool({
    name: 'get_response',
    scope: 'responses:read',
    description: 'One response by id: the response object of GET /api/v1/responses.',
    input: z.object({ responseId: z.string().min(1).max(64) }),
    output: z.object({ response: z.unknown() }),
    async run({ responseId }, ctx) {
      const { node } = await operation(McpResponseDocument, { id: responseId }, ctx);
      if (!node || !('id' in node)) throw new NotFound('Response not found');
      return { response: node };
    },
  }),
  tool({
    name: 'form_summary',
    scope: 'responses:read',
    description:
      "A summary of a form's responses: counts by status, completion rate, how many reached each step, and per question its answers (choice counts, numeric statistics).",
    input: z.object({ formId }),
    output: z.object({ formId: z.string(), name: z.string(), summary: z.unknown() }),
    async run(args, ctx) {
      const { form } = await operation(McpFormSummaryDocument, { id: args.formId }, ctx);
      if (!form) throw new NotFound('Form not found');
      return { formId: form.id, name: form.name, summary: form.summary };
    },
  }),
  tool({
    name: 'export_responses',
    scope: 'responses:read',
    description: `The responses of one form (formId) or of the environment, newest first, at most ${MAX_EXPORT} in one answer (\`truncated\`: there were more; GET /api/v1/responses/export streams them all): as response objects (\`format: "json"\`, the default) or as the CSV of that export (\`format: "csv"\`).`,
    input: z.object({
      formId: formId.optional(),
      includePartials: z.boolean().optional().meta({ description: 'Include unfinished responses.' }),
      limit: z
        .number()
        .int()
        .min(1)
        .max(MAX_EXPORT)
        .optional()
        .meta({ description: `At most this many (default ${MAX_EXPORT}).` }),
      format: z
        .enum(['json', 'csv'])
        .optional()
        .meta({ description: '`json` (default): `responses`, the response objects. `csv`: `csv`, the CSV of GET /api/v1/responses/export (its header row and columns).' }),
    }),
    output: z.object({
      responses: z.array(z.unknown()).optional().meta({ description: 'With `format: "json"`.' }),
      csv: z.string().optional().meta({ description: 'With `format: "csv"`: the header row, then a row per response (RFC 4180, CRLF line ends).' }),
      truncated: z.boolean(),
    }),
    async run({ formId: id, includePartials, limit, format }, ctx) {
      // A form's columns first: a form the key cannot see is refused before any response is read.
      const columns = format === 'csv' && id !== undefined ? await formColumns(id, ctx) : undefined;
      const { responses, truncated } = await exportedResponses(id, includePartials ?? false, limit ?? MAX_EXPORT, ctx);
      if (format !== 'csv') return { responses, truncated };
      const csv = csvRecord(headerRow(columns)) + responses.map((response) => csvRecord(responseRow(response, columns))).join('');
      return { csv, truncated };
    },
  }),
  tool({
    name: 'list_webhooks',
    scope: 'webhooks:manage',
    description: "The environment's webhook endpoints (never their secrets).",
    input: z.object({}),
    output: z.object({ endpoints: z.array(z.unknown()) }),
    async run(_, ctx) {
      return { endpoints: (await operation(WebhookEndpointsDocument, {}, ctx)).webhookEndpoints };
    },
  }),
];

/** The CSV columns of form `formId` (those of the REST export); NotFound when the key cannot see it. */
async function formColumns(formId: string, ctx: GraphQLContext): Promise<ExportColumn[]> {
  // Each page of the form's versions with a budget of its own, as the REST export reads them.
  const found = await formExportColumns(formId, ctx, () => withFreshDefinitionBudget(ctx));
  if ('error' in found) throw found.error;
  if (!found.form) throw new NotFound('Form not found');
  return found.columns;
}

/** At most `wanted` responses of form `formId` (or of the environment), newest first, a page at a time; `truncated` when there were more. */
async function exportedResponses(formId: string | undefined, includePartials: boolean, wanted: number, ctx: GraphQLContext) {
  const responses: ExportedResponse[] = [];
  let after: string | null = null;
  for (;;) {
    const variables: { first: number; after: string | null; filter: { returnPartials: boolean } } = {
      first: Math.min(MAX_TOOL_PAGE, wanted - responses.length),
      after,
      filter: { returnPartials: includePartials },
    };
    const listing: { edges: { node: ExportedResponse }[]; pageInfo: { hasNextPage: boolean; endCursor?: string | null } } =
      formId === undefined
        ? (await operation(EnvironmentResponsesPageDocument, variables, ctx)).environmentResponses
        : (await operation(FormResponsesPageDocument, { ...variables, formId }, ctx)).formResponses;
    responses.push(...listing.edges.map(({ node }) => node));
    after = listing.pageInfo.endCursor ?? null;
    if (!listing.pageInfo.hasNextPage || after === null) return { responses, truncated: false };
    if (responses.length >= wanted) return { responses, truncated: true };
  }
}
