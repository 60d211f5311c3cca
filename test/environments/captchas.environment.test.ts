/**
 * Captcha keys per environment (README "Captchas"): each environment sets its own Turnstile and reCAPTCHA
 * site key and secret key over GraphQL, REST and the CLI; verification uses the form's environment's
 * secret (else the server's), checked against a local HTTP server standing in for the provider; one
 * environment's secret is never used for another's forms; the secret is never in an API answer, the
 * audit log, a log line or the database in clear. Secure by default: a captcha no secret (or no site
 * key) could ever check is refused when a form is generated or imported.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { Readable, Writable } from 'node:stream';
import { serve, type ServerType } from '@hono/node-server';
import { eq } from 'drizzle-orm';
import { pino } from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.ts';
import { runCli } from '../../src/cli.ts';
import type { Config } from '../../src/config.ts';
import { environments } from '../../src/db/schema.ts';
import type { Form } from '../../src/forms/forms.service.ts';
import { startCaptchaProvider } from '../support/captcha-provider.ts';
import { onFileEnd } from '../support/cleanup.ts';
import { tablesHolding } from '../support/db-scan.ts';
import { ADMIN_TOKEN, checkedApp, createTenant, jsonRequest, setupIsolatedTestApp, testConfig, type TestContext, type TestTenant } from '../support/helpers.ts';
import { componentAt, field, makeForm, Visitor } from '../support/public-helpers.ts';

const GOOD = 'good-token';
/** Each environment's secrets, and the server's: long, distinctive, easy to find anywhere they leak. */
const SECRET = {
  a: 'env-A-turnstile-secret-8f3c1e0d9b7a',
  b: 'env-B-turnstile-secret-5d2a7c4e1f6b',
  aRecaptcha: 'env-A-recaptcha-secret-0c9e8d7f6a5b',
  server: 'server-turnstile-secret-3b4c5d6e7f80',
  cli: 'cli-set-turnstile-secret-1a2b3c4d5e6f',
};

let ctx: TestContext;
let verifyUrl: string;
/** What the provider stand-in was asked: each siteverify call's form body. */
let verifyCalls: URLSearchParams[];
/** The secret and token of the siteverify calls from the `from`th on. */
const callsSince = (from: number) => verifyCalls.slice(from).map((call) => ({ secret: call.get('secret'), response: call.get('response') }));
/** Every log line of the apps below, and every answer's body. */
const logLines: string[] = [];
const answers: string[] = [];

const logger = pino({ level: 'trace' }, new Writable({ write: (chunk, _encoding, done) => (logLines.push(String(chunk)), done()) }));

/** The app (the test defaults, `captcha` as given), every answer's body kept for the leak checks. */
function appWithCaptcha(captcha: Partial<Config['captcha']> = {}) {
  const base = testConfig().captcha;
  const config = testConfig({
    captcha: {
      ...base,
      turnstile: { siteKey: undefined, secretKey: undefined, verifyUrl },
      recaptcha: { siteKey: undefined, secretKey: undefined, verifyUrl },
      timeoutMs: 2_000,
      ...captcha,
    },
  });
  const app = checkedApp(createApp({ config, db: ctx.db, logger, adminToken: ADMIN_TOKEN }));
  const request = app.request.bind(app);
  app.request = async (...args: Parameters<typeof request>) => {
    const response = await request(...args);
    answers.push(await response.clone().text());
    return response;
  };
  return app;
}
type App = ReturnType<typeof appWithCaptcha>;

/** Without any server-wide captcha key, and with the server's Turnstile keys. */
let bare: App;
let withServerKeys: App;
let a: TestTenant;
let b: TestTenant;
let c: TestTenant;

beforeAll(async () => {
  // The provider's siteverify: a token is good only as GOOD, sent with a secret it knows.
  const provider = await startCaptchaProvider((secret, token) => Object.values(SECRET).includes(secret ?? '') && token === GOOD);
  verifyUrl = provider.url;
  verifyCalls = provider.calls;

  ctx = await setupIsolatedTestApp(); // the database is scanned for the secrets
  bare = appWithCaptcha();
  withServerKeys = appWithCaptcha({ turnstile: { siteKey: 'server-site-key', secretKey: SECRET.server, verifyUrl } });
  [a, b, c] = [await createTenant(ctx.db), await createTenant(ctx.db), await createTenant(ctx.db)];
});

const key = (tenant: TestTenant) => ({ 'x-api-key': tenant.apiKey });
const settingsPath = (tenant: TestTenant) => `/api/v1/environments/${tenant.environmentId}/settings`;
const SETTINGS_FIELDS = 'id ipStorage retentionDays turnstile { siteKey secretKeySet } recaptcha { siteKey secretKeySet }';

async function gql(app: App, query: string, variables: Record<string, unknown>, headers: Record<string, string>) {
  const response = await app.request('/graphql', jsonRequest('POST', { query, variables }, headers));
  return (await response.json()) as { data?: any; errors?: { message: string; extensions?: { code?: string; errors?: unknown[] } }[] };
}

const captchaSteps = (type: 'TurnstileWidget' | 'Recaptcha', content: Record<string, unknown> = {}) => [
  {
    name: 'Who',
    components: [
      { type: 'ShortInput', content: { question: 'Name?' } },
      { type, content },
    ],
  },
  { name: 'More', components: [{ type: 'LongInput', content: { question: 'More?' } }] },
];

describe('setting an environment’s keys', () => {
  it('over GraphQL with its API key, and with the admin token for any environment: the secret is write-only', async () => {
    const set = await gql(
      bare,
      `mutation($input: EnvironmentSettingsInput!) { updateEnvironmentSettings(input: $input) { ${SETTINGS_FIELDS} } }`,
      { input: { turnstile: { siteKey: 'site-key-A', secretKey: SECRET.a }, recaptcha: { siteKey: 'recaptcha-site-A', secretKey: SECRET.aRecaptcha } } },
      key(a),
    );
    expect(set).toEqual({
      data: {
        updateEnvironmentSettings: {
          id: a.environmentId,
          ipStorage: 'FULL',
          retentionDays: null,
          turnstile: { siteKey: 'site-key-A', secretKeySet: true },
          recaptcha: { siteKey: 'recaptcha-site-A', secretKeySet: true },
        },
      },
    });
    const byAdmin = await gql(
      bare,
      `mutation($env: ID, $input: EnvironmentSettingsInput!) { updateEnvironmentSettings(environmentId: $env, input: $input) { ${SETTINGS_FIELDS} } }`,
      { env: b.environmentId, input: { turnstile: { siteKey: 'site-key-B', secretKey: SECRET.b } } },
      { authorization: `Bearer ${ADMIN_TOKEN}` },
    );
    expect(byAdmin.data.updateEnvironmentSettings.turnstile).toEqual({ siteKey: 'site-key-B', secretKeySet: true });
    // No field of the schema returns a secret key.
    const type = await gql(bare, '{ __type(name: "CaptchaKeys") { fields { name } } }', {}, key(a));
    expect(type.data.__type.fields.map((f: { name: string }) => f.name).sort()).toEqual(['secretKeySet', 'siteKey']);
    // Another environment's key can't touch A's keys.
    const foreign = await gql(
      bare,
      `mutation($env: ID, $input: EnvironmentSettingsInput!) { updateEnvironmentSettings(environmentId: $env, input: $input) { id } }`,
      { env: a.environmentId, input: { turnstile: { secretKey: 'hijack' } } },
      key(b),
    );
    expect(foreign.errors![0]!.extensions!.code).toBe('FORBIDDEN');
  });

  it('over REST: GET and PATCH …/settings with the environment’s API key, validated with paths, the secret never echoed', async () => {
    const read = await bare.request(settingsPath(a), { headers: key(a) });
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual({
      id: a.environmentId,
      ipStorage: 'full',
      retentionDays: null,
      turnstile: { siteKey: 'site-key-A', secretKeySet: true },
      recaptcha: { siteKey: 'recaptcha-site-A', secretKeySet: true },
      smtp: { url: null, from: null, passwordSet: false },
      embedOrigins: null,
    });
    const bad = await bare.request(settingsPath(c), jsonRequest('PATCH', { turnstile: { secretKey: `${SECRET.a} with spaces`, siteKey: '' }, color: 'red' }, key(c)));
    expect(bad.status).toBe(400);
    const badBody = await bad.text();
    expect(JSON.parse(badBody)).toEqual({
      message: 'Invalid request body',
      errors: [
        { message: 'siteKey must not be empty (null removes it)', path: ['turnstile', 'siteKey'] },
        { message: 'secretKey must be printable ASCII without spaces', path: ['turnstile', 'secretKey'] },
        { message: 'Unknown field(s): color', path: [] },
      ],
    });
    expect(badBody).not.toContain(SECRET.a);
    // Another environment's path: 403; no key: 401; the admin token: 403 (REST is for API keys).
    expect((await bare.request(settingsPath(a), { headers: key(c) })).status).toBe(403);
    expect((await bare.request(settingsPath(a), jsonRequest('PATCH', { turnstile: { secretKey: 'x' } }, key(c)))).status).toBe(403);
    expect((await bare.request(settingsPath(a))).status).toBe(401);
    expect((await bare.request(settingsPath(a), { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).status).toBe(403);
    expect((await bare.request(settingsPath(a), { method: 'DELETE', headers: key(a) })).status).toBe(405);

    const removed = await bare.request(settingsPath(c), jsonRequest('PATCH', { recaptcha: { siteKey: 'recaptcha-site-C', secretKey: null } }, key(c)));
    expect(await removed.json()).toMatchObject({ recaptcha: { siteKey: 'recaptcha-site-C', secretKeySet: false } });
    const cleared = await bare.request(settingsPath(c), jsonRequest('PATCH', { recaptcha: { siteKey: null } }, key(c)));
    expect(await cleared.json()).toMatchObject({ recaptcha: { siteKey: null, secretKeySet: false } });
  });

  it('with the CLI, the secret read from stdin (never from the command line) and never printed', async () => {
    const server: ServerType = serve({ fetch: bare.fetch, port: 0, hostname: '127.0.0.1' });
    if (!server.listening) await once(server, 'listening');
    onFileEnd(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const cli = (args: string[], stdin = '') => runCli([...args, '--url', url, '--admin-token', ADMIN_TOKEN, '--json'], process.stdout, Readable.from([stdin]));

    const environment = (await runCli(['env', 'create', '--name', 'CLI captcha', '--url', url, '--admin-token', ADMIN_TOKEN, '--json'])).output as { id: string };
    const set = await cli(['env', 'settings', '--env', environment.id, '--turnstile-site-key', 'cli-site-key', '--turnstile-secret-key', '-'], `${SECRET.cli}\n`);
    expect(set.output).toEqual({
      id: environment.id,
      ipStorage: 'full',
      retentionDays: null,
      turnstile: { siteKey: 'cli-site-key', secretKeySet: true },
      recaptcha: { siteKey: null, secretKeySet: false },
      smtp: { url: null, from: null, passwordSet: false },
      embedOrigins: null,
    });
    expect(JSON.stringify(set)).not.toContain(SECRET.cli);
    expect(set.text).toContain('Turnstile cli-site-key, own secret key set');
    await expect(cli(['env', 'settings', '--env', environment.id, '--turnstile-secret-key', SECRET.cli])).rejects.toThrow(
      '--turnstile-secret-key takes - (the key read from stdin) or none',
    );
    await expect(cli(['env', 'settings', '--env', environment.id, '--turnstile-secret-key', '-'], '')).rejects.toThrow('nothing was read from stdin');
    const removed = await cli(['env', 'settings', '--env', environment.id, '--turnstile-secret-key', 'none', '--turnstile-site-key', 'none']);
    expect(removed.output).toMatchObject({ turnstile: { siteKey: null, secretKeySet: false } });
    // The environment's own SMTP server: the password from stdin, never printed.
    const smtp = await cli(
      ['env', 'settings', '--env', environment.id, '--smtp-url', 'smtp://mailer@smtp.example.com:587', '--smtp-password', '-', '--mail-from', 'Forms <forms@example.com>'],
      `${SECRET.cli}\n`,
    );
    expect(smtp.output).toMatchObject({ smtp: { url: 'smtp://mailer@smtp.example.com:587', from: 'Forms <forms@example.com>', passwordSet: true } });
    expect(JSON.stringify(smtp)).not.toContain(SECRET.cli);
    expect(smtp.text).toContain('e-mail through smtp://mailer@smtp.example.com:587 (password set)');
    const noSmtp = await cli(['env', 'settings', '--env', environment.id, '--smtp-url', 'none', '--mail-from', 'none']);
    expect(noSmtp.output).toMatchObject({ smtp: { url: null, from: null, passwordSet: false } });
  });
});

describe('verification', () => {
  let formA: Form;
  let formB: Form;
  let formC: Form;

  beforeAll(async () => {
    formA = await makeForm(ctx.db, a, captchaSteps('TurnstileWidget'));
    formB = await makeForm(ctx.db, b, captchaSteps('TurnstileWidget'));
    formC = await makeForm(ctx.db, c, captchaSteps('TurnstileWidget'));
  });

  const start = (app: App, form: Form, token: string | undefined) =>
    app.request(
      `/s/${form.id}/responses`,
      jsonRequest('POST', { answers: { [componentAt(form, 0, 0).id]: 'Ada', ...(token === undefined ? {} : { [componentAt(form, 0, 1).id]: token }) } }),
    );

  it("uses the form's environment's secret, and only it, on the JSON API", async () => {
    for (const [form, secret] of [
      [formA, SECRET.a],
      [formB, SECRET.b],
    ] as const) {
      const calls = verifyCalls.length;
      expect((await start(withServerKeys, form, GOOD)).status).toBe(201);
      expect(callsSince(calls)).toEqual([{ secret, response: GOOD }]);
      // Without a token, or with a bad one, the step is refused.
      expect((await start(withServerKeys, form, undefined)).status).toBe(400);
      expect((await start(withServerKeys, form, 'forged')).status).toBe(400);
    }
  });

  it("falls back to the server's secret where the environment has none, and enforces nothing where neither has one", async () => {
    const calls = verifyCalls.length;
    expect((await start(withServerKeys, formC, GOOD)).status).toBe(201);
    expect(callsSince(calls)).toEqual([{ secret: SECRET.server, response: GOOD }]);
    expect((await start(withServerKeys, formC, undefined)).status).toBe(400);
    // A form stored before any key was set (neither the environment nor the server has one): shown unchecked.
    const before = verifyCalls.length;
    expect((await start(bare, formC, undefined)).status).toBe(201);
    expect(verifyCalls.length).toBe(before);
  });

  it("shows the environment's site key on the page and checks the page post with its secret", async () => {
    const visitor = new Visitor(withServerKeys);
    const page = await (await visitor.get(`/s/${formA.id}`)).text();
    expect(page).toContain(`data-sitekey="site-key-A"`);
    expect(await (await new Visitor(withServerKeys).get(`/s/${formC.id}`)).text()).toContain('data-sitekey="server-site-key"');
    const refused = await visitor.submit(formA, 0, { [field(componentAt(formA, 0, 0))]: 'Ada', [field(componentAt(formA, 0, 1))]: 'forged' });
    expect(refused.status).toBe(422);
    const calls = verifyCalls.length;
    const taken = await visitor.submit(formA, 0, { [field(componentAt(formA, 0, 0))]: 'Ada', [field(componentAt(formA, 0, 1))]: GOOD });
    expect(taken.status).toBe(303);
    expect(callsSince(calls)).toEqual([{ secret: SECRET.a, response: GOOD }]);
  });

  it("never opens one environment's sealed secret for another: copied into B's row, B's checks fail closed and A's secret is not sent", async () => {
    const [rowA] = await ctx.db.select({ sealed: environments.turnstileSecretKeySealed }).from(environments).where(eq(environments.id, a.environmentId));
    const [rowB] = await ctx.db.select({ sealed: environments.turnstileSecretKeySealed }).from(environments).where(eq(environments.id, b.environmentId));
    await ctx.db.update(environments).set({ turnstileSecretKeySealed: rowA!.sealed }).where(eq(environments.id, b.environmentId));
    try {
      const calls = verifyCalls.length;
      const refused = await start(withServerKeys, formB, GOOD);
      expect(refused.status).toBe(503);
      expect(await refused.json()).toEqual({ message: 'The check that you are not a robot cannot be verified right now. Please try again in a moment.' });
      expect(callsSince(calls)).toEqual([]);
    } finally {
      await ctx.db.update(environments).set({ turnstileSecretKeySealed: rowB!.sealed }).where(eq(environments.id, b.environmentId));
    }
    expect((await start(withServerKeys, formB, GOOD)).status).toBe(201);
  });
});

describe('secure by default: generating a captcha nothing could check', () => {
  const generate = (app: App, tenant: TestTenant, steps: unknown[]) =>
    app.request(
      `/api/v1/environments/${tenant.environmentId}/forms/generate`,
      jsonRequest('POST', { sourceFormId: tenant.templateId, name: 'With a captcha', steps }, key(tenant)),
    );

  it('is refused over REST with the component’s path and what to configure', async () => {
    // C has no Turnstile keys of its own, and this server none either.
    const refused = await generate(bare, c, captchaSteps('TurnstileWidget'));
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      message: 'Invalid request body',
      errors: [
        {
          message:
            "TurnstileWidget can't be checked: no Turnstile secret key is set for this environment or the server. Set the environment's (updateEnvironmentSettings, PATCH /api/v1/environments/{environmentId}/settings or formloom env settings --turnstile-secret-key) or the server's TURNSTILE_SECRET_KEY",
          path: ['steps', 0, 'components', 1],
        },
        {
          message: "TurnstileWidget has no site key: give content.siteKey, or set the environment's Turnstile site key (--turnstile-site-key) or the server's TURNSTILE_SITE_KEY",
          path: ['steps', 0, 'components', 1],
        },
      ],
    });
    // A site key in the content is not enough: the secret is what checks.
    const noSecret = await generate(bare, c, captchaSteps('Recaptcha', { siteKey: 'content-site-key' }));
    expect(noSecret.status).toBe(400);
    expect(((await noSecret.json()) as { errors: { message: string }[] }).errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/^Recaptcha can't be checked: no reCAPTCHA secret key is set for this environment or the server\. .*RECAPTCHA_SECRET_KEY$/),
    ]);
  });

  it('is refused over GraphQL (generateForm and importForm) with the same paths', async () => {
    const generated = await gql(
      bare,
      'mutation($env: ID!, $input: GenerateFormInput!) { generateForm(environmentId: $env, input: $input) { form { id } } }',
      { env: c.environmentId, input: { sourceFormId: c.templateId, name: 'x', steps: captchaSteps('TurnstileWidget') } },
      key(c),
    );
    expect(generated.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', errors: [{ path: ['steps', 0, 'components', 1] }, { path: ['steps', 0, 'components', 1] }] });
    const imported = await gql(
      bare,
      'mutation($input: ImportFormInput!) { importForm(input: $input) { id } }',
      { input: { environmentId: c.environmentId, name: 'x', steps: captchaSteps('Recaptcha', { siteKey: 'k' }) } },
      key(c),
    );
    expect(imported.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', errors: [{ path: ['steps', 0, 'components', 1] }] });
  });

  it("is taken once a secret and a site key apply: the environment's, the server's, or the component's site key", async () => {
    expect((await generate(bare, a, captchaSteps('TurnstileWidget'))).status).toBe(200); // A's own keys
    expect((await generate(withServerKeys, c, captchaSteps('TurnstileWidget'))).status).toBe(200); // the server's
    expect((await generate(bare, a, captchaSteps('Recaptcha'))).status).toBe(200);
    // B has a Turnstile secret and site key, no reCAPTCHA keys.
    expect((await generate(withServerKeys, b, captchaSteps('Recaptcha', { siteKey: 'k' }))).status).toBe(400);
  });
});

describe('the secret keys leak nowhere', () => {
  it('not in any answer, log line or audit entry, nor in clear in the database', async () => {
    const audit = await gql(
      bare,
      'query($env: ID) { auditLog(environmentId: $env, first: 100) { edges { node { action details } } } }',
      { env: a.environmentId },
      { authorization: `Bearer ${ADMIN_TOKEN}` },
    );
    const settings = audit.data.auditLog.edges
      .map((e: { node: { action: string; details: unknown } }) => e.node)
      .filter((n: { action: string }) => n.action === 'environment.settings');
    expect(settings).toEqual([
      {
        action: 'environment.settings',
        details: { turnstileSiteKey: 'site-key-A', turnstileSecretKey: 'set', recaptchaSiteKey: 'recaptcha-site-A', recaptchaSecretKey: 'set' },
      },
    ]);
    await bare.request('/api/v1/audit-log?limit=100', { headers: key(a) });
    await bare.request('/api/v1/audit-log?limit=100', { headers: key(b) });
    expect(answers.length).toBeGreaterThan(30);
    expect(logLines.length).toBeGreaterThan(40);
    for (const secret of Object.values(SECRET)) {
      for (const answer of answers) expect(answer).not.toContain(secret);
      for (const line of logLines) expect(line).not.toContain(secret);
      expect(await tablesHolding(ctx.db, secret), secret).toEqual([]);
    }
  });
});
