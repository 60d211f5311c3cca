/**
 * The retention job with two real server processes on one PostgreSQL database, started together: both
 * tick at start, exactly one runs the job (and deletes the expired responses once), the other skips it.
 * PostgreSQL only (an embedded database belongs to one process).
 */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/db/client.ts';
import { auditLog, environments, jobRuns, responses } from '../../src/db/schema.ts';
import { createTenant } from '../support/helpers.ts';
import { insertResponses } from '../support/factories.ts';
import { makeForm } from '../support/public-helpers.ts';
import { dropTestDatabase, killLeftovers, START_TIMEOUT_MS, startServer, type ServerProcess } from '../support/server-process.ts';

const testDatabaseUrl = inject('testDatabaseUrl');

describe.skipIf(!testDatabaseUrl)('retention with two nodes', () => {
  const databaseName = `formloom_retention_${randomBytes(6).toString('hex')}`;
  let databaseUrl: string;
  let handle: DatabaseHandle;
  let nodes: ServerProcess[] = [];
  let environmentId: string;
  let expired: string[];
  let kept: string[];

  beforeAll(async () => {
    const { default: postgres } = await import('postgres');
    const server = postgres(testDatabaseUrl!, { max: 1, onnotice: () => {} });
    await server.unsafe(`create database ${databaseName}`);
    await server.end();
    const url = new URL(testDatabaseUrl!);
    url.pathname = `/${databaseName}`;
    databaseUrl = url.toString();
    handle = await openDatabase({ databaseUrl, maxConnections: 2 });
    await handle.migrate();
    // An environment keeping responses 30 days, with responses on both sides of that.
    const tenant = await createTenant(handle.db);
    environmentId = tenant.environmentId;
    const form = await makeForm(handle.db, tenant, [
      { name: 'A', components: [{ type: 'ShortInput', content: { question: 'Q?' } }] },
      { name: 'B', components: [{ type: 'Header', content: { title: 'Thanks' } }] },
    ]);
    await handle.db.update(environments).set({ retentionDays: 30 }).where(eq(environments.id, environmentId));
    const day = 86_400_000;
    expired = await insertResponses(
      handle.db,
      [40, 41, 90].map((age) => ({ environmentId, formId: form.id, createdAt: new Date(Date.now() - age * day) })),
    );
    kept = await insertResponses(
      handle.db,
      [1, 29].map((age) => ({ environmentId, formId: form.id, createdAt: new Date(Date.now() - age * day) })),
    );

    const env = {
      DATABASE_URL: databaseUrl,
      ADMIN_TOKEN: 'cluster-admin-token-0123456789',
      LOG_LEVEL: 'debug',
      RETENTION_INTERVAL: '1h',
      FONTS_CSS_URL: 'none',
      WEBHOOK_WORKER: '0',
    };
    nodes = await Promise.all([startServer(env), startServer(env)]);
  }, 2 * START_TIMEOUT_MS);

  afterAll(async () => {
    await Promise.all(nodes.map((node) => node.stop()));
    killLeftovers();
    await handle?.close();
    await dropTestDatabase(testDatabaseUrl!, databaseName);
  });

  it('runs once: one node deletes the expired responses, the other skips the run', async () => {
    const ran = (line: Record<string, unknown>) => line.msg === 'retention job ran';
    const skipped = (line: Record<string, unknown>) => typeof line.msg === 'string' && line.msg.startsWith('retention job not due here');
    // Each node has ticked once at start; wait for both outcomes.
    await Promise.all(nodes.map((node) => node.waitForLog((line) => ran(line) || skipped(line), 20_000)));
    const outcomes = nodes.map((node) => ({ ran: node.logs().filter(ran), skipped: node.logs().filter(skipped) }));
    expect(outcomes.map((o) => o.ran.length).sort()).toEqual([0, 1]);
    const winner = outcomes.findIndex((o) => o.ran.length === 1);
    expect(outcomes[1 - winner]!.skipped.length).toBe(1);
    expect(outcomes[winner]!.ran[0]).toMatchObject({ responsesDeleted: 3, formsPurged: 0 });

    const [run] = await handle.db.select().from(jobRuns);
    expect(run).toMatchObject({ name: 'retention', status: 'succeeded', responsesDeleted: 3, node: expect.stringMatching(new RegExp(`:${nodes[winner]!.child.pid}$`)) });
    const remaining = new Set((await handle.db.select({ id: responses.id }).from(responses)).map((r) => r.id));
    expect(expired.filter((id) => remaining.has(id))).toEqual([]);
    expect(kept.every((id) => remaining.has(id))).toBe(true);
    const entries = await handle.db.select().from(auditLog).where(eq(auditLog.action, 'responses.retention'));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ environmentId, actorKind: 'system', details: { deleted: 3 } });
  });
});
