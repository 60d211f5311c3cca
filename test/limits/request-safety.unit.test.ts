/**
 * The request edge checks (src/limits/request-safety.ts) on a bare Hono app: NUL in the path or the
 * query, 405 with Allow, 415, the body size limit (declared and streamed), and JSON object bodies.
 * `npm run mutate` runs these against the module.
 */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../../src/http.ts';
import { limitBodySize, methodNotAllowed, readJsonObject, rejectHostileUrls, unsupportedMediaType, UNSUPPORTED_MEDIA_TYPE } from '../../src/limits/request-safety.ts';

function app() {
  const routes = new Hono<AppEnv>();
  routes.use(rejectHostileUrls((c, problem) => c.json(problem, 400)));
  routes.use(limitBodySize(64, (c, message) => c.json({ message }, 413)));
  routes.get('/a/:b', (c) => c.json({ ok: true }));
  routes.get('/a/:b/:c', (c) => c.json({ ok: true }));
  routes.post('/json', async (c) => {
    const read = await readJsonObject(c, 3);
    return 'response' in read ? read.response : c.json(read.body);
  });
  routes.post('/graphql415', (c) => unsupportedMediaType(c, { graphql: true }));
  routes.all('/only-get', methodNotAllowed(['GET', 'HEAD']));
  return routes;
}

const body = async (response: Response) => ({ status: response.status, body: (await response.json()) as unknown });

describe('hostile URLs', () => {
  it('refuse a NUL in a path segment, naming the segment', async () => {
    expect(await body(await app().request('/a/x%00'))).toEqual({
      status: 400,
      body: {
        message: 'Invalid request path',
        errors: [{ message: 'Path segment 2 must not contain NUL (%00) characters', path: ['path', 2] }],
      },
    });
    expect(await body(await app().request('/a/b/c%00d'))).toMatchObject({ body: { errors: [{ path: ['path', 3] }] } });
  });

  it('refuse a NUL in a query value or name, naming the parameter', async () => {
    expect(await body(await app().request('/a/b?x=1&name=a%00'))).toEqual({
      status: 400,
      body: {
        message: 'Invalid query parameters',
        errors: [{ message: 'name must not contain NUL (%00) characters', path: ['name'] }],
      },
    });
    expect(await body(await app().request('/a/b?na%00me=1'))).toEqual({
      status: 400,
      body: {
        message: 'Invalid query parameters',
        errors: [{ message: 'A parameter name must not contain NUL (%00) characters', path: [] }],
      },
    });
  });

  it('let everything else through, a %25 and an escaped %2500 included', async () => {
    expect((await app().request('/a/b?x=%2500&y=%25')).status).toBe(200);
    expect((await app().request('/a/b?x=1')).status).toBe(200);
  });
});

describe('methods and media types', () => {
  it('405 names the allowed methods', async () => {
    const response = await app().request('/only-get', { method: 'DELETE' });
    expect(response.headers.get('allow')).toBe('GET, HEAD');
    expect(await body(response)).toEqual({
      status: 405,
      body: { message: 'Method DELETE not allowed here; allowed: GET, HEAD' },
    });
  });

  it('415 for another media type, with a GraphQL errors list on GraphQL', async () => {
    expect(await body(await app().request('/json', { method: 'POST', body: '{}', headers: { 'content-type': 'text/plain' } }))).toEqual({
      status: 415,
      body: { message: UNSUPPORTED_MEDIA_TYPE },
    });
    expect(await body(await app().request('/graphql415', { method: 'POST' }))).toEqual({
      status: 415,
      body: {
        message: UNSUPPORTED_MEDIA_TYPE,
        errors: [{ message: UNSUPPORTED_MEDIA_TYPE, extensions: { code: 'UNSUPPORTED_MEDIA_TYPE' } }],
      },
    });
  });

  it('reads JSON media types with parameters and suffixes, and a body without a type', async () => {
    for (const type of ['application/json', 'application/json; charset=utf-8', 'application/json ;x', 'application/merge-patch+json', 'APPLICATION/JSON']) {
      expect((await app().request('/json', { method: 'POST', body: '{"a":1}', headers: { 'content-type': type } })).status).toBe(200);
    }
    // A body without a Content-Type (bytes: a string body would be sent as text/plain).
    const untyped = new Request('http://localhost/json', { method: 'POST', body: new TextEncoder().encode('{"a":1}') });
    expect(untyped.headers.get('content-type')).toBeNull();
    expect((await app().request(untyped)).status).toBe(200);
    expect(
      (
        await app().request('/json', {
          method: 'POST',
          body: '{"a":1}',
          headers: { 'content-type': 'application/jsonx' },
        })
      ).status,
    ).toBe(415);
    expect(
      (
        await app().request('/json', {
          method: 'POST',
          body: '{"a":1}',
          headers: { 'content-type': 'xapplication/json' },
        })
      ).status,
    ).toBe(415);
  });
});

describe('JSON object bodies', () => {
  const post = (text: string) => app().request('/json', { method: 'POST', body: text, headers: { 'content-type': 'application/json' } });
  it('answer what is not a JSON object with the documented 400', async () => {
    for (const text of ['[1]', 'null', '"s"', '3']) {
      expect(await body(await post(text))).toEqual({
        status: 400,
        body: { message: 'Invalid request body', errors: [{ message: 'Body must be a JSON object', path: [] }] },
      });
    }
    expect(await body(await post('{"a":'))).toEqual({
      status: 400,
      body: { message: 'Invalid request body', errors: [{ message: 'Body must be valid JSON', path: [] }] },
    });
    expect(await body(await post('{"a":{"b":{"c":{}}}}'))).toMatchObject({
      status: 400,
      body: { errors: [{ message: 'Body nests arrays/objects deeper than 3 levels' }] },
    });
    expect(await body(await post('{"a":1}'))).toEqual({ status: 200, body: { a: 1 } });
  });
});

describe('the body size limit', () => {
  it('takes a declared length up to the limit and refuses one byte more, closing the connection', async () => {
    const json = (length: number) => `{"a":"${'x'.repeat(length - 8)}"}`;
    expect(json(64)).toHaveLength(64);
    const ok = await app().request('/json', {
      method: 'POST',
      body: json(64),
      headers: { 'content-type': 'application/json', 'content-length': '64' },
    });
    expect(ok.status).toBe(200);
    const over = await app().request('/json', {
      method: 'POST',
      body: json(65),
      headers: { 'content-type': 'application/json', 'content-length': '65' },
    });
    expect(over.status).toBe(413);
    expect(over.headers.get('connection')).toBe('close');
    expect(await over.json()).toEqual({ message: 'Request body too large (limit 64 bytes)' });
  });

  it('measures a streamed body (no declared length) as it is read', async () => {
    const stream = (text: string) =>
      new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(text));
          controller.close();
        },
      });
    const over = await app().request('/json', {
      method: 'POST',
      body: stream(`{"a":"${'x'.repeat(80)}"}`),
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      duplex: 'half',
    } as RequestInit);
    expect(over.status).toBe(413);
    const under = await app().request('/json', {
      method: 'POST',
      body: stream('{"a":1}'),
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      duplex: 'half',
    } as RequestInit);
    expect(under.status).toBe(200);
  });

  it('does not read GET bodies', async () => {
    expect((await app().request('/a/b', { method: 'GET', headers: { 'content-length': '999' } })).status).toBe(200);
  });
});
