/**
 * Several nodes on one PostgreSQL: two real `src/main.ts` processes on a fresh database and one Redis
 * (REDIS_URL, with a key prefix of this run's own), started at the same moment without ADMIN_TOKEN,
 * each with its own DATA_DIR. They behave as one: one migration run, one demo and one admin token
 * (kept only in the data dir of the node that generated it, accepted by both through its hash);
 * rate-limit counters shared (API key, failed-auth cool-down, public submissions); a key revoked on one
 * node refused by the other within 1 s (LISTEN/NOTIFY), and its open `responseEvents` stream there ended
 * within 1 s; a key's streams counted against one cap across both nodes (Redis); a respondent's page session and JSON resume
 * and visitor tokens carried from one node to the other; and a job run through `runExclusively` runs on
 * one node at a time. Needs PostgreSQL: skipped when the suite runs on PGlite.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { prepareDatabase } from '../../src/bootstrap.ts';
import { openDatabase, type DatabaseHandle } from '../../src/db/client.ts';
import { runExclusively, runSerially } from '../../src/db/locks.ts';
import { START_TIMEOUT_MS, startServer, stopChildren } from '../support/server-process.ts';
import { SseStream, subscriptionRequest } from '../support/sse.ts';

const REDIS_URL = 'redis://127.0.0.1:6379';
const testDatabaseUrl = inject('testDatabaseUrl');

const API_RATE_LIMIT = 20;
const AUTH_FAILURE_LIMIT = 3;
const PUBLIC_RATE_LIMIT = 6;
const STREAMS_PER_KEY = 3;

interface Node {
  name: string;
  child: ChildProcess;
  url: string;
  dataDir: string;
  stdout: () => string;
  exited: Promise<number | null>;
}

const children: ChildProcess[] = [];
const tempDirs: string[] = [];

/** Starts one node on a data dir of its own; resolves when it logs that it listens. */
async function startNode(name: string, env: Record<string, string>): Promise<Node> {
  const dataDir = mkdtempSync(join(tmpdir(), `formloom-cluster-${name}-`));
  tempDirs.push(dataDir);
  const server = await startServer({ ...env, DATA_DIR: dataDir });
  children.push(server.child);
  return { name, child: server.child, url: server.url, dataDir, stdout: server.stdout, exited: server.exited };
}

/** A client address of its own for each scenario (the nodes trust one proxy hop). */
const newAddress = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

function call(node: Node, path: string, init: RequestInit & { from?: string } = {}) {
  const headers = new Headers(init.headers);
  headers.set('x-forwarded-for', init.from ?? '10.0.0.1');
  return fetch(`${node.url}${path}`, { ...init, headers, redirect: 'manual' });
}

/** An API-key request that needs a valid key: 200 with one, 401 without. */
const probe = (node: Node, apiKey: string, from: string) => call(node, '/api/v1/responses?limit=1', { from, headers: { 'x-api-key': apiKey } });

/** Admin calls come from an address of their own, so no scenario's failed-auth count reaches them. */
const ADMIN_ADDRESS = '10.255.255.1';

async function graphqlOn(node: Node, auth: Record<string, string>, query: string, variables: Record<string, unknown> = {}) {
  const response = await call(node, '/graphql', {
    from: ADMIN_ADDRESS,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...auth },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, body: (await response.json()) as { data?: any; errors?: unknown[] } };
}

/** A browser stand-in over fetch: keeps the cookies it is given and sends them back, to whichever node. */
class Visitor {
  readonly cookies = new Map<string, string>();
  constructor(readonly from: string) {}
  async request(node: Node, path: string, init: RequestInit = {}) {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0) headers.set('cookie', [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    const response = await call(node, path, { ...init, headers, from: this.from });
    const set = response.headers.getSetCookie().map((cookie) => cookie.split(';')[0]!);
    for (const pair of set) this.cookies.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
    return { response, setCookies: set.map((pair) => pair.slice(0, pair.indexOf('='))) };
  }
}

describe.skipIf(!testDatabaseUrl)('two nodes on one PostgreSQL and one Redis', () => {
  const databaseName = `formloom_cluster_${randomBytes(6).toString('hex')}`;
  const redisKeyPrefix = `formloom-test-${randomBytes(6).toString('hex')}:`;
  let databaseUrl: string;
  let a: Node;
  let b: Node;
  let adminToken: string;
  let demo: { environmentId: string; templateFormId: string; apiKey: string };
  const handles: DatabaseHandle[] = [];
  const streams: SseStream[] = [];

  const admin = () => ({ authorization: `Bearer ${adminToken}` });
  async function newKey(node: Node, name: string, expiresAt?: Date) {
    const created = await graphqlOn(node, admin(), 'mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { key apiKey { id } } }', {
      input: { environmentId: demo.environmentId, name, ...(expiresAt ? { expiresAt: expiresAt.toISOString() } : {}) },
    });
    expect(created.status).toBe(200);
    return created.body.data.createApiKey as { key: string; apiKey: { id: string } };
  }
  /** A published two-step form (contact, then a scheduler), made through node A. */
  async function newForm(apiKey: string) {
    const generated = await call(a, `/api/v1/environments/${demo.environmentId}/forms/generate`, {
      from: ADMIN_ADDRESS,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body: JSON.stringify({
        sourceFormId: demo.templateFormId,
        name: 'Cluster form',
        steps: [
          {
            name: 'Contact',
            components: [
              { type: 'IdentityInfo', content: { fields: [{ key: 'emailAddress', label: 'E-mail' }] } },
              { type: 'NextButton', content: { label: 'Next' } },
            ],
          },
          { name: 'Role', components: [{ type: 'ShortInput', content: { label: 'Your role' } }] },
        ],
      }),
    });
    expect(generated.status).toBe(200);
    const formId = ((await generated.json()) as { result: { form: { id: string } } }).result.form.id;
    const definition = (await (await call(a, `/s/${formId}/definition`)).json()) as { steps: { components: { id: string; type: string }[] }[] };
    return { formId, identityId: definition.steps[0]!.components[0]!.id, roleId: definition.steps[1]!.components[0]!.id };
  }

  beforeAll(async () => {
    const serverUrl = new URL(testDatabaseUrl!);
    const { default: postgres } = await import('postgres');
    const server = postgres(serverUrl.toString(), { max: 1, onnotice: () => {} });
    await server.unsafe(`create database ${databaseName}`);
    await server.end();
    serverUrl.pathname = `/${databaseName}`;
    databaseUrl = serverUrl.toString();
    const env = {
      DATABASE_URL: databaseUrl,
      REDIS_URL,
      REDIS_KEY_PREFIX: redisKeyPrefix,
      TRUST_PROXY: '1',
      API_RATE_LIMIT: String(API_RATE_LIMIT),
      AUTH_FAILURE_LIMIT: String(AUTH_FAILURE_LIMIT),
      AUTH_FAILURE_BLOCK_SECONDS: '60',
      PUBLIC_RATE_LIMIT: String(PUBLIC_RATE_LIMIT),
      SUBSCRIPTION_MAX_PER_KEY: String(STREAMS_PER_KEY),
      FONTS_CSS_URL: 'none',
    };
    // Both at once on an empty database: start-up work must not race.
    [a, b] = await Promise.all([startNode('a', env), startNode('b', env)]);
  }, 2 * START_TIMEOUT_MS);

  afterAll(async () => {
    await Promise.all(streams.map((stream) => stream.cancel()));
    await stopChildren(children);
    for (const handle of handles) await handle.close();
    for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
    const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    try {
      let cursor = '0';
      for (let round = 0; round < 1000; round++) {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${redisKeyPrefix}*`, 'COUNT', 1000);
        if (keys.length > 0) await redis.del(...keys);
        cursor = next;
        if (cursor === '0') break;
      }
    } finally {
      redis.disconnect();
    }
    if (databaseUrl) {
      const { default: postgres } = await import('postgres');
      const server = postgres(testDatabaseUrl!, { max: 1, onnotice: () => {} });
      await server.unsafe(`drop database if exists ${databaseName} with (force)`);
      await server.end();
    }
  });

  it('start together on an empty database: one demo, and one admin token that both nodes accept and sign with', async () => {
    const banners = [a, b].filter((node) => node.stdout().includes('formloom is set up'));
    expect(banners).toHaveLength(1);
    const banner = banners[0]!.stdout();
    demo = {
      environmentId: /environment \(Site ID\): (\S+)/.exec(banner)![1]!,
      templateFormId: /template form: +(\S+)/.exec(banner)![1]!,
      apiKey: /API key: +(\S+)/.exec(banner)![1]!,
    };
    // The node that generated the token keeps it in its data dir, its only home; the database holds its
    // hash, through which the other node (no copy) accepts it below.
    const generating = banners[0]!;
    adminToken = readFileSync(join(generating.dataDir, 'admin-token'), 'utf8').trim();
    expect(existsSync(join((generating === a ? b : a).dataDir, 'admin-token'))).toBe(false);
    expect(banner).toContain(adminToken);
    for (const node of [a, b]) {
      const environments = await graphqlOn(node, admin(), 'query($id: ID!) { environment(id: $id) { id } }', { id: demo.environmentId });
      expect(environments.status, node.name).toBe(200);
      expect(environments.body.errors, node.name).toBeUndefined();
    }
  });

  it('count an API key’s requests together: the limit is reached across both nodes', async () => {
    const { key } = await newKey(a, 'counted');
    const from = newAddress();
    for (let i = 0; i < API_RATE_LIMIT / 2; i++) {
      expect((await probe(a, key, from)).status).toBe(200);
      expect((await probe(b, key, from)).status).toBe(200);
    }
    // Each node has seen only half the quota; together they have used it up.
    expect((await probe(a, key, from)).status).toBe(429);
    expect((await probe(b, key, from)).status).toBe(429);
  });

  it('apply a failed-authentication cool-down begun on one node on the other', async () => {
    const from = newAddress();
    const wrongKey = `fl_${'x'.repeat(12)}_${'A'.repeat(43)}`;
    for (let i = 0; i < AUTH_FAILURE_LIMIT; i++) expect((await probe(a, wrongKey, from)).status).toBe(401);
    // On node B the address is refused even with a valid key; another address is not.
    const refused = await probe(b, demo.apiKey, from);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(1);
    expect((await probe(b, demo.apiKey, newAddress())).status).toBe(200);
  });

  it('count public submissions from one address across both nodes', async () => {
    const { key } = await newKey(a, 'forms');
    const form = await newForm(key);
    const from = newAddress();
    const submit = (node: Node) =>
      call(node, `/s/${form.formId}/responses`, { method: 'POST', from, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ answers: {} }) });
    for (let i = 0; i < PUBLIC_RATE_LIMIT / 2; i++) {
      expect((await submit(a)).status).toBe(201);
      expect((await submit(b)).status).toBe(201);
    }
    expect((await submit(a)).status).toBe(429);
    expect((await submit(b)).status).toBe(429);
  });

  it('refuse a key on every node within 1 s of its revocation on one', async () => {
    const { key, apiKey } = await newKey(a, 'revoked');
    const from = newAddress();
    // Node B verifies the key and keeps it in its cache (VERIFIED_KEY_TTL_MS: 10 s).
    expect((await probe(b, key, from)).status).toBe(200);
    expect((await probe(b, key, from)).status).toBe(200);

    const revoked = await graphqlOn(a, admin(), 'mutation($id: ID!) { revokeApiKey(id: $id) { id revokedAt } }', { id: apiKey.id });
    expect(revoked.body.data.revokeApiKey.revokedAt).toEqual(expect.any(String));
    const revokedAt = performance.now();
    let refusedAfterMs: number | undefined;
    for (let attempt = 0; attempt < 100 && refusedAfterMs === undefined; attempt++) {
      if ((await probe(b, key, from)).status === 401) refusedAfterMs = performance.now() - revokedAt;
      else await new Promise((resolve) => setTimeout(resolve, 20));
      if (performance.now() - revokedAt > 2_000) break;
    }
    console.info(`revocation refused by the other node after ${refusedAfterMs?.toFixed(1)} ms`);
    expect(refusedAfterMs).toBeDefined();
    expect(refusedAfterMs!).toBeLessThan(1_000);
    expect((await probe(a, key, from)).status).toBe(401);
  });

  it('end a key’s open responseEvents stream on the other node within 1 s of its revocation, with no event after it', async () => {
    const { key, apiKey } = await newKey(a, 'streaming');
    const form = await newForm(key);
    const onB = new SseStream(await call(b, '/graphql', { from: ADMIN_ADDRESS, ...subscriptionRequest({ 'x-api-key': key }, form.formId) }));
    streams.push(onB);
    expect(onB.response.status).toBe(200);
    const submitOnA = async (email: string) => {
      const response = await call(a, `/s/${form.formId}/responses`, {
        method: 'POST',
        from: newAddress(),
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ answers: { [form.identityId]: { emailAddress: email } } }),
      });
      expect(response.status).toBe(201);
      return ((await response.json()) as { id: string }).id;
    };
    // The stream works: a change on node A reaches it on node B.
    const before = await submitOnA('before@example.com');
    expect(await onB.until(() => onB.events.some((e) => e.data?.id === before), 5_000)).toBe(true);

    const revoked = await graphqlOn(a, admin(), 'mutation($id: ID!) { revokeApiKey(id: $id) { revokedAt } }', { id: apiKey.id });
    expect(revoked.body.data.revokeApiKey.revokedAt).toEqual(expect.any(String));
    const revokedAt = performance.now();
    expect(await onB.ended(3_000), 'the stream on node B should have ended').toBe(true);
    const endedAfterMs = onB.endedAt! - revokedAt;
    const after = await submitOnA('after@example.com');
    await new Promise((resolve) => setTimeout(resolve, 500)); // time for the event to reach node B
    console.info(`revoked key's stream on the other node ended after ${endedAfterMs.toFixed(1)} ms`);
    expect(endedAfterMs).toBeLessThan(1_000);
    expect(onB.errors.map((e) => e.extensions?.code)).toEqual(['UNAUTHENTICATED']);
    expect(onB.messages.filter((m) => m.at > revokedAt && m.event === 'next' && m.data?.data)).toEqual([]);
    expect(onB.events.map((e) => e.data?.id)).not.toContain(after);
  });

  it('refuse an expired key on every node from its expiry on, cached or not, and end its open streams then', async () => {
    const expiresAt = new Date(Date.now() + 5_000);
    const { key } = await newKey(a, 'expiring', expiresAt);
    const form = await newForm(key);
    const from = newAddress();
    // Both nodes verify the key and keep it in their caches (VERIFIED_KEY_TTL_MS: 10 s, longer than the key lives).
    expect((await probe(a, key, from)).status).toBe(200);
    expect((await probe(b, key, from)).status).toBe(200);
    const onB = new SseStream(await call(b, '/graphql', { from: ADMIN_ADDRESS, ...subscriptionRequest({ 'x-api-key': key }, form.formId) }));
    streams.push(onB);
    expect(onB.response.status).toBe(200);
    expect(await onB.ended(10_000), 'the stream on node B should have ended at the expiry').toBe(true);
    const endedLateMs = Date.now() - expiresAt.getTime();
    console.info(`expired key's stream ended ${endedLateMs} ms after the expiry`);
    expect(Date.now()).toBeGreaterThanOrEqual(expiresAt.getTime());
    expect(onB.errors.map((e) => ({ message: e.message, code: e.extensions?.code }))).toEqual([{ message: 'Invalid API key', code: 'UNAUTHENTICATED' }]);
    for (const node of [a, b]) expect((await probe(node, key, from)).status).toBe(401);
  });

  it('count a key’s responseEvents streams on both nodes together: the one over the cap gets 429 with Retry-After', async () => {
    const { key } = await newKey(a, 'stream cap');
    const open = async (node: Node) => {
      const stream = new SseStream(await call(node, '/graphql', { from: ADMIN_ADDRESS, ...subscriptionRequest({ 'x-api-key': key }) }));
      streams.push(stream);
      return stream;
    };
    const held = [await open(a), await open(b), await open(a)];
    expect(held.map((stream) => stream.response.status)).toEqual(Array(STREAMS_PER_KEY).fill(200));
    for (const node of [b, a]) {
      const refused = await call(node, '/graphql', { from: ADMIN_ADDRESS, ...subscriptionRequest({ 'x-api-key': key }) });
      expect(refused.status, node.name).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('30');
      expect(await refused.json()).toEqual({
        message: 'Too many requests',
        errors: [{ message: expect.stringContaining(`at most ${STREAMS_PER_KEY}`), extensions: { code: 'RATE_LIMITED' } }],
      });
    }
    // A stream ending on node A frees a place that node B can give.
    await held[0]!.cancel();
    let status = 0;
    for (let attempt = 0; attempt < 50 && status !== 200; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const stream = await open(b);
      status = stream.response.status;
      if (status !== 200) await stream.cancel();
    }
    expect(status).toBe(200);
  });

  it('continue a respondent’s page session on the other node', async () => {
    const { key } = await newKey(a, 'pages');
    const form = await newForm(key);
    const visitor = new Visitor(newAddress());
    expect((await visitor.request(a, `/s/${form.formId}`)).response.status).toBe(200);
    const step0 = await visitor.request(a, `/s/${form.formId}?step=0`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ [`c.${form.identityId}.emailAddress`]: 'ada@example.com' }).toString(),
    });
    expect(step0.response.status).toBe(303);
    expect(step0.response.headers.get('location')).toBe(`/s/${form.formId}?step=1`);

    // Node B reads A's signed session cookie: step 1 is shown (a stranger would be sent to step 0),
    // and no new session cookie is issued.
    const onB = await visitor.request(b, `/s/${form.formId}?step=1`);
    expect(onB.response.status).toBe(200);
    expect(onB.setCookies).not.toContain(`fl_s_${form.formId}`);
    const finish = await visitor.request(b, `/s/${form.formId}?step=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ [`c.${form.roleId}`]: 'CTO' }).toString(),
    });
    expect(finish.response.status).toBe(303);
    expect(finish.response.headers.get('location')).toBe(`/s/${form.formId}?done=1`);
    expect((await visitor.request(a, `/s/${form.formId}?done=1`)).response.status).toBe(200);

    const responses = await call(a, `/api/v1/responses?formId=${form.formId}`, { from: ADMIN_ADDRESS, headers: { 'x-api-key': key } });
    const listed = (await responses.json()) as { data: { finished: boolean; data: unknown[] }[] };
    expect(listed.data).toHaveLength(1);
    expect(listed.data[0]).toMatchObject({ finished: true });
  });

  it('continue a JSON API response, and the same visitor, on the other node', async () => {
    const { key } = await newKey(a, 'api');
    const form = await newForm(key);
    const from = newAddress();
    const json = (node: Node, method: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
      call(node, path, { method, from, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

    const started = await json(a, 'POST', `/s/${form.formId}/responses`, { answers: { [form.identityId]: { emailAddress: 'bo@example.com' } } });
    expect(started.status).toBe(201);
    const first = (await started.json()) as { id: string; resumeToken: string; visitorToken: string };
    const finished = await json(
      b,
      'PATCH',
      `/s/${form.formId}/responses/${first.id}`,
      { answers: { [form.roleId]: 'CEO' }, finished: true },
      {
        authorization: `Bearer ${first.resumeToken}`,
      },
    );
    expect(finished.status).toBe(200);
    expect(await finished.json()).toMatchObject({ id: first.id, finished: true });

    // B accepts the visitor token A signed: the second response belongs to the same lead.
    const again = await json(b, 'POST', `/s/${form.formId}/responses`, { answers: {}, visitorToken: first.visitorToken });
    expect(again.status).toBe(201);
    expect(((await again.json()) as { visitorToken: string }).visitorToken).toBe(first.visitorToken);
  });

  it('prepare an empty database from two nodes at the same instant: migrated once, one demo, one admin token', async () => {
    const { default: postgres } = await import('postgres');
    const server = postgres(testDatabaseUrl!, { max: 1, onnotice: () => {} });
    const name = `${databaseName}_start`;
    await server.unsafe(`create database ${name}`);
    try {
      const url = new URL(testDatabaseUrl!);
      url.pathname = `/${name}`;
      const [one, two] = await Promise.all([openDatabase({ databaseUrl: url.toString() }), openDatabase({ databaseUrl: url.toString() })]);
      try {
        const dataDirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), 'formloom-cluster-start-')));
        tempDirs.push(...dataDirs);
        const [first, second] = await Promise.all([
          prepareDatabase({ adminToken: undefined, dataDir: dataDirs[0]! }, one),
          prepareDatabase({ adminToken: undefined, dataDir: dataDirs[1]! }, two),
        ]);
        // One generated the token (and alone knows it); both accept it and sign alike.
        const [maker, other] = first.adminToken.generated ? [first, second] : [second, first];
        expect(maker.adminToken.generated).toBe(true);
        expect(other.adminToken).toEqual({ token: undefined, generated: false });
        expect(other.secrets.admin.matches(maker.adminToken.token!)).toBe(true);
        expect(other.secrets.signing.cookies.current).toBe(maker.secrets.signing.cookies.current);
        expect([first.demo, second.demo].filter(Boolean)).toHaveLength(1);
      } finally {
        await Promise.all([one.close(), two.close()]);
      }
    } finally {
      await server.unsafe(`drop database if exists ${name} with (force)`);
      await server.end();
    }
  });

  it('run a job through runExclusively on one node at a time, and runSerially one after the other', async () => {
    const [one, two] = await Promise.all([openDatabase({ databaseUrl, maxConnections: 2 }), openDatabase({ databaseUrl, maxConnections: 2 })]);
    handles.push(one, two);
    let release!: () => void;
    let started!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const running = new Promise<void>((resolve) => (started = resolve));
    const first = runExclusively(one, 'cluster-test-job', async () => {
      started();
      await held;
      return 'one';
    });
    await running; // the first node holds the job's lock now
    const second = await runExclusively(two, 'cluster-test-job', async () => 'two');
    expect(second).toEqual({ ran: false });
    // Another job name is not held up.
    expect(await runExclusively(two, 'cluster-test-other-job', async () => 'other')).toEqual({ ran: true, value: 'other' });
    release();
    expect(await first).toEqual({ ran: true, value: 'one' });
    // Once finished, the next tick may run it anywhere.
    expect(await runExclusively(two, 'cluster-test-job', async () => 'two')).toEqual({ ran: true, value: 'two' });

    let inside = 0;
    let most = 0;
    const step = (handle: DatabaseHandle) =>
      runSerially(handle, 'cluster-test-serial', async () => {
        inside++;
        most = Math.max(most, inside);
        await new Promise((resolve) => setTimeout(resolve, 50));
        inside--;
      });
    await Promise.all([step(one), step(two), step(one), step(two)]);
    expect(most).toBe(1);
  });
});
