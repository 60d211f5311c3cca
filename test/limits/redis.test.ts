/**
 * The Redis client behind shared rate limits (src/limits/redis.ts): when Redis can't be reached,
 * requests are neither held up nor failed; the limits count in this process's memory instead.
 */
import { createServer } from 'node:net';
import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from '../../src/app.ts';
import { openRedis } from '../../src/limits/redis.ts';
import { ADMIN_TOKEN, createTenant, setupTestApp, testConfig, type TestContext } from '../support/helpers.ts';

let ctx: TestContext;
let redis: ReturnType<typeof openRedis>;

beforeAll(async () => {
  ctx = await setupTestApp();
  // A loopback port nothing listens on: take a free one, then close it.
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  redis = openRedis(`redis://127.0.0.1:${port}`, { logger: pino({ level: 'silent' }) });
});
afterAll(() => redis.disconnect());

// The test's own timeout is the guard: a request waiting on an unreachable Redis would hang past it.
it('answers API requests with Redis unreachable, counting the limit in memory', { timeout: 5_000 }, async () => {
  const app = createApp({
    config: testConfig({ apiRateLimitPerMinute: 3 }),
    db: ctx.db,
    logger: pino({ level: 'silent' }),
    adminToken: ADMIN_TOKEN,
    rateLimitStore: { kind: 'redis', client: redis },
  });
  const tenant = await createTenant(ctx.db);
  const statuses: number[] = [];
  for (let i = 0; i < 4; i++) statuses.push((await app.request('/api/v1/responses?limit=1', { headers: { 'x-api-key': tenant.apiKey } })).status);
  expect(statuses).toEqual([200, 200, 200, 429]);
});
