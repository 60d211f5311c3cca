/**
 * The Model Context Protocol server (POST /mcp, Streamable HTTP through @modelcontextprotocol/sdk): the
 * tools of tools.ts, each form's definition as a resource (`formloom://forms/<id>`), and a prompt that
 * summarises a form's responses, all as the calling API key. `tools/list` (and the resources and prompts)
 * show only what the key's scopes allow, and every call checks the scope again.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  ErrorCode,
  McpError,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { hasScope, type Principal } from '../auth/auth.service.ts';
import { invalidInput, toFieldErrors, type FieldError } from '../errors.ts';
import { definitionBudget, type GraphQLContext } from '../graphql/context.ts';
import { appErrorOf } from '../graphql/errors.ts';
import { McpFormSummaryDocument, RestFormDocument } from '../graphql/generated/graphql.ts';
import { NotFound, operation, TOOLS, type Tool } from './tools.ts';

export { MAX_TOOL_PAGE } from './tools.ts';

/** The server's version in the MCP handshake. */
export const MCP_SERVER_VERSION = '1.0.0';

/** What an MCP request runs with: the caller's operation context and GRAPHQL_MAX_DEFINITION_BYTES (absent or 0: no budget). */
export type McpContext = GraphQLContext & { maxDefinitionBytes?: number | undefined };

/**
 * The context of one tool call, resource read or prompt: a budget of definition bytes of its own, as each
 * REST operation has, so no tool result holds more definitions than GRAPHQL_MAX_DEFINITION_BYTES (the
 * operation refuses the form that would pass it, as GraphQL does).
 */
const withBudget = (ctx: McpContext): GraphQLContext => ({ ...ctx, definitionBudget: definitionBudget(ctx.maxDefinitionBytes ?? 0) });

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

/** Input problems at the REST body's paths: a tool's `bodyField` is the body, so its name leaves the path. */
function inputProblems(found: Tool, issues: z.core.$ZodIssue[]): FieldError[] {
  const errors = toFieldErrors(issues);
  const field = found.bodyField;
  return field === undefined ? errors : errors.map((e) => (e.path[0] === field ? { ...e, path: e.path.slice(1) } : e));
}

/** The REST body of an error a tool's operation failed with; rethrows what is no AppError (a bug: 500). */
function knownError(error: unknown): { message: string; errors?: FieldError[] } {
  if (error instanceof NotFound) return { message: error.message };
  const known = appErrorOf(error);
  if (!known) throw error;
  return known.errors ? { message: known.message, errors: known.errors } : { message: known.message };
}

async function callTool(name: string, args: unknown, ctx: McpContext): Promise<CallToolResult> {
  const found = TOOLS.find((t) => t.name === name);
  if (!found) return toolError({ message: `Unknown tool ${name}` });
  // A tool the key may not use is reported as REST reports the route.
  if (!hasScope(ctx.principal, found.scope)) return toolError({ message: `API key lacks the scope ${found.scope}` });
  const parsed = found.input.safeParse(args ?? {});
  if (!parsed.success) {
    const error = invalidInput(inputProblems(found, parsed.error.issues));
    return toolError({ message: error.message, errors: error.errors! });
  }
  try {
    const result = await found.run(parsed.data, withBudget(ctx));
    return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
  } catch (error) {
    return toolError(knownError(error));
  }
}

// ---------------------------------------------------------------- resources and prompts

const FORM_URI = /^formloom:\/\/forms\/([\w-]{1,64})$/;
const formUri = (id: string) => `formloom://forms/${id}`;

/** A refusal of a resource or prompt: a JSON-RPC error (invalid params) with REST's message. */
const refused = (message: string) => new McpError(ErrorCode.InvalidParams, message);

/** Runs a resource or prompt handler, reporting its AppErrors as `refused` (anything else is a bug). */
async function refusing<T>(handler: () => Promise<T>): Promise<T> {
  try {
    return await handler();
  } catch (error) {
    if (error instanceof McpError) throw error;
    throw refused(knownError(error).message);
  }
}

/** The resource of one form: its definition as JSON. A form the key cannot see is `Form not found`. */
async function readFormResource(uri: string, ctx: McpContext) {
  const id = FORM_URI.exec(uri)?.[1];
  if (!hasScope(ctx.principal, 'forms:read')) throw refused('API key lacks the scope forms:read');
  const { form } = id ? await operation(RestFormDocument, { id }, withBudget(ctx)) : { form: null };
  if (!form) throw refused('Form not found');
  const definition = {
    id: form.id,
    name: form.name,
    status: form.status.toLowerCase(),
    version: form.version,
    url: form.url,
    definition: form.definition.json,
  };
  return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(definition) }] };
}

const SUMMARY_PROMPT = 'summarise_form_responses';

/** The prompt "summarise this form's responses": the form's summary, and what to make of it. */
async function summaryPrompt(args: Record<string, string> | undefined, ctx: McpContext) {
  if (!hasScope(ctx.principal, 'responses:read')) throw refused('API key lacks the scope responses:read');
  const formId = args?.formId;
  if (!formId) throw refused('formId is required');
  const { form } = await operation(McpFormSummaryDocument, { id: formId }, withBudget(ctx));
  if (!form) throw refused('Form not found');
  const text =
    `Summarise the responses to the form "${form.name}" (${form.id}) for its owner: how many started and finished, ` +
    'where respondents drop off, and what the answers to each question say (the most chosen options, averages). ' +
    'Call list_responses or get_response for examples of free-text answers. The summary, as JSON:\n' +
    JSON.stringify(form.summary);
  return {
    description: `Summarise the responses of ${form.name}`,
    messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }],
  };
}

function addResourcesAndPrompts(server: Server, ctx: McpContext) {
  server.setRequestHandler(ListResourcesRequestSchema, () =>
    refusing(async () => {
      if (!hasScope(ctx.principal, 'forms:read')) return { resources: [] };
      const listed = (await TOOLS.find((t) => t.name === 'list_forms')!.run({ limit: 100 }, withBudget(ctx))) as {
        forms: { id: string; name: string }[];
      };
      return {
        resources: listed.forms.map((f) => ({
          uri: formUri(f.id),
          name: f.name,
          mimeType: 'application/json',
          description: `The definition of the form ${f.name}`,
        })),
      };
    }),
  );
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: hasScope(ctx.principal, 'forms:read')
      ? [
          {
            uriTemplate: 'formloom://forms/{formId}',
            name: 'form',
            mimeType: 'application/json',
            description: "A form's definition (forms:read).",
          },
        ]
      : [],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => refusing(() => readFormResource(request.params.uri, ctx)));
  server.setRequestHandler(ListPromptsRequestSchema, () => ({
    prompts: hasScope(ctx.principal, 'responses:read')
      ? [
          {
            name: SUMMARY_PROMPT,
            description: "Summarise this form's responses (responses:read).",
            arguments: [{ name: 'formId', description: 'The form.', required: true }],
          },
        ]
      : [],
  }));
  server.setRequestHandler(GetPromptRequestSchema, (request) => {
    if (request.params.name !== SUMMARY_PROMPT) throw refused(`Unknown prompt ${request.params.name}`);
    return refusing(() => summaryPrompt(request.params.arguments, ctx));
  });
}

/** One MCP server for one request's caller (stateless: every request is answered on its own). */
function serverFor(ctx: McpContext, version: string): Server {
  const server = new Server({ name: 'formloom', version }, { capabilities: { tools: {}, resources: {}, prompts: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: toolsFor(ctx.principal).map((t) => ({
      name: t.name,
      description: `${t.description} Needs the API key scope \`${t.scope}\`.`,
      inputSchema: jsonSchemaOf(t.input, 'input'),
      outputSchema: jsonSchemaOf(t.output, 'output'),
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, (request) => callTool(request.params.name, request.params.arguments, ctx));
  addResourcesAndPrompts(server, ctx);
  return server;
}

/** Answers one MCP POST (a JSON-RPC message, already read and checked as JSON) as the caller of `ctx`. */
export async function answerMcp(request: Request, parsedBody: unknown, ctx: McpContext, version: string): Promise<Response> {
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
