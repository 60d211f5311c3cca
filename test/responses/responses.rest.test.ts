/** GET /api/v1/responses: the per-form and environment listings as docs/rest.md documents them, and the decisions docs/architecture.md records. */
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { revokeApiKey } from '../../src/auth/auth.service.ts';
import { rowsOf } from '../../src/db/rows.ts';
import { databaseMetricsOf } from '../../src/db/instrument.ts';
import { responses } from '../../src/db/schema.ts';
import { deleteForm } from '../../src/forms/forms.service.ts';
import { LISTING_BATCH_SIZE } from '../../src/responses/responses.service.ts';
import { print } from 'graphql';
import { EnvironmentResponsesPageDocument } from '../../src/graphql/generated/graphql.ts';
import { ADMIN_TOKEN, createTenant, graphql, setupTestApp, type TestContext, type TestTenant } from '../support/helpers.ts';
import { bulkInsertResponses, createForm, createLead, insertResponse, insertResponses, insertTimeline, sampleAnswers } from '../support/factories.ts';
import { readToEnd } from '../support/streams.ts';

let ctx: TestContext;
let a: TestTenant;
let b: TestTenant;

beforeAll(async () => {
  ctx = await setupTestApp();
  a = await createTenant(ctx.db);
  b = await createTenant(ctx.db);
});

async function get(query: string, apiKey: string | null = a.apiKey, headers: Record<string, string> = {}) {
  const response = await ctx.app.request(`/api/v1/responses${query}`, { headers: { ...(apiKey === null ? {} : { 'x-api-key': apiKey }), ...headers } });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: JSON.parse(text) };
}

const ids = (body: { data: { id: string }[] }) => body.data.map((r) => r.id);

/**
 * Walks a paged listing by `nextCursor`; `between` runs after each page. The walk expects `rows` rows
 * and may take the pages they fill (`limit` a page) and one more: a listing that goes on (a cursor that
 * does not advance, a filter that lets other rows in) fails the test at once instead of paging on.
 */
async function walk(query: string, apiKey: string, rows: number, between: (page: number) => Promise<void> = async () => {}) {
  const size = Number(new URLSearchParams(query.slice(1)).get('limit'));
  const maxPages = Math.max(1, Math.ceil(rows / size)) + 1;
  const seen: string[] = [];
  let cursor: string | null = null;
  let page = 0;
  do {
    if (page === maxPages) throw new Error(`the listing still had a nextCursor after ${maxPages} pages of ${size} (expected ${rows} rows, seen ${seen.length})`);
    const sep = query.includes('?') ? '&' : '?';
    const res = await get(cursor === null ? query : `${query}${sep}after=${encodeURIComponent(cursor)}`, apiKey);
    expect(res.status).toBe(200);
    seen.push(...ids(res.body));
    cursor = res.body.nextCursor;
    await between(++page);
  } while (cursor !== null);
  return seen;
}

describe('authentication', () => {
  it('answers 401 "Missing API key" without a key, before looking at the parameters', async () => {
    for (const query of ['', '?formId=x', '?limit=nope&after=garbage']) {
      const { status, body } = await get(query, null);
      expect(status).toBe(401);
      expect(body).toEqual({ message: 'Missing API key' });
    }
  });

  it('answers 401 "Invalid API key" for an unknown, malformed or revoked key', async () => {
    const tenant = await createTenant(ctx.db);
    await revokeApiKey(ctx.db, tenant.apiKeyId);
    for (const key of [tenant.apiKey, 'fl_abcdefghijkl_' + 'x'.repeat(43), 'not-a-key']) {
      const { status, body } = await get(`?formId=${tenant.templateId}`, key);
      expect(status).toBe(401);
      expect(body).toEqual({ message: 'Invalid API key' });
    }
  });

  it('stops accepting a key the moment it is revoked, even right after using it', async () => {
    const tenant = await createTenant(ctx.db);
    expect((await get(`?formId=${tenant.templateId}`, tenant.apiKey)).status).toBe(200);
    expect((await get(`?formId=${tenant.templateId}`, tenant.apiKey)).status).toBe(200);
    await revokeApiKey(ctx.db, tenant.apiKeyId);
    const { status, body } = await get(`?formId=${tenant.templateId}`, tenant.apiKey);
    expect(status).toBe(401);
    expect(body).toEqual({ message: 'Invalid API key' });
  });

  it('does not accept a wrong secret for a key id it has just verified', async () => {
    const tenant = await createTenant(ctx.db);
    expect((await get('?limit=1', tenant.apiKey)).status).toBe(200);
    const forged = tenant.apiKey.slice(0, -4) + (tenant.apiKey.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    expect(await get('?limit=1', forged)).toMatchObject({ status: 401, body: { message: 'Invalid API key' } });
  });

  it('wants an environment API key: the admin token is refused with 403', async () => {
    const { status, body } = await get('', null, { authorization: `Bearer ${ADMIN_TOKEN}` });
    expect(status).toBe(403);
    expect(body).toEqual({ message: 'This operation needs an environment API key' });
  });
});

describe('GET /api/v1/responses?formId= (one form)', () => {
  it('returns the 10 most recent responses, newest first; the 11th most recent is not returned', async () => {
    const form = await createForm(ctx.db, a.environmentId);
    const timeline = await insertTimeline(ctx.db, { environmentId: a.environmentId, formId: form.id, count: 11 });
    const { status, body } = await get(`?formId=${form.id}`);
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual(['data']);
    expect(ids(body)).toEqual(timeline.slice(0, 10).map((r) => r.id));
    expect(ids(body)).not.toContain(timeline[10]!.id);
  });

  it('returns every field of the response object with its documented type, data as stored', async () => {
    const form = await createForm(ctx.db, a.environmentId);
    const lead = await createLead(ctx.db, a.environmentId, 'ada@example.com');
    const id = await insertResponse(ctx.db, {
      environmentId: a.environmentId,
      formId: form.id,
      leadId: lead.id,
      createdAt: '2026-02-03T04:05:06.123456Z',
      updatedAt: '2026-02-03T04:15:00.000Z',
      dataUpdatedAt: '2026-02-03T04:10:00.000Z',
      ip: '198.51.100.4',
      country: 'FR',
      visitedForm: 3,
      completedForm: 2,
      meta: { source: 'api', userAgent: 'curl/8' },
    });
    const { body } = await get(`?formId=${form.id}`);
    expect(body.data).toEqual([
      {
        id,
        createdAt: '2026-02-03T04:05:06.123Z',
        updatedAt: '2026-02-03T04:15:00.000Z',
        dataUpdatedAt: '2026-02-03T04:10:00.000Z',
        finished: true,
        status: 4,
        formId: form.id,
        version: '2.0',
        data: sampleAnswers(),
        meta: { source: 'api', userAgent: 'curl/8', leadId: lead.id },
        personAttributes: { ip: '198.51.100.4', country: 'FR', visitedForm: 3, completedForm: 2 },
      },
    ]);
    // Key order follows the response object's table in docs/rest.md.
    expect(Object.keys(body.data[0])).toEqual(['id', 'createdAt', 'updatedAt', 'dataUpdatedAt', 'finished', 'status', 'formId', 'version', 'data', 'meta', 'personAttributes']);
  });

  it('returns completed responses only, unless returnPartials=true', async () => {
    const form = await createForm(ctx.db, a.environmentId);
    const timeline = await insertTimeline(ctx.db, { environmentId: a.environmentId, formId: form.id, count: 6, finished: (i) => i % 2 === 0 });
    const completed = timeline.filter((r) => r.finished).map((r) => r.id);
    expect(ids((await get(`?formId=${form.id}`)).body)).toEqual(completed);
    expect(ids((await get(`?formId=${form.id}&returnPartials=false`)).body)).toEqual(completed);
    const all = (await get(`?formId=${form.id}&returnPartials=true`)).body;
    expect(ids(all)).toEqual(timeline.map((r) => r.id));
    expect(all.data.map((r: any) => r.finished)).toEqual(timeline.map((r) => r.finished));
  });

  it('reports a partial as in progress (2) or, untouched for the drop-off time, dropped off (3); completed is 4', async () => {
    const form = await createForm(ctx.db, a.environmentId);
    const now = Date.now();
    await insertResponses(ctx.db, [
      { environmentId: a.environmentId, formId: form.id, finished: false, createdAt: new Date(now - 1000) },
      { environmentId: a.environmentId, formId: form.id, finished: false, createdAt: new Date(now - 2 * 3600_000) },
      { environmentId: a.environmentId, formId: form.id, finished: true, createdAt: new Date(now - 3 * 3600_000) },
    ]);
    const { body } = await get(`?formId=${form.id}&returnPartials=true`);
    expect(body.data.map((r: any) => [r.finished, r.status])).toEqual([
      [false, 2],
      [false, 3],
      [true, 4],
    ]);
  });

  it('answers 200 with an empty list for a form without responses', async () => {
    const form = await createForm(ctx.db, a.environmentId);
    expect(await get(`?formId=${form.id}`)).toMatchObject({ status: 200, body: { data: [] } });
  });

  it('answers 404 "Form not found" for an unknown form, another environment\'s form, or a deleted form', async () => {
    const deleted = await createForm(ctx.db, a.environmentId);
    await insertResponse(ctx.db, { environmentId: a.environmentId, formId: deleted.id });
    await deleteForm(ctx.db, a.environmentId, deleted.id);
    const theirs = await createForm(ctx.db, b.environmentId);
    await insertResponse(ctx.db, { environmentId: b.environmentId, formId: theirs.id });
    for (const formId of ['no-such-form', theirs.id, deleted.id]) {
      for (const extra of ['', '&returnPartials=true', '&limit=5']) {
        const { status, body } = await get(`?formId=${formId}${extra}`);
        expect(status).toBe(404);
        expect(body).toEqual({ message: 'Form not found' });
      }
    }
  });

  it('pages back through older responses 10 at a time with after (nextCursor when limit or after is given)', async () => {
    const form = await createForm(ctx.db, a.environmentId);
    const timeline = await insertTimeline(ctx.db, { environmentId: a.environmentId, formId: form.id, count: 25 });
    const first = await get(`?formId=${form.id}&limit=10`);
    expect(ids(first.body)).toEqual(timeline.slice(0, 10).map((r) => r.id));
    const second = await get(`?formId=${form.id}&after=${first.body.nextCursor}`);
    expect(ids(second.body)).toEqual(timeline.slice(10, 20).map((r) => r.id));
    const third = await get(`?formId=${form.id}&after=${second.body.nextCursor}`);
    expect(ids(third.body)).toEqual(timeline.slice(20).map((r) => r.id));
    expect(third.body.nextCursor).toBeNull();
    expect(await walk(`?formId=${form.id}&limit=3`, a.apiKey, timeline.length)).toEqual(timeline.map((r) => r.id));
  });

  it('never returns more than 10 for one form: limit above 10 is a 400', async () => {
    const form = await createForm(ctx.db, a.environmentId);
    const { status, body } = await get(`?formId=${form.id}&limit=11`);
    expect(status).toBe(400);
    expect(body).toEqual({ message: 'Invalid query parameters', errors: [{ message: expect.stringContaining('10'), path: ['limit'] }] });
  });
});

describe('GET /api/v1/responses (the whole environment)', () => {
  let env: TestTenant;
  let timeline: { id: string; createdAt: string; finished: boolean }[];

  beforeAll(async () => {
    env = await createTenant(ctx.db);
    const [f1, f2, f3] = [await createForm(ctx.db, env.environmentId), await createForm(ctx.db, env.environmentId), await createForm(ctx.db, env.environmentId)];
    // 230 responses over three forms, interleaved in time; every fourth is partial. More than two
    // pages of the connection the stream walks.
    const seeds = Array.from({ length: 230 }, (_, i) => ({
      environmentId: env.environmentId,
      formId: [f1, f2, f3][i % 3]!.id,
      finished: i % 4 !== 3,
      createdAt: new Date(Date.UTC(2025, 5, 1) - i * 60_000).toISOString(),
    }));
    const inserted = await insertResponses(ctx.db, seeds);
    timeline = seeds.map((s, i) => ({ id: inserted[i]!, createdAt: s.createdAt, finished: s.finished }));
    // Another environment's responses, newer and older, must never show up.
    const theirs = await createForm(ctx.db, b.environmentId);
    await insertResponses(ctx.db, [
      { environmentId: b.environmentId, formId: theirs.id, createdAt: new Date(Date.UTC(2030, 0, 1)) },
      { environmentId: b.environmentId, formId: theirs.id, createdAt: new Date(Date.UTC(2020, 0, 1)) },
      { environmentId: b.environmentId, formId: theirs.id, createdAt: new Date(Date.UTC(2025, 4, 31, 22)) },
    ]);
  });

  it('returns every completed response of every form, newest first, as {data} (streamed)', async () => {
    const res = await get('', env.apiKey);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Object.keys(res.body)).toEqual(['data']);
    expect(ids(res.body)).toEqual(timeline.filter((r) => r.finished).map((r) => r.id));
    expect(res.body.data.every((r: any) => r.finished === true && r.status === 4)).toBe(true);
  });

  it('includes partial responses with returnPartials=true', async () => {
    const res = await get('?returnPartials=true', env.apiKey);
    expect(ids(res.body)).toEqual(timeline.map((r) => r.id));
  });

  it('streams valid JSON for an environment without responses', async () => {
    const empty = await createTenant(ctx.db);
    const res = await get('', empty.apiKey);
    expect(res.status).toBe(200);
    expect(res.text).toBe('{"data":[]}');
  });

  it('reads no further ahead than the client takes: a client that stops reading holds a queue of bytes, not the listing', async () => {
    const tenant = await createTenant(ctx.db);
    const form = await createForm(ctx.db, tenant.environmentId);
    const lead = await createLead(ctx.db, tenant.environmentId);
    // Enough batches that a stream reading ahead of its client would run more statements than the stalled bound below.
    const count = 15 * LISTING_BATCH_SIZE;
    await bulkInsertResponses(ctx.db, { environmentId: tenant.environmentId, formIds: [form.id], count, leadId: lead.id });
    const metrics = databaseMetricsOf(ctx.db)!;
    const statements = async () =>
      (await metrics.duration.get()).values
        .filter((v) => v.metricName?.endsWith('_count') && ['select', 'with'].includes(String(v.labels.operation)))
        .reduce((sum, v) => sum + v.value, 0);
    const before = await statements();
    // app.fetch: the tests' app.request reads a copy of each body whole, to check it against the OpenAPI document.
    const res = await ctx.app.fetch(new Request('http://localhost/api/v1/responses?returnPartials=true', { headers: { 'x-api-key': tenant.apiKey } }));
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = decoder.decode((await reader.read()).value, { stream: true });
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Stalled: the first page, a few batches to fill the queue (256 KB), and the key's lookup.
    const whileStalled = (await statements()) - before;
    expect(whileStalled).toBeLessThanOrEqual(10);
    // ~400 bytes a response here: a stream that goes on past 1 KB a response fails instead of running on.
    await readToEnd(reader, count * 1024, (chunk) => (text += decoder.decode(chunk, { stream: true })));
    expect(JSON.parse(text).data).toHaveLength(count);
    expect((await statements()) - before).toBeGreaterThanOrEqual(count / LISTING_BATCH_SIZE);
  });

  it('writes each page as the GraphQL listing writes its nodes, and streams exactly the bytes of the paged listing', async () => {
    // REST writes the service's rows itself (responseJson), the stream in batches of LISTING_BATCH_SIZE
    // after its first page (responses/stream.ts); both must be the operation's response object byte for byte.
    const tenant = await createTenant(ctx.db);
    const [f1, f2] = [await createForm(ctx.db, tenant.environmentId), await createForm(ctx.db, tenant.environmentId)];
    const lead = await createLead(ctx.db, tenant.environmentId);
    const bulk = 100 + 2 * LISTING_BATCH_SIZE + 37;
    await bulkInsertResponses(ctx.db, { environmentId: tenant.environmentId, formIds: [f1.id, f2.id], count: bulk, leadId: lead.id });
    // Answers and metadata that could be written differently: non-ASCII, escapes, numbers, nesting; partial ones.
    const odd = { source: 'api' as const, userAgent: 'ünï "quoted" \\ \u2028', n: [1.5, -0, 1e21, 0.1], nested: { a: { b: [null, true] } } };
    await insertResponses(
      ctx.db,
      Array.from({ length: 150 }, (_, i) => ({
        environmentId: tenant.environmentId,
        formId: f1.id,
        finished: i % 3 !== 0,
        ...(i % 2 === 0 ? { meta: odd } : {}),
        createdAt: new Date(Date.UTC(2025, 0, 1, 0, 0, i * 3)),
      })),
    );
    const dataText = (text: string, paged: boolean) => text.slice('{"data":['.length, paged ? text.lastIndexOf('],"nextCursor":') : -']}'.length);
    /** The same page from the operation the GraphQL API answers, its nodes written by JSON.stringify. */
    const operationPage = async (filter: Record<string, string | boolean>, after: string | null) => {
      const { status, body } = await graphql(ctx.app, print(EnvironmentResponsesPageDocument), { filter, first: 100, after }, { 'x-api-key': tenant.apiKey });
      expect(status).toBe(200);
      const { edges, pageInfo } = body.data.environmentResponses as { edges: { node: unknown }[]; pageInfo: { hasNextPage: boolean; endCursor: string } };
      return { items: JSON.stringify(edges.map((edge) => edge.node)).slice(1, -1), next: pageInfo.hasNextPage ? pageInfo.endCursor : null };
    };
    const cases: [string, Record<string, string | boolean>][] = [
      ['?returnPartials=true', { returnPartials: true }],
      ['', {}],
      ['?returnPartials=true&since=2025-01-01T00:02:00Z&until=2025-01-01T00:07:00.5Z', { returnPartials: true, since: '2025-01-01T00:02:00Z', until: '2025-01-01T00:07:00.5Z' }],
      ['?dateField=updatedAt&since=2025-01-01', { dateField: 'UPDATED_AT', since: '2025-01-01T00:00:00Z' }],
    ];
    for (const [query, filter] of cases) {
      const streamed = await get(query, tenant.apiKey);
      expect(streamed.status).toBe(200);
      const pages: string[] = [];
      let cursor: string | null = null;
      // Every row fits in this many pages of 100: a listing that goes on fails here instead of paging on.
      const maxPages = Math.ceil((bulk + 150) / 100) + 1;
      do {
        if (pages.length === maxPages) throw new Error(`${query}: still a nextCursor after ${maxPages} pages`);
        const sep = query === '' ? '?' : '&';
        const page = await get(`${query}${sep}limit=100${cursor === null ? '' : `&after=${cursor}`}`, tenant.apiKey);
        const items = dataText(page.text, true);
        const operation = await operationPage(filter, cursor);
        expect(items).toBe(operation.items);
        expect(page.body.nextCursor).toBe(operation.next);
        if (items !== '') pages.push(items);
        cursor = page.body.nextCursor;
      } while (cursor !== null);
      expect(streamed.body.data.length).toBeGreaterThan(0);
      expect(dataText(streamed.text, false)).toBe(pages.join(','));
    }
  });

  it('streams responses that share one instant in the listing order, across batches (each batch is read oldest first)', async () => {
    const tenant = await createTenant(ctx.db);
    const form = await createForm(ctx.db, tenant.environmentId);
    const instant = new Date(Date.UTC(2025, 5, 1));
    // Ids out of insertion order, so neither the table's nor the insert's order is the listing's.
    const seeds = Array.from({ length: 100 + 2 * LISTING_BATCH_SIZE + 41 }, (_, i) => ({
      id: `tie-${((i * 7919) % 1000).toString().padStart(4, '0')}-${i}`,
      environmentId: tenant.environmentId,
      formId: form.id,
      finished: i % 4 !== 0,
      createdAt: i % 50 === 0 ? new Date(instant.getTime() + i) : instant,
    }));
    await insertResponses(ctx.db, seeds);
    const expected = (partials: boolean) =>
      seeds
        .filter((seed) => partials || seed.finished)
        .sort((x, y) => y.createdAt.getTime() - x.createdAt.getTime() || (x.id < y.id ? 1 : -1))
        .map((seed) => seed.id);
    const all = await get('?returnPartials=true', tenant.apiKey);
    expect(ids(all.body)).toEqual(expected(true));
    const finished = await get('', tenant.apiKey);
    expect(ids(finished.body)).toEqual(expected(false));
  });

  it('pages with limit and after; nextCursor is null on the last page', async () => {
    const first = await get('?limit=7&returnPartials=true', env.apiKey);
    expect(Object.keys(first.body)).toEqual(['data', 'nextCursor']);
    expect(ids(first.body)).toEqual(timeline.slice(0, 7).map((r) => r.id));
    expect(typeof first.body.nextCursor).toBe('string');
    const second = await get(`?limit=7&returnPartials=true&after=${first.body.nextCursor}`, env.apiKey);
    expect(ids(second.body)).toEqual(timeline.slice(7, 14).map((r) => r.id));
    const finished = timeline.filter((r) => r.finished).map((r) => r.id);
    expect(await walk('?limit=50', env.apiKey, finished.length)).toEqual(finished);
    // 60 minutes before the newest: 54 after the cursor, one page.
    const last = await get(`?limit=100&returnPartials=true&after=${first.body.nextCursor}&since=2025-05-31T23:00:00Z`, env.apiKey);
    expect(ids(last.body)).toEqual(timeline.slice(7, 61).map((r) => r.id));
    expect(last.body.nextCursor).toBeNull();
  });

  it('after alone pages 100 at a time', async () => {
    const first = await get('?limit=1&returnPartials=true', env.apiKey);
    const rest = await get(`?after=${first.body.nextCursor}&returnPartials=true`, env.apiKey);
    expect(ids(rest.body)).toEqual(timeline.slice(1, 101).map((r) => r.id));
  });

  it('filters on createdAt with since (inclusive) and until (exclusive)', async () => {
    const since = timeline[40]!.createdAt;
    const until = timeline[10]!.createdAt;
    const res = await get(`?returnPartials=true&since=${since}&until=${until}`, env.apiKey);
    expect(ids(res.body)).toEqual(timeline.slice(11, 41).map((r) => r.id));
    const paged = await get(`?returnPartials=true&since=${since}&until=${until}&limit=100`, env.apiKey);
    expect(ids(paged.body)).toEqual(ids(res.body));
    expect(paged.body.nextCursor).toBeNull();
  });

  it('accepts a plain date and time-zone offsets', async () => {
    const res = await get(`?returnPartials=true&since=2025-06-01`, env.apiKey);
    expect(ids(res.body)).toEqual([timeline[0]!.id]);
    const offset = await get(`?returnPartials=true&since=${encodeURIComponent('2025-06-01T01:59:00+02:00')}`, env.apiKey);
    expect(ids(offset.body)).toEqual(timeline.slice(0, 2).map((r) => r.id));
  });

  it('filters on updatedAt with dateField=updatedAt, still ordered by creation', async () => {
    const form = await createForm(ctx.db, a.environmentId);
    const [older, newer] = await insertResponses(ctx.db, [
      { environmentId: a.environmentId, formId: form.id, createdAt: '2024-01-01T00:00:00Z', updatedAt: '2024-03-01T00:00:00Z' },
      { environmentId: a.environmentId, formId: form.id, createdAt: '2024-02-01T00:00:00Z', updatedAt: '2024-02-02T00:00:00Z' },
    ]);
    const byUpdate = await get(`?formId=${form.id}&dateField=updatedAt&since=2024-02-15T00:00:00Z`);
    expect(ids(byUpdate.body)).toEqual([older]);
    const byCreation = await get(`?formId=${form.id}&since=2024-01-15T00:00:00Z`);
    expect(ids(byCreation.body)).toEqual([newer]);
    const both = await get(`?formId=${form.id}&dateField=updatedAt&since=2024-01-15T00:00:00Z&until=2024-12-31`);
    expect(ids(both.body)).toEqual([newer, older]);
  });
});

describe('cursors', () => {
  it('walk every response exactly once while new ones arrive', async () => {
    const tenant = await createTenant(ctx.db);
    const form = await createForm(ctx.db, tenant.environmentId);
    const before = await insertTimeline(ctx.db, { environmentId: tenant.environmentId, formId: form.id, count: 40, newest: Date.now() - 60_000 });
    const arrived: string[] = [];
    const seen = await walk('?limit=6', tenant.apiKey, before.length, async () => {
      // New responses keep arriving between pages (created now, newer than every cursor).
      arrived.push(
        ...(await insertResponses(ctx.db, [
          { environmentId: tenant.environmentId, formId: form.id },
          { environmentId: tenant.environmentId, formId: form.id },
        ])),
      );
    });
    expect(seen).toEqual(before.map((r) => r.id));
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.some((id) => arrived.includes(id))).toBe(false);
    // A new walk sees the newcomers first.
    const again = await walk('?limit=100', tenant.apiKey, before.length + arrived.length);
    expect(again.slice(0, arrived.length).sort()).toEqual([...arrived].sort());
    expect(again.slice(arrived.length)).toEqual(before.map((r) => r.id));
  });

  it('keep microsecond order: responses in the same millisecond, and with equal timestamps, are each seen once', async () => {
    const tenant = await createTenant(ctx.db);
    const form = await createForm(ctx.db, tenant.environmentId);
    const seeds = [
      { id: 'r-a', createdAt: '2026-03-01T00:00:00.000001Z' },
      { id: 'r-b', createdAt: '2026-03-01T00:00:00.000900Z' },
      { id: 'r-c', createdAt: '2026-03-01T00:00:00.000500Z' },
      { id: 'r-d', createdAt: '2026-03-01T00:00:00.000500Z' },
      { id: 'r-e', createdAt: '2026-03-01T00:00:00.000500Z' },
      { id: 'r-f', createdAt: '2026-02-28T23:59:59.999999Z' },
    ];
    await insertResponses(
      ctx.db,
      seeds.map((s) => ({ ...s, environmentId: tenant.environmentId, formId: form.id })),
    );
    const expected = ['r-b', 'r-e', 'r-d', 'r-c', 'r-a', 'r-f'];
    expect(await walk('?limit=1', tenant.apiKey, expected.length)).toEqual(expected);
    expect(await walk(`?formId=${form.id}&limit=2`, tenant.apiKey, expected.length)).toEqual(expected);
  });
});

describe('tenancy', () => {
  it("never shows another environment's responses, by any parameter", async () => {
    const mine = await createTenant(ctx.db);
    const theirs = await createTenant(ctx.db);
    const myForm = await createForm(ctx.db, mine.environmentId);
    const theirForm = await createForm(ctx.db, theirs.environmentId);
    const myIds = await insertResponses(
      ctx.db,
      Array.from({ length: 12 }, (_, i) => ({ environmentId: mine.environmentId, formId: myForm.id, finished: i % 3 !== 0, createdAt: new Date(Date.UTC(2025, 0, 1, 0, i)) })),
    );
    const theirIds = await insertResponses(
      ctx.db,
      Array.from({ length: 12 }, (_, i) => ({
        environmentId: theirs.environmentId,
        formId: theirForm.id,
        finished: i % 3 !== 0,
        createdAt: new Date(Date.UTC(2025, 0, 1, 0, i, 30)),
      })),
    );
    // A cursor taken from their listing only positions a walk of mine.
    const theirCursor = (await get('?limit=3&returnPartials=true', theirs.apiKey)).body.nextCursor as string;
    const queries = [
      '',
      '?returnPartials=true',
      '?limit=100&returnPartials=true',
      `?after=${theirCursor}&returnPartials=true`,
      `?limit=5&after=${theirCursor}`,
      '?since=2000-01-01&until=2100-01-01&returnPartials=true',
      '?dateField=updatedAt&since=2000-01-01&returnPartials=true',
      `?formId=${myForm.id}&returnPartials=true`,
      `?formId=${myForm.id}&after=${theirCursor}&returnPartials=true`,
    ];
    for (const query of queries) {
      const res = await get(query, mine.apiKey);
      expect(res.status, query).toBe(200);
      const got = ids(res.body);
      expect(got.length, query).toBeGreaterThan(0);
      expect(
        got.every((id) => myIds.includes(id)),
        query,
      ).toBe(true);
      expect(
        got.some((id) => theirIds.includes(id)),
        query,
      ).toBe(false);
      expect(res.text.includes(theirForm.id), query).toBe(false);
    }
    for (const query of [`?formId=${theirForm.id}`, `?formId=${theirForm.id}&returnPartials=true&after=${theirCursor}`]) {
      expect((await get(query, mine.apiKey)).status, query).toBe(404);
    }
  });
});

describe('invalid query parameters', () => {
  const cases: [string, string][] = [
    ['?returnPartials=yes', 'returnPartials'],
    ['?returnPartials=', 'returnPartials'],
    ['?since=yesterday', 'since'],
    ['?until=2024-13-45', 'until'],
    ['?since=2024-02-30', 'since'],
    ['?since=0000-01-01', 'since'],
    ['?since=9999-12-31T23:59:59-23:59', 'since'],
    ['?since=2024-01-01T10:00:00', 'since'],
    ['?dateField=deletedAt', 'dateField'],
    ['?limit=0', 'limit'],
    ['?limit=101', 'limit'],
    ['?limit=-1', 'limit'],
    ['?limit=2.5', 'limit'],
    ['?limit=ten', 'limit'],
    ['?after=not-a-cursor', 'after'],
    [`?after=${Buffer.from('{"createdAt":"2024-01-01T00:00:00Z","id":"x"}').toString('base64url')}`, 'after'],
    ['?formId=', 'formId'],
    ['?limit=1&limit=2', 'limit'],
    ['?since=2024-02-01&until=2024-01-01', 'until'],
  ];
  it.each(cases)('%s → 400 with path [%s]', async (query, param) => {
    for (const prefix of ['', `?formId=${a.templateId}&`]) {
      const full = prefix && query.startsWith('?') ? prefix + query.slice(1) : query;
      if (prefix && param === 'formId') continue;
      const { status, body } = await get(full);
      expect(status, full).toBe(400);
      expect(body.message).toBe('Invalid query parameters');
      expect(body.errors).toEqual([{ message: expect.any(String), path: [param] }]);
    }
  });

  it('reports every bad parameter at once', async () => {
    const { status, body } = await get('?returnPartials=maybe&limit=0&after=%%%');
    expect(status).toBe(400);
    expect(body.errors.map((e: any) => e.path)).toEqual([['returnPartials'], ['limit'], ['after']]);
  });

  it('ignores parameters it does not know', async () => {
    expect((await get(`?formId=${a.templateId}&utm_source=x`)).status).toBe(200);
  });
});

describe('stored rows', () => {
  it("keep the answers as JSON.stringify's text; rows from before migration 0009 (jsonb_out's text) read alike, compacted", async () => {
    const tenant = await createTenant(ctx.db);
    const form = await createForm(ctx.db, tenant.environmentId);
    // Separators and escapes inside strings, numbers JavaScript writes its own way, non-ASCII.
    const answers = [
      { questionId: 'q1', response: { type: 'ShortInput', headline: 'Say: "hi", \\ ünï 😀', componentShapeVersion: '2.0', input: 'a, b: c', n: [0, -1.5, 1e21, 1e-7] } },
      { questionId: 'q2', response: { type: 'Dropdown', headline: 'Pick', componentShapeVersion: '2.0', selected: ['x', 'y'] } },
    ];
    const [fresh, migrated] = await insertResponses(ctx.db, [
      { environmentId: tenant.environmentId, formId: form.id, data: answers, createdAt: '2026-01-02T00:00:00Z' },
      { environmentId: tenant.environmentId, formId: form.id, data: answers, createdAt: '2026-01-01T00:00:00Z' },
    ]);
    // What `ALTER COLUMN data TYPE json` made of a jsonb row: jsonb_out's text, keys in jsonb's order.
    await ctx.db.execute(sql`update responses set data = data::jsonb::json where id = ${migrated!}`);
    const stored = rowsOf<{ id: string; text: string }>(await ctx.db.execute(sql`select id, data::text as text from responses where form_id = ${form.id}`));
    const texts = new Map(stored.map((r) => [r.id, r.text]));
    expect(texts.get(fresh!)).toBe(JSON.stringify(answers));
    const jsonbText = texts.get(migrated!)!;
    expect(jsonbText).toContain('"questionId": "q1"');

    // Each is written as JSON.stringify writes its value, by the form's listing, the environment's stream
    // and the GraphQL API (its answers written from the stored text, src/graphql/raw-json.ts).
    const expected = [JSON.stringify(answers), JSON.stringify(JSON.parse(jsonbText))];
    for (const query of [`?formId=${form.id}`, '']) {
      const { status, text, body } = await get(query, tenant.apiKey);
      expect(status).toBe(200);
      expect(body.data.map((r: { id: string }) => r.id)).toEqual([fresh, migrated]);
      for (const data of expected) expect(text).toContain(`"data":${data},`);
    }
    const overGraphql = await ctx.app.request('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': tenant.apiKey },
      body: JSON.stringify({ query: print(EnvironmentResponsesPageDocument), variables: { filter: {}, first: 10, after: null } }),
    });
    expect(overGraphql.status).toBe(200);
    const graphqlText = await overGraphql.text();
    for (const data of expected) expect(graphqlText).toContain(`"data":${data},`);
  });

  it('are not changed by reading them', async () => {
    const form = await createForm(ctx.db, a.environmentId);
    const id = await insertResponse(ctx.db, { environmentId: a.environmentId, formId: form.id });
    const [before] = await ctx.db.select().from(responses).where(eq(responses.id, id));
    await get(`?formId=${form.id}`);
    const [after] = await ctx.db.select().from(responses).where(eq(responses.id, id));
    expect(after).toEqual(before);
  });
});
