/**
 * Checks REST answers against /api/v1/openapi.json: test/support/helpers.ts wraps every test app's `request`
 * with `checkAgainstOpenApi`, so each /api/v1 answer the suite receives must have a documented status,
 * a documented media type, and a body valid against the documented schema (NDJSON: every line).
 * Answers to methods or paths the document does not list (405s, the unknown-endpoint 404) are not
 * operations and are left alone.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { openApiDocument } from '../../src/rest/docs.ts';
import { textOf } from './streams.ts';

const DOCUMENT_ID = 'https://formloom.invalid/openapi.json';
const doc = openApiDocument() as unknown as { paths: Record<string, Record<string, Operation>> };

interface Operation {
  responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>;
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ ...openApiDocument(), $id: DOCUMENT_ID });

const validators = new Map<object, ValidateFunction>();
function validatorOf(schema: Record<string, unknown>): ValidateFunction {
  let validate = validators.get(schema);
  if (!validate) {
    validate = typeof schema.$ref === 'string' ? ajv.compile({ $ref: `${DOCUMENT_ID}${schema.$ref}` }) : ajv.compile(schema);
    validators.set(schema, validate);
  }
  return validate;
}

/** Why `value` is not valid against the document's `components.schemas[name]`, or undefined when it is. */
export function schemaProblem(name: string, value: unknown): string | undefined {
  const validate = validatorOf({ $ref: `#/components/schemas/${name}` });
  return validate(value) ? undefined : ajv.errorsText(validate.errors);
}

const templates = Object.keys(doc.paths).map((template) => ({
  template,
  pattern: new RegExp(`^${template.replace(/\{[^{}]+\}/g, '[^/]+')}$`),
}));

/** Counts of answers checked, by operation and status (for the coverage test). */
/**
 * Three times the largest /api/v1 answer a test reads (a backup or a listing of ~5 MB): past it the check
 * fails instead of reading on, so a listing that never ends cannot hold a test until the runner's timeout.
 */
const MAX_CHECKED_BODY_BYTES = 16 * 1024 * 1024;

export const checkedAnswers = new Map<string, number>();

export class OpenApiMismatch extends Error {}

function fail(label: string, problem: string): never {
  throw new OpenApiMismatch(`${label}: ${problem} (not as /api/v1/openapi.json documents it)`);
}

/**
 * Throws OpenApiMismatch when `response` to `method path` is not what the document says. Only /api/v1
 * answers, unless `publicApi`: then the public JSON API's too (test/rest/openapi-answers.test.ts).
 */
export async function checkAgainstOpenApi(method: string, url: string, response: Response, options: { publicApi?: boolean } = {}): Promise<void> {
  const path = new URL(url, 'http://localhost').pathname;
  if (!path.startsWith('/api/v1/') && !(options.publicApi && path.startsWith('/s/'))) return;
  const match = templates.find(({ pattern }) => pattern.test(path));
  const operation = match ? doc.paths[match.template]![method.toLowerCase()] : undefined;
  if (!match || !operation) return;
  const label = `${method} ${match.template} → ${response.status}`;
  const documented = operation.responses[String(response.status)];
  if (!documented) fail(label, 'undocumented status');
  checkedAnswers.set(label, (checkedAnswers.get(label) ?? 0) + 1);
  const text = await textOf(response, MAX_CHECKED_BODY_BYTES);
  const content = documented.content;
  if (!content) {
    if (text !== '') fail(label, 'a body where none is documented');
    return;
  }
  const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const media = content[type];
  if (!media) fail(label, `undocumented media type "${type}" (documented: ${Object.keys(content).join(', ')})`);
  const check = (value: unknown, what: string) => {
    const validate = validatorOf(media.schema);
    if (!validate(value)) fail(label, `${what} does not match the schema: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(value).slice(0, 300)}`);
  };
  if (type === 'application/json') check(JSON.parse(text), 'the body');
  else if (type === 'application/x-ndjson') {
    const responseSchema = validatorOf({ $ref: '#/components/schemas/Response' });
    for (const line of text.split('\n').filter((l) => l !== '')) {
      if (!responseSchema(JSON.parse(line))) fail(label, `an NDJSON line does not match Response: ${ajv.errorsText(responseSchema.errors)}`);
    }
  }
}
