/**
 * `npx tsx bench/webhooks.ts`: webhook delivery latency and the API's throughput with a dead receiver.
 *
 * 1. Latency: a burst of BENCH_BURST (default 1000) finished submissions through the public API
 *    (in-process `app.request`, BENCH_CONCURRENCY at a time, default 20) to a form with one endpoint
 *    whose receiver answers 200 at once. Latency = the receiver got it − the event's timestamp (the
 *    time the change's transaction wrote the response, just before its commit). p50/p99/max.
 * 2. Throughput: BENCH_REQUESTS (default 1000) submissions at BENCH_CONCURRENCY, measured twice: with
 *    no endpoint, and with an endpoint whose receiver accepts connections and never answers (every
 *    attempt waits for the 10 s timeout), with the delivery worker running.
 *
 * DATABASE_URL set: a scratch database `formloom_bench_webhooks` on that server (created, dropped).
 * Unset: an in-memory PGlite. Defaults as in production (WEBHOOK_CONCURRENCY 16, per endpoint 4).
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import postgres from 'postgres';
import { createApp } from '../src/app.ts';
import { createApiKey } from '../src/auth/auth.service.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase, type DatabaseHandle } from '../src/db/client.ts';
import { createEnvironment } from '../src/environments/environments.service.ts';
import { openDeliveryDatabase, startWebhookDispatcher } from '../src/events/dispatcher.ts';
import { openEventFeed } from '../src/events/notifications.ts';
import { createEndpoint, updateEndpoint } from '../src/events/webhooks.service.ts';
import { generateFormInputSchema } from '../src/forms/components.ts';
import { generateForm, importForm } from '../src/forms/forms.service.ts';

const env = process.env;
const BURST = Number(env.BENCH_BURST ?? 1000);
const REQUESTS = Number(env.BENCH_REQUESTS ?? 1000);
const CONCURRENCY = Number(env.BENCH_CONCURRENCY ?? 20);
const logger = pino({ level: 'silent' });

async function openScratch(): Promise<{ handle: DatabaseHandle; url: string | undefined; drop: () => Promise<void> }> {
  if (!env.DATABASE_URL) {
    const handle = await openDatabase({});
    await handle.migrate();
    return { handle, url: undefined, drop: async () => {} };
  }
  const admin = postgres(env.DATABASE_URL, { max: 1, onnotice: () => {} });
  const name = 'formloom_bench_webhooks';
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.unsafe(`create database ${name}`);
  const url = new URL(env.DATABASE_URL);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ databaseUrl: url.toString(), maxConnections: 10 });
  await handle.migrate();
  return {
    handle,
    url: url.toString(),
    drop: async () => {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`)));
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function main() {
  const { handle, url, drop } = await openScratch();
  const config = { ...loadConfig({ PUBLIC_RATE_LIMIT: '0', WEBHOOK_ALLOW_PRIVATE: '1', LOG_LEVEL: 'silent' }), databaseUrl: url };
  const feed = await openEventFeed(handle, { databaseUrl: url, logger });
  const app = createApp({ config, db: handle.db, logger, adminToken: 'bench-admin-token-0123456789', events: feed });
  const environment = await createEnvironment(handle.db, { name: 'bench' });
  await createApiKey(handle.db, { environmentId: environment.id });
  const steps = [
    { name: 'a', components: [{ type: 'ShortInput', content: { question: 'Q' } }] },
    { name: 'b', components: [{ type: 'ShortInput', content: { question: 'R' } }] },
  ];
  const template = await importForm(handle.db, {
    environmentId: environment.id,
    name: 't',
    theme: JSON.parse(readFileSync(new URL('../examples/template.json', import.meta.url), 'utf8')).theme,
    steps: generateFormInputSchema.parse({ sourceFormId: 'x', name: 'x', steps }).steps,
  });
  const form = await generateForm(handle.db, environment.id, generateFormInputSchema.parse({ sourceFormId: template.id, name: 'bench', steps }));
  const questionId = form.steps[0]!.components[0]!.id;

  async function burst(count: number) {
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < count) {
          next++;
          const response = await app.request(`/s/${form.id}/responses`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ answers: { [questionId]: 'x' }, finished: true }),
          });
          if (response.status !== 201) throw new Error(`submission answered ${response.status}`);
          await response.arrayBuffer();
        }
      }),
    );
    return count / ((performance.now() - started) / 1000);
  }

  // 1. Latency.
  const latencies: number[] = [];
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString()) as { timestamp: string };
      latencies.push(Date.now() - Date.parse(body.timestamp));
      res.end('ok');
    });
  });
  const receiverUrl = await listen(receiver);
  const live = await createEndpoint(handle.db, environment.id, { url: receiverUrl, eventTypes: ['response.finished'] }, { allowPrivate: true });
  // As src/main.ts runs it: on PostgreSQL, on a pool of its own.
  const delivery = await openDeliveryDatabase(handle, { databaseUrl: url });
  const dispatcher = startWebhookDispatcher({ db: delivery.db, config: config.webhooks, logger, events: feed });
  const burstStarted = performance.now();
  const burstRate = await burst(BURST);
  for (let i = 0; i < 6000 && latencies.length < BURST; i++) await new Promise((r) => setTimeout(r, 10));
  const drainedMs = performance.now() - burstStarted;
  latencies.sort((a, b) => a - b);
  console.log(`database: ${handle.kind}`);
  console.log(
    `burst: ${BURST} finished submissions at concurrency ${CONCURRENCY}: ${burstRate.toFixed(0)}/s; all ${latencies.length} delivered ${(drainedMs / 1000).toFixed(2)} s after the burst began`,
  );
  console.log(`delivery latency (event timestamp → receiver): p50 ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms, max ${latencies.at(-1)} ms`);
  await updateEndpoint(handle.db, environment.id, live.endpoint.id, { enabled: false }, { allowPrivate: true });

  // 2. Throughput without endpoints, then with a dead receiver.
  const none = await burst(REQUESTS);
  const dead = createServer(() => {}); // accepts, never answers
  const deadUrl = await listen(dead);
  await createEndpoint(handle.db, environment.id, { url: deadUrl, eventTypes: ['response.created', 'response.finished'] }, { allowPrivate: true });
  const withDead = await burst(REQUESTS);
  console.log(
    `submissions/s, no endpoint: ${none.toFixed(0)}; with a dead receiver (10 s timeouts, deliveries queued): ${withDead.toFixed(0)} (${((withDead / none) * 100).toFixed(0)}%)`,
  );

  await dispatcher.stop();
  await delivery.close();
  dead.closeAllConnections();
  dead.close();
  receiver.close();
  await feed.close();
  await handle.close();
  await drop();
}

await main();
