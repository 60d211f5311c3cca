/**
 * The `slack` webhook format: an endpoint created through REST, a response through the public API, and
 * the body a real receiver gets checked against Slack's incoming-webhook payload schema
 * (test/fixtures/slack), signed like every delivery, with Slack's control sequences in answers escaped.
 */
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { pino } from 'pino';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookDispatcher, type WebhookDispatcher } from '../../src/events/dispatcher.ts';
import { escapeSlack } from '../../src/events/slack.ts';
import type { Form } from '../../src/forms/forms.service.ts';
import { appWith, createTenant, jsonRequest, setupIsolatedTestApp, testConfig, type TestContext, type TestTenant } from '../support/helpers.ts';
import { makeForm } from '../support/public-helpers.ts';
import { eventually, Receiver } from '../support/webhook-helpers.ts';

const schema = JSON.parse(readFileSync(new URL('../fixtures/slack/incoming-webhook.schema.json', import.meta.url), 'utf8')) as object;
const validate = new Ajv({ strict: false }).compile(schema);
let ctx: TestContext;
let app: TestContext['app'];
let tenant: TestTenant;
let form: Form;
const stops: (() => Promise<void>)[] = [];

beforeAll(async () => {
  ctx = await setupIsolatedTestApp();
  app = appWith(ctx.db, { publicRateLimitPerMinute: 0, webhooks: { ...testConfig().webhooks, allowPrivate: true } });
  tenant = await createTenant(ctx.db);
  form = await makeForm(
    ctx.db,
    tenant,
    [
      {
        name: 'Contact',
        components: [
          { type: 'IdentityInfo', content: { fields: [{ key: 'emailAddress', label: 'E-mail' }] } },
          { type: 'ShortInput', content: { question: 'Your <team> & you' } },
        ],
      },
      { name: 'Secret', components: [{ type: 'PasswordInput', content: { question: 'A password' } }] },
    ],
    'Leads <b>&</b> more',
  );
});
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
});

async function endpointFor(body: Record<string, unknown>) {
  const receiver = await new Receiver().start();
  stops.push(() => receiver.stop());
  const created = await app.request(
    '/api/v1/webhooks',
    jsonRequest('POST', { url: receiver.url, eventTypes: ['response.finished'], formIds: [form.id], ...body }, { 'x-api-key': tenant.apiKey }),
  );
  expect(created.status).toBe(201);
  const endpoint = (await created.json()) as { id: string; secret: string; format: string; includeAnswers: boolean };
  receiver.secret = endpoint.secret;
  return { receiver, endpoint };
}

async function answer(note: string) {
  const [contact, noteId] = form.steps[0]!.components.map((c) => c.id);
  const secret = form.steps[1]!.components[0]!.id;
  const response = await app.request(
    `/s/${form.id}/responses`,
    jsonRequest('POST', {
      answers: { [contact!]: { emailAddress: 'lead@example.com' }, [noteId!]: note, [secret]: 'never-in-slack-1' },
      finished: true,
    }),
  );
  expect(response.status).toBe(201);
}

function dispatch() {
  const dispatcher: WebhookDispatcher = startWebhookDispatcher({
    db: ctx.db,
    config: { ...testConfig().webhooks, allowPrivate: true, retryDelaysMs: [20] },
    logger: pino({ level: 'silent' }),
    pollMs: 20,
  });
  stops.push(() => dispatcher.stop());
}

describe('the slack format', () => {
  it('posts {text, blocks} that match Slack’s payload schema, signed, with the answers escaped and no password', async () => {
    const { receiver, endpoint } = await endpointFor({ format: 'slack', includeAnswers: true });
    expect(endpoint.format).toBe('slack');
    expect(endpoint.includeAnswers).toBe(true);
    const hostile = '<!channel> <@U024BE7LH> <https://evil.example|click here> & <!here>';
    await answer(hostile);
    dispatch();
    await eventually(() => receiver.accepted.length >= 1, 'the Slack message');
    const [message] = receiver.accepted;
    expect(message!.verified).toBe(true);
    const body = message!.body as unknown as { text: string; blocks: { type: string; text: { text: string } }[] };
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
    expect(body.text).toContain('Leads &lt;b&gt;&amp;&lt;/b&gt; more');
    expect(body.text).toContain('lead@example.com');
    const all = JSON.stringify(body);
    // No control sequence survives: every < and > of the answer and the form's name is escaped.
    expect(all).not.toMatch(/<!channel>|<!here>|<@U024BE7LH>|<https:\/\/evil/);
    expect(all).toContain(escapeSlack(hostile));
    expect(all).toContain('*Your &lt;team&gt; &amp; you*');
    expect(all).not.toContain('never-in-slack-1');
  });

  it('leaves the answers out unless the endpoint asks for them; the standard format is the event as before', async () => {
    const slack = await endpointFor({ format: 'slack' });
    const standard = await endpointFor({});
    expect(standard.endpoint.format).toBe('standard');
    await answer('a private note');
    dispatch();
    await eventually(() => slack.receiver.accepted.length >= 1 && standard.receiver.accepted.length >= 1, 'both');
    const body = slack.receiver.accepted[0]!.body as unknown as object;
    expect(validate(body)).toBe(true);
    expect(JSON.stringify(body)).not.toContain('a private note');
    expect(standard.receiver.accepted[0]!.body.type).toBe('response.finished');
  });

  it('names the lead by the product’s e-mail ranking: an IdentityInfo’s work address before an EmailForm’s', async () => {
    const ranked = await makeForm(ctx.db, tenant, [
      {
        name: 'Contact',
        components: [
          { type: 'EmailForm', content: { question: 'Newsletter address' } },
          { type: 'IdentityInfo', content: { fields: [{ key: 'workEmailAddress', label: 'Work e-mail' }] } },
        ],
      },
      { name: 'End', components: [{ type: 'Header', content: { title: 'Thanks' } }] },
    ]);
    const receiver = await new Receiver().start();
    stops.push(() => receiver.stop());
    const created = await app.request(
      '/api/v1/webhooks',
      jsonRequest('POST', { url: receiver.url, eventTypes: ['response.finished'], formIds: [ranked.id], format: 'slack' }, { 'x-api-key': tenant.apiKey }),
    );
    receiver.secret = ((await created.json()) as { secret: string }).secret;
    const [newsletter, identity] = ranked.steps[0]!.components.map((c) => c.id);
    const response = await app.request(
      `/s/${ranked.id}/responses`,
      jsonRequest('POST', {
        answers: { [newsletter!]: 'private@example.org', [identity!]: { workEmailAddress: 'Lead@Work.example' } },
        finished: true,
      }),
    );
    expect(response.status).toBe(201);
    dispatch();
    await eventually(() => receiver.accepted.length >= 1, 'the Slack message');
    const body = receiver.accepted[0]!.body as unknown as { text: string };
    expect(validate(body)).toBe(true);
    expect(body.text).toContain('(lead@work.example)');
    expect(body.text).not.toContain('private@example.org');
  });

  it('refuses an unknown format with 400 at its path', async () => {
    const created = await app.request(
      '/api/v1/webhooks',
      jsonRequest('POST', { url: 'https://hooks.example.com/x', eventTypes: ['response.finished'], format: 'teams' }, { 'x-api-key': tenant.apiKey }),
    );
    expect(created.status).toBe(400);
    expect(JSON.stringify(await created.json())).toContain('"path":["format"]');
  });
});
