/**
 * The Model Context Protocol server (POST /mcp, Streamable HTTP through @modelcontextprotocol/sdk): tools
 * that are thin adapters over the same GraphQL operations the REST adapters run, as the calling API key.
 * A tool needs its scope: `tools/list` shows only the tools the key's scopes allow, and the operation
 * checks the scope again. Inputs are checked with the REST bodies' zod schemas (and described by their
 * JSON Schema), so a tool's error has the same message and paths as REST's.
 */
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { hasScope, requireApiKey, type Principal } from '../auth/auth.service.ts';
import type { Scope } from '../auth/scopes.ts';
import { invalidInput, toFieldErrors, type FieldError } from '../errors.ts';
import type { GraphQLContext } from '../graphql/context.ts';
import { appErrorOf } from '../graphql/errors.ts';
import { runOperation } from '../graphql/execute.ts';
import { generateFormInputSchema } from '../forms/components.ts';
import {
  CloseFormDocument,
  EnvironmentFormsDocument,
  EnvironmentResponsesPageDocument,
  FormResponsesPageDocument,
  GenerateFormDocument,
  RestFormDocument,
  WebhookEndpointsDocument,
  type FormStatus,
} from '../graphql/generated/graphql.ts';

/** The server's version in the MCP handshake. */
export const MCP_SERVER_VERSION = '1.0.0';

/** Most items a listing tool returns at once. */
export const MAX_TOOL_PAGE = 100;

interface Tool<Input extends z.ZodType = z.ZodType> {
  name: string;
  scope: Scope;
  description: string;
  input: Input;
  /** The JSON Schema of `structuredContent`. */
  output: z.ZodType;
  run(args: z.output<Input>, ctx: GraphQLContext): Promise<Record<string, unknown>>;
}

const tool = <Input extends z.ZodType>(definition: Tool<Input>) => definition as unknown as Tool;

/** The data of an operation, or the AppError it failed with (thrown, for the tool's error). */
async function operation<TData, TVariables extends Record<string, unknown>>(
  document: TypedDocumentNode<TData, TVariables>,
  variables: TVariables,
  ctx: GraphQLContext,
) {
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

const TOOLS: Tool[] = [
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
    description:
      'Generate a published form from a template form of the environment: the body of POST /api/v1/environments/{environmentId}/forms/generate.',
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
    description:
      'Responses of one form (formId) or of the whole environment, newest first, a page of at most 100 at a time.',
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

class NotFound extends Error {}

const jsonSchemaOf = (schema: z.ZodType, io: 'input' | 'output') => {
  const { $schema: _schema, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
  }) as Record<string, unknown>;
  return { type: 'object' as const, ...rest };
};

/** The tools `principal` may use: those whose scope it holds. */
export function toolsFor(principal: Principal): readonly Tool[] {
  return TOOLS.filter((t) => hasScope(principal, t.scope));
}

/** A tool's failure as MCP reports it: a tool error whose text and structured content are REST's body. */
function toolError(body: { message: string; errors?: FieldError[] }): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
}

async function callTool(name: string, args: unknown, ctx: GraphQLContext): Promise<CallToolResult> {
  const found = TOOLS.find((t) => t.name === name);
  if (!found) return toolError({ message: `Unknown tool ${name}` });
  // A tool the key may not use is reported as REST reports the route.
  if (!hasScope(ctx.principal, found.scope)) return toolError({ message: `API key lacks the scope ${found.scope}` });
  const parsed = found.input.safeParse(args ?? {});
  if (!parsed.success) {
    const error = invalidInput(toFieldErrors(parsed.error.issues));
    return toolError({ message: error.message, errors: error.errors! });
  }
  try {
    const result = await found.run(parsed.data, ctx);
    return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
  } catch (error) {
    if (error instanceof NotFound) return toolError({ message: error.message });
    const known = appErrorOf(error);
    if (!known) throw error;
    return toolError(known.errors ? { message: known.message, errors: known.errors } : { message: known.message });
  }
}

/** One MCP server for one request's caller (stateless: every request is answered on its own). */
function serverFor(ctx: GraphQLContext, version: string): Server {
  const server = new Server({ name: 'formloom', version }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: toolsFor(ctx.principal).map((t) => ({
      name: t.name,
      description: `${t.description} Needs the API key scope \`${t.scope}\`.`,
      inputSchema: jsonSchemaOf(t.input, 'input'),
      outputSchema: jsonSchemaOf(t.output, 'output'),
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, (request) =>
    callTool(request.params.name, request.params.arguments, ctx),
  );
  return server;
}

/** Answers one MCP POST (a JSON-RPC message, already read and checked as JSON) as the caller of `ctx`. */
export async function answerMcp(
  request: Request,
  parsedBody: unknown,
  ctx: GraphQLContext,
  version: string,
): Promise<Response> {
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  const server = serverFor(ctx, version);
  await server.connect(transport);
  try {
    return await transport.handleRequest(request, { parsedBody });
  } finally {
    await server.close();
  }
}
