/**
 * The node-to-node event feed (src/events/notifications.ts) and how the API-key cache relies on it:
 * an event published in a transaction arrives when it commits and never when it rolls back; on
 * PostgreSQL the feed notices its connection being cut, is not live meanwhile, listens again and says so
 * (onResume); and the app trusts its key cache only while its feed is live, and empties it on resume.
 */
import { sql } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApp } from '../../src/app.ts';
import { rowsOf } from '../../src/db/rows.ts';
import { openEventFeed, publishEvent, type EventFeed, type NodeEvent } from '../../src/events/notifications.ts';
import { ADMIN_TOKEN, createTenant, setupTestApp, testConfig, type TestContext } from '../support/helpers.ts';

const logger = pino({ level: 'silent' });
const databaseUrl = inject('testDatabaseUrl');
let ctx: TestContext;
let feed: EventFeed;
const received: Extract<NodeEvent, { type: 'api-key-revoked' }>[] = [];

/** Waits (bounded) until `condition` holds. */
async function eventually(condition: () => boolean, what: string) {
  for (let attempt = 0; attempt < 250; attempt++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}

beforeAll(async () => {
  ctx = await setupTestApp();
  feed = await openEventFeed(ctx.handle, { databaseUrl, logger });
  feed.on('api-key-revoked', (event) => received.push(event));
});
afterAll(() => feed.close());

describe('event feed', () => {
  it('delivers an event published in a transaction when it commits, and not when it rolls back', async () => {
    await expect(
      ctx.db.transaction(async (tx) => {
        await publishEvent(tx, { type: 'api-key-revoked', keyId: 'rolled-back' });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await ctx.db.transaction(async (tx) => {
      await publishEvent(tx, { type: 'api-key-revoked', keyId: 'committed' });
      // Not before the commit.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(received.map((e) => e.keyId)).not.toContain('committed');
    });
    await eventually(() => received.some((e) => e.keyId === 'committed'), 'the committed event');
    expect(received.map((e) => e.keyId)).not.toContain('rolled-back');
    expect(feed.live).toBe(true);
  });

  it.skipIf(!databaseUrl)('is not live while its connection is cut, listens again, and reports the resume', async () => {
    let resumes = 0;
    const stop = feed.onResume(() => resumes++);
    try {
      const { cut } = rowsOf<{ cut: number }>(
        await ctx.db.execute(sql`select count(pg_terminate_backend(pid))::int as cut from pg_stat_activity where datname = current_database() and query ilike 'listen %'`),
      )[0]!;
      expect(cut).toBeGreaterThanOrEqual(1);
      await eventually(() => !feed.live || resumes > 0, 'the feed to notice the cut');
      await eventually(() => feed.live && resumes === 1, 'the feed to listen again');
      await publishEvent(ctx.db, { type: 'api-key-revoked', keyId: 'after-resume' });
      await eventually(() => received.some((e) => e.keyId === 'after-resume'), 'an event after the resume');
    } finally {
      stop();
    }
  });
});

/** A feed whose state the test sets, to show what the app does in each. */
function controlledFeed() {
  const resumeHandlers = new Set<() => void>();
  const state = { live: true };
  const events: EventFeed = {
    on: () => () => {},
    onResume(handler) {
      resumeHandlers.add(handler);
      return () => void resumeHandlers.delete(handler);
    },
    get live() {
      return state.live;
    },
    close: async () => {},
  };
  return { events, state, resume: () => resumeHandlers.forEach((handler) => handler()) };
}

describe('key cache and the feed', () => {
  const revokeInSql = (keyId: string) => ctx.db.execute(sql`update api_keys set revoked_at = now() where id = ${keyId}`);
  const probe = (app: ReturnType<typeof createApp>, key: string) => app.request('/api/v1/responses?limit=1', { headers: { 'x-api-key': key } });

  it('does not trust cached verifications while the feed is not live', async () => {
    const feedControl = controlledFeed();
    const app = createApp({ config: testConfig(), db: ctx.db, logger, adminToken: ADMIN_TOKEN, events: feedControl.events });
    const tenant = await createTenant(ctx.db);
    feedControl.state.live = false;
    expect((await probe(app, tenant.apiKey)).status).toBe(200);
    // A revocation no event reported: with the cache trusted it would be accepted for up to 10 s.
    await revokeInSql(tenant.apiKeyId);
    expect((await probe(app, tenant.apiKey)).status).toBe(401);
  });

  it('empties the cache when the feed resumes (events may have been missed)', async () => {
    const feedControl = controlledFeed();
    const app = createApp({ config: testConfig(), db: ctx.db, logger, adminToken: ADMIN_TOKEN, events: feedControl.events });
    const tenant = await createTenant(ctx.db);
    expect((await probe(app, tenant.apiKey)).status).toBe(200);
    await revokeInSql(tenant.apiKeyId);
    expect((await probe(app, tenant.apiKey)).status).toBe(200); // from the cache, as designed while live
    feedControl.resume();
    expect((await probe(app, tenant.apiKey)).status).toBe(401);
  });
});
