/**
 * The HTTP edge (src/limits): security headers, CORS, per-key and failed-authentication rate limits,
 * 405/415, NUL characters in URLs and hostile JSON bodies, and a 413 that doesn't break a keep-alive
 * client pool (over a real socket).
 */
import { once } from 'node:events';
import { Agent, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forms, responses } from '../../src/db/schema.ts';
import { ADMIN_TOKEN, appWith, createTenant, jsonRequest, setupIsolatedTestApp, validBody, type TestContext, type TestTenant } from '../support/helpers.ts';
import { makeForm } from '../support/public-helpers.ts';

let ctx: TestContext;
let a: TestTenant;
let b: TestTenant;
let formId: string;

beforeAll(async () => {
  ctx = await setupIsolatedTestApp(); // counts rows: no other file may write here
  a = await createTenant(ctx.db);
  b = await createTenant(ctx.db);
  formId = (
    await makeForm(ctx.db, a, [
      { name: 'One', components: [{ type: 'ShortInput', content: { question: 'Name?' } }] },
      { name: 'Two', components: [{ type: 'LongInput', content: { question: 'More?' } }] },
    ])
  ).id;
});

const listing = (app: TestContext['app'], key: string | null, headers: Record<string, string> = {}) =>
  app.request(`/api/v1/responses?formId=${formId}`, { headers: { ...(key ? { 'x-api-key': key } : {}), ...headers } });

describe('security headers', () => {
  it('API answers are never cached, sniffed or framed, errors included', async () => {
    const answers = [
      await listing(ctx.app, a.apiKey),
      await listing(ctx.app, null),
      await ctx.app.request('/graphql', jsonRequest('POST', { query: '{ __typename }' }, { 'x-api-key': a.apiKey })),
      await ctx.app.request('/api/v1/nope'),
      await ctx.app.request('/healthz'),
      await ctx.app.request(`/api/v1/responses?formId=a%00`, { headers: { 'x-api-key': a.apiKey } }),
      await ctx.app.request('/graphql?query=%00'),
      await appWith(ctx.db, { maxBodyBytes: 1024 }).request(
        `/api/v1/environments/${a.environmentId}/forms/generate`,
        jsonRequest('POST', { name: 'x'.repeat(2000) }, { 'x-api-key': a.apiKey }),
      ),
    ];
    for (const response of answers) {
      expect(response.headers.get('cache-control'), response.url).toBe('no-store');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(response.headers.get('x-frame-options')).toBe('DENY');
    }
  });

  it('every answer that is not a page carries nosniff and a CSP that loads and frames nothing: JSON 404s and the public JSON API', async () => {
    const answers = [
      await ctx.app.request('/no-such-path'),
      await ctx.app.request('/s/no-such-form/definition'),
      await ctx.app.request(`/s/${formId}/definition`),
      await ctx.app.request(`/s/${formId}/responses`, jsonRequest('POST', { answers: { nope: 1 } })),
      await ctx.app.request(`/s/${formId}/responses/nope`, jsonRequest('PATCH', { answers: {} })),
      await ctx.app.request(`/s/${formId}/uploads`, { method: 'POST' }),
    ];
    for (const response of answers) {
      expect(response.headers.get('content-type'), response.url).toContain('application/json');
      expect(response.headers.get('x-content-type-options'), response.url).toBe('nosniff');
      expect(response.headers.get('content-security-policy'), response.url).toBe("default-src 'none'; frame-ancestors 'none'");
    }
  });

  it("public pages may be framed by FRAME_ANCESTORS only (default 'self')", async () => {
    const page = await ctx.app.request(`/s/${formId}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/; frame-ancestors 'self'$/);
    expect(page.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('permissions-policy')).toContain('camera=()');

    const embeddable = appWith(ctx.db, { frameAncestors: "'self' https://www.customer.example" });
    const embedded = await embeddable.request(`/s/${formId}`);
    expect(embedded.headers.get('content-security-policy')).toMatch(/; frame-ancestors 'self' https:\/\/www\.customer\.example$/);
    expect(embedded.headers.get('x-frame-options')).toBeNull();
    // Error pages follow the same policy, so an embedded form shows its message instead of a blocked frame.
    const missing = await embeddable.request('/s/does-not-exist');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-security-policy')).toContain("frame-ancestors 'self' https://www.customer.example");
  });
});

describe('CORS', () => {
  const preflight = (app: TestContext['app'], path: string, origin: string) =>
    app.request(path, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, x-api-key' },
    });

  it('the API answers no origin by default, and never with credentials', async () => {
    for (const path of ['/graphql', '/api/v1/responses', `/api/v1/environments/${a.environmentId}/forms/generate`]) {
      const response = await preflight(ctx.app, path, 'https://evil.example');
      expect(response.headers.get('access-control-allow-origin'), path).toBeNull();
      expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    }
    const actual = await ctx.app.request('/graphql', jsonRequest('POST', { query: '{ __typename }' }, { origin: 'https://evil.example' }));
    expect(actual.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('allows exactly the configured origins, without credentials', async () => {
    const app = appWith(ctx.db, { corsOrigins: ['https://app.customer.example'] });
    const allowed = await preflight(app, '/graphql', 'https://app.customer.example');
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.customer.example');
    expect(allowed.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-api-key');
    expect(allowed.headers.get('access-control-allow-credentials')).toBeNull();
    const other = await preflight(app, '/graphql', 'https://app.customer.example.evil.example');
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    const read = await listing(app, a.apiKey, { origin: 'https://app.customer.example' });
    expect(read.headers.get('access-control-allow-origin')).toBe('https://app.customer.example');
    expect(read.headers.get('access-control-expose-headers')).toContain('RateLimit');
    expect(read.headers.get('vary')).toContain('Origin');
    expect(allowed.headers.get('access-control-max-age')).toBe('600');
  });

  it('the public submission API stays open to every origin, without credentials', async () => {
    const response = await preflight(ctx.app, `/s/${formId}/responses`, 'https://www.customer.example');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
  });
});

describe('rate limits', () => {
  it('counts requests per API key across REST and GraphQL, with RateLimit headers, then 429', async () => {
    const app = appWith(ctx.db, { apiRateLimitPerMinute: 3 });
    const first = await listing(app, a.apiKey);
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-policy')).toBe('"api-key";q=3;w=60');
    expect(first.headers.get('ratelimit')).toMatch(/^"api-key";r=2;t=\d+$/);
    const second = await app.request('/graphql', jsonRequest('POST', { query: '{ __typename }' }, { 'x-api-key': a.apiKey }));
    expect(second.headers.get('ratelimit')).toMatch(/^"api-key";r=1;t=\d+$/);
    expect((await listing(app, a.apiKey)).status).toBe(200);

    const refused = await listing(app, a.apiKey);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ message: 'Too many requests' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(refused.headers.get('ratelimit')).toMatch(/^"api-key";r=0;t=\d+$/);
    expect(refused.headers.get('cache-control')).toBe('no-store');

    const graphql = await app.request('/graphql', jsonRequest('POST', { query: '{ __typename }' }, { 'x-api-key': a.apiKey }));
    expect(graphql.status).toBe(429);
    expect(await graphql.json()).toMatchObject({ message: 'Too many requests', errors: [{ extensions: { code: 'RATE_LIMITED' } }] });

    // Another tenant's key has its own budget.
    expect((await app.request('/api/v1/responses?limit=1', { headers: { 'x-api-key': b.apiKey } })).status).toBe(200);
  });

  it('0 turns the per-key limit off', async () => {
    const app = appWith(ctx.db, { apiRateLimitPerMinute: 0 });
    for (let i = 0; i < 5; i++) {
      const response = await listing(app, a.apiKey);
      expect(response.status).toBe(200);
      expect(response.headers.get('ratelimit')).toBeNull();
    }
  });

  it('refuses an address that keeps failing authentication, for a cool-down, even with a good key', async () => {
    const app = appWith(ctx.db, { authFailureLimitPerMinute: 3, authFailureBlockSeconds: 120, trustProxy: 1 });
    const from = (ip: string) => ({ 'x-forwarded-for': ip });
    const wrong = `fl_aaaaaaaaaaaa_${'x'.repeat(43)}`;
    for (let i = 0; i < 3; i++) {
      const response = await listing(app, wrong, from('198.51.100.7'));
      expect(response.status).toBe(401);
      expect(response.headers.get('ratelimit-policy')).toBe('"auth-failures";q=3;w=60');
    }
    const blocked = await listing(app, wrong, from('198.51.100.7'));
    expect(blocked.status).toBe(429);
    expect(await blocked.json()).toEqual({ message: 'Too many requests' });
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(60);
    // The cool-down covers the address, whatever it sends, GraphQL included.
    expect((await listing(app, a.apiKey, from('198.51.100.7'))).status).toBe(429);
    expect((await app.request('/graphql', jsonRequest('POST', { query: '{ __typename }' }, { 'x-api-key': a.apiKey, ...from('198.51.100.7') }))).status).toBe(429);
    // Other addresses are not affected; a missing key is not a guess and is not counted.
    expect((await listing(app, a.apiKey, from('198.51.100.8'))).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await listing(app, null, from('198.51.100.9'))).status).toBe(401);
    expect((await listing(app, a.apiKey, from('198.51.100.9'))).status).toBe(200);
  });

  it('counts requests without credentials per address (ANONYMOUS_RATE_LIMIT)', async () => {
    const app = appWith(ctx.db, { anonymousRateLimitPerMinute: 2, trustProxy: 1 });
    const from = (ip: string) => ({ 'x-forwarded-for': ip });
    expect((await listing(app, null, from('198.51.100.20'))).status).toBe(401);
    const second = await app.request('/graphql', jsonRequest('POST', { query: '{ __typename }' }, from('198.51.100.20')));
    expect(second.status).toBe(200);
    expect(second.headers.get('ratelimit')).toMatch(/^"anonymous";r=0;t=\d+$/);
    const refused = await listing(app, null, from('198.51.100.20'));
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ message: 'Too many requests' });
    // A key's own budget is not touched, nor another address's.
    expect((await listing(app, a.apiKey, from('198.51.100.20'))).status).toBe(200);
    expect((await listing(app, null, from('198.51.100.21'))).status).toBe(401);
  });

  it('public submissions carry the RateLimit headers of their own policy', async () => {
    const response = await ctx.app.request(`/s/${formId}/responses`, jsonRequest('POST', { answers: {} }));
    expect(response.status).toBe(201);
    expect(response.headers.get('ratelimit-policy')).toBe('"public";q=120;w=60');
  });
});

describe('methods and media types', () => {
  it('405 with Allow and a JSON body on known paths with another method', async () => {
    const cases: [string, string, string][] = [
      ['POST', '/api/v1/responses', 'GET'],
      ['GET', `/api/v1/environments/${a.environmentId}/forms/generate`, 'POST'],
      ['PUT', '/graphql', 'GET, POST'],
      ['DELETE', `/s/${formId}/definition`, 'GET'],
      ['GET', `/s/${formId}/responses`, 'POST'],
    ];
    for (const [method, path, allow] of cases) {
      const response = await ctx.app.request(path, { method, headers: { 'x-api-key': a.apiKey } });
      expect(response.status, `${method} ${path}`).toBe(405);
      expect(response.headers.get('allow')).toBe(allow);
      expect(await response.json()).toEqual({ message: expect.stringContaining(`Method ${method} not allowed`) });
    }
    const page = await ctx.app.request(`/s/${formId}`, { method: 'DELETE' });
    expect(page.status).toBe(405);
    expect(page.headers.get('content-type')).toContain('text/html');
  });

  it('415 for a body that is not JSON', async () => {
    const generate = await ctx.app.request(`/api/v1/environments/${a.environmentId}/forms/generate`, {
      method: 'POST',
      headers: { 'x-api-key': a.apiKey, 'content-type': 'text/plain' },
      body: JSON.stringify(validBody(a.templateId)),
    });
    expect(generate.status).toBe(415);
    expect(await generate.json()).toEqual({ message: 'Unsupported media type: send the body as application/json' });
    const submit = await ctx.app.request(`/s/${formId}/responses`, { method: 'POST', headers: { 'content-type': 'application/xml' }, body: '<a/>' });
    expect(submit.status).toBe(415);
    const graphql = await ctx.app.request('/graphql', { method: 'POST', headers: { 'content-type': 'text/plain', 'x-api-key': a.apiKey }, body: '{"query":"{__typename}"}' });
    expect(graphql.status).toBe(415);
    expect(await graphql.json()).toEqual({
      message: 'Unsupported media type: send the body as application/json',
      errors: [{ message: 'Unsupported media type: send the body as application/json', extensions: { code: 'UNSUPPORTED_MEDIA_TYPE' } }],
    });
  });

  it("GraphQL's answer to malformed JSON keeps its 400 and carries no engine message", async () => {
    const response = await ctx.app.request('/graphql', jsonRequest('POST', '{"query":', { 'x-api-key': a.apiKey }));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ errors: [{ message: 'POST body sent invalid JSON.', extensions: { code: 'BAD_REQUEST' } }] });
  });
});

describe('hostile input outside the body and in JSON bodies', () => {
  it('a NUL in a query parameter or path segment is a 400 naming it', async () => {
    const query = await ctx.app.request('/api/v1/responses?formId=ab%00c', { headers: { 'x-api-key': a.apiKey } });
    expect(query.status).toBe(400);
    expect(await query.json()).toEqual({
      message: 'Invalid query parameters',
      errors: [{ message: 'formId must not contain NUL (%00) characters', path: ['formId'] }],
    });
    const path = await ctx.app.request('/s/ab%00c/definition');
    expect(path.status).toBe(400);
    expect(await path.json()).toEqual({
      message: 'Invalid request path',
      errors: [{ message: 'Path segment 2 must not contain NUL (%00) characters', path: ['path', 2] }],
    });
    const graphql = await ctx.app.request('/graphql?query=%7B__typename%7D&operationName=%00', { headers: { accept: 'application/json' } });
    expect(graphql.status).toBe(400);
    expect(await graphql.json()).toMatchObject({
      errors: [{ message: 'Invalid query parameters', extensions: { code: 'BAD_USER_INPUT', errors: [{ path: ['operationName'] }] } }],
    });
    const page = await ctx.app.request('/s/ab%00c');
    expect(page.status).toBe(400);
    expect(page.headers.get('content-type')).toContain('text/html');
    const generate = await ctx.app.request('/api/v1/environments/a%00/forms/generate', jsonRequest('POST', validBody(a.templateId), { 'x-api-key': a.apiKey }));
    expect(generate.status).toBe(400);
  });

  it('NUL characters, unpaired surrogates and deep nesting in a body are a 400 with the path, and store nothing', async () => {
    const [{ before }] = (await ctx.db.select({ before: count() }).from(forms)) as [{ before: number }];
    const generate = (text: string) => ctx.app.request(`/api/v1/environments/${a.environmentId}/forms/generate`, jsonRequest('POST', text, { 'x-api-key': a.apiKey }));
    const body = validBody(a.templateId);

    const nul = await generate(JSON.stringify({ ...body, name: 'a\u0000b' }));
    expect(nul.status).toBe(400);
    expect(await nul.json()).toEqual({ message: 'Invalid request body', errors: [{ message: expect.stringContaining('NUL'), path: ['name'] }] });

    const surrogate = await generate(JSON.stringify(body).replace('"Contact"', '"Con\\ud800tact"'));
    expect(surrogate.status).toBe(400);
    expect(await surrogate.json()).toEqual({
      message: 'Invalid request body',
      errors: [{ message: expect.stringContaining('unpaired surrogates'), path: ['steps', 0, 'name'] }],
    });

    const deep = await generate(`{"name":${'['.repeat(50_000)}${']'.repeat(50_000)}}`);
    expect(deep.status).toBe(400);
    expect(await deep.json()).toEqual({ message: 'Invalid request body', errors: [{ message: expect.stringContaining('deeper than 32'), path: [] }] });

    const [{ after }] = (await ctx.db.select({ after: count() }).from(forms)) as [{ after: number }];
    expect(after).toBe(before);

    const [{ responsesBefore }] = (await ctx.db.select({ responsesBefore: count() }).from(responses)) as [{ responsesBefore: number }];
    const submit = await ctx.app.request(`/s/${formId}/responses`, jsonRequest('POST', { answers: { x: 'a\u0000' } }));
    expect(submit.status).toBe(400);
    expect(await submit.json()).toEqual({ message: 'Invalid request body', errors: [{ message: expect.stringContaining('NUL'), path: ['answers', 'x'] }] });
    const [{ responsesAfter }] = (await ctx.db.select({ responsesAfter: count() }).from(responses)) as [{ responsesAfter: number }];
    expect(responsesAfter).toBe(responsesBefore);
  });
});

describe('413 on a keep-alive connection', () => {
  let server: ReturnType<typeof serve>;
  let port: number;
  beforeAll(async () => {
    const app = appWith(ctx.db, { maxBodyBytes: 4096 });
    server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  function send(agent: Agent, method: string, path: string, body?: Buffer) {
    return new Promise<{ status: number; connection: string | undefined; text: string }>((resolve, reject) => {
      const req = httpRequest(
        { agent, host: '127.0.0.1', port, method, path, headers: { 'x-api-key': a.apiKey, ...(body ? { 'content-type': 'application/json' } : {}) } },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, text }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  it('answers 413 with Connection: close, and no other request of the pool fails', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 2 });
    const oversized = Buffer.alloc(256 * 1024, 'a');
    const results = await Promise.allSettled(
      Array.from({ length: 30 }, (_, i) =>
        i % 3 === 0 ? send(agent, 'POST', `/api/v1/environments/${a.environmentId}/forms/generate`, oversized) : send(agent, 'GET', `/api/v1/responses?formId=${formId}`),
      ),
    );
    agent.destroy();
    const failures = results.filter((r) => r.status === 'rejected');
    expect(failures).toEqual([]);
    results.forEach((result, i) => {
      const { status, connection, text } = (result as PromiseFulfilledResult<{ status: number; connection?: string; text: string }>).value;
      if (i % 3 === 0) {
        expect(status).toBe(413);
        expect(connection).toBe('close');
        expect(JSON.parse(text)).toEqual({ message: 'Request body too large (limit 4096 bytes)' });
      } else expect(status).toBe(200);
    });
  });
});

describe('admin token', () => {
  it('is rate-limited like a key', async () => {
    const app = appWith(ctx.db, { apiRateLimitPerMinute: 1 });
    const ask = () => app.request('/graphql', jsonRequest('POST', { query: '{ __typename }' }, { authorization: `Bearer ${ADMIN_TOKEN}` }));
    expect((await ask()).status).toBe(200);
    expect((await ask()).status).toBe(429);
  });
});
