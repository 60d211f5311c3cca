/** /api/v1/openapi.json is valid OpenAPI 3.1 and lists every REST route; /docs renders it offline; the suite's answer check works. */
import { Validator } from '@seriousme/openapi-schema-validator';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.ts';
import { ADMIN_TOKEN, createTenant, setupTestApp, testConfig, validBody, jsonRequest, type TestContext, type TestTenant } from '../support/helpers.ts';
import { checkAgainstOpenApi, checkedAnswers, OpenApiMismatch } from '../support/openapi-check.ts';
import { captureExamples, committedExamples, staleExamples } from '../../scripts/openapi-examples.ts';
import { exampleKey } from '../../src/rest/openapi.ts';
import pino from 'pino';

let ctx: TestContext;
let tenant: TestTenant;

beforeAll(async () => {
  ctx = await setupTestApp();
  tenant = await createTenant(ctx.db);
});

async function fetchDocument() {
  const response = await ctx.app.request('/api/v1/openapi.json');
  expect(response.status).toBe(200);
  return (await response.json()) as { openapi: string; paths: Record<string, Record<string, any>>; components: any };
}

describe('openapi.json', () => {
  it('is a valid OpenAPI 3.1 document, served without credentials', async () => {
    const document = await fetchDocument();
    expect(document.openapi).toBe('3.1.0');
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('documents every /api/v1 route the app has, and the public JSON API, with their methods', async () => {
    const document = await fetchDocument();
    const app = createApp({ config: testConfig(), db: ctx.db, logger: pino({ level: 'silent' }), adminToken: ADMIN_TOKEN });
    const routes = app.routes.filter((route) => route.path.startsWith('/api/v1/') && route.method !== 'ALL');
    expect(routes.length).toBeGreaterThan(0);
    for (const route of routes) {
      const template = route.path.replace(/:([A-Z]+)/gi, '{$1}');
      expect(document.paths[template]?.[route.method.toLowerCase()], `${route.method} ${route.path}`).toBeDefined();
    }
    // The public JSON API's operations (its edge's middleware is registered for more methods, which answer 405).
    const publicOperations = Object.entries(document.paths)
      .filter(([path]) => path.startsWith('/s/'))
      .flatMap(([path, item]) => Object.keys(item).map((method) => `${method} ${path}`));
    expect(publicOperations.sort()).toEqual([
      'get /s/{formId}/definition',
      'patch /s/{formId}/responses/{responseId}',
      'post /s/{formId}/responses',
      'post /s/{formId}/uploads',
      'post /s/{formId}/views',
    ]);
    // And nothing the app lacks.
    const publicRoutes = app.routes.filter((route) => route.path.startsWith('/s/:formId/') && route.method !== 'ALL');
    const served = new Set([...routes, ...publicRoutes].map((route) => `${route.method.toLowerCase()} ${route.path.replace(/:([A-Z]+)/gi, '{$1}')}`));
    for (const [path, item] of Object.entries(document.paths)) for (const method of Object.keys(item)) expect(served.has(`${method} ${path}`), `${method} ${path}`).toBe(true);
  });

  it('takes the request schema from the zod schema generate validates with, and declares the x-api-key scheme', async () => {
    const document = await fetchDocument();
    const generate = document.paths['/api/v1/environments/{environmentId}/forms/generate']!.post;
    const body = generate.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(['sourceFormId', 'name', 'steps']);
    expect(body.properties.steps.minItems).toBe(2);
    expect(document.components.securitySchemes.apiKey).toEqual(expect.objectContaining({ type: 'apiKey', in: 'header', name: 'x-api-key' }));
    expect(Object.keys(generate.responses).sort()).toEqual(['200', '400', '401', '403', '404', '409', '413', '415', '422', '429', '500', '503']);
    const listing = document.paths['/api/v1/responses']!.get;
    expect(listing.parameters.map((p: { name: string }) => p.name)).toEqual(['formId', 'returnPartials', 'since', 'until', 'dateField', 'language', 'limit', 'after']);
  });

  it('has examples that match their own schemas', async () => {
    const document = await fetchDocument();
    let checked = 0;
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        for (const [status, response] of Object.entries(operation.responses as Record<string, any>)) {
          const media = response.content?.['application/json'];
          if (media?.example === undefined) continue;
          const answer = new Response(JSON.stringify(media.example), { status: Number(status), headers: { 'content-type': 'application/json' } });
          await checkAgainstOpenApi(method.toUpperCase(), path.replace(/\{[^{}]+\}/g, 'x'), answer);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('takes its examples from real answers, and the committed capture is not stale', async () => {
    // The same scenario `npm run openapi:examples` runs, here on the suite's database: an answer that
    // appears, goes or changes shape without regenerating src/rest/openapi-examples.json fails.
    const fresh = await captureExamples(ctx.db);
    expect(staleExamples(committedExamples(), fresh)).toEqual([]);
    expect(Object.keys(fresh).length).toBeGreaterThan(30);
    // Every 2xx of every operation (but the gzip backup) shows a captured answer.
    const document = await fetchDocument();
    const committed = committedExamples();
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        for (const [status, response] of Object.entries(operation.responses as Record<string, any>)) {
          if (!status.startsWith('2') || path === '/api/v1/openapi.json') continue;
          for (const [type, media] of Object.entries((response.content ?? {}) as Record<string, { example?: unknown }>)) {
            if (type === 'application/gzip') continue;
            expect(media.example, `${method} ${path} ${status} ${type}`).toEqual(committed[exampleKey(method, path, status, type)]);
          }
        }
      }
    }
  });
});

describe('the suite checks REST answers against the document', () => {
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

  it('refuses an undocumented field, status or media type', async () => {
    await expect(checkAgainstOpenApi('GET', '/api/v1/responses', json(200, { data: [], extra: 1 }))).rejects.toThrow(OpenApiMismatch);
    await expect(checkAgainstOpenApi('GET', '/api/v1/responses', json(418, { message: 'teapot' }))).rejects.toThrow('undocumented status');
    await expect(checkAgainstOpenApi('GET', '/api/v1/responses', new Response('<p>hi</p>', { headers: { 'content-type': 'text/html' } }))).rejects.toThrow('media type');
    await expect(
      checkAgainstOpenApi('GET', '/api/v1/responses/export?format=ndjson', new Response('{"id":"x"}\n', { headers: { 'content-type': 'application/x-ndjson' } })),
    ).rejects.toThrow('NDJSON');
    await expect(checkAgainstOpenApi('GET', '/api/v1/responses', json(200, { data: [] }))).resolves.toBeUndefined();
  });

  it('checks the answers test apps give', async () => {
    const before = checkedAnswers.get('POST /api/v1/environments/{environmentId}/forms/generate → 200') ?? 0;
    const response = await ctx.app.request(
      `/api/v1/environments/${tenant.environmentId}/forms/generate`,
      jsonRequest('POST', validBody(tenant.templateId), { 'x-api-key': tenant.apiKey }),
    );
    expect(response.status).toBe(200);
    expect(checkedAnswers.get('POST /api/v1/environments/{environmentId}/forms/generate → 200')).toBe(before + 1);
  });
});

describe('/docs', () => {
  it('renders every operation from the document, with a CSP that allows no script and nothing from elsewhere', async () => {
    const response = await ctx.app.request('/docs');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toMatch(/default-src 'none'/);
    expect(csp).not.toMatch(/script-src|unsafe-inline|https?:/);
    const page = await response.text();
    expect(page).toMatch(/<meta name="description" content="formloom REST API: [^"]+">/);
    const document = await fetchDocument();
    for (const [path, item] of Object.entries(document.paths)) {
      for (const operation of Object.values(item)) {
        expect(page).toContain(`<code>${path}</code>`);
        expect(page).toContain(`id="${operation.operationId}"`);
      }
    }
    // Nothing that loads or links elsewhere (the examples' text may mention URLs, as webhook targets do).
    expect(page).not.toMatch(/<script|<link|src=|href=["']?[a-z]+:|url\(/i);
  });
});
