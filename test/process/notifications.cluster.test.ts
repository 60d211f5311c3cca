/**
 * E-mail delivery with real server processes (`src/main.ts`) on one PostgreSQL database, sending through
 * a real SMTP server (smtp-server, STARTTLS and AUTH) whose certificate the nodes trust the Node way
 * (NODE_EXTRA_CA_CERTS): two nodes deliver each message once; a node stopped (SIGTERM) in the middle of
 * a batch finishes what it was sending and hands back the rest, and the node started after it sends
 * only those; a node killed (SIGKILL) mid-batch never has a message it recorded as sent sent again,
 * and what it was sending when it died is sent again with the same Message-ID once its lease has
 * expired; a draining node claims no new message. PostgreSQL only (an embedded database belongs to one process).
 */
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/db/client.ts';
import { notificationDeliveries } from '../../src/db/schema.ts';
import { createTenant, type TestTenant } from '../support/helpers.ts';
import { SmtpReceiver } from '../support/smtp-helpers.ts';
import { eventually } from '../support/webhook-helpers.ts';
import { dropTestDatabase, killLeftovers, START_TIMEOUT_MS, startServer, type ServerProcess } from '../support/server-process.ts';

const testDatabaseUrl = inject('testDatabaseUrl');
const CA_FILE = fileURLToPath(new URL('../fixtures/smtp/cert.pem', import.meta.url));
const ADMIN_TOKEN = 'notifications-cluster-admin-token-0123456789';

describe.skipIf(!testDatabaseUrl)('e-mail delivery with real nodes', () => {
  const databaseName = `formloom_mail_${randomBytes(6).toString('hex')}`;
  let databaseUrl: string;
  let handle: DatabaseHandle;
  let tenant: TestTenant;
  const nodes: ServerProcess[] = [];
  const servers: SmtpReceiver[] = [];

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
    tenant = await createTenant(handle.db);
  }, START_TIMEOUT_MS);

  afterEach(async () => {
    await Promise.all(nodes.splice(0).map((node) => node.stop()));
    await Promise.all(servers.splice(0).map((server) => server.stop()));
    await handle.db.delete(notificationDeliveries);
  });

  afterAll(async () => {
    killLeftovers();
    await handle?.close();
    await dropTestDatabase(testDatabaseUrl!, databaseName);
  });

  async function smtpServer(acceptDelayMs = 0) {
    const smtp = await new SmtpReceiver().start();
    smtp.acceptDelayMs = acceptDelayMs;
    servers.push(smtp);
    return smtp;
  }

  async function startNode(smtp: SmtpReceiver, env: Record<string, string> = {}) {
    const node = await startServer({
      DATABASE_URL: databaseUrl,
      ADMIN_TOKEN,
      FONTS_CSS_URL: 'none',
      SMTP_URL: smtp.url,
      NODE_EXTRA_CA_CERTS: CA_FILE,
      MAIL_FROM: 'Forms <forms@example.com>',
      MAIL_RETRY_SCHEDULE: '100ms,100ms,100ms',
      PUBLIC_URL: 'https://forms.example.com',
      PUBLIC_RATE_LIMIT: '0',
      ...env,
    });
    nodes.push(node);
    return node;
  }

  /** A form alerting `addresses` on every finished response, made through `node`'s REST API. */
  async function alertingForm(node: ServerProcess, addresses: string[]) {
    const generated = await fetch(`${node.url}/api/v1/environments/${tenant.environmentId}/forms/generate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': tenant.apiKey },
      body: JSON.stringify({
        sourceFormId: tenant.templateId,
        name: 'Cluster alerts',
        steps: [
          { name: 'One', components: [{ type: 'ShortInput', content: { question: 'Note' } }] },
          { name: 'End', components: [{ type: 'Header', content: { title: 'Thanks' } }] },
        ],
        notifications: { team: [{ to: addresses }] },
      }),
    });
    const body = (await generated.json()) as { result: { form: { id: string } } };
    expect(generated.status, JSON.stringify(body)).toBe(200);
    const { id } = body.result.form;
    const definition = (await (await fetch(`${node.url}/s/${id}/definition`)).json()) as { steps: { components: { id: string }[] }[] };
    return { id, questionId: definition.steps[0]!.components[0]!.id };
  }

  async function respond(node: ServerProcess, form: Awaited<ReturnType<typeof alertingForm>>, note: string) {
    const response = await fetch(`${node.url}/s/${form.id}/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ answers: { [form.questionId]: note }, finished: true }),
    });
    expect(response.status, await response.clone().text()).toBe(201);
  }

  const rows = () => handle.db.select().from(notificationDeliveries);
  /** How often the SMTP server accepted each Message-ID. */
  const arrivals = (smtp: SmtpReceiver) => {
    const counts = new Map<string, number>();
    for (const message of smtp.accepted) counts.set(message.parsed.messageId!, (counts.get(message.parsed.messageId!) ?? 0) + 1);
    return counts;
  };
  const messageIdOf = (deliveryId: string) => `<${deliveryId}@forms.example.com>`;

  it('two nodes send each message once', { timeout: 3 * START_TIMEOUT_MS }, async () => {
    const smtp = await smtpServer(20);
    const [a, b] = [await startNode(smtp), await startNode(smtp)];
    const form = await alertingForm(a, ['one@example.com', 'two@example.com', 'three@example.com']);
    // Responses through both nodes: each writes its deliveries and wakes every node's dispatcher.
    for (let i = 0; i < 10; i++) await respond(i % 2 === 0 ? a : b, form, `note ${i}`);
    await eventually(async () => (await rows()).length === 30 && (await rows()).every((row) => row.status === 'sent'), 'all 30 sent', 1_500);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const counts = arrivals(smtp);
    expect(smtp.accepted).toHaveLength(30);
    expect(counts.size).toBe(30);
    expect((await rows()).every((row) => row.attempts === 1 && counts.get(messageIdOf(row.id)) === 1)).toBe(true);
  });

  it('a node stopped mid-batch finishes what it was sending; its successor sends the rest, each once', { timeout: 3 * START_TIMEOUT_MS }, async () => {
    const smtp = await smtpServer(300);
    const first = await startNode(smtp);
    const form = await alertingForm(first, ['a@example.com', 'b@example.com', 'c@example.com', 'd@example.com']);
    for (let i = 0; i < 10; i++) await respond(first, form, `note ${i}`);
    await eventually(() => smtp.accepted.length >= 2, 'the first messages', 1_000);
    expect(await first.stop()).toBe(0);
    const stopped = await rows();
    // Nothing left claimed: what was in flight was recorded, the rest handed back.
    expect(stopped.filter((row) => row.status === 'sending')).toEqual([]);
    const sentBefore = stopped.filter((row) => row.status === 'sent');
    expect(sentBefore.length).toBeGreaterThan(0);
    expect(sentBefore.length).toBeLessThan(40);
    expect(smtp.accepted).toHaveLength(sentBefore.length);

    await startNode(smtp);
    await eventually(async () => (await rows()).every((row) => row.status === 'sent'), 'all 40 sent', 1_500);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const counts = arrivals(smtp);
    expect(smtp.accepted).toHaveLength(40);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    for (const row of sentBefore) expect(counts.get(messageIdOf(row.id))).toBe(1);
  });

  it('a draining node claims nothing new: messages written while it drains wait for another node', { timeout: 3 * START_TIMEOUT_MS }, async () => {
    const smtp = await smtpServer();
    const draining = await startNode(smtp, { DRAIN_DELAY_MS: '1500' });
    const form = await alertingForm(draining, ['a@example.com']);
    draining.child.kill('SIGTERM');
    await draining.waitForLog((line) => line.msg === 'draining');
    // It still serves during the drain delay: the responses and their deliveries are written.
    for (let i = 0; i < 3; i++) await respond(draining, form, `note ${i}`);
    expect(await draining.exited).toBe(0);
    expect((await rows()).map((row) => [row.status, row.attempts])).toEqual([
      ['pending', 0],
      ['pending', 0],
      ['pending', 0],
    ]);
    expect(smtp.accepted).toHaveLength(0);

    await startNode(smtp);
    await eventually(async () => (await rows()).every((row) => row.status === 'sent'), 'all 3 sent by the next node', 1_500);
  });

  it('a node killed mid-batch: what it recorded as sent is never sent again; what it was sending goes again with its Message-ID', { timeout: 3 * START_TIMEOUT_MS }, async () => {
    const smtp = await smtpServer(300);
    const first = await startNode(smtp);
    const form = await alertingForm(first, ['a@example.com', 'b@example.com', 'c@example.com', 'd@example.com']);
    for (let i = 0; i < 4; i++) await respond(first, form, `note ${i}`);
    // Killed while one message is recorded as sent and others are being sent (the SMTP server takes 300 ms each).
    await eventually(
      async () => {
        const now = await rows();
        return now.some((row) => row.status === 'sent') && now.some((row) => row.status === 'sending');
      },
      'a message recorded and others in flight',
      1_000,
    );
    first.child.kill('SIGKILL');
    await first.exited;
    const killed = await rows();
    const sentBefore = killed.filter((row) => row.status === 'sent');
    const inFlight = killed.filter((row) => row.status === 'sending');
    expect(sentBefore.length).toBeGreaterThan(0);
    expect(inFlight.length).toBeGreaterThan(0);
    // The dead node's leases run out (90 s); here they are made to have run out already.
    await handle.db
      .update(notificationDeliveries)
      .set({ leaseUntil: sql`now()` })
      .where(eq(notificationDeliveries.status, 'sending'));

    await startNode(smtp);
    await eventually(async () => (await rows()).every((row) => row.status === 'sent'), 'all 16 sent', 1_500);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const counts = arrivals(smtp);
    expect(counts.size).toBe(16);
    // Recorded as sent before the kill: exactly once.
    for (const row of sentBefore) expect(counts.get(messageIdOf(row.id))).toBe(1);
    // Only a message the dead node was sending may have arrived twice, and then with the same Message-ID.
    const inFlightIds = new Set(inFlight.map((row) => messageIdOf(row.id)));
    for (const [messageId, n] of counts) if (n > 1) expect(inFlightIds.has(messageId), messageId).toBe(true);
    expect([...counts.values()].every((n) => n <= 2)).toBe(true);
  });
});
