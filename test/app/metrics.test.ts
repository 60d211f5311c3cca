/** GET /metrics: protected, Prometheus text, counters that move, route templates (never raw paths) as labels. */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { parsePrometheusTextFormat } from '../support/prometheus-text.ts';
import { ADMIN_TOKEN, appWith, createTenant, jsonRequest, setupTestApp, type TestContext, type TestTenant } from '../support/helpers.ts';
import { componentAt, makeForm } from '../support/public-helpers.ts';
import type { Form } from '../../src/forms/forms.service.ts';

const METRICS_TOKEN = 'metrics-token-0123456789abcdef';

let ctx: TestContext;
let app: TestContext['app'];
let tenant: TestTenant;
let form: Form;

beforeAll(async () => {
  ctx = await setupTestApp();
  app = appWith(ctx.db, { metricsToken: METRICS_TOKEN, apiRateLimitPerMinute: 2 });
  tenant = await createTenant(ctx.db);
  form = await makeForm(ctx.db, tenant, [
    { name: 'One', components: [{ type: 'ShortInput', content: { question: 'Name?' } }] },
    { name: 'Two', components: [{ type: 'Disclaimer', content: { text: 'OK?' } }] },
  ]);
});

async function scrape(token = METRICS_TOKEN) {
  const response = await app.request('/metrics', { headers: { authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheusTextFormat(await response.text());
}

/** The value of `name` with exactly these labels (0 when absent). */
function valueOf(samples: ReturnType<typeof parsePrometheusTextFormat>, name: string, labels: Record<string, string> = {}): number {
  const sample = samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v) && Object.keys(s.labels).length === Object.keys(labels).length);
  return sample?.value ?? 0;
}

describe('/metrics', () => {
  it('is refused without the metrics or admin token', async () => {
    const missing = await app.request('/metrics');
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ message: 'Missing metrics token' });
    const wrong = await app.request('/metrics', { headers: { authorization: 'Bearer not-the-token-at-all' } });
    expect(wrong.status).toBe(401);
    // An API key is no metrics token.
    const key = await app.request('/metrics', { headers: { authorization: `Bearer ${tenant.apiKey}`, 'x-api-key': tenant.apiKey } });
    expect(key.status).toBe(401);
    expect((await app.request('/metrics', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).status).toBe(200);
  });

  it('counts requests by route template and status, never by raw path', async () => {
    const before = await scrape();
    const route = '/s/:formId/definition';
    const labels = { method: 'GET', route, status: '200' };
    await app.request(`/s/${form.id}/definition`);
    await app.request(`/s/${form.id}/definition`);
    await app.request('/s/no-such-form/definition');
    const after = await scrape();
    expect(valueOf(after, 'formloom_http_requests_total', labels) - valueOf(before, 'formloom_http_requests_total', labels)).toBe(2);
    expect(valueOf(after, 'formloom_http_requests_total', { ...labels, status: '404' }) - valueOf(before, 'formloom_http_requests_total', { ...labels, status: '404' })).toBe(1);
    expect(valueOf(after, 'formloom_http_request_duration_seconds_count', labels) - valueOf(before, 'formloom_http_request_duration_seconds_count', labels)).toBe(2);
    const routes = new Set(after.filter((s) => s.name === 'formloom_http_requests_total').map((s) => s.labels.route));
    expect([...routes].some((r) => r?.includes(form.id) || r?.includes('no-such-form'))).toBe(false);

    // Paths no route knows share one label; a made-up method is OTHER.
    await app.request(`/nothing/here/${Math.random()}`);
    await app.request('/healthz', { method: 'BREW' });
    const last = await scrape();
    expect(valueOf(last, 'formloom_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBeGreaterThan(0);
    expect(last.some((s) => s.name === 'formloom_http_requests_total' && s.labels.method === 'OTHER')).toBe(true);
    expect(last.some((s) => s.name === 'formloom_http_requests_total' && s.labels.method === 'BREW')).toBe(false);
  });

  it('counts rate-limit refusals, created and finished responses', async () => {
    const before = await scrape();
    for (let i = 0; i < 4; i++) await app.request('/api/v1/responses', { headers: { 'x-api-key': tenant.apiKey } });
    const started = await app.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers: { [componentAt(form, 0, 0).id]: 'Ada' } }));
    expect(started.status).toBe(201);
    const { id, resumeToken } = (await started.json()) as { id: string; resumeToken: string };
    const finished = await app.request(`/s/${form.id}/responses/${id}`, jsonRequest('PATCH', { answers: {}, finished: true }, { authorization: `Bearer ${resumeToken}` }));
    expect(finished.status).toBe(200);
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string>) => valueOf(after, name, labels) - valueOf(before, name, labels);
    expect(delta('formloom_rate_limited_total', { route: '/api/*' }) + delta('formloom_rate_limited_total', { route: '/api/v1/responses' })).toBe(2);
    expect(delta('formloom_responses_created_total', { source: 'api' })).toBe(1);
    expect(delta('formloom_responses_finished_total', { source: 'api' })).toBe(1);
  });

  it('times database statements by kind and shows the pool in use', async () => {
    const before = await scrape();
    const started = await app.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers: { [componentAt(form, 0, 0).id]: 'Grace' }, finished: true }));
    expect(started.status).toBe(201);
    expect((await app.request('/api/v1/responses', { headers: { 'x-api-key': tenant.apiKey } })).status).not.toBe(500);
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string>) => valueOf(after, name, labels) - valueOf(before, name, labels);
    const count = 'formloom_db_query_duration_seconds_count';
    // A new visitor's submission is one statement of data-modifying CTEs: its kind is its first keyword.
    expect(delta(count, { operation: 'with' })).toBeGreaterThanOrEqual(1);
    expect(delta(count, { operation: 'select' })).toBeGreaterThanOrEqual(1);
    expect(delta('formloom_db_query_duration_seconds_sum', { operation: 'select' })).toBeGreaterThan(0);
    // Labels are statement kinds, never SQL text.
    const operations = new Set(after.filter((s) => s.name === count).map((s) => s.labels.operation));
    for (const operation of operations) expect(operation).toMatch(/^[a-z]+$/);
    const driver = ctx.handle.kind;
    expect(valueOf(after, 'formloom_db_pool_max_connections', { driver })).toBe(driver === 'pglite' ? 1 : 4);

    // A transaction held open shows while it lasts, and is gone after.
    let during: Awaited<ReturnType<typeof scrape>> = [];
    await ctx.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      during = await scrape(); // on PGlite its database probe waits (the one connection is in the transaction)
    });
    expect(valueOf(during, 'formloom_db_transactions_open')).toBe(1);
    const end = await scrape();
    expect(valueOf(end, 'formloom_db_transactions_open')).toBe(0);
    expect(valueOf(end, 'formloom_db_queries_in_flight')).toBe(0);
  });

  it('reports the database, the event loop and memory', async () => {
    const samples = await scrape();
    expect(valueOf(samples, 'formloom_database_up')).toBe(1);
    expect(samples.some((s) => s.name === 'formloom_database_ping_seconds')).toBe(true);
    expect(samples.some((s) => s.name === 'nodejs_eventloop_lag_seconds')).toBe(true);
    expect(valueOf(samples, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  });
});
