/**
 * GET /api/v1/openapi.json (the document, built once) and GET /docs: a reference page rendered on the
 * server from that document. The page is plain HTML and one inline stylesheet allowed by its hash: no
 * script, nothing loaded from elsewhere, so it works offline and its CSP allows nothing else.
 */
import { createHash } from 'node:crypto';
import { Hono } from 'hono';
import type { AppEnv } from '../http.ts';
import { methodNotAllowed } from '../limits/request-safety.ts';
import { exportQuerySchema } from './export.ts';
import { buildOpenApiDocument, type OpenApiDocument } from './openapi.ts';
import { querySchema } from './responses.ts';
import { needs } from './access.ts';

let cached: OpenApiDocument | undefined;

/** The document of this build (the package's version). */
export function openApiDocument(): OpenApiDocument {
  cached ??= buildOpenApiDocument({ listingQuery: querySchema, exportQuery: exportQuerySchema, version: '1.0.0' });
  return cached;
}

export function openApiRoutes() {
  const routes = new Hono<AppEnv>();
  routes.get('/openapi.json', needs('public'), (c) => c.json(openApiDocument()));
  routes.all('/openapi.json', methodNotAllowed(['GET']));
  return routes;
}

const STYLE = `
body{font:15px/1.5 system-ui,sans-serif;margin:0 auto;max-width:60rem;padding:1rem 1.5rem;color:#1f2933}
h1{font-size:1.6rem}h2{margin-top:2.5rem;border-top:1px solid #d9e2ec;padding-top:1rem;font-size:1.2rem}
code,pre{font:13px/1.4 ui-monospace,monospace;background:#f0f4f8;border-radius:4px}
code{padding:0 .25rem}pre{padding:.75rem;overflow:auto;max-height:28rem}
table{border-collapse:collapse;width:100%;margin:.5rem 0}th,td{border:1px solid #d9e2ec;padding:.3rem .5rem;text-align:left;vertical-align:top}
.method{font-weight:700;text-transform:uppercase;color:#0f766e}nav a{display:block}
`;
const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;
export const DOCS_CSP = `default-src 'none'; style-src ${STYLE_HASH}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

/** The parts of the OpenAPI document the page shows. */
interface MediaType {
  schema?: { $ref?: string };
  example?: unknown;
}
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: unknown;
  description?: string;
}
interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, MediaType | undefined> };
  responses: Record<string, { description?: string; content?: Record<string, MediaType> }>;
  security?: Record<string, unknown>[];
}
interface DocView {
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (value: string | undefined) => (value ?? '').replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);

const pretty = (value: unknown) => `<pre>${escapeHtml(JSON.stringify(value, null, 2))}</pre>`;
/** `code` spans for backquoted text in descriptions; everything escaped. */
const prose = (text: string | undefined) => escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');

function mediaText(type: string, media: MediaType): string {
  const schemaName = media.schema?.$ref?.split('/').pop();
  const link = schemaName ? ` — <a href="#schema-${escapeHtml(schemaName)}">${escapeHtml(schemaName)}</a>` : '';
  return `<p><code>${escapeHtml(type)}</code>${link}</p>${media.example === undefined ? '' : pretty(media.example)}`;
}

function renderOperation(path: string, method: string, op: Operation): string {
  const anchor = op.operationId ?? `${method}-${path}`;
  const rows = (op.parameters ?? [])
    .map(
      (p) =>
        `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${escapeHtml(p.in)}</td><td>${p.required ? 'yes' : 'no'}</td><td><code>${escapeHtml(JSON.stringify(p.schema))}</code></td><td>${prose(p.description)}</td></tr>`,
    )
    .join('');
  const body = op.requestBody?.content?.['application/json']?.schema;
  const responses = Object.entries(op.responses)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, response]) => {
      const content = Object.entries(response.content ?? {})
        .map(([type, media]) => mediaText(type, media))
        .join('');
      return `<tr><td>${escapeHtml(status)}</td><td>${prose(response.description)}${content}</td></tr>`;
    })
    .join('');
  return `<h2 id="${escapeHtml(anchor)}"><span class="method">${escapeHtml(method)}</span> <code>${escapeHtml(path)}</code></h2>
<p><strong>${prose(op.summary)}</strong></p><p>${prose(op.description)}</p>
<p>Authentication: ${op.security?.length === 0 ? 'none' : (op.security ?? [{ apiKey: [] }]).map((s) => Object.keys(s).join(' ')).join(' or ')}</p>
${rows ? `<table><tr><th>Parameter</th><th>In</th><th>Required</th><th>Schema</th><th>Meaning</th></tr>${rows}</table>` : ''}
${body ? `<h3>Request body (application/json)</h3>${pretty(body)}` : ''}
<h3>Responses</h3><table><tr><th>Status</th><th>Body</th></tr>${responses}</table>`;
}

/** The reference page. */
export function renderDocsPage(doc = openApiDocument() as unknown as DocView): string {
  const operations: string[] = [];
  const nav: string[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      operations.push(renderOperation(path, method, op));
      nav.push(`<a href="#${escapeHtml(op.operationId)}">${escapeHtml(method.toUpperCase())} ${escapeHtml(path)}</a>`);
    }
  }
  const schemas = Object.entries(doc.components.schemas)
    .map(([id, schema]) => `<h3 id="schema-${escapeHtml(id)}">${escapeHtml(id)}</h3>${pretty(schema)}`)
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="description" content="${escapeHtml(doc.info.title)}: every operation, its parameters, bodies and answers">
<title>${escapeHtml(doc.info.title)}</title><style>${STYLE}</style></head><body>
<h1>${escapeHtml(doc.info.title)} <small>${escapeHtml(doc.info.version)}</small></h1><p>${prose(doc.info.description)}</p>
<p>The machine-readable document: <a href="/api/v1/openapi.json">/api/v1/openapi.json</a> (OpenAPI 3.1).</p>
<nav>${nav.join('')}</nav>${operations.join('\n')}<h2>Schemas</h2>${schemas}</body></html>`;
}
