/**
 * GET /api/v1/responses when the database goes away: after the API key was verified and cached (a
 * clean 500 without details), and in the middle of the streamed environment listing (the status is
 * already 200, so the body is cut short instead). Each case has a database handle of its own to close.
 */
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.ts';
import type { DatabaseHandle } from '../../src/db/client.ts';
import { LISTING_BATCH_SIZE } from '../../src/responses/responses.service.ts';
import { insertTimeline } from '../support/factories.ts';
import { ADMIN_TOKEN, createTenant, openTestDatabase, testConfig, type TestTenant } from '../support/helpers.ts';

/** The app on its own database, logging errors into `logs`. */
async function appOnOwnDatabase() {
  const handle: DatabaseHandle = await openTestDatabase();
  const logs: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line.trim()) logs.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const app = createApp({ config: testConfig(), db: handle.db, logger: pino({ level: 'error' }, sink), adminToken: ADMIN_TOKEN });
  const tenant: TestTenant = await createTenant(handle.db);
  let closed = false;
  return {
    app,
    tenant,
    logs,
    handle,
    closeDatabase: async () => {
      if (closed) return;
      closed = true;
      await handle.close();
    },
  };
}

const listing = (app: ReturnType<typeof createApp>, tenant: TestTenant, query = '') => app.request(`/api/v1/responses${query}`, { headers: { 'x-api-key': tenant.apiKey } });

/** Far more chunks than any body here has: a stream that never ends fails the test instead of hanging it. */
const MAX_CHUNKS = 100_000;

/** Reads a body to its end or its failure. */
async function readAll(body: ReadableStream<Uint8Array>): Promise<{ text: string; chunks: number; error: unknown }> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let chunks = 0;
  try {
    while (chunks < MAX_CHUNKS) {
      const { done, value } = await reader.read();
      if (done) return { text: text + decoder.decode(), chunks, error: undefined };
      text += decoder.decode(value, { stream: true });
      chunks++;
    }
  } catch (error) {
    return { text, chunks, error };
  }
  await reader.cancel();
  throw new Error(`the body did not end within ${MAX_CHUNKS} chunks`);
}

describe('database failures', () => {
  it('are 500 {message: "Internal server error"} when the connection is lost after the key was verified and cached', async () => {
    const { app, tenant, logs, closeDatabase } = await appOnOwnDatabase();
    try {
      const query = `?formId=${tenant.templateId}`;
      const ok = await listing(app, tenant, query);
      expect([ok.status, await ok.json()]).toEqual([200, { data: [] }]); // the key is now cached

      await closeDatabase();
      const failed = await listing(app, tenant, query);
      expect(failed.status).toBe(500);
      const text = await failed.text();
      expect(JSON.parse(text)).toEqual({ message: 'Internal server error' });
      expect(text).not.toMatch(/stack|closed|ended|\.ts:\d+|node_modules/i);
      expect(failed.headers.get('content-type')).toMatch(/^application\/json/);
      // The key came from the cache, so the request got past authentication and failed on the form's
      // responses; the cause is only in the log, with the request id.
      expect(logs.some((line) => line.level === 50 && typeof line.err === 'object' && typeof line.reqId === 'string')).toBe(true);
    } finally {
      await closeDatabase();
    }
  });

  it('mid-stream in the unpaged environment listing: status 200 and a body cut short, never a complete document', async () => {
    const { app, tenant, logs, handle, closeDatabase } = await appOnOwnDatabase();
    try {
      // The operation's first page (100), then the service's batches: one full batch and 50. The stream
      // reads one batch ahead: the first page is read before the response is returned and the first batch
      // while the client takes the first page, so the last batch is the first read that can come after
      // the database is gone.
      const seeded = await insertTimeline(handle.db, { environmentId: tenant.environmentId, formId: tenant.templateId, count: 100 + LISTING_BATCH_SIZE + 50 });
      const response = await listing(app, tenant);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);

      await closeDatabase();
      const { text, chunks } = await readAll(response.body!);
      // What came is the listing's start, cut at a batch boundary (the first page, or it and the first batch
      // when the batch read ahead had landed before the close), then the stream fails: it rejects or ends, and
      // either way without the closing `]}`, so the client can't mistake it for the whole listing.
      expect(chunks).toBeGreaterThanOrEqual(1);
      expect(text.endsWith(']}')).toBe(false);
      expect(() => JSON.parse(text)).toThrow();
      const received = (JSON.parse(`${text}]}`) as { data: { id: string }[] }).data.map((item) => item.id);
      expect([100, 100 + LISTING_BATCH_SIZE]).toContain(received.length);
      expect(received).toEqual(seeded.slice(0, received.length).map((row) => row.id));
      expect(logs.some((line) => line.level === 50 && line.msg === 'response stream failed mid-way' && typeof line.err === 'object')).toBe(true);
    } finally {
      await closeDatabase();
    }
  });
});
