/**
 * The real server process under the conditions operators put it in: slow clients (server timeouts),
 * oversized bodies on keep-alive connections (every 413 delivered, no reset), and a SIGTERM under
 * concurrent load over keep-alive connections, busy and idle (graceful drain: no request lost to a
 * reset). Runs on PGlite, and on a fresh database of the suite's PostgreSQL server when DATABASE_URL is set.
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { killLeftovers, START_TIMEOUT_MS, startServer, wireRequest, type ServerProcess, type WireResult } from '../support/server-process.ts';

const HEADERS_TIMEOUT_MS = 2_000;
const SHUTDOWN_TIMEOUT_MS = 5_000;
/** Ready to drain this long after the signal (the shutdown timeout counts it). */
const DRAIN_DELAY_MS = 1_500;
const MIB = 1_048_576;
/** Oversized requests per keep-alive client (4 clients). */
const ROUNDS_413 = 12;
/** Keep-alive connections idle when SIGTERM comes. */
const IDLE_CONNECTIONS = 32;
/** Idle keep-alive connections first used just after the drain delay. */
const AFTER_DELAY = 4;
/** The big form's responses: 5 answers of 9,000 characters each, enough that a client that stops reading stalls the stream. */
const BIG_RESPONSES = 300;
const LONG_ANSWER = 'x'.repeat(9_000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let server: ServerProcess;
const cleanups: (() => Promise<void> | void)[] = [];

/** The real server on a data dir (PGlite) or a fresh database of the suite's PostgreSQL of its own. */
async function startLifecycleServer(settings: Record<string, string> = {}): Promise<ServerProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'formloom-lifecycle-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
    REQUEST_TIMEOUT_MS: '10000',
    SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
    // Load, not abuse: rate limits far above what the test sends.
    PUBLIC_RATE_LIMIT: '1000000',
    API_RATE_LIMIT: '1000000',
    ANONYMOUS_RATE_LIMIT: '1000000',
    ...settings,
  };
  const serverUrl = loadConfig().databaseUrl;
  if (serverUrl) {
    const { default: postgres } = await import('postgres');
    const name = `formloom_lifecycle_${randomBytes(6).toString('hex')}`;
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    cleanups.push(async () => {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    });
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    env.DATABASE_URL = url.toString();
  }
  return startServer(env);
}

beforeAll(async () => {
  server = await startLifecycleServer({ DRAIN_DELAY_MS: String(DRAIN_DELAY_MS), UPLOAD_MAX_BODY_BYTES: String(MIB) });
}, START_TIMEOUT_MS);

afterAll(async () => {
  killLeftovers();
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const api = (path: string, init: { method?: string; body?: unknown; agent?: Agent } = {}) =>
  wireRequest(`${server.url}${path}`, {
    method: init.method ?? 'GET',
    headers: { 'x-api-key': server.demo!.apiKey },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    ...(init.agent ? { agent: init.agent } : {}),
  });

async function generateForm(name: string, components: unknown[]): Promise<{ id: string; questionIds: string[] }> {
  const generated = await api(`/api/v1/environments/${server.demo!.environmentId}/forms/generate`, {
    method: 'POST',
    body: {
      sourceFormId: server.demo!.templateId,
      name,
      steps: [
        { name: 'Questions', components },
        { name: 'Anything else', components: [{ type: 'ShortInput', content: { question: 'Anything else?' } }] },
      ],
    },
  });
  expect(generated.status, generated.body).toBe(200);
  const id = (JSON.parse(generated.body!) as { result: { form: { id: string } } }).result.form.id;
  const definition = await wireRequest(`${server.url}/s/${id}/definition`);
  const steps = (JSON.parse(definition.body!) as { steps: { components: { id: string; answerable: boolean }[] }[] }).steps;
  return { id, questionIds: steps[0]!.components.filter((c) => c.answerable).map((c) => c.id) };
}

/** A raw connection with `head` written; collects what the server sends back. */
async function rawConnection(head: string) {
  const { hostname, port } = new URL(server.url);
  const socket: Socket = connect(Number(port), hostname);
  socket.on('error', () => {}); // a write after the server closed it; what matters is what arrived
  await once(socket, 'connect');
  let received = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
  const closed = once(socket, 'close').then(() => performance.now());
  socket.write(head);
  return { socket, received: () => received, closed };
}

describe('server timeouts', () => {
  it('disconnect a client that sends its request headers slower than HEADERS_TIMEOUT_MS', async () => {
    const slow = await rawConnection('GET /healthz HTTP/1.1\r\nHost: formloom\r\n');
    const started = performance.now();
    // One header line every 200 ms, never the blank line that ends the headers (a slowloris client).
    let line = 0;
    const dribble = setInterval(() => {
      if (!slow.socket.destroyed) slow.socket.write(`X-Slow-${line++}: a\r\n`);
    }, 200);
    try {
      const outcome = await Promise.race([slow.closed.then((at) => ({ closedAfterMs: at - started })), sleep(15_000).then(() => 'still open')]);
      expect(outcome, 'the server should have dropped the slow client').not.toBe('still open');
      // Node's answer to a headers timeout, or just the closed connection.
      expect(slow.received()).toMatch(/^(HTTP\/1\.1 408 .*)?$/s);
      // Bounded: the headers timeout plus Node's check interval, with room for a busy machine.
      expect((outcome as { closedAfterMs: number }).closedAfterMs).toBeLessThan(HEADERS_TIMEOUT_MS + 4_000);
    } finally {
      clearInterval(dribble);
      slow.socket.destroy();
    }
  }, 30_000);
});

describe('oversized requests on keep-alive connections', () => {
  it('answers every oversized body with its 413, never a reset, while other connections are served as usual', async () => {
    const form = await generateForm('Refusals', [{ type: 'ShortInput', content: { question: 'Your name?' } }]);
    const submission = JSON.stringify({ answers: { [form.questionIds[0]!]: 'Ada' }, finished: true });
    // Each refused at the edge of its route, before the body is read: the client is still sending it.
    const targets: { path: string; headers: Record<string, string>; bytes: number }[] = [
      { path: '/graphql', headers: { 'x-api-key': server.demo!.apiKey }, bytes: 2 * MIB }, // MAX_BODY_BYTES, 1 MiB
      { path: `/api/v1/environments/${server.demo!.environmentId}/forms/generate`, headers: { 'x-api-key': server.demo!.apiKey }, bytes: 5 * MIB },
      { path: `/s/${form.id}/responses`, headers: {}, bytes: 2 * MIB }, // PUBLIC_MAX_BODY_BYTES, 64 KiB
      { path: `/s/${form.id}/uploads`, headers: {}, bytes: 4 * MIB }, // UPLOAD_MAX_BODY_BYTES, 1 MiB here
    ];
    const bodies = new Map(targets.map((t) => [t.bytes, 'x'.repeat(t.bytes)]));

    // Innocent clients on connections of their own, busy the whole time.
    let refusing = true;
    const innocent: WireResult[] = [];
    const bystander = async (kind: 'read' | 'submit') => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        for (let i = 0; i < 10_000 && refusing; i++) {
          innocent.push(
            kind === 'read'
              ? await api(`/api/v1/responses?formId=${form.id}&limit=1`, { agent })
              : await wireRequest(`${server.url}/s/${form.id}/responses`, { method: 'POST', body: submission, agent }),
          );
        }
      } finally {
        agent.destroy();
      }
    };
    const bystanders = [bystander('read'), bystander('submit')];

    // Keep-alive clients sending oversized bodies, each after an ordinary request on the same connection.
    const refused: (WireResult & { path: string })[] = [];
    const sender = async (index: number) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        for (let round = 0; round < ROUNDS_413; round++) {
          const warm = await api('/api/v1/responses?limit=1', { agent });
          expect(warm.status, warm.error ?? warm.body).toBe(200);
          const target = targets[(index + round) % targets.length]!;
          const result = await wireRequest(`${server.url}${target.path}`, { method: 'POST', headers: target.headers, body: bodies.get(target.bytes)!, agent });
          refused.push({ path: target.path, ...result });
        }
      } finally {
        agent.destroy();
      }
    };
    await Promise.all(Array.from({ length: 4 }, (_, index) => sender(index)));
    refusing = false;
    await Promise.all(bystanders);

    const tally = refused.reduce<Record<string, number>>((counts, r) => {
      const key = r.error ?? `${r.status}${r.complete ? '' : ' incomplete'}`;
      counts[key] = (counts[key] ?? 0) + 1;
      return counts;
    }, {});
    console.info(`[413 figures] oversized requests: ${refused.length} ${JSON.stringify(tally)}; innocent requests: ${innocent.length}`);
    const notDelivered = refused.filter((r) => r.status !== 413 || !r.complete);
    expect(notDelivered.map((r) => ({ path: r.path, status: r.status, error: r.error, reused: r.reusedSocket }))).toEqual([]);
    for (const r of refused) {
      expect(r.headers?.connection).toBe('close');
      if (r.path === '/graphql' || r.path.startsWith('/api/')) expect(JSON.parse(r.body!)).toEqual({ message: expect.stringMatching(/^Request body too large/) });
    }
    expect(innocent.length).toBeGreaterThan(10);
    expect(innocent.filter((r) => r.error !== undefined || !r.complete || (r.status !== 200 && r.status !== 201))).toEqual([]);
  }, 120_000);
});

type Kind = 'read' | 'stream' | 'submit';
interface Outcome extends WireResult {
  kind: Kind;
}

describe('SIGTERM under load', () => {
  it('drains: readyz 503, accepted requests finish, Connection: close, idle connections answered then closed, subscriptions ended at once, the stalled stream cut, exit 0 in time', async () => {
    // ---- data: a big form (the stalled stream) and a small one (the load)
    const big = await generateForm(
      'Big',
      Array.from({ length: 5 }, (_, i) => ({ type: 'LongInput', content: { question: `Long answer ${i}` } })),
    );
    const bigAnswers = Object.fromEntries(big.questionIds.map((id) => [id, LONG_ANSWER]));
    for (let done = 0; done < BIG_RESPONSES; done += 10) {
      const batch = await Promise.all(
        Array.from({ length: 10 }, () => wireRequest(`${server.url}/s/${big.id}/responses`, { method: 'POST', body: JSON.stringify({ answers: bigAnswers, finished: true }) })),
      );
      for (const result of batch) expect(result.status, result.body).toBe(201);
    }
    const small = await generateForm('Small', [{ type: 'ShortInput', content: { question: 'Your name?' } }]);
    const smallSince = new Date().toISOString(); // the load's stream: the small form's responses only
    const submission = JSON.stringify({ answers: { [small.questionIds[0]!]: 'Ada' }, finished: true });

    // ---- load: keep-alive workers, each on a connection of its own
    // eslint-disable-next-line prefer-const -- set at the signal further down; ESLint 10 misses that assignment
    let signalAt: number | undefined;
    const outcomes: Outcome[] = [];
    const worker = async (kind: Kind) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        for (let i = 0; i < 5_000; i++) {
          if (signalAt !== undefined && performance.now() > signalAt + SHUTDOWN_TIMEOUT_MS + 2_000) break;
          const result =
            kind === 'read'
              ? await api(`/api/v1/responses?formId=${small.id}`, { agent })
              : kind === 'stream'
                ? await api(`/api/v1/responses?since=${encodeURIComponent(smallSince)}`, { agent })
                : await wireRequest(`${server.url}/s/${small.id}/responses`, { method: 'POST', body: submission, agent });
          outcomes.push({ kind, ...result });
          // Like a client behind a load balancer: once told the connection closes (or it is gone), stop.
          if (signalAt !== undefined && (result.error !== undefined || result.headers?.connection === 'close')) break;
        }
      } finally {
        agent.destroy();
      }
    };
    const workers = (['read', 'read', 'stream', 'stream', 'submit', 'submit'] as const).map(worker);
    for (let i = 0; i < 200 && outcomes.length < 30; i++) await sleep(25);
    expect(outcomes.length).toBeGreaterThanOrEqual(30);

    // ---- the special cases, all set up before the signal
    // A client that stops reading a long environment stream: still running at the cut-off.
    const stalled = new Promise<{ status: number; received: number; complete: boolean; tail: string }>((resolve, reject) => {
      const req = httpRequest(`${server.url}/api/v1/responses`, { headers: { 'x-api-key': server.demo!.apiKey }, agent: false });
      req.on('error', reject);
      req.on('response', (res) => {
        let received = 0;
        let tail = '';
        res.once('data', () => res.pause()); // take one chunk, then stop reading
        res.on('data', (chunk: Buffer) => {
          received += chunk.length;
          tail = (tail + chunk.toString('latin1')).slice(-16);
        });
        const done = () => resolve({ status: res.statusCode!, received, complete: res.complete, tail });
        res.on('close', done);
        stalledResponse = res;
      });
      req.end();
    });
    let stalledResponse: import('node:http').IncomingMessage | undefined;
    for (let i = 0; i < 200 && !stalledResponse; i++) await sleep(25);
    expect(stalledResponse, 'the stream should have started').toBeDefined();

    // A public submission whose body is still to come (accepted: the server answered 100 Continue).
    const held = httpRequest(`${server.url}/s/${small.id}/responses`, {
      method: 'POST',
      agent: false,
      headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(submission)), expect: '100-continue' },
    });
    const heldResponse = new Promise<WireResult>((resolve) => {
      held.on('error', (error: NodeJS.ErrnoException) => resolve({ startedAt: 0, ms: 0, error: error.code ?? error.message }));
      held.on('response', (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ startedAt: 0, ms: 0, status: res.statusCode!, headers: res.headers, body, complete: res.complete }));
      });
    });
    held.flushHeaders();
    await once(held, 'continue');

    // A load balancer's readiness probe on its keep-alive connection, its request half sent.
    const probe = await rawConnection('GET /readyz HTTP/1.1\r\nHost: formloom\r\n');
    // An idle keep-alive connection: one request answered, nothing since.
    const idle = await rawConnection('GET /healthz HTTP/1.1\r\nHost: formloom\r\n\r\n');
    for (let i = 0; i < 100 && !idle.received().includes('"ok"'); i++) await sleep(10);
    expect(idle.received()).toMatch(/^HTTP\/1\.1 200 /);
    await sleep(100); // the probe's half request has been read

    // A live subscription (server-sent events): it never ends by itself, so the drain must end it.
    let subscriptionOpen = false;
    const subscription = new Promise<{ status: number; body: string; complete: boolean }>((resolve, reject) => {
      const req = httpRequest(`${server.url}/graphql`, {
        method: 'POST',
        agent: false,
        headers: { 'x-api-key': server.demo!.apiKey, 'content-type': 'application/json', accept: 'text/event-stream' },
      });
      req.on('error', reject);
      req.on('response', (res) => {
        subscriptionOpen = true;
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        res.on('close', () => resolve({ status: res.statusCode!, body, complete: res.complete }));
      });
      req.end(JSON.stringify({ query: 'subscription { responseEvents { id type } }' }));
    });
    for (let i = 0; i < 200 && !subscriptionOpen; i++) await sleep(25);
    expect(subscriptionOpen, 'the subscription should have started').toBe(true);

    // ---- the signal
    signalAt = performance.now();
    server.child.kill('SIGTERM');
    await server.waitForLog((line) => line.msg === 'draining');
    const drainSeenAt = performance.now();

    // The idle keep-alive connection is not closed under its client: a request sent on it now is
    // answered (Connection: close), and then it closes.
    idle.socket.write('GET /healthz HTTP/1.1\r\nHost: formloom\r\n\r\n');
    const idleClosed = await Promise.race([idle.closed.then(() => true), sleep(2_000).then(() => false)]);

    // The probe's request completes: readiness says draining, and the connection closes after it.
    probe.socket.write('\r\n');
    const probeClosed = await Promise.race([probe.closed.then(() => true), sleep(2_000).then(() => false)]);

    // The accepted submission finishes.
    held.end(submission);
    const heldResult = await Promise.race([heldResponse, sleep(3_000).then((): WireResult => ({ startedAt: 0, ms: 0, error: 'no answer' }))]);

    // The subscription ends as the drain begins, cleanly (its final chunk sent), not at the cut-off.
    const subscriptionEnd = await Promise.race([subscription, sleep(SHUTDOWN_TIMEOUT_MS + 5_000).then(() => undefined)]);

    await Promise.all(workers);
    const exitCode = await Promise.race([server.exited, sleep(SHUTDOWN_TIMEOUT_MS + 5_000).then(() => 'still running' as const)]);
    const exitedAfterMs = performance.now() - signalAt;
    stalledResponse!.resume();
    const stream = await Promise.race([stalled, sleep(5_000).then(() => undefined)]);

    // ---- what the clients saw
    for (const o of outcomes) if (o.body && o.body.length > 200) o.body = `${o.body.slice(0, 200)}… (${o.body.length} characters)`;
    const before = outcomes.filter((o) => o.startedAt < signalAt);
    const after = outcomes.filter((o) => o.startedAt >= signalAt);
    const failedBefore = before.filter((o) => o.error !== undefined || !o.complete || (o.status ?? 500) >= 500);
    const tally = (list: Outcome[]) =>
      Object.entries(
        list.reduce<Record<string, number>>((counts, o) => {
          const key = o.error ?? `${o.status}${o.headers?.connection === 'close' ? ' close' : ''}${o.complete ? '' : ' incomplete'}`;
          counts[key] = (counts[key] ?? 0) + 1;
          return counts;
        }, {}),
      );
    const stopped = server.logs().find((line) => line.msg === 'stopped');
    console.info(
      `[drain figures] requests before the signal: ${before.length}, failed: ${failedBefore.length} ${JSON.stringify(tally(failedBefore))}; ` +
        `after the signal: ${JSON.stringify(tally(after))}; probe: ${JSON.stringify(probe.received().split('\r\n')[0])}; ` +
        `held submission: ${heldResult.status ?? heldResult.error}; stalled stream: ${JSON.stringify(stream)}; ` +
        `exit code ${exitCode} after ${Math.round(exitedAfterMs)} ms; stopped log: ${JSON.stringify(stopped)}`,
    );

    expect(failedBefore, 'requests started before SIGTERM must all be answered in full').toEqual([]);
    for (const o of after) expect(o.status ?? 0).toBeLessThan(500);
    // Once the drain is under way no connection is kept for another request: every answer says close.
    // And no request is lost: the node keeps answering through the drain delay, on every connection.
    const keptAlive = after.filter((o) => o.startedAt > drainSeenAt && o.status !== undefined && o.headers?.connection !== 'close');
    expect(keptAlive).toEqual([]);
    expect(after.filter((o) => o.error !== undefined || !o.complete)).toEqual([]);

    const idleAnswers = idle.received().split(/(?=HTTP\/1\.1 )/);
    expect(idleAnswers, idle.received()).toHaveLength(2);
    expect(idleAnswers[1]).toMatch(/^HTTP\/1\.1 200 /);
    expect(idleAnswers[1]).toMatch(/\r\nConnection: close\r\n/i);
    expect(idleClosed, 'the idle connection closes after its answer').toBe(true);
    expect(probe.received()).toMatch(/^HTTP\/1\.1 503 /);
    expect(probe.received()).toMatch(/\r\nConnection: close\r\n/i);
    expect(probe.received()).toContain('"status":"draining"');
    expect(probeClosed).toBe(true);

    expect(heldResult.status, heldResult.body ?? heldResult.error).toBe(201);
    expect(heldResult.headers?.connection).toBe('close');

    // The stalled stream was cut cleanly at the cut-off: part of it arrived, then the connection closed
    // without the final chunk, so the client can tell it is incomplete.
    expect(stream).toBeDefined();
    expect(stream!.received).toBeGreaterThan(0);
    expect(stream!.complete).toBe(false);
    expect(stream!.tail.endsWith(']}')).toBe(false);

    expect(subscriptionEnd?.status).toBe(200);
    expect(subscriptionEnd?.complete, `subscription stream: ${JSON.stringify(subscriptionEnd)}`).toBe(true);
    expect(subscriptionEnd?.body).toContain('event: complete');

    expect(exitCode).toBe(0);
    expect(exitedAfterMs).toBeLessThan(SHUTDOWN_TIMEOUT_MS + 1_000); // the signal's delivery and the exit itself
    expect(stopped).toMatchObject({ cutConnections: 1 });
    expect(Number(stopped!.drainMs)).toBeLessThanOrEqual(SHUTDOWN_TIMEOUT_MS);
    expect(server.stderr()).toBe('');
  }, 120_000);
});

describe('SIGTERM with idle keep-alive connections', () => {
  it('answers every request sent after the signal, on idle keep-alive connections and new ones alike: none is reset or refused during the drain delay', async () => {
    const delayMs = 2_500;
    const node = await startLifecycleServer({ DRAIN_DELAY_MS: String(delayMs), SHUTDOWN_TIMEOUT_MS: '8000' });
    const get = (path: string, agent?: Agent) => wireRequest(`${node.url}${path}`, { headers: { 'x-api-key': node.demo!.apiKey }, ...(agent ? { agent } : {}) });

    // Keep-alive clients, each with a connection answered once and idle since; the last ones are used
    // only after the drain delay, when the node no longer accepts connections.
    const agents = Array.from({ length: IDLE_CONNECTIONS + AFTER_DELAY }, () => new Agent({ keepAlive: true, maxSockets: 1 }));
    try {
      const warm = await Promise.all(agents.map((agent) => get('/api/v1/responses?limit=1', agent)));
      for (const result of warm) expect(result.status, result.error ?? result.body).toBe(200);
      // And keep-alive load going on through the signal.
      let loadOn = true;
      const load: WireResult[] = [];
      const worker = async () => {
        const agent = new Agent({ keepAlive: true, maxSockets: 1 });
        try {
          for (let i = 0; i < 10_000 && loadOn; i++) {
            const result = await get('/api/v1/responses?limit=1', agent);
            load.push(result);
            // Told to go elsewhere (or failed), as a balancer would.
            if (result.error !== undefined || result.headers?.connection === 'close') break;
          }
        } finally {
          agent.destroy();
        }
      };
      const workers = Array.from({ length: 4 }, worker);
      await sleep(200);

      const signalAt = performance.now();
      node.child.kill('SIGTERM');
      // Half the idle connections are used at the very moment of the signal, the others over the next
      // second and a half (all within the drain delay); and new connections too.
      // When the node has taken the signal in (a busy machine may take a while).
      const drainSeen = node.waitForLog((line) => line.msg === 'draining', 10_000).then(() => performance.now());
      const readiness = drainSeen.then(() => get('/readyz'));
      const late = await Promise.all([
        ...agents.slice(0, IDLE_CONNECTIONS).map((agent, i) => sleep(i % 2 === 0 ? 0 : (i * 1_500) / IDLE_CONNECTIONS).then(() => get('/api/v1/responses?limit=1', agent))),
        ...Array.from({ length: 8 }, (_, i) => sleep(i * 200).then(() => get('/healthz'))),
      ]);
      // After the delay the node accepts no new connection (the balancer has stopped sending by then)…
      // A connection that the kernel queued at the instant the listener closed is reset rather than
      // refused: that is a failure only if it came before the delay was up.
      let onNewConnection: WireResult | undefined;
      const failedNew: WireResult[] = [];
      for (let i = 0; i < 100 && onNewConnection?.error !== 'ECONNREFUSED'; i++) {
        await sleep(Math.max(0, Math.min(50, signalAt + delayMs - performance.now())));
        onNewConnection = await get('/healthz');
        if (onNewConnection.error !== undefined) failedNew.push(onNewConnection);
      }
      const refusedAfterMs = performance.now() - signalAt;
      // …but an idle connection is not closed under its client before its keep-alive time
      // (KEEP_ALIVE_TIMEOUT_MS, 5 s, since its last answer before the signal) is up.
      const afterDelay = await Promise.all(agents.slice(IDLE_CONNECTIONS).map((agent, i) => sleep(i * 50).then(() => get('/api/v1/responses?limit=1', agent))));
      loadOn = false;
      await Promise.all(workers);
      for (const agent of agents) agent.destroy();
      const exitCode = await Promise.race([node.exited, sleep(12_000).then(() => 'still running' as const)]);

      const failure = (r: WireResult) => r.error !== undefined || !r.complete || (r.status ?? 500) >= 500;
      const lost = [...late, ...afterDelay, ...load].filter(failure);
      const count = (list: WireResult[], errors: string[]) => list.filter((r) => r.error !== undefined && errors.includes(r.error)).length;
      console.info(
        `[drain idle figures] requests after the signal on idle connections: ${IDLE_CONNECTIONS} (+ ${AFTER_DELAY} after the delay), on new connections: 8, under load: ${load.length}; ` +
          `reset: ${count(lost, ['ECONNRESET', 'EPIPE'])}, refused: ${count(lost, ['ECONNREFUSED'])}, other failures: ${lost.length - count(lost, ['ECONNRESET', 'EPIPE', 'ECONNREFUSED'])}; ` +
          `new connections refused from ${Math.round(refusedAfterMs)} ms; exit ${exitCode} after ${Math.round(performance.now() - signalAt)} ms`,
      );
      expect(lost.map((r) => ({ error: r.error, status: r.status, reusedSocket: r.reusedSocket }))).toEqual([]);
      // Answered during the drain: the connection closes after the answer.
      for (const result of [...late.slice(0, IDLE_CONNECTIONS), ...afterDelay]) expect(result.reusedSocket).toBe(true);
      for (const result of afterDelay) expect(result.headers?.connection).toBe('close');
      expect(onNewConnection?.error).toBe('ECONNREFUSED');
      expect(refusedAfterMs).toBeGreaterThanOrEqual(delayMs);
      for (const failed of failedNew) {
        expect(['ECONNREFUSED', 'ECONNRESET']).toContain(failed.error);
        expect(failed.startedAt + failed.ms - signalAt, 'a new connection failed before the drain delay was up').toBeGreaterThanOrEqual(delayMs);
      }
      const drainSeenAt = await drainSeen;
      expect(late.filter((r) => r.startedAt > drainSeenAt && r.headers?.connection !== 'close')).toEqual([]);
      expect((await readiness).status).toBe(503);
      expect(exitCode).toBe(0);
      expect(node.stderr()).toBe('');
    } finally {
      for (const agent of agents) agent.destroy();
    }
  }, 90_000);
});
