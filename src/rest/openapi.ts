/**
 * The OpenAPI 3.1 document of the v1 REST API (GET /api/v1/openapi.json), built from the zod schemas
 * the adapters validate requests with (forms/components.ts, rest/responses.ts, rest/export.ts) and the
 * response schemas of rest/contract.ts, through zod 4's JSON Schema output. Nothing here restates a
 * field by hand: a change to a schema changes the document, and the test suite checks every REST answer
 * it receives against it.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { fromRoot } from '../paths.ts';
import { generateFormInputSchema, updateFormInputSchema } from '../forms/components.ts';
import { KNOWN_FILE_TYPES } from '../uploads/file-types.ts';
import { fileQuerySchema } from './files.ts';
import {
  createdWebhookEndpointSchema,
  deletedWebhookEndpointSchema,
  errorBodySchema,
  formStateBodySchema,
  formBodySchema,
  insightsBodySchema,
  formListBodySchema,
  generateBodySchema,
  updatedFormBodySchema,
  translationDocumentSchema,
  translationsBodySchema,
  responsesBodySchema,
  notificationDeliveryListSchema,
  notificationDeliverySchema,
  webhookDeliveryListSchema,
  webhookDeliverySchema,
  webhookEndpointListSchema,
  webhookEndpointSchema,
  auditLogBodySchema,
  environmentSettingsSchema,
  apiKeyListSchema,
  apiKeySchema,
  createdApiKeySchema,
  deletedResponseSchema,
  deletedResponsesSchema,
  eraseLeadBodySchema,
  createdShareLinkSchema,
  shareLinkListSchema,
  revokedShareLinkSchema,
  CONTRACT_SCHEMAS,
  publicDefinitionSchema,
  publicStartBodySchema,
  publicUpdateBodySchema,
  publicResponseSchema,
  publicStartedResponseSchema,
  publicViewBodySchema,
  publicViewCountedSchema,
} from './contract.ts';
import { createShareLinkBodySchema } from './share-links.ts';
import { createSchema as webhookCreateSchema, updateSchema as webhookUpdateSchema } from './webhooks.ts';
import { auditQuerySchema, bulkDeleteSchema } from './privacy.ts';
import { settingsBodySchema } from './settings.ts';
import { createKeyBodySchema } from './keys.ts';
import type { RouteAccess } from './access.ts';
import { EXPORT_FIXED_COLUMNS, PATH_SEPARATOR } from '../responses/export.ts';
import { MULTI_VALUE_SEPARATOR } from '../components/answers.ts';
import { formsQuerySchema } from './forms.ts';
import { MAX_PAGE_SIZE } from '../keyset.ts';

type JsonSchema = Record<string, unknown>;

const jsonSchemaOf = (schema: z.ZodType, io: 'input' | 'output' = 'output'): JsonSchema => {
  const { $schema: _schema, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
};

const ref = (schema: { meta(): { id?: string } | undefined }) => ({ $ref: `#/components/schemas/${schema.meta()!.id!}` });

/** Components: the contract's schemas under their ids (nested ids become $refs). */
function componentSchemas(): Record<string, JsonSchema> {
  // `.meta({id})` registers a schema in zod's global registry; the contract's (and their nested ones,
  // FieldError and QuestionResponse) are the only ones with an id.
  void CONTRACT_SCHEMAS;
  const { schemas } = z.toJSONSchema(z.globalRegistry, {
    target: 'draft-2020-12',
    uri: (id) => `#/components/schemas/${id}`,
    unrepresentable: 'any',
  }) as { schemas: Record<string, JsonSchema> };
  return Object.fromEntries(
    Object.entries(schemas).map(([id, schema]) => {
      const { $schema: _s, $id: _id, ...rest } = schema;
      return [id, rest];
    }),
  );
}

const json = (schema: unknown, example?: unknown) => ({ 'application/json': { schema, ...(example === undefined ? {} : { example }) } });
const errorResponse = (description: string, example: { message: string; errors?: unknown[] }) => ({
  description,
  content: json(ref(errorBodySchema), example),
});

const RATE_LIMIT_HEADERS = {
  'Retry-After': { description: 'Seconds until the limit resets.', schema: { type: 'string' } },
  RateLimit: { description: 'IETF draft RateLimit header: remaining requests and reset.', schema: { type: 'string' } },
};

/** Answers the API edge may give on any /api/v1 operation (docs/security.md, docs/operations.md). */
const EDGE_RESPONSES = {
  '400': errorResponse('Invalid request: a malformed body, bad parameters, or a path or parameter with a NUL or invalid UTF-8.', {
    message: 'Invalid request body',
    errors: [{ message: 'Required', path: ['name'] }],
  }),
  '401': errorResponse('No API key, or an unknown, malformed or revoked one.', { message: 'Missing API key' }),
  '403': errorResponse('The credentials do not reach this environment or operation.', { message: 'API key does not grant access to this environment' }),
  '413': errorResponse('The request body is larger than MAX_BODY_BYTES.', { message: 'Request body too large (limit 1048576 bytes)' }),
  '429': { ...errorResponse('A rate limit refused the request; retry after Retry-After seconds.', { message: 'Too many requests' }), headers: RATE_LIMIT_HEADERS },
  '500': errorResponse('An unexpected failure (details only in the server log).', { message: 'Internal server error' }),
  '503': errorResponse('The database is unreachable or the server is shutting down; retry.', { message: 'Service unavailable' }),
};

/** A query parameter from a field of a zod object schema (the adapters' own). */
function queryParameters(shape: Record<string, z.ZodType>, descriptions: Record<string, string>) {
  return Object.entries(shape).map(([name, schema]) => ({
    name,
    in: 'query',
    required: false,
    description: descriptions[name] ?? '',
    schema: jsonSchemaOf(schema, 'input'),
  }));
}

const FILTER_DESCRIPTIONS: Record<string, string> = {
  formId: "Only this form's responses (at most 10 per request in the listing; all of them in the export).",
  returnPartials: '`true` includes unfinished (partial) responses. Default `false`.',
  since: 'Only responses whose `dateField` is at or after this instant: an ISO 8601 date (midnight UTC) or date-time with a zone.',
  until: 'Only responses before this instant (exclusive), same format; must be later than `since`.',
  dateField: 'What `since`/`until` apply to: `createdAt` (default) or `updatedAt`.',
  language:
    "Only responses answered in this language (`meta.language`; a response without one, of a one-language form, counts as its form's default language's): one of the built-in languages, a region read as its language (`de-CH` is `de`).",
  limit: 'Page size: 1-100, or 1-10 with `formId`. Turns paging on.',
  after: 'An opaque cursor (`nextCursor` of the previous page). Turns paging on.',
  format: '`csv` (default) or `ndjson`.',
  environmentId: 'The environment to export (the admin token needs it without `formId`; an API key may only name its own).',
};

export interface OpenApiSources {
  /** The listing's query schema (rest/responses.ts). */
  listingQuery: z.ZodObject;
  /** The export's query schema (rest/export.ts). */
  exportQuery: z.ZodObject;
  version: string;
}

/** The captured examples (scripts/openapi-examples.ts): `exampleKey(…)` → a real answer's body. */
export type CapturedExamples = Record<string, unknown>;
// From the project root, not this module: `npm start` runs a bundle in dist/ (src/paths.ts).
export const EXAMPLES_FILE = fromRoot('src/rest/openapi-examples.json');
export const exampleKey = (method: string, template: string, status: number | string, mediaType: string) => `${method.toUpperCase()} ${template} ${status} ${mediaType}`;
/** Statuses whose answer is the API edge's, the same for every operation: one capture serves them all. */
const EDGE_STATUSES = new Set(['401', '413', '429']);

/**
 * The document, its examples taken from real answers: every response whose operation, status and media
 * type the capture saw shows that answer; the others (500, and 503, which a healthy run never gives) keep
 * the catalogue's body written beside them.
 */
export function buildOpenApiDocument(sources: OpenApiSources, examples: CapturedExamples = JSON.parse(readFileSync(EXAMPLES_FILE, 'utf8')) as CapturedExamples) {
  const document = buildDocument(sources);
  const edge = new Map<string, unknown>();
  for (const [key, value] of Object.entries(examples)) {
    const [, , status, type] = key.split(' ');
    if (EDGE_STATUSES.has(status!) && !edge.has(`${status} ${type}`)) edge.set(`${status} ${type}`, value);
  }
  type Media = { schema: unknown; example?: unknown };
  type Answer = { content?: Record<string, Media> };
  for (const [template, item] of Object.entries(document.paths as Record<string, Record<string, { responses?: Record<string, Answer> }>>)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!operation.responses) continue;
      for (const [status, answer] of Object.entries(operation.responses)) {
        if (!answer.content) continue;
        const content: Record<string, Media> = {};
        for (const [type, media] of Object.entries(answer.content)) {
          const example = examples[exampleKey(method, template, status, type)] ?? (EDGE_STATUSES.has(status) ? edge.get(`${status} ${type}`) : undefined);
          content[type] = example === undefined ? media : { ...media, example };
        }
        // A copy: the edge's answers are shared between operations.
        operation.responses[status] = { ...answer, content };
      }
    }
  }
  // After the examples: each 403 shows its own operation's scope.
  withScopes(document.paths as unknown as Record<string, Record<string, Operation>>);
  return document;
}

/** The document with the examples written beside each answer. */
function buildDocument(sources: OpenApiSources) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'formloom REST API',
      version: sources.version,
      description:
        'Generate published forms from a template form and read their responses. Every operation takes an environment API key in `x-api-key` ' +
        '(the admin token, `Authorization: Bearer <token>`, where said). GraphQL at `/graphql` offers the same and more.',
    },
    servers: [{ url: '/' }],
    security: [{ apiKey: [] }],
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'An environment API key, `fl_<id>_<secret>`.' },
        adminToken: { type: 'http', scheme: 'bearer', description: 'The admin token (ADMIN_TOKEN or the generated one in DATA_DIR).' },
      },
      schemas: componentSchemas(),
    },
    webhooks: responseWebhooks(),
    paths: {
      ...generatePaths(),
      ...formPaths(),
      ...translationPaths(),
      ...responsePaths(sources),
      ...insightsPaths(),
      ...shareLinkPaths(),
      ...webhookPaths(),
      ...notificationPaths(),
      ...privacyPaths(),
      ...settingsPaths(),
      ...keyPaths(),
      '/api/v1/files/{fileId}': filePath(),
      ...documentAndBackupPaths(),
      ...publicApiPaths(),
    },
  };
}

/**
 * What a webhook endpoint receives for a response's events (docs/webhooks.md): the response object as the
 * listing writes it, answers typed by their component type. The `slack` format and the form events aside.
 */
function responseWebhooks() {
  const events = {
    'response.created': 'The first submission of a response (page or public API).',
    'response.updated': 'Every later submission, the one that finishes it included.',
    'response.finished': 'The submission that finishes the response; never for one that ends invalid.',
  };
  return Object.fromEntries(
    Object.entries(events).map(([type, description]) => [
      type,
      {
        post: {
          operationId: `webhook.${type}`,
          summary: `${type}: signed with the endpoint's secret (Standard Webhooks headers)`,
          description,
          security: [],
          requestBody: {
            required: true,
            content: json({
              type: 'object',
              properties: {
                type: { const: type },
                timestamp: { type: 'string', format: 'date-time', description: 'When the change was made.' },
                data: ref(responsesBodySchema.shape.data.element),
              },
              required: ['type', 'timestamp', 'data'],
            }),
          },
          responses: { '2XX': { description: 'Received: any 2xx ends the delivery; anything else is retried.' } },
        },
      },
    ]),
  );
}

/** Generating a form, and closing and reopening one. */
function generatePaths() {
  return {
    '/api/v1/environments/{environmentId}/forms/generate': {
      post: {
        operationId: 'generateForm',
        summary: 'Generate a published form from a template form',
        description:
          'Creates a form in the environment from `sourceFormId` (a live form of the same environment), inheriting its theme, and publishes it. ' +
          'With an `Idempotency-Key`, a repeat within 24 h with the same body returns the first form (`Idempotent-Replayed: true`) and creates nothing.',
        security: [{ apiKey: [] }, { adminToken: [] }],
        parameters: [
          { name: 'environmentId', in: 'path', required: true, description: 'The Site ID.', schema: { type: 'string' } },
          {
            name: 'Idempotency-Key',
            in: 'header',
            required: false,
            description: '1-255 visible ASCII characters (a random UUID). Scoped to the environment, remembered 24 h.',
            schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
          },
        ],
        requestBody: { required: true, content: json(jsonSchemaOf(generateFormInputSchema, 'input')) },
        responses: {
          '200': {
            description: 'The form was created (or, for a repeated Idempotency-Key, had been).',
            headers: { 'Idempotent-Replayed': { description: '`true` when this answers a repeated Idempotency-Key.', schema: { type: 'string', enum: ['true'] } } },
            content: json(ref(generateBodySchema)),
          },
          ...EDGE_RESPONSES,
          '400': errorResponse('The body is not a valid generate request (every problem, with its path).', {
            message: 'Invalid request body',
            errors: [{ message: 'A scheduler needs a calendar URL (dataUrl, url or calendarUrl)', path: ['steps', 1, 'components', 0, 'content'] }],
          }),
          '404': errorResponse('`sourceFormId` is not a live form of this environment.', { message: 'Source form not found' }),
          '409': errorResponse('A request with the same Idempotency-Key is still in progress; retry.', {
            message: 'A request with this Idempotency-Key is in progress; retry it',
          }),
          '415': errorResponse('The body is not JSON.', { message: 'Unsupported media type: send the body as application/json' }),
          '422': errorResponse('The Idempotency-Key was used with another body.', {
            message: 'This Idempotency-Key was already used with a different request; use a new key for a new request',
          }),
        },
      },
    },
    ...Object.fromEntries(
      (['close', 'reopen'] as const).map((action) => [
        `/api/v1/environments/{environmentId}/forms/{formId}/${action}`,
        {
          post: {
            operationId: `${action}Form`,
            summary: action === 'close' ? 'Close a published form to new responses' : 'Publish a closed form again',
            description:
              "Idempotent: closing a closed form (or reopening a published one) changes nothing. A closed form's page and public API answer 410; its responses stay readable.",
            parameters: [
              { name: 'environmentId', in: 'path', required: true, schema: { type: 'string' } },
              { name: 'formId', in: 'path', required: true, schema: { type: 'string' } },
            ],
            responses: {
              '200': {
                description: "The form's state.",
                content: json(ref(formStateBodySchema), { id: 'k4n2iogu5ks9ut7lahuxkl27', status: action === 'close' ? 'closed' : 'published' }),
              },
              ...EDGE_RESPONSES,
              '404': errorResponse('No such live form in this environment.', { message: 'Form not found' }),
              '409': errorResponse('A draft can be neither closed nor reopened.', { message: 'Only a published form can be closed' }),
            },
          },
        },
      ]),
    ),
  };
}

/** The responses' listing and export. */
function responsePaths(sources: OpenApiSources) {
  const listingParams = queryParameters(sources.listingQuery.shape, FILTER_DESCRIPTIONS);
  const exportParams = queryParameters(sources.exportQuery.shape, FILTER_DESCRIPTIONS);
  const { '403': forbidden, ...edgeWithout403 } = EDGE_RESPONSES;
  return {
    '/api/v1/responses': {
      get: {
        operationId: 'listResponses',
        summary: 'List responses of one form or of the environment',
        description:
          '`formId`: the 10 most recent responses of the form. Without it: every response of the environment, streamed. ' +
          '`limit`/`after` page through either listing and add `nextCursor`. Newest first.',
        parameters: listingParams,
        responses: {
          '200': { description: 'The responses.', content: json(ref(responsesBodySchema)) },
          ...edgeWithout403,
          '403': { ...forbidden, description: 'The admin token was used (this endpoint needs an environment API key).' },
          '404': errorResponse("`formId` is not a live form of the key's environment.", { message: 'Form not found' }),
        },
      },
    },
    '/api/v1/responses/export': {
      get: {
        operationId: 'exportResponses',
        summary: 'Export responses as CSV or NDJSON',
        description:
          'Every response matching the filters, newest first, streamed. CSV (RFC 4180): the columns ' +
          `${EXPORT_FIXED_COLUMNS.join(', ')} (\`formVersion\`: the version of the form the response answered; \`path\`: the step keys joined with "${PATH_SEPARATOR}"), then one per declared hidden field (\`<name> [hidden]\`) ` +
          `and one per question (\`<headline> [<questionId>]\`; IdentityInfo one per key, \`<label> [<questionId>.<key>]\`; the current version's questions, then those only earlier versions had), or a \`hiddenFields\` ` +
          `and a \`data\` column of JSON without \`formId\`. Multi-valued answers are joined with "${MULTI_VALUE_SEPARATOR}". ` +
          "Cells beginning with tab, CR or LF, or whose first visible character (after spaces, no-break and zero-width spaces) is =, +, -, @ or fullwidth ＝＋－＠, are prefixed with ' (formula injection). NDJSON: one response object per line.",
        security: [{ apiKey: [] }, { adminToken: [] }],
        parameters: exportParams,
        responses: {
          '200': {
            description: 'The export, as an attachment.',
            headers: { 'Content-Disposition': { description: '`attachment; filename="responses-<form or environment>-<date>.<format>"`', schema: { type: 'string' } } },
            content: {
              'text/csv': { schema: { type: 'string' } },
              'application/x-ndjson': { schema: { type: 'string' } },
            },
          },
          ...EDGE_RESPONSES,
          '404': errorResponse('`formId` is not a live form the caller reaches.', { message: 'Form not found' }),
        },
      },
    },
  };
}

/** What the public JSON API may answer any of its operations (docs/public-pages.md, docs/security.md). */
const PUBLIC_EDGE_RESPONSES = {
  '404': errorResponse('No published form with this id.', { message: 'Form not found' }),
  '410': errorResponse('The form is closed.', { message: 'This form is closed and no longer accepts responses' }),
  '500': EDGE_RESPONSES['500'],
  '503': EDGE_RESPONSES['503'],
};

/** What the public JSON API may answer a write (a body, the per-address rate limit). */
const PUBLIC_WRITE_RESPONSES = {
  ...PUBLIC_EDGE_RESPONSES,
  '400': errorResponse('The body is not what the operation takes, or an answer is refused: every problem with its path.', {
    message: 'Invalid request body',
    errors: [{ message: 'Must be a whole number from 1 to 5', path: ['answers', 'oerrwclm7a8f08jhglt8x76u'] }],
  }),
  '413': errorResponse('The request body is larger than PUBLIC_MAX_BODY_BYTES.', { message: 'Request body too large (limit 1048576 bytes)' }),
  '415': errorResponse('The body is not of the media type the operation takes.', { message: 'Unsupported media type: send the body as application/json' }),
  '429': {
    ...errorResponse('The per-address limit (PUBLIC_RATE_LIMIT per minute) refused the request; retry after Retry-After seconds.', { message: 'Too many requests' }),
    headers: RATE_LIMIT_HEADERS,
  },
};

/** `POST /s/{formId}/uploads`: its multipart fields, and what it answers. */
const uploadBodySchema = {
  type: 'object',
  required: ['componentId', 'file'],
  additionalProperties: false,
  properties: {
    componentId: { type: 'string', description: 'The id of a FileUploader of the form.' },
    file: {
      description: 'One file, or up to its `maxFiles` with `multiple`.',
      oneOf: [
        { type: 'string', format: 'binary' },
        { type: 'array', items: { type: 'string', format: 'binary' } },
      ],
    },
    formVersion: { type: 'string', description: 'The version the response answers (its `formVersion`), when the form has changed since it started.' },
  },
};
const uploadedFilesSchema = {
  type: 'object',
  required: ['files'],
  additionalProperties: false,
  properties: {
    files: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'name', 'size', 'contentType'],
        additionalProperties: false,
        properties: {
          id: { type: 'string', description: "The upload's id: the FileUploader's answer (a list of ids with `multiple`)." },
          name: { type: 'string' },
          size: { type: 'integer', minimum: 0, description: 'Bytes.' },
          contentType: { type: 'string', description: 'From its checked content, never from what the client sent.' },
        },
      },
    },
  },
};

const formIdParameter = { name: 'formId', in: 'path', required: true, description: "The form's id (its page is `/s/{formId}`).", schema: { type: 'string' } };

/**
 * The public JSON API (src/public/): no API key, a form's definition, starts and updates of a response,
 * uploads (multipart) and views. Its own edge: CORS, a per-address rate limit and a body limit on the writes.
 */
function publicApiPaths() {
  const security: Record<string, string[]>[] = [];
  const conflict = errorResponse('The response cannot take this submission: it is finished or invalid, or the form is full or not open yet.', {
    message: 'Response is already finished',
  });
  return {
    '/s/{formId}/definition': {
      get: {
        operationId: 'getPublicFormDefinition',
        summary: "A published form's definition, for a client that renders it",
        description:
          "`version` asks for an older version of the form (a response's `formVersion`), given only with the resume token of a response on it; `lang` a language of a multilingual form.",
        security,
        parameters: [
          formIdParameter,
          { name: 'version', in: 'query', required: false, description: 'A version of the form (1, 2, …).', schema: { type: 'string' } },
          { name: 'lang', in: 'query', required: false, description: "One of a multilingual form's languages.", schema: { type: 'string' } },
        ],
        responses: {
          '200': { description: 'The definition.', content: json(ref(publicDefinitionSchema)) },
          ...PUBLIC_EDGE_RESPONSES,
          '400': errorResponse('`version` is not a version number.', {
            message: 'Invalid query parameters',
            errors: [{ message: 'version must be a version number of the form (1, 2, …)', path: ['version'] }],
          }),
          '401': errorResponse('An older version was asked for without a resume token.', { message: 'Missing resume token' }),
          '404': errorResponse('No published form with this id, or no such version for this resume token.', { message: 'Form not found' }),
        },
      },
    },
    '/s/{formId}/responses': {
      post: {
        operationId: 'startPublicResponse',
        summary: 'Start a response (and finish it, with `finished: true`)',
        description: 'With an `Idempotency-Key` header (at least 16 characters) a retry of the same start reaches the same response.',
        security,
        parameters: [formIdParameter],
        requestBody: { required: true, content: json(ref(publicStartBodySchema)) },
        responses: {
          '201': { description: 'The response started.', content: json(ref(publicStartedResponseSchema)) },
          ...PUBLIC_WRITE_RESPONSES,
          '409': conflict,
        },
      },
    },
    '/s/{formId}/responses/{responseId}': {
      patch: {
        operationId: 'updatePublicResponse',
        summary: 'Answer more of a response (and finish it, with `finished: true`)',
        description: '`Authorization: Bearer <resumeToken>`: the token its start gave. Answered on the version of the form it started on.',
        security,
        parameters: [
          formIdParameter,
          { name: 'responseId', in: 'path', required: true, description: "The response's id.", schema: { type: 'string' } },
          { name: 'Authorization', in: 'header', required: true, description: '`Bearer <resumeToken>`.', schema: { type: 'string' } },
        ],
        requestBody: { required: true, content: json(ref(publicUpdateBodySchema)) },
        responses: {
          '200': { description: 'The response after the submission.', content: json(ref(publicResponseSchema)) },
          ...PUBLIC_WRITE_RESPONSES,
          '401': errorResponse('No resume token.', { message: 'Missing resume token' }),
          '404': errorResponse('No published form with this id, or no response of it for this resume token.', { message: 'Response not found' }),
          '409': conflict,
        },
      },
    },
    '/s/{formId}/uploads': {
      post: {
        operationId: 'uploadPublicFiles',
        summary: "Upload the files of a FileUploader's answer, before answering with their ids",
        description:
          "Each file's extension must be an allowed type and its content that type; archives and decompression bombs are refused without inflating them (docs/public-pages.md, File uploads). A refused file stores none of the request's files. `?localized=1` gives the file checks' messages in the form's language.",
        security,
        parameters: [formIdParameter, { name: 'localized', in: 'query', required: false, description: "`1`: messages in the form's language.", schema: { type: 'string' } }],
        requestBody: { required: true, content: { 'multipart/form-data': { schema: uploadBodySchema } } },
        responses: {
          '201': { description: 'The files stored; answer the FileUploader with their ids.', content: json(uploadedFilesSchema) },
          ...PUBLIC_WRITE_RESPONSES,
          '400': errorResponse('A field is missing or unknown, or a file is refused: every problem with its path.', {
            message: 'Invalid request body',
            errors: [{ message: 'cv.exe cannot be accepted: its type is not one of the allowed types', path: ['file', 0] }],
          }),
          '404': errorResponse('No published form with this id.', { message: 'Form not found' }),
          '410': errorResponse('The form is closed.', { message: 'This form is closed and no longer accepts responses' }),
          '413': errorResponse('The request body is larger than UPLOAD_MAX_BODY_BYTES.', { message: 'Request body too large (limit 26214400 bytes)' }),
          '415': errorResponse('The body is not multipart/form-data.', { message: 'Unsupported media type: send the upload as multipart/form-data' }),
        },
      },
    },
    '/s/{formId}/views': {
      post: {
        operationId: 'reportPublicView',
        summary: "Count a view of the form's first step, for its insights",
        description: 'For a client that renders the form itself; the page counts its own. A view stores no personal data (docs/insights.md).',
        security,
        parameters: [formIdParameter],
        requestBody: { required: false, content: json(ref(publicViewBodySchema)) },
        responses: {
          '202': { description: 'Taken.', content: json(ref(publicViewCountedSchema)) },
          ...PUBLIC_WRITE_RESPONSES,
        },
      },
    },
  };
}

/** This document, and the admin's backup. */
function documentAndBackupPaths() {
  return {
    '/api/v1/openapi.json': {
      get: {
        operationId: 'openApiDocument',
        summary: 'This document',
        security: [],
        responses: { '200': { description: 'The OpenAPI 3.1 document.', content: json({ type: 'object' }) }, ...EDGE_RESPONSES },
      },
    },
    '/api/v1/admin/backup': {
      get: {
        operationId: 'backup',
        summary: 'Download a backup of the embedded database (admin token)',
        security: [{ adminToken: [] }],
        responses: {
          '200': {
            description: 'A gzip-compressed tar of the PGlite data directory.',
            content: { 'application/gzip': { schema: { type: 'string', contentMediaType: 'application/gzip' } } },
          },
          ...EDGE_RESPONSES,
          '401': errorResponse('No admin token, or a wrong one.', { message: 'Missing admin token' }),
          '403': errorResponse('An API key was used.', { message: 'This operation needs the admin token' }),
          '409': errorResponse('The server uses PostgreSQL: back it up with pg_dump.', {
            message: 'This server stores its data in PostgreSQL (DATABASE_URL): back it up with pg_dump, …',
          }),
        },
      },
    },
  };
}

/** Reading and editing forms (src/rest/forms.ts): environment API keys only, in their own environment. */
function insightsPaths() {
  const security = [{ apiKey: [] }];
  const formId = { name: 'formId', in: 'path', required: true, description: "A form of the key's environment.", schema: { type: 'string' } };
  const query = (name: string, description: string, schema: Record<string, unknown> = { type: 'string' }) => ({ name, in: 'query', required: false, description, schema });
  const parameters = [
    query('since', 'From this date (2026-12-01: its midnight in timeZone) or date-time with its offset (2026-12-01T09:30:00Z).'),
    query('until', 'Before this date or date-time.'),
    query('timeZone', 'IANA time zone of dates and periods (default UTC).'),
    query('groupBy', 'The period of the series (default day; weeks start on Monday).', { type: 'string', enum: ['day', 'week', 'month'] }),
    query('device', 'Only this device class.', { type: 'string', enum: ['desktop', 'mobile', 'tablet'] }),
    query('language', 'Only respondents who saw the form in this language.'),
  ];
  const hidden = {
    name: 'hidden',
    in: 'query',
    required: false,
    style: 'form',
    explode: true,
    description: 'Filters on hidden-field values, each as `hidden.<name>=<value>` (e.g. `hidden.utm_source=ad`).',
    schema: { type: 'object', additionalProperties: { type: 'string' } },
  };
  const { '403': forbidden, ...edge } = EDGE_RESPONSES;
  const keyOnly = { ...edge, '403': { ...forbidden, description: 'The admin token was used (this endpoint needs an environment API key).' } };
  const answer = { '200': { description: 'The insights.', content: json(ref(insightsBodySchema)) }, ...keyOnly };
  return {
    '/api/v1/forms/{formId}/insights': {
      get: {
        operationId: 'getFormInsights',
        summary: "A form's views, conversion, drop-off per step and time to complete, with a time series and breakdowns",
        description: 'Read from counters kept as views and responses happen (docs/insights.md). A bad parameter is a 400 naming it.',
        security,
        parameters: [formId, ...parameters, hidden],
        responses: { ...answer, '404': errorResponse("No such live form in the key's environment.", { message: 'Form not found' }) },
      },
    },
    '/api/v1/insights': {
      get: {
        operationId: 'getEnvironmentInsights',
        summary: "The same over every form of the key's environment",
        security,
        parameters: [...parameters, hidden],
        responses: answer,
      },
    },
  };
}

/** A form's share links (src/rest/share-links.ts): environment API keys with `responses:read`. */
function shareLinkPaths() {
  const security = [{ apiKey: [] }];
  const formId = { name: 'formId', in: 'path', required: true, description: "A form of the key's environment.", schema: { type: 'string' } };
  const id = { name: 'id', in: 'path', required: true, description: "The link's id.", schema: { type: 'string' } };
  const noForm = errorResponse("No such form in the key's environment.", { message: 'Form not found' });
  return {
    '/api/v1/forms/{formId}/share-links': {
      get: {
        operationId: 'listShareLinks',
        summary: "The form's links to its read-only results page, oldest first (never a token)",
        security,
        parameters: [formId],
        responses: { '200': { description: 'The links.', content: json(ref(shareLinkListSchema)) }, ...EDGE_RESPONSES, '404': noForm },
      },
      post: {
        operationId: 'createShareLink',
        summary: 'Make a link to the read-only results page (/r/<token>); its URL is in this answer only',
        description:
          "The page shows the funnel, drop-off per step, responses over time and every question's summary as charts with tables (docs/insights.md). At most 100 links per form.",
        security,
        parameters: [formId],
        requestBody: { required: true, content: json(jsonSchemaOf(createShareLinkBodySchema, 'input'), { includeTextAnswers: false, expiresAt: '2027-01-31T00:00:00Z' }) },
        responses: {
          '201': { description: 'The link, with its URL.', content: json(ref(createdShareLinkSchema)) },
          ...EDGE_RESPONSES,
          '404': noForm,
          '415': errorResponse('The body is not JSON.', { message: 'Unsupported media type: send the body as application/json' }),
        },
      },
    },
    '/api/v1/forms/{formId}/share-links/{id}': {
      delete: {
        operationId: 'revokeShareLink',
        summary: 'Revoke a link: its page answers 404 from the next request, on every node',
        security,
        parameters: [formId, id],
        responses: {
          '200': { description: 'The revoked link.', content: json(ref(revokedShareLinkSchema)) },
          ...EDGE_RESPONSES,
          '404': errorResponse('No such link of the form.', { message: 'Share link not found' }),
        },
      },
    },
  };
}

function translationPaths() {
  const security = [{ apiKey: [] }];
  const formId = { name: 'formId', in: 'path', required: true, description: "A form of the key's environment.", schema: { type: 'string' } };
  const locale = { name: 'locale', in: 'path', required: true, description: "One of the form's languages, e.g. `de`.", schema: { type: 'string' } };
  const notFound = errorResponse("No such live form in the key's environment, or (one language) not one of its languages.", { message: 'Form not found' });
  const etag = { ETag: { description: 'The version, quoted: send it back in `If-Match`.', schema: { type: 'string' } } };
  const { '403': forbidden, ...edge } = EDGE_RESPONSES;
  const keyOnly = { ...edge, '403': { ...forbidden, description: 'The admin token was used (this endpoint needs an environment API key).' } };
  return {
    '/api/v1/forms/{formId}/translations': {
      get: {
        operationId: 'listTranslations',
        summary: "A form's languages, each with how complete it is",
        description: 'The default language first (complete); for each other, the texts translated of all and the stable paths of those missing (docs/languages.md).',
        security,
        parameters: [formId],
        responses: { '200': { description: 'The languages.', headers: etag, content: json(ref(translationsBodySchema)) }, ...keyOnly, '404': notFound },
      },
    },
    '/api/v1/forms/{formId}/translations/{locale}': {
      get: {
        operationId: 'getTranslation',
        summary: "One language's texts as a flat document, keyed by stable paths",
        description: 'The default language: every text (what a translation tool translates); another: its translated texts.',
        security,
        parameters: [formId, locale],
        responses: { '200': { description: 'The document.', headers: etag, content: json(ref(translationDocumentSchema)) }, ...keyOnly, '404': notFound },
      },
      put: {
        operationId: 'putTranslation',
        summary: "Replace one of the other languages' texts: a new version",
        description:
          "The body is the document GET gives (paths left out become untranslated). An unknown path, a text that is not a non-empty string, or placeholders (`{{…}}`) that differ from the default text's is a 400 naming the path. A new version like PATCH /api/v1/forms/{formId} (If-Match honoured; a `form.updated` event).",
        security,
        parameters: [
          formId,
          locale,
          { name: 'If-Match', in: 'header', required: false, description: 'The version this changes, quoted, or `*`. Another version current: 412.', schema: { type: 'string' } },
        ],
        requestBody: { required: true, content: json(ref(translationDocumentSchema)) },
        responses: {
          '200': { description: 'The new version.', headers: etag, content: json(ref(updatedFormBodySchema)) },
          ...keyOnly,
          '400': errorResponse('A problem with the document (every one, with its path) or the locale (not one of the other languages).', {
            message: 'Invalid request body',
            errors: [{ message: 'No text of this form has this path (GET the default language for the paths)', path: ['steps.contact.components.mail.question'] }],
          }),
          '404': errorResponse("No such live form in the key's environment.", { message: 'Form not found' }),
          '409': errorResponse('The form has the most versions a form may have (FORM_MAX_VERSIONS).', {
            message: 'Form has 100 versions, the most a form may have: it can no longer be changed; generate a new form from it instead',
          }),
          '412': errorResponse('If-Match named another version than the current one: nothing changed.', { message: 'Form was changed; version 3 is current' }),
          '415': errorResponse('The body is not JSON.', { message: 'Unsupported media type: send the body as application/json' }),
        },
      },
    },
  };
}

function formPaths() {
  const security = [{ apiKey: [] }];
  const formId = { name: 'formId', in: 'path', required: true, description: "A form of the key's environment.", schema: { type: 'string' } };
  const notFound = errorResponse("No such live form in the key's environment (deleted, another environment's, unknown).", { message: 'Form not found' });
  const etag = { ETag: { description: 'The version, quoted (`"3"`): send it back in `If-Match` to update only that version.', schema: { type: 'string' } } };
  const { '403': forbidden, ...edge } = EDGE_RESPONSES;
  const keyOnly = { ...edge, '403': { ...forbidden, description: 'The admin token was used (this endpoint needs an environment API key).' } };
  return {
    '/api/v1/forms': {
      get: {
        operationId: 'listForms',
        summary: "The environment's forms, newest first, in pages",
        description: 'Deleted forms are not listed. Each page holds `limit` forms and `nextCursor`, where the next page starts (null on the last).',
        security,
        parameters: queryParameters(formsQuerySchema.shape, {
          limit: 'Page size, 1-100 (default 10).',
          after: 'An opaque cursor (`nextCursor` of the previous page).',
          status: 'Only forms in this state.',
          nameContains: 'Only forms whose name contains this text (case-insensitive).',
        }),
        responses: { '200': { description: 'A page of forms.', content: json(ref(formListBodySchema)) }, ...keyOnly },
      },
    },
    '/api/v1/forms/{formId}': {
      get: {
        operationId: 'getForm',
        summary: 'A form with its current definition (steps and components with their ids)',
        security,
        parameters: [formId],
        responses: { '200': { description: 'The form.', headers: etag, content: json(ref(formBodySchema)) }, ...keyOnly, '404': notFound },
      },
      patch: {
        operationId: 'updateForm',
        summary: "Change a form's name, steps, hidden fields or locale: a new version, the same id and url",
        description:
          'Any of `name`, `steps`, `hiddenFields`, `locale`, `notifications`, `allowAnotherResponse`, checked as generate checks them (fields left out stay). A step or component with an `id` of this form keeps it, ' +
          "so its answers keep their questionId; one without gets a new id. The form's status and theme stay (a closed form stays closed). " +
          'Responses already started finish on the version they started on; new ones get the new version. Without `If-Match` the last update wins. ' +
          'With an `Idempotency-Key`, a repeat within 24 h with the same body answers with the version it made (`Idempotent-Replayed: true`). Sends a `form.updated` webhook event.',
        security,
        parameters: [
          formId,
          {
            name: 'If-Match',
            in: 'header',
            required: false,
            description: 'The version this update changes, quoted (the ETag of GET), or `*`. Another version current: 412.',
            schema: { type: 'string' },
          },
          {
            name: 'Idempotency-Key',
            in: 'header',
            required: false,
            description: '1-255 visible ASCII characters (a random UUID). Scoped to the environment, remembered 24 h.',
            schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
          },
        ],
        requestBody: { required: true, content: json(jsonSchemaOf(updateFormInputSchema, 'input')) },
        responses: {
          '200': {
            description: 'The new version (or, for a repeated Idempotency-Key, the one it made).',
            headers: { ...etag, 'Idempotent-Replayed': { description: '`true` when this answers a repeated Idempotency-Key.', schema: { type: 'string', enum: ['true'] } } },
            content: json(ref(updatedFormBodySchema)),
          },
          ...keyOnly,
          '400': errorResponse('The body is not a valid update (every problem, with its path), or a malformed If-Match or Idempotency-Key.', {
            message: 'Invalid request body',
            errors: [{ message: 'A step needs at least 1 component', path: ['steps', 1, 'components'] }],
          }),
          '404': notFound,
          '409': errorResponse('The form has the most versions a form may have (FORM_MAX_VERSIONS), or a request with the same Idempotency-Key is still in progress (retry).', {
            message: 'Form has 100 versions, the most a form may have: it can no longer be changed; generate a new form from it instead',
          }),
          '412': errorResponse('If-Match named another version than the current one: nothing changed.', { message: 'Form was changed; version 3 is current' }),
          '415': errorResponse('The body is not JSON.', { message: 'Unsupported media type: send the body as application/json' }),
          '422': errorResponse('The Idempotency-Key was used with another body.', {
            message: 'This Idempotency-Key was already used with a different request; use a new key for a new request',
          }),
        },
      },
    },
  };
}

/** GET /api/v1/files/{fileId} (src/rest/files.ts): an uploaded file, as a download. */
function filePath() {
  const contentTypes = [...new Set(Object.values(KNOWN_FILE_TYPES).map((type) => type.contentType.split(';')[0]!))];
  return {
    get: {
      operationId: 'downloadFile',
      summary: 'An uploaded file (FileUploader answer), as an attachment',
      description:
        "With the environment's API key (or the admin token), or without one on a signed URL: `expires` and `signature` as GraphQL's FileUploaderAnswer.fileUrl gives them (valid FILE_URL_TTL_SECONDS).",
      security: [{ apiKey: [] }, { adminToken: [] }, {}],
      parameters: [
        { name: 'fileId', in: 'path', required: true, description: "The upload id (`upl_…`), as in the answer's `files[].id`.", schema: { type: 'string' } },
        ...queryParameters(fileQuerySchema.shape, {
          expires: 'Signed URL: its expiry, Unix time in seconds.',
          signature: 'Signed URL: its signature.',
        }),
      ],
      responses: {
        '200': {
          description: 'The file, with `Content-Disposition: attachment` and `X-Content-Type-Options: nosniff`.',
          content: Object.fromEntries(contentTypes.map((type) => [type, { schema: { type: 'string', contentMediaType: type } }])),
        },
        ...EDGE_RESPONSES,
        '403': errorResponse('The signature is wrong or has expired.', { message: 'This file link has expired' }),
        '404': errorResponse("No such file in the caller's environment.", { message: 'File not found' }),
      },
    },
  };
}

/** /api/v1/webhooks and the deliveries routes (src/rest/webhooks.ts): environment API keys only. */
function webhookPaths() {
  const idParam = (description: string) => ({ name: 'id', in: 'path', required: true, description, schema: { type: 'string' } });
  const notFound = errorResponse("No such endpoint (or delivery) in the key's environment.", { message: 'Webhook endpoint not found' });
  const unsupported = errorResponse('The body is not JSON.', { message: 'Unsupported media type: send the body as application/json' });
  const body = (schema: z.ZodType, description: string) => ({ required: true, description, content: json(jsonSchemaOf(schema, 'input')) });
  const security = [{ apiKey: [] }];
  return {
    '/api/v1/webhooks': {
      get: {
        operationId: 'listWebhookEndpoints',
        summary: "The environment's webhook endpoints",
        security,
        responses: { '200': { description: 'The endpoints.', content: json(ref(webhookEndpointListSchema)) }, ...EDGE_RESPONSES },
      },
      post: {
        operationId: 'createWebhookEndpoint',
        summary: 'Add a webhook endpoint; its signing secret is shown only in this answer',
        security,
        requestBody: body(
          webhookCreateSchema,
          'The endpoint: `url` (http(s); private and loopback addresses refused unless WEBHOOK_ALLOW_PRIVATE=1), `eventTypes`, optional `formIds`, `description`, `enabled`.',
        ),
        responses: { '201': { description: 'The endpoint and its secret.', content: json(ref(createdWebhookEndpointSchema)) }, ...EDGE_RESPONSES, '415': unsupported },
      },
    },
    '/api/v1/webhooks/{id}': {
      get: {
        operationId: 'getWebhookEndpoint',
        summary: 'One endpoint',
        security,
        parameters: [idParam('The endpoint.')],
        responses: { '200': { description: 'The endpoint.', content: json(ref(webhookEndpointSchema)) }, ...EDGE_RESPONSES, '404': notFound },
      },
      patch: {
        operationId: 'updateWebhookEndpoint',
        summary: 'Change an endpoint (`enabled: true` re-enables one disabled after failures)',
        security,
        parameters: [idParam('The endpoint.')],
        requestBody: body(webhookUpdateSchema, 'Any of the fields of the create body.'),
        responses: { '200': { description: 'The endpoint.', content: json(ref(webhookEndpointSchema)) }, ...EDGE_RESPONSES, '404': notFound, '415': unsupported },
      },
      delete: {
        operationId: 'deleteWebhookEndpoint',
        summary: 'Delete an endpoint and its deliveries',
        security,
        parameters: [idParam('The endpoint.')],
        responses: { '200': { description: 'Deleted.', content: json(ref(deletedWebhookEndpointSchema)) }, ...EDGE_RESPONSES, '404': notFound },
      },
    },
    '/api/v1/webhooks/{id}/test': {
      post: {
        operationId: 'testWebhookEndpoint',
        summary: 'Queue a webhook.test event to the endpoint',
        security,
        parameters: [idParam('The endpoint.')],
        responses: { '202': { description: 'The queued delivery.', content: json(ref(webhookDeliverySchema)) }, ...EDGE_RESPONSES, '404': notFound },
      },
    },
    '/api/v1/webhooks/{id}/deliveries': {
      get: {
        operationId: 'listWebhookDeliveries',
        summary: "An endpoint's recent deliveries with their attempts, newest first",
        security,
        parameters: [
          idParam('The endpoint.'),
          { name: 'status', in: 'query', required: false, schema: { type: 'string', enum: ['pending', 'delivering', 'succeeded', 'failed'] } },
          { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, default: 20 } },
        ],
        responses: { '200': { description: 'The deliveries.', content: json(ref(webhookDeliveryListSchema)) }, ...EDGE_RESPONSES, '404': notFound },
      },
    },
    '/api/v1/webhook-deliveries/{id}/resend': {
      post: {
        operationId: 'resendWebhookDelivery',
        summary: 'Send a delivery again (the same webhook-id)',
        security,
        parameters: [idParam('The delivery.')],
        responses: { '202': { description: 'The delivery, queued again.', content: json(ref(webhookDeliverySchema)) }, ...EDGE_RESPONSES, '404': notFound },
      },
    },
  };
}

/** A form's e-mail delivery log (src/rest/notifications.ts): environment API keys only. */
function notificationPaths() {
  const formParam = { name: 'formId', in: 'path', required: true, description: 'The form.', schema: { type: 'string' } };
  const security = [{ apiKey: [] }];
  const notFound = errorResponse("No such form (or delivery of it) in the key's environment.", { message: 'Form not found' });
  return {
    '/api/v1/forms/{formId}/notifications/deliveries': {
      get: {
        operationId: 'listNotificationDeliveries',
        summary: "A form's e-mail deliveries, newest first: one per recipient address (docs/notifications.md)",
        security,
        parameters: [
          formParam,
          { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: 20 } },
          { name: 'after', in: 'query', required: false, description: '`nextCursor` of the previous page.', schema: { type: 'string' } },
        ],
        responses: { '200': { description: 'A page of deliveries.', content: json(ref(notificationDeliveryListSchema)) }, ...EDGE_RESPONSES, '404': notFound },
      },
    },
    '/api/v1/forms/{formId}/notifications/deliveries/{id}/retry': {
      post: {
        operationId: 'retryNotificationDelivery',
        summary: 'Send a failed or suppressed delivery again, with a fresh run of retries (a sent one is 409)',
        security,
        parameters: [formParam, { name: 'id', in: 'path', required: true, description: 'The delivery.', schema: { type: 'string' } }],
        responses: {
          '202': { description: 'The delivery, pending again.', content: json(ref(notificationDeliverySchema)) },
          ...EDGE_RESPONSES,
          '404': notFound,
          '409': errorResponse('The delivery was sent.', { message: 'This delivery was sent; it is not sent again' }),
        },
      },
    },
  };
}

/** Deleting responses, erasing a person, the audit log (src/rest/privacy.ts): environment API keys only. */
function privacyPaths() {
  const idParam = (description: string) => ({ name: 'id', in: 'path', required: true, description, schema: { type: 'string' } });
  const security = [{ apiKey: [] }];
  return {
    '/api/v1/responses/{id}': {
      delete: {
        operationId: 'deleteResponse',
        summary: 'Delete one response for good, with its webhook events and files',
        security,
        parameters: [idParam('The response.')],
        responses: {
          '200': { description: 'Deleted.', content: json(ref(deletedResponseSchema)) },
          ...EDGE_RESPONSES,
          '404': errorResponse("No such response in the key's environment.", { message: 'Response not found' }),
        },
      },
    },
    '/api/v1/responses/delete': {
      post: {
        operationId: 'deleteResponses',
        summary: 'Delete every response matching a filter (batched; answers with the count)',
        security,
        requestBody: {
          required: true,
          description: 'Which responses: `formId`, `since`/`until` (ISO 8601, on `dateField`), `partialOnly`. At least one; all given must hold.',
          content: json(jsonSchemaOf(bulkDeleteSchema, 'input'), { formId: 'cm5abc123def456', until: '2025-01-01T00:00:00Z', partialOnly: true }),
        },
        responses: {
          '200': { description: 'How many were deleted.', content: json(ref(deletedResponsesSchema)) },
          ...EDGE_RESPONSES,
          '404': errorResponse("`formId` is not a form of the key's environment.", { message: 'Form not found' }),
          '415': errorResponse('The body is not JSON.', { message: 'Unsupported media type: send the body as application/json' }),
        },
      },
    },
    '/api/v1/leads/{id}': {
      delete: {
        operationId: 'eraseLead',
        summary: 'Erase a person: the lead, its responses in every form, their files and webhook events (idempotent)',
        security,
        parameters: [idParam("The lead (a response's `meta.leadId`).")],
        responses: {
          '200': { description: 'The erasure record (the same one again when erased before).', content: json(ref(eraseLeadBodySchema)) },
          ...EDGE_RESPONSES,
          '404': errorResponse("No such lead in the key's environment, and none erased under that id.", { message: 'Lead not found' }),
        },
      },
    },
    '/api/v1/audit-log': {
      get: {
        operationId: 'listAuditLog',
        summary: "The environment's audit log, newest first",
        security,
        parameters: queryParameters(auditQuerySchema.shape, {
          limit: 'Page size, 1-100 (default 20).',
          after: 'An opaque cursor (`nextCursor` of the previous page).',
        }),
        responses: { '200': { description: 'A page of entries.', content: json(ref(auditLogBodySchema)) }, ...EDGE_RESPONSES },
      },
    },
  };
}

/** An environment's settings (src/rest/settings.ts): environment API keys only, in their own environment. */
function settingsPaths() {
  const security = [{ apiKey: [] }];
  const parameters = [{ name: 'environmentId', in: 'path', required: true, description: "The Site ID (the API key's own environment).", schema: { type: 'string' } }];
  const answer = { '200': { description: "The environment's settings.", content: json(ref(environmentSettingsSchema)) } };
  return {
    '/api/v1/environments/{environmentId}/settings': {
      get: {
        operationId: 'getEnvironmentSettings',
        summary: "The environment's settings: privacy, and its own captcha keys (secret keys only as set or not)",
        security,
        parameters,
        responses: { ...answer, ...EDGE_RESPONSES },
      },
      patch: {
        operationId: 'updateEnvironmentSettings',
        summary: "Change the environment's settings (fields left out stay; null removes a captcha key)",
        security,
        parameters,
        requestBody: {
          required: true,
          description:
            '`ipStorage`, `retentionDays` (1-36500, null: kept), and per captcha provider (`turnstile`, `recaptcha`) a `siteKey` and a write-only `secretKey`, stored encrypted and never returned.',
          content: json(jsonSchemaOf(settingsBodySchema, 'input'), { turnstile: { siteKey: '0x4AAAAAAAexample', secretKey: '0x4AAAAAAAexample-secret' } }),
        },
        responses: {
          ...answer,
          ...EDGE_RESPONSES,
          '415': errorResponse('The body is not JSON.', { message: 'Unsupported media type: send the body as application/json' }),
        },
      },
    },
  };
}

/** An environment's API keys (src/rest/keys.ts): the admin token, or a key with `keys:manage` in its own environment. */
function keyPaths() {
  const security = [{ apiKey: [] }, { adminToken: [] }];
  const environmentId = { name: 'environmentId', in: 'path', required: true, description: "The Site ID (an API key's own environment).", schema: { type: 'string' } };
  const keyId = { name: 'keyId', in: 'path', required: true, description: "The key's id (its public prefix).", schema: { type: 'string' } };
  return {
    '/api/v1/environments/{environmentId}/keys': {
      get: {
        operationId: 'listApiKeys',
        summary: "The environment's API keys, revoked ones included, newest first (never a secret)",
        security,
        parameters: [environmentId],
        responses: { '200': { description: 'The keys.', content: json(ref(apiKeyListSchema)) }, ...EDGE_RESPONSES },
      },
      post: {
        operationId: 'createApiKey',
        summary: 'Create an API key; its secret is in this answer only',
        description:
          "A key creating a key grants at most its own scopes and expiry; a field left out is the creator's (the admin token: every scope, no expiry). `scopes` naming one the creator lacks is 400 at `scopes[i]`.",
        security,
        parameters: [environmentId],
        requestBody: { required: true, content: json(jsonSchemaOf(createKeyBodySchema, 'input'), { name: 'BI export', scopes: ['responses:read', 'forms:read'], expires: '30d' }) },
        responses: {
          '201': { description: 'The key, with its secret.', content: json(ref(createdApiKeySchema)) },
          ...EDGE_RESPONSES,
          '415': errorResponse('The body is not JSON.', { message: 'Unsupported media type: send the body as application/json' }),
        },
      },
    },
    '/api/v1/environments/{environmentId}/keys/{keyId}': {
      delete: {
        operationId: 'revokeApiKey',
        summary: 'Revoke a key: refused as invalid from then on, its open streams end, on every node',
        security,
        parameters: [environmentId, keyId],
        responses: {
          '200': { description: 'The revoked key (revoking again changes nothing).', content: json(ref(apiKeySchema)) },
          ...EDGE_RESPONSES,
          '404': errorResponse('No such key in the environment.', { message: 'API key not found' }),
        },
      },
    },
  };
}

/**
 * What each operation needs, as its routes declare it (src/rest/access.ts; a test holds the two equal):
 * the `apiKey` entry of its `security` names the scope, and the 403 says how a key lacking it is refused.
 */
export const OPERATION_ACCESS: Record<string, RouteAccess> = {
  generateForm: 'forms:write',
  closeForm: 'forms:write',
  reopenForm: 'forms:write',
  listForms: 'forms:read',
  getForm: 'forms:read',
  updateForm: 'forms:write',
  listTranslations: 'forms:read',
  getTranslation: 'forms:read',
  putTranslation: 'forms:write',
  listResponses: 'responses:read',
  getFormInsights: 'forms:read',
  getEnvironmentInsights: 'forms:read',
  listShareLinks: 'responses:read',
  createShareLink: 'responses:read',
  revokeShareLink: 'responses:read',
  exportResponses: 'responses:read',
  downloadFile: 'responses:read',
  deleteResponse: 'responses:delete',
  deleteResponses: 'responses:delete',
  eraseLead: 'responses:delete',
  listAuditLog: 'audit:read',
  listWebhookEndpoints: 'webhooks:manage',
  createWebhookEndpoint: 'webhooks:manage',
  getWebhookEndpoint: 'webhooks:manage',
  updateWebhookEndpoint: 'webhooks:manage',
  deleteWebhookEndpoint: 'webhooks:manage',
  testWebhookEndpoint: 'webhooks:manage',
  listWebhookDeliveries: 'webhooks:manage',
  resendWebhookDelivery: 'webhooks:manage',
  listNotificationDeliveries: 'responses:read',
  retryNotificationDelivery: 'settings:manage',
  getEnvironmentSettings: 'settings:manage',
  updateEnvironmentSettings: 'settings:manage',
  listApiKeys: 'keys:manage',
  createApiKey: 'keys:manage',
  revokeApiKey: 'keys:manage',
  openApiDocument: 'public',
  getPublicFormDefinition: 'public',
  startPublicResponse: 'public',
  updatePublicResponse: 'public',
  uploadPublicFiles: 'public',
  reportPublicView: 'public',
  backup: 'admin',
};

type Operation = { operationId?: string; security?: Record<string, string[]>[]; description?: string; responses?: Record<string, unknown> };

/** Writes each operation's scope into its `security` and its 403 (OPERATION_ACCESS), in place. */
function withScopes(paths: Record<string, Record<string, Operation>>): void {
  for (const item of Object.values(paths)) {
    for (const operation of Object.values(item)) {
      const access = OPERATION_ACCESS[operation.operationId ?? ''];
      if (access === undefined) throw new Error(`The OpenAPI operation ${operation.operationId} declares no access (OPERATION_ACCESS)`);
      if (access === 'public' || access === 'admin') continue;
      operation.security = (operation.security ?? [{ apiKey: [] }]).map((entry) => ('apiKey' in entry ? { apiKey: [access] } : entry));
      operation.responses = {
        ...operation.responses,
        '403': errorResponse(`The API key lacks the scope ${access}, or the credentials do not reach this environment.`, { message: `API key lacks the scope ${access}` }),
      };
    }
  }
}

export type OpenApiDocument = ReturnType<typeof buildDocument>;
