/**
 * TurnstileWidget and Recaptcha (docs/public-pages.md, "Captchas"): the widget on the page, and a step taken only with a
 * token the provider's verify endpoint confirms: here a local HTTP server standing in for the provider.
 * Missing and rejected tokens, an unreachable provider (fail closed by default, CAPTCHA_FAIL_OPEN=1 to
 * accept), the page and the JSON API.
 */
import { createServer } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import type { Config } from '../../src/config.ts';
import type { Form } from '../../src/forms/forms.service.ts';
import { appWith, createTenant, jsonRequest, openTestDatabase, testConfig, type TestTenant } from '../support/helpers.ts';
import { componentAt, field, makeForm, responsesOf, testAnswerLimits, Visitor, type App } from '../support/public-helpers.ts';
import { onFileEnd } from '../support/cleanup.ts';
import { listen, startCaptchaProvider } from '../support/captcha-provider.ts';
import { CAPTCHA_MESSAGES } from '../../src/components/captchas.ts';
import { prepareAnswers, submitAnswers } from '../../src/responses/submissions.service.ts';
import { createId } from '../../src/ids.ts';

const SECRET = 'test-captcha-secret';
const GOOD = 'good-token';

let db: Database;
let tenant: TestTenant;
let form: Form;
let verifyUrl: string;
let unreachableUrl: string;
let verifyCalls: URLSearchParams[];

beforeAll(async () => {
  // The provider's siteverify: success only for GOOD with our secret.
  ({ url: verifyUrl, calls: verifyCalls } = await startCaptchaProvider((secret, token) => secret === SECRET && token === GOOD));
  // A port nothing listens on any more.
  const gone = createServer();
  unreachableUrl = `http://127.0.0.1:${await listen(gone)}/siteverify`;
  await new Promise<void>((resolve) => gone.close(() => resolve()));

  const handle = await openTestDatabase();
  onFileEnd(() => handle.close());
  db = handle.db;
  tenant = await createTenant(db);
  form = await makeForm(db, tenant, [
    {
      name: 'Who',
      components: [
        { type: 'ShortInput', content: { question: 'Name?' } },
        { type: 'TurnstileWidget', content: {} },
      ],
    },
    {
      name: 'Done',
      components: [
        { type: 'Recaptcha', content: { siteKey: 'content-site-key' } },
        { type: 'LongInput', content: { question: 'More?' } },
      ],
    },
  ]);
});

const name = () => componentAt(form, 0, 0);
const turnstile = () => componentAt(form, 0, 1);
const recaptcha = () => componentAt(form, 1, 0);

function captchaConfig(overrides: Partial<Config['captcha']> = {}, url = () => verifyUrl): Partial<Config> {
  const base = testConfig().captcha;
  return {
    captcha: {
      ...base,
      turnstile: { siteKey: 'config-site-key', secretKey: SECRET, verifyUrl: url() },
      recaptcha: { siteKey: 'config-recaptcha-key', secretKey: SECRET, verifyUrl: url() },
      timeoutMs: 2_000,
      ...overrides,
    },
  };
}
const appWithCaptchas = (overrides: Partial<Config['captcha']> = {}, url?: () => string) => appWith(db, captchaConfig(overrides, url));
const start = (app: App, answers: Record<string, unknown>) => app.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers }));

describe('the page', () => {
  it("renders the provider's widget with the configured site key and allows its origin in the CSP", async () => {
    const app = appWithCaptchas();
    const response = await new Visitor(app).get(`/s/${form.id}`);
    const html = await response.text();
    expect(html).toContain(
      `<div class="cf-turnstile" id="f-${turnstile().id}" data-sitekey="config-site-key" data-response-field-name="${field(turnstile())}" data-language="en">`,
    );
    expect(html).toMatch(/<script src="https:\/\/challenges\.cloudflare\.com\/turnstile\/v0\/api\.js" nonce="[^"]+" async defer><\/script>/);
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toMatch(/script-src 'nonce-[^']+' https:\/\/challenges\.cloudflare\.com;/);
    expect(csp).toContain('frame-src https://challenges.cloudflare.com;');
  });

  it('refuses the step without a token or with a rejected one, with the message at the widget, and takes it with a good one', async () => {
    const app = appWithCaptchas();
    const visitor = new Visitor(app);
    await visitor.get(`/s/${form.id}`);
    const missing = await visitor.submit(form, 0, { [field(name())]: 'Ada' });
    expect(missing.status).toBe(422);
    const missingHtml = await missing.text();
    expect(missingHtml).toContain(`<p class="fl-error" id="f-${turnstile().id}-error">Please complete the check that you are not a robot.</p>`);
    expect(missingHtml).toContain('value="Ada"');

    const rejected = await visitor.submit(form, 0, { [field(name())]: 'Ada', 'cf-turnstile-response': 'forged' });
    expect(rejected.status).toBe(422);
    expect(await rejected.text()).toContain('The check that you are not a robot failed or expired.');
    expect(await responsesOf(db, form.id).then((rows) => rows.filter((r) => JSON.stringify(r.data).includes('"Ada"')))).toEqual([]);

    const calls = verifyCalls.length;
    const accepted = await visitor.submit(form, 0, { [field(name())]: 'Ada', [field(turnstile())]: GOOD });
    expect(accepted.status).toBe(303);
    expect(verifyCalls.length).toBe(calls + 1);
    expect(verifyCalls.at(-1)!.get('secret')).toBe(SECRET);
    const row = (await responsesOf(db, form.id)).find((r) => JSON.stringify(r.data).includes('"Ada"'))!;
    // The captcha records nothing.
    expect(row.data.map((a) => a.questionId)).toEqual([name().id]);

    // The next step's reCAPTCHA takes the component's own site key.
    const next = await visitor.get(`/s/${form.id}?step=1`);
    const nextHtml = await next.text();
    expect(nextHtml).toContain(`<div class="g-recaptcha" id="f-${recaptcha().id}" data-sitekey="content-site-key"`);
    // Google's and gstatic's reCAPTCHA paths only, not the whole hosts.
    const recaptchaSources = 'https://www.google.com/recaptcha/ https://www.gstatic.com/recaptcha/ https://www.recaptcha.net/recaptcha/';
    expect(next.headers.get('content-security-policy')).toMatch(new RegExp(`script-src 'nonce-[^']+' ${recaptchaSources.replace(/[./]/g, '\\$&')};`));
    expect(next.headers.get('content-security-policy')).toContain(`frame-src ${recaptchaSources};`);
  });

  it('refuses the step when the provider is unreachable (503), unless CAPTCHA_FAIL_OPEN', async () => {
    const closed = appWithCaptchas({}, () => unreachableUrl);
    const visitor = new Visitor(closed);
    await visitor.get(`/s/${form.id}`);
    const refused = await visitor.submit(form, 0, { [field(name())]: 'Bob', [field(turnstile())]: GOOD });
    expect(refused.status).toBe(503);
    expect(await refused.text()).toContain('cannot be verified right now');

    const open = appWithCaptchas({ failOpen: true }, () => unreachableUrl);
    const other = new Visitor(open);
    await other.get(`/s/${form.id}`);
    expect((await other.submit(form, 0, { [field(name())]: 'Bob', [field(turnstile())]: 'anything' })).status).toBe(303);
  });
});

describe('the JSON API', () => {
  it("requires the captcha's token as its answer on a submission answering its step", async () => {
    const app = appWithCaptchas();
    const missing = await start(app, { [name().id]: 'Cy' });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({
      message: 'Invalid request body',
      errors: [{ message: 'Please complete the check that you are not a robot.', path: ['answers', turnstile().id] }],
    });
    const rejected = await start(app, { [name().id]: 'Cy', [turnstile().id]: 'forged' });
    expect(rejected.status).toBe(400);
    expect(((await rejected.json()) as { errors: { path: unknown[] }[] }).errors[0]!.path).toEqual(['answers', turnstile().id]);

    const accepted = await start(app, { [name().id]: 'Cy', [turnstile().id]: GOOD });
    expect(accepted.status).toBe(201);
    const { id, resumeToken } = (await accepted.json()) as { id: string; resumeToken: string };
    const row = (await responsesOf(db, form.id)).find((r) => r.id === id)!;
    expect(row.data.map((a) => a.questionId)).toEqual([name().id]);

    // The next step has its own captcha (the component's site key, the configured secret).
    const update = (answers: Record<string, unknown>) =>
      app.request(`/s/${form.id}/responses/${id}`, jsonRequest('PATCH', { answers, finished: true }, { authorization: `Bearer ${resumeToken}` }));
    expect((await update({ [componentAt(form, 1, 1).id]: 'Nothing' })).status).toBe(400);
    expect((await update({ [componentAt(form, 1, 1).id]: 'Nothing', [recaptcha().id]: GOOD })).status).toBe(200);
  });

  it('answers 503 when the provider is unreachable, and accepts with CAPTCHA_FAIL_OPEN=1', async () => {
    const closed = await start(
      appWithCaptchas({}, () => unreachableUrl),
      { [name().id]: 'Di', [turnstile().id]: GOOD },
    );
    expect(closed.status).toBe(503);
    expect(await closed.json()).toEqual({ message: 'The check that you are not a robot cannot be verified right now. Please try again in a moment.' });
    expect(
      (
        await start(
          appWithCaptchas({ failOpen: true }, () => unreachableUrl),
          { [name().id]: 'Di', [turnstile().id]: 'x' },
        )
      ).status,
    ).toBe(201);
  });

  it('does not enforce a captcha whose provider has no secret configured (and ignores its token)', async () => {
    const app = appWith(db);
    expect((await start(app, { [name().id]: 'Eve' })).status).toBe(201);
    expect((await start(app, { [name().id]: 'Eve', [turnstile().id]: 'whatever' })).status).toBe(201);
  });
});

/**
 * A step whose only component is a captcha ("verify and submit"): no answer names it, so only the walk
 * knows a submission takes it. Without the shared rule `finished: true` on a linear form, and
 * `{answers: {}}` then a finish on a form with logic, passed it without a token (and never asked the provider).
 */
describe('a step with a captcha alone', () => {
  let linear: Form;
  let branching: Form;
  beforeAll(async () => {
    const verifyStep = { name: 'Verify', key: 'verify', components: [{ type: 'TurnstileWidget', content: {} }] };
    linear = await makeForm(db, tenant, [{ name: 'Who', components: [{ type: 'ShortInput', content: { question: 'Name?' } }] }, verifyStep]);
    branching = await makeForm(db, tenant, [
      { name: 'Who', key: 'who', components: [{ type: 'ShortInput', key: 'name', content: { question: 'Name?' } }], logic: { rules: [], next: 'verify' } },
      verifyStep,
      { name: 'Thanks', key: 'thanks', completion: true, components: [{ type: 'Header', content: { title: 'Thanks' } }] },
    ]);
  });
  const captchaOf = (of: Form) => componentAt(of, 1, 0);
  const post = (app: App, of: Form, body: unknown) => app.request(`/s/${of.id}/responses`, jsonRequest('POST', body));
  const patch = (app: App, of: Form, id: string, token: string, body: unknown) =>
    app.request(`/s/${of.id}/responses/${id}`, jsonRequest('PATCH', body, { authorization: `Bearer ${token}` }));
  const missingAt = (of: Form) => ({ message: 'Invalid request body', errors: [{ message: CAPTCHA_MESSAGES.missing, path: ['answers', captchaOf(of).id] }] });

  it('refuses finishing a linear form through it without a token, and takes a confirmed one', async () => {
    const app = appWithCaptchas();
    const calls = verifyCalls.length;
    const bypass = await post(app, linear, { answers: { [componentAt(linear, 0, 0).id]: 'Mallory' }, finished: true });
    expect(bypass.status).toBe(400);
    expect(await bypass.json()).toEqual(missingAt(linear));
    expect(verifyCalls.length).toBe(calls);
    expect(await responsesOf(db, linear.id)).toEqual([]);

    const forged = await post(app, linear, { answers: { [componentAt(linear, 0, 0).id]: 'Mallory', [captchaOf(linear).id]: 'forged' }, finished: true });
    expect(forged.status).toBe(400);
    expect(verifyCalls.at(-1)!.get('response')).toBe('forged');

    const honest = await post(app, linear, { answers: { [componentAt(linear, 0, 0).id]: 'Ada', [captchaOf(linear).id]: GOOD }, finished: true });
    expect(honest.status).toBe(201);
    expect(await honest.json()).toMatchObject({ finished: true, status: 4 });
  });

  it('refuses moving a response with logic past it with {answers: {}}, so a later finish is refused too', async () => {
    const app = appWithCaptchas();
    const started = await post(app, branching, { answers: { [componentAt(branching, 0, 0).id]: 'Mallory' } });
    expect(started.status).toBe(201);
    const { id, resumeToken, nextStep } = (await started.json()) as { id: string; resumeToken: string; nextStep: string };
    expect(nextStep).toBe('verify');
    const skip = await patch(app, branching, id, resumeToken, { answers: {} });
    expect(skip.status).toBe(400);
    expect(await skip.json()).toEqual(missingAt(branching));
    const finish = await patch(app, branching, id, resumeToken, { answers: {}, finished: true });
    expect(finish.status).toBe(400);
    const [row] = (await responsesOf(db, branching.id)).filter((r) => r.id === id);
    expect(row).toMatchObject({ finished: false, meta: expect.objectContaining({ path: ['who'] }) });

    const passed = await patch(app, branching, id, resumeToken, { answers: { [captchaOf(branching).id]: GOOD } });
    expect(passed.status).toBe(200);
    expect(await passed.json()).toMatchObject({ finished: true, nextStep: null });
  });

  it('is checked again by the submission itself, on the row it locked', async () => {
    const captcha = captchaOf(linear).id;
    const { answers } = await prepareAnswers(linear, { [componentAt(linear, 0, 0).id]: 'Mallory' }, testAnswerLimits());
    const input = { form: linear, sessionId: `api:${createId()}`, answers, finish: true, context: { source: 'api' as const, ip: '', country: '' } };
    const refused = submitAnswers(db, { ...input, captchas: { enforced: new Set([captcha]), confirmed: new Set<string>() } });
    await expect(refused).rejects.toMatchObject({ code: 'BAD_USER_INPUT', errors: [{ message: CAPTCHA_MESSAGES.missing, path: ['answers', captcha] }] });
    const taken = await submitAnswers(db, { ...input, captchas: { enforced: new Set([captcha]), confirmed: new Set([captcha]) } });
    expect(taken.response.finished).toBe(true);
  });

  it("is the current version's: a captcha added since a response started applies to it", async () => {
    const app = appWithCaptchas();
    const thanks = { name: 'Thanks', components: [{ type: 'Header', content: { title: 'Thanks' } }] };
    const plain = await makeForm(db, tenant, [{ name: 'Who', components: [{ type: 'ShortInput', content: { question: 'Name?' } }] }, thanks]);
    const name = componentAt(plain, 0, 0);
    const started = await post(app, plain, { answers: { [name.id]: 'Mallory' } });
    const { id, resumeToken } = (await started.json()) as { id: string; resumeToken: string };
    const steps = [
      {
        id: plain.steps[0]!.id,
        name: 'Who',
        components: [
          { id: name.id, type: 'ShortInput', content: { question: 'Name?' } },
          { type: 'TurnstileWidget', content: {} },
        ],
      },
      { id: plain.steps[1]!.id, ...thanks, components: [{ id: componentAt(plain, 1, 0).id, ...thanks.components[0]! }] },
    ];
    expect((await app.request(`/api/v1/forms/${plain.id}`, jsonRequest('PATCH', { steps }, { 'x-api-key': tenant.apiKey }))).status).toBe(200);
    const finish = await patch(app, plain, id, resumeToken, { answers: { [name.id]: 'Mallory' }, finished: true });
    expect(finish.status).toBe(400);
    expect(((await finish.json()) as { errors: { message: string }[] }).errors[0]!.message).toBe(CAPTCHA_MESSAGES.missing);
  });

  it('is the rule of the page too: its post of the captcha step needs the token', async () => {
    const app = appWithCaptchas();
    const visitor = new Visitor(app);
    await visitor.get(`/s/${branching.id}`);
    expect((await visitor.submit(branching, 0, { [field(componentAt(branching, 0, 0))]: 'Eve' })).status).toBe(303);
    expect((await visitor.submit(branching, 1, {})).status).toBe(422);
    expect((await visitor.submit(branching, 1, { [field(captchaOf(branching))]: GOOD })).status).toBe(303);
  });
});
