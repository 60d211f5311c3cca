/**
 * E-mail notifications end to end against a real SMTP server (smtp-server, STARTTLS and AUTH): a
 * form's notifications set through REST, responses through the public API, the mail outbox written
 * with them, and the dispatcher sending, retrying and failing as the server answers.
 */
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { pino } from 'pino';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MailConfig } from '../../src/config.ts';
import { instanceSecretsOf } from '../../src/auth/admin-token.ts';
import { signedFileUrl } from '../../src/uploads/file-urls.ts';
import { auditLog, environments, notificationDeliveries, outboxEvents, responses } from '../../src/db/schema.ts';
import type { ClaimLoop } from '../../src/events/claim-loop.ts';
import { AppMetrics } from '../../src/metrics.ts';
import { oldestDueEmailSeconds } from '../../src/notifications/deliveries.service.ts';
import { startMailDispatcher, type ConfirmationLimits } from '../../src/notifications/dispatcher.ts';
import { ADMIN_TOKEN, appWith, createTenant, graphql, jsonRequest, setupIsolatedTestApp, testConfig, type TestContext, type TestTenant } from '../support/helpers.ts';
import { SMTP_CA, SMTP_PASSWORD, SmtpReceiver, type SmtpBehaviour } from '../support/smtp-helpers.ts';
import { eventually } from '../support/webhook-helpers.ts';
import { PDF } from '../support/file-fixtures.ts';

/** The box the test app seals environments' secrets with (its instance secrets come from ADMIN_TOKEN). */
const testSecretBox = () => instanceSecretsOf(ADMIN_TOKEN).secretBox;

const logger = pino({ level: process.env.TEST_LOG ?? 'silent' });
let ctx: TestContext;
let app: TestContext['app'];
let tenant: TestTenant;
const dispatchers: ClaimLoop[] = [];
const servers: SmtpReceiver[] = [];

const mailConfig = (smtp: SmtpReceiver | undefined, overrides: Partial<MailConfig> = {}): MailConfig => ({
  ...testConfig().mail,
  smtp: smtp ? { url: smtp.url, requireTls: true } : undefined,
  from: 'Forms <forms@example.com>',
  publicUrl: 'https://forms.example.com',
  retryDelaysMs: [20, 20, 20, 20, 20],
  ...overrides,
});

function dispatch(smtp: SmtpReceiver | undefined, options: { limits?: ConfirmationLimits; config?: Partial<MailConfig>; signFileUrl?: (uploadId: string) => string } = {}) {
  const dispatcher = startMailDispatcher({
    db: ctx.db,
    config: mailConfig(smtp, options.config),
    logger,
    pollMs: 20,
    transport: { ca: SMTP_CA },
    limits: options.limits,
    signFileUrl: options.signFileUrl,
  });
  if (dispatcher) dispatchers.push(dispatcher);
  return dispatcher;
}

async function smtpServer(behaviour?: SmtpBehaviour) {
  const server = await new SmtpReceiver(behaviour).start();
  servers.push(server);
  return server;
}

const key = () => ({ 'x-api-key': tenant.apiKey });

const STEPS = [
  {
    name: 'Contact',
    components: [
      {
        type: 'IdentityInfo',
        key: 'contact',
        content: {
          fields: [
            { key: 'emailAddress', label: 'E-mail' },
            { key: 'fullName', label: 'Name' },
          ],
        },
      },
      { type: 'ShortInput', key: 'note', content: { question: 'Anything else?' } },
    ],
  },
  { name: 'Secret', components: [{ type: 'PasswordInput', key: 'secret', content: { question: 'A password' } }] },
];

async function generate(notifications: unknown, more: Record<string, unknown> = {}) {
  const response = await app.request(
    `/api/v1/environments/${tenant.environmentId}/forms/generate`,
    jsonRequest('POST', { sourceFormId: tenant.templateId, name: 'Book a <demo> & more', steps: STEPS, notifications, ...more }, key()),
  );
  return { status: response.status, body: await response.json() };
}

async function formWith(notifications: unknown, more: Record<string, unknown> = {}) {
  const { status, body } = await generate(notifications, more);
  expect(status, JSON.stringify(body)).toBe(200);
  const id = body.result.form.id as string;
  const definition = (await (await app.request(`/s/${id}/definition`)).json()) as {
    steps: { components: { id: string }[] }[];
  };
  const [contact, note] = definition.steps[0]!.components.map((c) => c.id);
  const secret = definition.steps[1]!.components[0]!.id;
  return { id, contact: contact!, note: note!, secret };
}

type TestForm = Awaited<ReturnType<typeof formWith>>;

async function respond(form: TestForm, answers: { email?: string; name?: string; note?: string; secret?: string }, finished = true) {
  const response = await app.request(
    `/s/${form.id}/responses`,
    jsonRequest('POST', {
      answers: {
        [form.contact]: { emailAddress: answers.email ?? 'ada@example.com', fullName: answers.name ?? 'Ada' },
        [form.note]: answers.note ?? 'hello',
        [form.secret]: answers.secret ?? 'hunter2hunter2',
      },
      finished,
    }),
  );
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

const deliveriesOf = (formId: string) => ctx.db.select().from(notificationDeliveries).where(eq(notificationDeliveries.formId, formId));

beforeAll(async () => {
  ctx = await setupIsolatedTestApp();
  app = appWith(ctx.db, { publicRateLimitPerMinute: 0 });
  tenant = await createTenant(ctx.db);
});
afterEach(async () => {
  await Promise.all(dispatchers.splice(0).map((d) => d.stop()));
  await Promise.all(servers.splice(0).map((s) => s.stop()));
  // Each test starts with an empty mail outbox: no delivery of one test is sent in another.
  await ctx.db.delete(notificationDeliveries);
});

const TEAM = {
  to: ['Sales@Example.com', 'sales@example.com', 'ops@example.com'],
  on: ['response.finished'],
  includeAnswers: true,
};
const RESPONDENT = {
  emailFrom: 'contact.emailAddress',
  subject: 'Thanks for booking',
  body: 'We will call you.\n\nThe team',
  includeAnswers: false,
};

describe('a team alert and a confirmation', () => {
  it('arrive once each, multipart, with Message-ID, Date and Auto-Submitted, the answers escaped and no password', async () => {
    const smtp = await smtpServer();
    const form = await formWith({ team: [TEAM], respondent: RESPONDENT });
    const responseId = await respond(form, { note: '<script>alert(1)</script> & "quotes"', secret: 'never-in-mail-1' });
    dispatch(smtp);
    await eventually(() => smtp.accepted.length >= 3, 'three messages');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(smtp.accepted).toHaveLength(3);
    const to = smtp.accepted.map((m) => m.envelopeTo.join(',')).sort();
    // Sales@Example.com and sales@example.com are one address.
    expect(to).toEqual(['ada@example.com', 'ops@example.com', 'sales@example.com']);
    for (const message of smtp.accepted) {
      expect(message.parsed.headers.get('auto-submitted')).toBe('auto-generated');
      expect(message.parsed.messageId).toMatch(/^<ntf_[a-z0-9]+@forms\.example\.com>$/);
      expect(message.parsed.date).toBeInstanceOf(Date);
      expect(message.parsed.from?.value).toEqual([{ name: 'Forms', address: 'forms@example.com' }]);
      expect(message.parsed.text).toBeTruthy();
      expect(message.parsed.html).toBeTruthy();
      expect(message.raw).toMatch(/multipart\/alternative/);
      expect(message.raw).not.toContain('never-in-mail-1');
      expect(message.parsed.html).not.toContain('<script>');
    }
    const team = smtp.accepted.find((m) => m.envelopeTo[0] === 'ops@example.com')!;
    expect(team.parsed.subject).toBe('New response: Book a <demo> & more');
    expect(team.parsed.text).toContain('<script>alert(1)</script> & "quotes"');
    expect(team.parsed.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;');
    expect(team.parsed.text).toContain(`https://forms.example.com/api/v1/responses/${responseId}`);
    const confirmation = smtp.accepted.find((m) => m.envelopeTo[0] === 'ada@example.com')!;
    expect(confirmation.parsed.subject).toBe('Thanks for booking');
    expect(confirmation.parsed.text).toContain('We will call you.');
    // includeAnswers: false: none of the answers.
    expect(confirmation.parsed.text).not.toContain('alert(1)');
    const rows = await deliveriesOf(form.id);
    expect(rows.map((r) => r.status)).toEqual(['sent', 'sent', 'sent']);
    expect(rows.every((r) => r.attempts === 1 && r.lastReply?.startsWith('250'))).toBe(true);
  });

  it("recalls the respondent's own values into the confirmation's body, escaped in HTML; the subject shows the fallback", async () => {
    const smtp = await smtpServer();
    const respondent = {
      ...RESPONDENT,
      subject: 'Thanks, {{question.contact.fullName | "friend"}}',
      body: 'Thanks, {{question.contact.fullName | "there"}}!\n\nYour note: {{question.note}}',
    };
    const form = await formWith({ respondent });
    await respond(form, { name: 'Ada <b>', note: '<script>x</script>' });
    dispatch(smtp);
    await eventually(() => smtp.accepted.length >= 1, 'the confirmation');
    const [message] = smtp.accepted;
    expect(message!.parsed.subject).toBe('Thanks, friend');
    expect(message!.parsed.text).toContain('Thanks, Ada <b>!');
    expect(message!.parsed.text).toContain('Your note: <script>x</script>');
    expect(message!.parsed.html).toContain('Thanks, Ada &lt;b&gt;!');
    expect(message!.parsed.html).not.toContain('<script>');
    const refused = await generate({ respondent: { ...RESPONDENT, body: 'Hi {{question.nobody}}' } });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].path).toEqual(['notifications', 'respondent', 'body']);
  });

  it.each([
    ['de', 'Neue Antwort: Demo', 'Diese Nachricht wurde automatisch versandt.'],
    ['fr', 'Nouvelle réponse : Demo', 'Ce message a été envoyé automatiquement.'],
    ['es', 'Nueva respuesta: Demo', 'Este mensaje se envió automáticamente.'],
  ])('writes the alert and the confirmation in the form language (%s)', async (locale, subject, automatic) => {
    const smtp = await smtpServer();
    const respondent = { ...RESPONDENT, subject: 'Merci' };
    const form = await formWith({ team: [{ to: ['ops@example.com'] }], respondent }, { name: 'Demo', locale });
    await respond(form, { email: 'x@example.com' });
    dispatch(smtp);
    await eventually(() => smtp.accepted.length >= 2, 'the alert and the confirmation');
    const alert = smtp.accepted.find((m) => m.envelopeTo[0] === 'ops@example.com')!;
    expect(alert.parsed.subject).toBe(subject);
    expect(alert.parsed.html).toContain(`lang="${locale}"`);
    const confirmation = smtp.accepted.find((m) => m.envelopeTo[0] === 'x@example.com')!;
    for (const message of [alert, confirmation]) expect(message.parsed.text).toContain(automatic);
    // includeAnswers left out: false.
    expect(alert.parsed.text).not.toContain('x@example.com');
  });

  it('writes in the language of the version the response was answered on', async () => {
    const smtp = await smtpServer();
    const form = await formWith({ team: [{ to: ['ops@example.com'] }] }, { name: 'Demo', locale: 'fr' });
    const started = await app.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers: { [form.contact]: { emailAddress: 'ada@example.com', fullName: 'Ada' } } }));
    const { id, resumeToken } = (await started.json()) as { id: string; resumeToken: string };
    const changed = await app.request(`/api/v1/forms/${form.id}`, jsonRequest('PATCH', { locale: 'de' }, key()));
    expect(changed.status).toBe(200);
    const finished = await app.request(
      `/s/${form.id}/responses/${id}`,
      jsonRequest('PATCH', { answers: { [form.secret]: 'hunter2hunter2' }, finished: true }, { authorization: `Bearer ${resumeToken}` }),
    );
    expect(finished.status).toBe(200);
    await respond(form, { email: 'new@example.com' });
    dispatch(smtp);
    await eventually(() => smtp.accepted.length >= 2, 'both alerts');
    expect(smtp.accepted.map((m) => m.parsed.subject).sort()).toEqual(['Neue Antwort: Demo', 'Nouvelle réponse : Demo']);
  });

  it("writes in the language a multilingual form was answered in, the form's name and the date in it too (an untranslated name in the default language)", async () => {
    const smtp = await smtpServer();
    const form = await formWith({ team: [{ to: ['ops@example.com'] }] }, { name: { en: 'Demo', de: 'Umfrage' }, languages: { default: 'en', others: ['de', 'fr'] } });
    const answers = { [form.contact]: { emailAddress: 'ada@example.com', fullName: 'Ada' }, [form.note]: 'hallo', [form.secret]: 'hunter2hunter2' };
    for (const language of ['de', 'fr']) {
      const response = await app.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers, finished: true, language }));
      expect(response.status, await response.clone().text()).toBe(201);
    }
    dispatch(smtp);
    await eventually(() => smtp.accepted.length >= 2, 'both alerts');
    expect(smtp.accepted.map((m) => m.parsed.subject).sort()).toEqual(['Neue Antwort: Umfrage', 'Nouvelle réponse : Demo']);
    const german = smtp.accepted.find((m) => m.parsed.subject === 'Neue Antwort: Umfrage')!;
    const month = new Intl.DateTimeFormat('de', { month: 'long', timeZone: 'UTC' }).format(new Date());
    expect(german.parsed.text).toContain(`Eine Antwort auf „Umfrage“ ist am `);
    expect(german.parsed.text).toContain(month);
  });

  it("recalls a choice into a confirmation and lists the answers as its respondent saw them, in the response's language", async () => {
    const smtp = await smtpServer();
    const plan = { type: 'Dropdown', key: 'plan', content: { question: { en: 'Plan?', fr: 'Formule ?' }, options: [{ en: 'Small team', fr: 'Petite équipe' }, 'Enterprise'] } };
    const steps = [{ ...STEPS[0]!, components: [...STEPS[0]!.components, plan] }, STEPS[1]!];
    const respondent = { ...RESPONDENT, body: 'Your plan: {{question.plan}}', includeAnswers: true };
    const form = await formWith({ respondent }, { steps, languages: { default: 'en', others: ['fr'] } });
    const definition = (await (await app.request(`/s/${form.id}/definition`)).json()) as { steps: { components: { id: string }[] }[] };
    const planId = definition.steps[0]!.components[2]!.id;
    const answers = { [form.contact]: { emailAddress: 'ada@example.com', fullName: 'Ada' }, [planId]: 'Petite équipe', [form.secret]: 'hunter2hunter2' };
    const response = await app.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers, finished: true, language: 'fr' }));
    expect(response.status, await response.clone().text()).toBe(201);
    dispatch(smtp);
    await eventually(() => smtp.accepted.length >= 1, 'the confirmation');
    const { text } = smtp.accepted[0]!.parsed;
    expect(text).toContain('Your plan: Petite équipe');
    // Its answers too: the question and the option in French, the password left out.
    expect(text).toContain('Formule ?: Petite équipe');
    expect(text).not.toContain('Small team');
    expect(text).not.toContain('hunter2');
  });

  it('puts no answer into a header, whatever it holds', async () => {
    const smtp = await smtpServer();
    const injection = 'x\r\nBcc: evil@attacker.example\r\nSubject: hacked';
    const form = await formWith({
      team: [{ to: ['ops@example.com'], includeAnswers: true }],
      respondent: { ...RESPONDENT, includeAnswers: true },
    });
    await respond(form, { name: injection, note: injection });
    dispatch(smtp);
    await eventually(() => smtp.accepted.length >= 2, 'two messages');
    for (const message of smtp.accepted) {
      expect(message.envelopeTo).toHaveLength(1);
      expect(message.envelopeTo[0]).not.toContain('attacker');
      expect(message.parsed.headers.has('bcc')).toBe(false);
      expect(message.parsed.subject).not.toBe('hacked');
      const head = message.raw.slice(0, message.raw.indexOf('\r\n\r\n'));
      expect(head).not.toMatch(/attacker|hacked/);
    }
    // An injection in the address itself is refused with the submission (it is not an address).
    const refused = await app.request(
      `/s/${form.id}/responses`,
      jsonRequest('POST', {
        answers: { [form.contact]: { emailAddress: 'a@example.com\r\nBcc: evil@attacker.example' } },
        finished: false,
      }),
    );
    expect(refused.status).toBe(400);
  });
});

describe('delivery', () => {
  it('waits while no SMTP server is configured, then sends through the environment’s own, its password write-only and sealed', async () => {
    const form = await formWith({ team: [{ to: ['ops@example.com'] }] });
    await respond(form, {});
    // No server SMTP and no box to open environments' passwords: nothing can be sent, nothing runs.
    expect(dispatch(undefined)).toBeUndefined();
    // With the box, it runs, but claims nothing while the environment has no server either.
    const box = testSecretBox();
    const waiting = startMailDispatcher({
      db: ctx.db,
      config: mailConfig(undefined),
      logger,
      pollMs: 20,
      transport: { ca: SMTP_CA },
      box,
    });
    dispatchers.push(waiting!);
    expect((await deliveriesOf(form.id)).map((r) => [r.status, r.attempts])).toEqual([['pending', 0]]);
    const smtp = await smtpServer();
    const settings = (body: unknown) => app.request(`/api/v1/environments/${tenant.environmentId}/settings`, jsonRequest('PATCH', body, key()));
    const refused = await settings({ smtp: { url: `smtp://mailer:${SMTP_PASSWORD}@127.0.0.1:${smtp.port}` } });
    expect(refused.status).toBe(400);
    expect(await refused.text()).not.toContain(SMTP_PASSWORD);
    const changed = await settings({
      smtp: {
        url: `smtp://mailer@127.0.0.1:${smtp.port}`,
        password: SMTP_PASSWORD,
        from: 'Team Forms <team@example.com>',
      },
    });
    expect(changed.status).toBe(200);
    const shown = (await changed.json()) as { smtp: unknown };
    expect(shown.smtp).toEqual({
      url: `smtp://mailer@127.0.0.1:${smtp.port}`,
      from: 'Team Forms <team@example.com>',
      passwordSet: true,
    });
    expect(JSON.stringify(await ctx.db.select().from(environments).where(eq(environments.id, tenant.environmentId)))).not.toContain(SMTP_PASSWORD);
    waiting!.kick();
    await eventually(() => smtp.accepted.length >= 1, 'the alert');
    expect(smtp.accepted[0]!.parsed.from?.value).toEqual([{ name: 'Team Forms', address: 'team@example.com' }]);
    expect((await deliveriesOf(form.id)).map((r) => r.status)).toEqual(['sent']);
    expect((await settings({ smtp: { url: null } })).status).toBe(200);
  });

  it('retries while the server is down and on 4xx replies; every message arrives once', async () => {
    const down = await smtpServer();
    const port = down.port;
    await down.stop();
    const form = await formWith({ team: [{ to: ['a@example.com', 'b@example.com'] }] });
    await respond(form, { email: 'r1@example.com' });
    await respond(form, { email: 'r2@example.com' });
    // Pointed at the stopped server's port: connections are refused.
    const smtp = new SmtpReceiver((n) => (n <= 2 ? { code: 451, message: 'Try again later' } : 'accept'));
    smtp.port = port;
    dispatch(smtp, { config: { retryDelaysMs: [50, 50, 50, 50, 50, 50, 50, 50] } });
    await eventually(async () => (await deliveriesOf(form.id)).every((r) => r.attempts >= 2), 'failed attempts');
    await smtp.start(port);
    servers.push(smtp);
    await eventually(async () => (await deliveriesOf(form.id)).every((r) => r.status === 'sent'), 'all sent');
    expect(smtp.accepted).toHaveLength(4);
    expect(new Set(smtp.accepted.map((m) => m.parsed.messageId)).size).toBe(4);
    const rows = await deliveriesOf(form.id);
    expect(rows.every((r) => r.attempts >= 2)).toBe(true);
  });

  it('fails a message the server refuses with 550, without retrying', async () => {
    const smtp = await smtpServer(() => ({ code: 550, message: 'No such user' }));
    const form = await formWith({ team: [{ to: ['nobody@example.com'] }] });
    await respond(form, {});
    dispatch(smtp);
    await eventually(async () => (await deliveriesOf(form.id))[0]?.status === 'failed', 'failed');
    const [row] = await deliveriesOf(form.id);
    expect(row!.attempts).toBe(1);
    expect(row!.lastReply).toMatch(/^550/);
    expect(smtp.attempts).toBe(1);
  });

  it('refuses to send over smtp:// without STARTTLS, unless SMTP_REQUIRE_TLS=0', async () => {
    const smtp = new SmtpReceiver(undefined, 'plain');
    await smtp.start();
    servers.push(smtp);
    const form = await formWith({ team: [{ to: ['ops@example.com'] }] });
    await respond(form, {});
    dispatch(smtp, { config: { retryDelaysMs: [] } });
    await eventually(async () => (await deliveriesOf(form.id))[0]?.status === 'failed', 'failed');
    expect(smtp.accepted).toHaveLength(0);
    // nodemailer asks for STARTTLS whatever the server offers, and stops at its refusal.
    expect((await deliveriesOf(form.id))[0]!.lastReply).toMatch(/^5\d\d /);
    await Promise.all(dispatchers.splice(0).map((d) => d.stop()));

    const relaxed = await formWith({ team: [{ to: ['ops@example.com'] }] });
    await respond(relaxed, {});
    dispatch(smtp, { config: { smtp: { url: smtp.url, requireTls: false } } });
    await eventually(async () => (await deliveriesOf(relaxed.id))[0]?.status === 'sent', 'sent');
    expect(smtp.accepted).toHaveLength(1);
  });

  it('refuses a server whose certificate it does not trust', async () => {
    const smtp = await smtpServer();
    const form = await formWith({ team: [{ to: ['ops@example.com'] }] });
    await respond(form, {});
    const dispatcher = startMailDispatcher({
      db: ctx.db,
      config: mailConfig(smtp, { retryDelaysMs: [] }),
      logger,
      pollMs: 20,
    });
    dispatchers.push(dispatcher!);
    await eventually(async () => (await deliveriesOf(form.id))[0]?.status === 'failed', 'failed');
    expect(smtp.accepted).toHaveLength(0);
  });

  it('sends each message once from two nodes', async () => {
    const smtp = await smtpServer();
    const form = await formWith({ team: [{ to: ['a@example.com', 'b@example.com', 'c@example.com'] }] });
    for (let i = 0; i < 5; i++) await respond(form, { email: `r${i}@example.com` });
    dispatch(smtp);
    dispatch(smtp);
    await eventually(async () => (await deliveriesOf(form.id)).every((r) => r.status === 'sent'), 'all sent');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(smtp.accepted).toHaveLength(15);
    expect(new Set(smtp.accepted.map((m) => m.parsed.messageId)).size).toBe(15);
  });

  it('keeps confirmations within the limits (addresses without case) and records the rest as suppressed', async () => {
    const smtp = await smtpServer();
    const form = await formWith({ respondent: RESPONDENT });
    for (const email of ['same@example.com', 'SAME@example.com', 'Same@Example.com', 'same@example.com', 'other@example.com']) await respond(form, { email });
    // An unfinished response gets no confirmation.
    await respond(form, { email: 'unfinished@example.com' }, false);
    dispatch(smtp);
    await eventually(async () => (await deliveriesOf(form.id)).every((r) => r.status === 'sent' || r.status === 'suppressed'), 'settled');
    const rows = await deliveriesOf(form.id);
    expect(rows).toHaveLength(5);
    expect(rows.filter((r) => r.status === 'suppressed')).toHaveLength(1);
    expect(smtp.accepted.filter((m) => m.envelopeTo[0] === 'same@example.com')).toHaveLength(3);
    expect(smtp.accepted.filter((m) => m.envelopeTo[0] === 'other@example.com')).toHaveLength(1);
  });

  it('caps confirmations per form per hour', async () => {
    const smtp = await smtpServer();
    const form = await formWith({ respondent: RESPONDENT });
    for (let i = 0; i < 4; i++) await respond(form, { email: `p${i}@example.com` });
    dispatch(smtp, { limits: { perAddressPerDay: 3, perFormPerHour: 2 } });
    await eventually(async () => (await deliveriesOf(form.id)).every((r) => r.status === 'sent' || r.status === 'suppressed'), 'settled');
    const rows = await deliveriesOf(form.id);
    // Settled by the order they were recorded in: the first two are sent, the next two suppressed.
    expect(rows.filter((r) => r.status === 'sent')).toHaveLength(2);
    expect(rows.filter((r) => r.status === 'suppressed')).toHaveLength(2);
    expect(smtp.accepted.map((m) => m.envelopeTo[0]).sort()).toEqual(['p0@example.com', 'p1@example.com']);
  });

  it('never sends a confirmation to an address a personal-e-mail block refused', async () => {
    const cases = [
      { emailFrom: 'work', component: { type: 'EmailForm', key: 'work', content: { question: 'Work e-mail', blockPersonalEmails: true } }, answer: (address: string) => address },
      {
        emailFrom: 'who.workEmailAddress',
        component: { type: 'IdentityInfo', key: 'who', content: { fields: [{ key: 'workEmailAddress', label: 'Work e-mail', blockPersonalEmails: true }] } },
        answer: (address: string) => ({ workEmailAddress: address }),
      },
    ];
    for (const { emailFrom, component, answer } of cases) {
      const steps = [
        { name: 'Contact', components: [component] },
        { name: 'End', components: [{ type: 'Header', content: { title: 'Thanks' } }] },
      ];
      const { status, body } = await generate({ respondent: { ...RESPONDENT, emailFrom } }, { steps });
      expect(status, JSON.stringify(body)).toBe(200);
      const id = body.result.form.id as string;
      const definition = (await (await app.request(`/s/${id}/definition`)).json()) as { steps: { components: { id: string }[] }[] };
      const questionId = definition.steps[0]!.components[0]!.id;
      const submit = (address: string) => app.request(`/s/${id}/responses`, jsonRequest('POST', { answers: { [questionId]: answer(address) }, finished: true }));
      expect((await submit('someone@gmail.com')).status).toBe(400);
      expect((await submit('Someone@Hotmail.co.uk')).status).toBe(400);
      const accepted = await submit('lead@acme.example');
      expect(accepted.status, await accepted.clone().text()).toBe(201);
      expect((await deliveriesOf(id)).map((r) => r.recipient)).toEqual(['lead@acme.example']);
    }
  });

  it('puts files in the answers as signed links the API serves, and never a password', async () => {
    const smtp = await smtpServer();
    const steps = [
      { name: 'Files', components: [{ type: 'FileUploader', key: 'cv', content: { question: 'Your CV' } }] },
      { name: 'Secret', components: [{ type: 'PasswordInput', key: 'secret', content: { question: 'A password' } }] },
    ];
    const { status, body } = await generate({ team: [{ to: ['ops@example.com'], includeAnswers: true }] }, { steps });
    expect(status, JSON.stringify(body)).toBe(200);
    const id = body.result.form.id as string;
    const definition = (await (await app.request(`/s/${id}/definition`)).json()) as { steps: { components: { id: string }[] }[] };
    const [cv, secret] = definition.steps.map((step) => step.components[0]!.id);
    const upload = new FormData();
    upload.append('componentId', cv!);
    upload.append('file', new File([PDF], 'cv.pdf', { type: 'application/pdf' }));
    const uploaded = await app.request(`/s/${id}/uploads`, { method: 'POST', body: upload });
    expect(uploaded.status).toBe(201);
    const fileId = ((await uploaded.json()) as { files: { id: string }[] }).files[0]!.id;
    const answered = await app.request(`/s/${id}/responses`, jsonRequest('POST', { answers: { [cv!]: fileId, [secret!]: 'never-in-mail-2' }, finished: true }));
    expect(answered.status, await answered.clone().text()).toBe(201);
    const signing = instanceSecretsOf(ADMIN_TOKEN).signing;
    dispatch(smtp, { signFileUrl: (upload) => signedFileUrl(signing.fileUrls.current, upload, 600) });
    await eventually(() => smtp.accepted.length >= 1, 'the alert');
    const [message] = smtp.accepted;
    expect(message!.raw).not.toContain('never-in-mail-2');
    const link = new RegExp(`cv\\.pdf: https://forms\\.example\\.com(/api/v1/files/${fileId}\\?expires=\\d+&signature=[\\w-]+)`).exec(message!.parsed.text!);
    expect(link, message!.parsed.text).not.toBeNull();
    // The link works without an API key; the file without its signature does not.
    const served = await app.request(link![1]!);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(PDF)).toBe(true);
    expect((await app.request(`/api/v1/files/${fileId}`)).status).toBe(401);
  });
});

describe('an environment’s own server through GraphQL', () => {
  it('sets it with updateEnvironmentSettings, the password write-only, sealed and audited as "set", and sends through it', async () => {
    const smtp = await smtpServer();
    const mutation = `mutation($env: ID, $input: EnvironmentSettingsInput!) {
      updateEnvironmentSettings(environmentId: $env, input: $input) { smtp { url from passwordSet } } }`;
    const url = `smtp://mailer@127.0.0.1:${smtp.port}`;
    const refused = await graphql(
      app,
      mutation,
      { env: tenant.environmentId, input: { smtp: { url: `smtp://mailer:${encodeURIComponent(SMTP_PASSWORD)}@127.0.0.1:${smtp.port}` } } },
      key(),
    );
    expect(refused.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(JSON.stringify(refused.body)).toContain('"smtp","url"');
    expect(JSON.stringify(refused.body)).not.toContain(encodeURIComponent(SMTP_PASSWORD));
    const set = await graphql(app, mutation, { env: tenant.environmentId, input: { smtp: { url, password: SMTP_PASSWORD, from: 'GraphQL Forms <gql@example.com>' } } }, key());
    expect(set.body.errors).toBeUndefined();
    expect(set.body.data.updateEnvironmentSettings.smtp).toEqual({ url, from: 'GraphQL Forms <gql@example.com>', passwordSet: true });
    // The password is no field of SmtpSettings: it cannot be read back.
    const read = await graphql(app, `{ environment(id: "${tenant.environmentId}") { smtp { password } } }`, {}, key());
    expect(read.body.errors?.[0]?.message).toMatch(/Cannot query field "password"/);
    const [row] = await ctx.db.select().from(environments).where(eq(environments.id, tenant.environmentId));
    expect(row!.smtpPasswordSealed).toBeTruthy();
    expect(JSON.stringify(row)).not.toContain(SMTP_PASSWORD);
    const audits = await ctx.db.select().from(auditLog).where(eq(auditLog.environmentId, tenant.environmentId));
    expect(audits.some((entry) => (entry.details as Record<string, unknown>).smtpPassword === 'set')).toBe(true);
    expect(JSON.stringify(audits)).not.toContain(SMTP_PASSWORD);
    try {
      const form = await formWith({ team: [{ to: ['ops@example.com'] }] });
      await respond(form, {});
      // No server SMTP_URL: only the environment's own server (its sealed password opened) can send it.
      const dispatcher = startMailDispatcher({ db: ctx.db, config: mailConfig(undefined), logger, pollMs: 20, transport: { ca: SMTP_CA }, box: testSecretBox() });
      dispatchers.push(dispatcher!);
      await eventually(() => smtp.accepted.length >= 1, 'the alert');
      expect(smtp.accepted[0]!.parsed.from?.value).toEqual([{ name: 'GraphQL Forms', address: 'gql@example.com' }]);
    } finally {
      const cleared = await graphql(app, mutation, { env: tenant.environmentId, input: { smtp: { url: null, from: null } } }, key());
      expect(cleared.body.data.updateEnvironmentSettings.smtp).toEqual({ url: null, from: null, passwordSet: false });
    }
  });
});

describe('the mail outbox', () => {
  it('is written in the submission’s statement: a delivery that cannot be stored leaves no response and no event', async () => {
    const form = await formWith({ team: [{ to: ['ops@example.com', 'boom@example.com'] }] });
    await ctx.db.execute(sql`create or replace function refuse_boom() returns trigger language plpgsql as $$
      begin if new.recipient = 'boom@example.com' then raise exception 'refused by the test'; end if; return new; end $$`);
    await ctx.db.execute(sql`create trigger refuse_boom before insert on notification_deliveries for each row execute function refuse_boom()`);
    try {
      const response = await app.request(
        `/s/${form.id}/responses`,
        jsonRequest('POST', { answers: { [form.contact]: { emailAddress: 'ada@example.com', fullName: 'Ada' }, [form.secret]: 'hunter2hunter2' }, finished: true }),
      );
      expect(response.status).toBe(500);
      expect(await ctx.db.select().from(responses).where(eq(responses.formId, form.id))).toEqual([]);
      expect(
        await ctx.db
          .select()
          .from(outboxEvents)
          .where(and(eq(outboxEvents.formId, form.id), isNotNull(outboxEvents.responseId))),
      ).toEqual([]);
      expect(await deliveriesOf(form.id)).toEqual([]);
      // An unfinished response sends nothing, so nothing stops it.
      await respond(form, {}, false);
    } finally {
      await ctx.db.execute(sql`drop trigger refuse_boom on notification_deliveries`);
      await ctx.db.execute(sql`drop function refuse_boom()`);
    }
    // Without the refusal the same submission stores the response with both deliveries.
    const id = await respond(form, {});
    expect((await deliveriesOf(form.id)).map((r) => [r.responseId, r.recipient]).sort()).toEqual([
      [id, 'boom@example.com'],
      [id, 'ops@example.com'],
    ]);
  });
});

describe('validation', () => {
  it.each([
    [{ team: [{ to: ['not an address'] }] }, ['notifications', 'team', 0, 'to', 0]],
    [{ team: [{ to: ['a@example.com'], on: ['response.deleted'] }] }, ['notifications', 'team', 0, 'on', 0]],
    [{ team: Array.from({ length: 11 }, () => ({ to: ['a@example.com'] })) }, ['notifications', 'team']],
    [{ team: [{ to: ['a@example.com'], cc: ['b@example.com'] }] }, ['notifications', 'team', 0]],
    [{ respondent: { ...RESPONDENT, emailFrom: 'nothing' } }, ['notifications', 'respondent', 'emailFrom']],
    [{ respondent: { ...RESPONDENT, emailFrom: 'contact.fullName' } }, ['notifications', 'respondent', 'emailFrom']],
    [{ team: [{ to: ['a@example.com'], subject: 'Hi\r\nBcc: x@example.com' }] }, ['notifications', 'team', 0, 'subject']],
  ])('refuses %j with 400 at its path', async (notifications, path) => {
    const { status, body } = await generate(notifications);
    expect(status).toBe(400);
    expect(JSON.stringify(body)).toContain(JSON.stringify(path).slice(1, -1));
  });

  it('checks an update against the steps it keeps', async () => {
    const form = await formWith(null);
    const patch = (body: unknown) => app.request(`/api/v1/forms/${form.id}`, jsonRequest('PATCH', body, key()));
    expect((await patch({ notifications: { respondent: RESPONDENT } })).status).toBe(200);
    const refused = await patch({ notifications: { respondent: { ...RESPONDENT, emailFrom: 'nope.emailAddress' } } });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('emailFrom');
    // An update is checked as generate is: every problem at once, each at its path.
    const many = await patch({
      notifications: {
        team: [
          { to: ['a@example.com', 'nope'], on: ['response.deleted'] },
          { to: ['b@example.com'], bcc: ['c@example.com'] },
        ],
      },
    });
    expect(many.status).toBe(400);
    const paths = ((await many.json()) as { errors: { path: unknown[] }[] }).errors.map((e) => JSON.stringify(e.path));
    expect(paths).toEqual(
      expect.arrayContaining([
        JSON.stringify(['notifications', 'team', 0, 'to', 1]),
        JSON.stringify(['notifications', 'team', 0, 'on', 0]),
        JSON.stringify(['notifications', 'team', 1]),
      ]),
    );
    const eleven = await patch({ notifications: { team: Array.from({ length: 11 }, () => ({ to: ['a@example.com'] })) } });
    expect(eleven.status).toBe(400);
    expect(JSON.stringify(await eleven.json())).toContain('"path":["notifications","team"]');
  });
});

describe('notifications through versions and import', () => {
  const versions = `query($id: ID!) { form(id: $id) { notifications { team { to } }
    versions(first: 5) { edges { node { version definition { notifications { team { to } } json } } } } } }`;
  const patch = (id: string, body: unknown) => app.request(`/api/v1/forms/${id}`, jsonRequest('PATCH', body, key()));
  const teamOf = (notifications: { team: { to: string[] }[] } | null) => notifications?.team.map((rule) => rule.to);

  it('keeps each version’s notifications, and an old definition brought back brings its notifications back', async () => {
    const form = await formWith({ team: [{ to: ['first@example.com'] }] });
    expect((await patch(form.id, { notifications: { team: [{ to: ['second@example.com'] }] } })).status).toBe(200);
    expect((await patch(form.id, { notifications: null })).status).toBe(200);
    const listed = await graphql(app, versions, { id: form.id }, key());
    expect(listed.body.errors).toBeUndefined();
    type Version = { node: { version: number; definition: { notifications: never; json: Record<string, unknown> } } };
    const edges = listed.body.data.form.versions.edges as Version[];
    expect(edges.map((edge) => [edge.node.version, teamOf(edge.node.definition.notifications)])).toEqual([
      [3, undefined],
      [2, [['second@example.com']]],
      [1, [['first@example.com']]],
    ]);
    // Restoring version 1: its definition as the API shows it, sent back as an update.
    const { notifications } = edges.find((edge) => edge.node.version === 1)!.node.definition.json;
    expect((await patch(form.id, { notifications })).status).toBe(200);
    const now = await graphql(app, versions, { id: form.id }, key());
    expect(teamOf(now.body.data.form.notifications)).toEqual([['first@example.com']]);
    const smtp = await smtpServer();
    await respond(form, {});
    dispatch(smtp);
    await eventually(() => smtp.accepted.length >= 1, 'the alert');
    expect(smtp.accepted.map((m) => m.envelopeTo)).toEqual([['first@example.com']]);
  });

  it('notifies a response started on an older version as the form says now', async () => {
    const form = await formWith({ team: [{ to: ['before@example.com'] }] });
    const started = await app.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers: { [form.contact]: { emailAddress: 'ada@example.com', fullName: 'Ada' } } }));
    expect(started.status).toBe(201);
    const { id, resumeToken } = (await started.json()) as { id: string; resumeToken: string };
    expect((await patch(form.id, { notifications: { team: [{ to: ['now@example.com'] }] } })).status).toBe(200);
    const finished = await app.request(
      `/s/${form.id}/responses/${id}`,
      jsonRequest('PATCH', { answers: { [form.secret]: 'hunter2hunter2' }, finished: true }, { authorization: `Bearer ${resumeToken}` }),
    );
    expect(finished.status, await finished.clone().text()).toBe(200);
    const [row] = await ctx.db.select().from(responses).where(eq(responses.id, id));
    expect(row!.meta.formVersion).toBe(1);
    expect((await deliveriesOf(form.id)).map((delivery) => delivery.recipient)).toEqual(['now@example.com']);
  });

  it('imports a form with its notifications, checked as generate checks them', async () => {
    const mutation = `mutation($input: ImportFormInput!) { importForm(input: $input) { id notifications { team { to } }
      versions(first: 1) { edges { node { definition { notifications { team { to } } } } } } } }`;
    const input = { environmentId: tenant.environmentId, name: 'Imported', steps: STEPS };
    const imported = await graphql(app, mutation, { input: { ...input, notifications: { team: [{ to: ['ops@example.com'] }] } } }, key());
    expect(imported.body.errors).toBeUndefined();
    const form = imported.body.data.importForm;
    expect(teamOf(form.notifications)).toEqual([['ops@example.com']]);
    expect(teamOf(form.versions.edges[0].node.definition.notifications)).toEqual([['ops@example.com']]);
    const refused = await graphql(app, mutation, { input: { ...input, notifications: { respondent: { ...RESPONDENT, emailFrom: 'nope' } } } }, key());
    expect(refused.body.data).toBeNull();
    expect(JSON.stringify(refused.body.errors)).toContain('emailFrom');
  });
});

describe('the delivery log', () => {
  const log = async (formId: string, query = '', t: TestTenant = tenant) => {
    const response = await app.request(`/api/v1/forms/${formId}/notifications/deliveries${query}`, {
      headers: { 'x-api-key': t.apiKey },
    });
    return { status: response.status, body: await response.json() };
  };

  it('lists one delivery per address, masked, waiting for SMTP while there is none; pages with cursors', async () => {
    const form = await formWith({ team: [{ to: ['ops@example.com', 'sales@example.com'] }], respondent: RESPONDENT });
    await respond(form, { email: 'grace@example.com' });
    const all = await log(form.id);
    expect(all.status).toBe(200);
    expect(all.body.data).toHaveLength(3);
    expect(all.body.nextCursor).toBeNull();
    expect(all.body.data.map((d: any) => d.recipient).sort()).toEqual(['g***@example.com', 'o***@example.com', 's***@example.com']);
    expect(all.body.data.every((d: any) => d.status === 'waiting-for-smtp' && d.attempts === 0)).toBe(true);
    expect(all.body.data.map((d: any) => d.kind).sort()).toEqual(['respondent', 'team', 'team']);
    const first = await log(form.id, '?limit=2');
    expect(first.body.data).toHaveLength(2);
    const second = await log(form.id, `?limit=2&after=${first.body.nextCursor}`);
    expect(second.body.data).toHaveLength(1);
    expect(new Set([...first.body.data, ...second.body.data].map((d: any) => d.id)).size).toBe(3);
    // GraphQL answers the same.
    const query = await app.request(
      '/graphql',
      jsonRequest(
        'POST',
        {
          query: `{ form(id: "${form.id}") { notificationDeliveries(first: 5) { edges { node { recipient status kind } } } } }`,
        },
        key(),
      ),
    );
    const graph = await query.json();
    expect(graph.data.form.notificationDeliveries.edges).toHaveLength(3);
    expect(graph.data.form.notificationDeliveries.edges[0].node.status).toBe('WAITING_FOR_SMTP');
  });

  it('refuses bad parameters with 400, and another environment’s form with 404', async () => {
    const form = await formWith({ team: [{ to: ['ops@example.com'] }] });
    const bad = await log(form.id, '?limit=0&after=nope');
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: any) => e.path[0]).sort()).toEqual(['after', 'limit']);
    const other = await createTenant(ctx.db);
    expect((await log(form.id, '', other)).status).toBe(404);
  });

  it('sends a failed delivery again on retry; a sent one is a conflict', async () => {
    let refuse = true;
    const smtp = await smtpServer(() => (refuse ? { code: 550, message: 'Mailbox unavailable' } : 'accept'));
    const form = await formWith({ team: [{ to: ['ops@example.com'] }] });
    await respond(form, {});
    dispatch(smtp);
    await eventually(async () => (await deliveriesOf(form.id))[0]?.status === 'failed', 'failed');
    const [row] = await deliveriesOf(form.id);
    refuse = false;
    const retry = (t: TestTenant = tenant) =>
      app.request(`/api/v1/forms/${form.id}/notifications/deliveries/${row!.id}/retry`, {
        method: 'POST',
        headers: { 'x-api-key': t.apiKey },
      });
    expect((await retry(await createTenant(ctx.db))).status).toBe(404);
    const retried = await retry();
    expect(retried.status).toBe(202);
    // Pending again; this app has no SMTP_URL of its own (the test's dispatcher has its server), so it says so.
    expect((await retried.json()).status).toBe('waiting-for-smtp');
    await eventually(() => smtp.accepted.length === 1, 'sent on retry');
    await eventually(async () => (await deliveriesOf(form.id))[0]?.status === 'sent', 'sent');
    expect((await retry()).status).toBe(409);
  });
});

describe('erasing a person', () => {
  it('drops the e-mails not sent yet about their responses and masks the address of those sent', async () => {
    const smtp = await smtpServer();
    const sentForm = await formWith({ respondent: RESPONDENT });
    const sentId = await respond(sentForm, { email: 'erase.me@example.com' });
    dispatch(smtp);
    await eventually(async () => (await deliveriesOf(sentForm.id))[0]?.status === 'sent', 'sent');
    await Promise.all(dispatchers.splice(0).map((d) => d.stop()));
    const waitingForm = await formWith({ team: [{ to: ['ops@example.com'] }], respondent: RESPONDENT });
    await respond(waitingForm, { email: 'erase.me@example.com' });
    expect(await deliveriesOf(waitingForm.id)).toHaveLength(2);
    const [{ leadId }] = (await ctx.db.select({ leadId: responses.leadId }).from(responses).where(eq(responses.id, sentId))) as [{ leadId: string }];
    const erased = await app.request(`/api/v1/leads/${leadId}`, { method: 'DELETE', headers: key() });
    expect(erased.status).toBe(200);
    expect(await deliveriesOf(waitingForm.id)).toHaveLength(0);
    const [kept] = await deliveriesOf(sentForm.id);
    expect(kept!.status).toBe('sent');
    expect(kept!.recipient).toBe('e***@example.com');
  });
});

describe('metrics', () => {
  it('counts what a node sent, failed and suppressed, and reports the age of the oldest due delivery', async () => {
    const metrics = new AppMetrics();
    const smtp = await smtpServer((n) => (n === 1 ? { code: 550, message: 'No such user' } : 'accept'));
    const form = await formWith({ team: [{ to: ['ops@example.com'] }], respondent: RESPONDENT });
    await respond(form, { email: 'm@example.com' });
    expect(await oldestDueEmailSeconds(ctx.db)).toBeGreaterThanOrEqual(0);
    const dispatcher = startMailDispatcher({
      db: ctx.db,
      config: mailConfig(smtp),
      logger,
      pollMs: 20,
      transport: { ca: SMTP_CA },
      onOutcome: (kind, outcome) => metrics.emailDeliveries.inc({ kind, outcome }),
    });
    dispatchers.push(dispatcher!);
    await eventually(async () => (await deliveriesOf(form.id)).every((r) => r.status === 'sent' || r.status === 'failed'), 'settled');
    const text = await metrics.registry.metrics();
    const count = (outcome: string) =>
      [...text.matchAll(new RegExp(`formloom_email_deliveries_total\\{kind="\\w+",outcome="${outcome}"\\} (\\d+)`, 'g'))].reduce((sum, m) => sum + Number(m[1]), 0);
    expect(count('sent')).toBe(1);
    expect(count('failed')).toBe(1);
    expect(await oldestDueEmailSeconds(ctx.db)).toBe(0);
    const scraped = await app.request('/metrics', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(await scraped.text()).toMatch(/^formloom_email_queue_age_seconds 0$/m);
  });
});
