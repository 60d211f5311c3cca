/**
 * POST /graphql with a JSON body, answered without yoga's fetch pipeline. yoga.fetch wraps a request
 * in WHATWG objects (a Request whose body streams through a TransformStream for yoga's size limit, a
 * Response that @hono/node-server can only copy through its stream path): most of a small operation's
 * cost. Here the body is read once (the edge has checked its size), parsed, and handed to the same
 * yoga instance at the step after request parsing (`getResultForParams`: every plugin, limit,
 * validation, execution and error masking), then answered by yoga's own result processors.
 *
 * The steps skipped are the ones that cannot apply to such a request: yoga's onRequest hooks (health
 * check, GraphiQL, unhandled route: the route is /graphql, the method POST) and its request parsing
 * (the POST JSON parser, its body size limit, the batching and parameter checks: done below). Any
 * request this does not recognise (another method or content type, a body that is not one JSON object
 * of GraphQL parameters, a body over yoga's own limit) goes to yoga.fetch, which answers it as before
 * (the body read here is handed to it).
 */
import { GraphQLError } from 'graphql';
import type { MaskError, Plugin } from 'graphql-yoga';
import type { GraphQLContext } from './context.ts';
import type { createGraphQLServer, YogaServerContext } from './yoga.ts';

/** yoga's default maxRequestBodySize (createYoga is given none): a longer body is left to yoga's answer. */
const YOGA_MAX_BODY_BYTES = 25_000_000;
/** The keys yoga's useCheckGraphQLQueryParams allows in a request body, with the type it accepts. */
const PARAMETER_TYPES: Record<string, string> = { query: 'string', operationName: 'string', variables: 'object', extensions: 'object' };

interface GraphQLParams {
  /** Absent when `extensions.persistedQuery` names the document (graphql/persisted.ts). */
  query?: string;
  operationName?: string;
  variables?: Record<string, unknown>;
  extensions?: Record<string, unknown>;
}

type Yoga = ReturnType<typeof createGraphQLServer>;
type ResultProcessHook = NonNullable<Plugin<GraphQLContext, YogaServerContext>['onResultProcess']>;
type ResultProcessor = Parameters<Parameters<ResultProcessHook>[0]['setResultProcessor']>[0];

/** Two fields of graphql-yoga 5.24's YogaServer (pinned) that its typings mark private. */
interface YogaInternals {
  onResultProcessHooks: ResultProcessHook[];
  maskedErrorsOpts: { maskError: MaskError; errorMessage: string; isDev?: boolean } | null;
}
const internals = (yoga: Yoga) => yoga as unknown as YogaInternals;

/** yoga's isContentTypeMatch for its POST JSON parser: the first listed type, without or with parameters. */
function isJsonContentType(header: string | null): boolean {
  const type = header?.split(',')[0];
  if (!type) return false;
  return ['application/json', 'application/graphql+json'].some((expected) => type === expected || type.startsWith(`${expected};`));
}

/**
 * The request's headers allow this path: POST with a JSON content type, and a URL yoga's health check
 * does not claim (it answers any URL ending in /health).
 */
function takesDirectPath(request: Request): boolean {
  return request.method === 'POST' && !request.url.endsWith('/health') && isJsonContentType(request.headers.get('content-type'));
}

/**
 * What yoga's body size limit lets through: a declared length (if any) that is a number within the
 * limit, and a body within it. (The edge's limit, MAX_BODY_BYTES, has already been applied.)
 */
function withinYogaLimit(request: Request, bodyBytes: number): boolean {
  const length = request.headers.get('content-length');
  if (length !== null && !(/^\d+$/.test(length) && Number(length) <= YOGA_MAX_BODY_BYTES)) return false;
  return bodyBytes <= YOGA_MAX_BODY_BYTES;
}

/**
 * A body yoga would take as one operation's parameters and pass through useCheckGraphQLQueryParams:
 * an object with a string `query` (or, for a persisted document, `extensions` instead), an object (or
 * null) `variables` and `extensions`, a string (or null) `operationName`, and no other key set.
 * Anything else is yoga's to answer.
 */
function asParams(body: unknown): GraphQLParams | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  for (const [key, value] of Object.entries(body)) {
    if (value === null) continue;
    const expected = PARAMETER_TYPES[key];
    if (expected === undefined || typeof value !== expected || Array.isArray(value)) return undefined;
  }
  const { query, extensions } = body as { query?: unknown; extensions?: unknown };
  return typeof query === 'string' || (query == null && typeof extensions === 'object' && extensions !== null) ? body : undefined;
}

/** yoga's handleError for an error thrown outside the operation, with masking on (as createGraphQLServer has it). */
function errorsOf(yoga: YogaInternals, error: unknown): GraphQLError[] {
  if (error instanceof AggregateError) return error.errors.flatMap((inner) => errorsOf(yoga, inner));
  if (error instanceof Error && error.name === 'AbortError') return [];
  const { maskError, errorMessage, isDev } = yoga.maskedErrorsOpts!;
  const masked = maskError(error, errorMessage, isDev);
  return [masked instanceof GraphQLError ? masked : new GraphQLError(masked.message, { originalError: masked })];
}

/** yoga's processResult: its result processors choose the answer by the Accept header and the result. */
async function processResult(yoga: Yoga, request: Request, result: unknown, serverContext: YogaServerContext) {
  let processor: ResultProcessor | undefined;
  let mediaType = '*/*';
  const acceptableMediaTypes: string[] = [];
  for (const hook of internals(yoga).onResultProcessHooks) {
    await hook({
      request,
      acceptableMediaTypes,
      result: result as never,
      setResult: (newResult: unknown) => (result = newResult),
      resultProcessor: processor,
      setResultProcessor: (newProcessor: ResultProcessor, newMediaType: string) => {
        processor = newProcessor;
        mediaType = newMediaType;
      },
      serverContext: serverContext as never,
    });
  }
  if (!processor) {
    return new yoga.fetchAPI.Response(null, { status: 406, statusText: 'Not Acceptable', headers: { accept: acceptableMediaTypes.join('; charset=utf-8, ') } });
  }
  return processor(result as never, yoga.fetchAPI, mediaType);
}

/**
 * yoga's answer of one result (JSON: a string body) as a Response the Node adapter writes directly;
 * streams (SSE, multipart) and empty answers as they are.
 */
async function writableDirectly(response: Response): Promise<Response> {
  const type = response.headers.get('content-type');
  if (!type?.startsWith('application/json') && !type?.startsWith('application/graphql-response+json')) return response;
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => (headers[key] = value));
  return new Response(await response.text(), { status: response.status, headers });
}

/**
 * Answers a /graphql request: directly when it is a POST of JSON parameters (see the module comment),
 * otherwise through yoga.fetch. `readBody` reads the request's body (once).
 */
export async function answerGraphQL(yoga: Yoga, request: Request, readBody: () => Promise<ArrayBuffer>, serverContext: YogaServerContext): Promise<Response> {
  if (!takesDirectPath(request)) return writableDirectly(await yoga.fetch(request, serverContext));
  const body = await readBody();
  let params: GraphQLParams | undefined;
  try {
    // Decoded as yoga decodes it (a byte order mark is kept, and refused by JSON.parse).
    if (withinYogaLimit(request, body.byteLength)) params = asParams(JSON.parse(Buffer.from(body).toString('utf8')));
  } catch {
    // Not JSON: yoga answers with its own error.
  }
  if (!params) {
    const again = new Request(request.url, { method: request.method, headers: request.headers, body, signal: request.signal });
    return writableDirectly(await yoga.fetch(again, serverContext));
  }
  // yoga adds `request` and `params` to the context it is given: a copy per request, as yoga.fetch makes.
  const context = { ...serverContext };
  let result: unknown;
  try {
    result = await yoga.getResultForParams({ params, request }, context);
  } catch (error) {
    result = { errors: errorsOf(internals(yoga), error) };
  }
  return writableDirectly(await processResult(yoga, request, result, context));
}

/**
 * The GraphQL errors of an answer that carries one result: a JSON body, or a server-sent events body
 * (a subscription refused before it started: one `next` event, then `complete`).
 */
export async function errorsOfAnswer(response: Response): Promise<{ message: string; extensions?: Record<string, unknown> }[]> {
  const text = await response.text();
  const json = response.headers.get('content-type')?.startsWith('text/event-stream') ? /^data: (.+)$/m.exec(text)?.[1] : text;
  try {
    const errors = (JSON.parse(json ?? '{}') as { errors?: unknown }).errors;
    return Array.isArray(errors) ? (errors as { message: string; extensions?: Record<string, unknown> }[]) : [];
  } catch {
    return [];
  }
}
