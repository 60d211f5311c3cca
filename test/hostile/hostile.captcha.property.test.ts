/**
 * The captcha rule under hostile sequences of JSON API submissions: on a linear form and on a form with
 * logic whose middle step is a captcha alone, any run of starts and updates (answers or none, `finished`
 * or not, a forged, hostile or missing token) never puts the captcha step on a response's path and never
 * finishes a response; every answer is a documented 4xx or a success; the provider (a local stand-in) is
 * asked only about tokens that were sent.
 */
import { fc, test } from '@fast-check/vitest';
import { beforeAll, describe, expect } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import type { Form } from '../../src/forms/forms.service.ts';
import { appWith, createTenant, jsonRequest, openTestDatabase, testConfig, type TestTenant } from '../support/helpers.ts';
import { HOSTILE_OPTIONS, expectDocumentedError, hostileString } from '../support/hostile-checks.ts';
import { componentAt, makeForm, responsesOf, type App } from '../support/public-helpers.ts';
import { onFileEnd } from '../support/cleanup.ts';
import { startCaptchaProvider } from '../support/captcha-provider.ts';

const SECRET = 'hostile-captcha-secret';
let db: Database;
let tenant: TestTenant;
let app: App;
let forms: Form[];
let calls: URLSearchParams[];

beforeAll(async () => {
  // The provider confirms nothing: no token an attacker sends is good.
  const provider = await startCaptchaProvider(() => false);
  calls = provider.calls;
  const handle = await openTestDatabase();
  onFileEnd(() => handle.close());
  db = handle.db;
  const base = testConfig().captcha;
  app = appWith(db, {
    captcha: { ...base, turnstile: { siteKey: 'site', secretKey: SECRET, verifyUrl: provider.url }, timeoutMs: 2_000 },
  });
  tenant = await createTenant(db);
  const verify = { name: 'Verify', key: 'verify', components: [{ type: 'TurnstileWidget', content: {} }] };
  const thanks = {
    name: 'Thanks',
    key: 'thanks',
    completion: true,
    components: [{ type: 'Header', content: { title: 'Thanks' } }],
  };
  forms = [
    await makeForm(db, tenant, [{ name: 'Who', key: 'who', components: [{ type: 'ShortInput', content: { question: 'Name?' } }] }, verify]),
    await makeForm(db, tenant, [
      {
        name: 'Who',
        key: 'who',
        components: [{ type: 'ShortInput', content: { question: 'Name?' } }],
        logic: { rules: [], next: 'verify' },
      },
      verify,
      thanks,
    ]),
  ];
});

const token = fc.option(fc.oneof(fc.constant('forged'), hostileString), { nil: undefined });
const submission = fc.record({
  name: fc.option(fc.constantFrom('Mallory', ''), { nil: undefined }),
  token,
  finished: fc.boolean(),
});

describe('captcha steps over the JSON API', () => {
  test.prop([fc.constantFrom(0, 1), submission, fc.array(submission, { maxLength: 3 })], HOSTILE_OPTIONS)(
    'are never passed without a confirmed token',
    async (which, first, later) => {
      const form = forms[which]!;
      const sent: string[] = [];
      const body = (s: typeof first) => {
        const answers: Record<string, unknown> = {};
        if (s.name !== undefined) answers[componentAt(form, 0, 0).id] = s.name;
        if (s.token !== undefined) answers[componentAt(form, 1, 0).id] = s.token;
        if (typeof s.token === 'string') sent.push(s.token);
        return { answers, finished: s.finished };
      };
      const before = calls.length;
      const check = async (response: Response) => {
        const text = await response.text();
        expect(response.status, text).toBeLessThan(500);
        if (response.status >= 400) expectDocumentedError(JSON.parse(text), text);
        return text;
      };
      const started = await app.request(`/s/${form.id}/responses`, jsonRequest('POST', body(first)));
      const text = await check(started);
      if (started.status === 201) {
        const { id, resumeToken } = JSON.parse(text) as { id: string; resumeToken: string };
        for (const next of later) await check(await app.request(`/s/${form.id}/responses/${id}`, jsonRequest('PATCH', body(next), { authorization: `Bearer ${resumeToken}` })));
      }
      for (const row of await responsesOf(db, form.id)) {
        expect(row.finished).toBe(false);
        expect(row.meta.path ?? []).not.toContain('verify');
      }
      for (const call of calls.slice(before)) expect(sent).toContain(call.get('response'));
    },
  );
});
