/**
 * The examples of /api/v1/openapi.json, taken from real responses: `npm run openapi:examples` builds the
 * app on a fresh in-memory PGlite, runs one scenario of requests that reaches every documented operation
 * (and the errors a client meets most), and writes the first body of each operation, status and media
 * type to src/rest/openapi-examples.json, which the document reads (src/rest/openapi.ts).
 *
 * `npm run openapi:check` (and test/rest/openapi.test.ts, on the suite's database) runs the scenario again and
 * fails when the committed file is stale: an answer appeared or went, or its shape changed (fields,
 * their types). Values (ids, timestamps) differ from run to run and are not compared.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { pino } from 'pino';
import { createApp } from '../src/app.ts';
import { createApiKey } from '../src/auth/auth.service.ts';
import { readTemplateExample } from '../src/bootstrap.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { openDatabase, type Database } from '../src/db/client.ts';
import { createEnvironment } from '../src/environments/environments.service.ts';
import { findForm, importForm } from '../src/forms/forms.service.ts';
import { EXAMPLES_FILE, exampleKey, type CapturedExamples } from '../src/rest/openapi.ts';

const ADMIN_TOKEN = 'openapi-examples-admin-token-0123456789';

/** Stands for any value of a type, so shapes compare without values. */
export function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.length === 0 ? [] : [shapeOf(value[0])];
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => [k, shapeOf(v)]),
    );
  return value === null ? 'null' : typeof value;
}

async function tenantOf(db: Database) {
  const environment = await createEnvironment(db, { name: 'Acme' });
  const key = await createApiKey(db, { environmentId: environment.id, name: 'docs' });
  const template = readTemplateExample();
  const form = await importForm(db, { environmentId: environment.id, name: template.name, theme: template.theme!, steps: template.steps });
  return { environmentId: environment.id, apiKey: key.key, templateId: form.id };
}

/** Runs the scenario against an app on `db` and returns the captured examples. */
export async function captureExamples(db: Database, configOf: (overrides: Partial<Config>) => Config = (o) => ({ ...loadConfig({}), ...o })): Promise<CapturedExamples> {
  const logger = pino({ level: 'silent' });
  const appWith = (overrides: Partial<Config> = {}) => createApp({ config: configOf({ publicRateLimitPerMinute: 0, ...overrides }), db, logger, adminToken: ADMIN_TOKEN });
  const app = appWith({ webhooks: { ...configOf({}).webhooks, allowPrivate: true } });
  const tenant = await tenantOf(db);
  const other = await tenantOf(db);
  const captured: CapturedExamples = {};
  const paths = [
    '/api/v1/environments/{environmentId}/forms/generate',
    '/api/v1/environments/{environmentId}/forms/{formId}/close',
    '/api/v1/environments/{environmentId}/forms/{formId}/reopen',
    '/api/v1/responses/export',
    '/api/v1/responses',
    '/api/v1/webhooks/{id}/deliveries',
    '/api/v1/webhooks/{id}/test',
    '/api/v1/webhooks/{id}',
    '/api/v1/webhooks',
    '/api/v1/webhook-deliveries/{id}/resend',
    '/api/v1/admin/backup',
    '/api/v1/environments/{environmentId}/settings',
    '/api/v1/environments/{environmentId}/keys/{keyId}',
    '/api/v1/environments/{environmentId}/keys',
    '/api/v1/forms/{formId}/insights',
    '/api/v1/insights',
    '/api/v1/forms/{formId}/translations/{locale}',
    '/api/v1/forms/{formId}/translations',
    '/api/v1/forms/{formId}',
    '/api/v1/forms',
    '/s/{formId}/definition',
    '/s/{formId}/responses/{responseId}',
    '/s/{formId}/responses',
    '/s/{formId}/views',
  ];
  // eslint-disable-next-line regexp/no-super-linear-move -- runs on the fixed path templates above, never on client text
  const patterns = paths.map((template) => ({ template, pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`) }));

  async function call(method: string, path: string, init: { body?: unknown; headers?: Record<string, string>; raw?: string; target?: ReturnType<typeof appWith> } = {}) {
    const headers: Record<string, string> = { 'x-api-key': tenant.apiKey, ...init.headers };
    let body: string | undefined;
    if (init.raw !== undefined) body = init.raw;
    else if (init.body !== undefined) {
      body = JSON.stringify(init.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await (init.target ?? app).request(path, { method, headers, ...(body === undefined ? {} : { body }) });
    const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
    const text = await response.text();
    const template = patterns.find(({ pattern }) => pattern.test(path.split('?')[0]!))?.template;
    if (!template) throw new Error(`no documented path for ${path}`);
    const key = exampleKey(method, template, response.status, type);
    if (!(key in captured) && type !== 'application/gzip') {
      captured[key] =
        type === 'application/json' ? JSON.parse(text) : type === 'application/x-ndjson' ? `${text.split('\n')[0]}\n` : text.split('\r\n').slice(0, 2).join('\r\n') + '\r\n';
    }
    return { status: response.status, json: (): unknown => JSON.parse(text) };
  }

  const env = tenant.environmentId;
  const generate = `/api/v1/environments/${env}/forms/generate`;
  const body = {
    sourceFormId: tenant.templateId,
    name: 'Discovery call',
    steps: [
      {
        name: 'About you',
        components: [
          { type: 'IdentityInfo', content: { fields: [{ key: 'emailAddress', label: 'E-mail' }] } },
          { type: 'ShortInput', content: { question: 'Your role?' } },
        ],
      },
      { name: 'Book', components: [{ type: 'CalendlyScreen', content: { url: 'https://calendly.com/acme/intro' } }] },
    ],
  };
  // generate: 200, the errors of its body, its key and its environment
  const created = await call('POST', generate, { body, headers: { 'idempotency-key': 'docs-example-key-0001' } });
  const { id: formId } = (created.json() as { result: { form: { id: string } } }).result.form;
  const form = (await findForm(db, env, formId))!;
  await call('POST', generate, { body: { ...body, name: 'Other' }, headers: { 'idempotency-key': 'docs-example-key-0001' } }); // 422
  await call('POST', generate, { body: { ...body, steps: [{ name: 'x', components: [{ type: 'Nope', content: {} }] }] } }); // 400
  await call('POST', generate, { body: { ...body, sourceFormId: 'k4n2iogu5ks9ut7lahuxkl27' } }); // 404
  await call('POST', generate, { raw: 'name=x', headers: { 'content-type': 'text/plain' } }); // 415
  await call('POST', generate, { body, headers: { 'x-api-key': '' } }); // 401
  await call('POST', `/api/v1/environments/${other.environmentId}/forms/generate`, { body }); // 403
  await call('POST', generate, { raw: JSON.stringify({ ...body, name: 'x'.repeat(2_000_000) }), headers: { 'content-type': 'application/json' } }); // 413
  const limited = appWith({ apiRateLimitPerMinute: 1 });
  await call('POST', generate, { body, target: limited });
  await call('POST', generate, { body, target: limited }); // 429

  // close and reopen
  await call('POST', `/api/v1/environments/${env}/forms/${form.id}/close`);
  await call('POST', `/api/v1/environments/${env}/forms/${form.id}/reopen`);
  await call('POST', `/api/v1/environments/${env}/forms/${tenant.templateId}/close`); // 409: a draft
  await call('POST', `/api/v1/environments/${env}/forms/k4n2iogu5ks9ut7lahuxkl27/reopen`); // 404

  // reading and editing forms: a new version with If-Match and an Idempotency-Key, then its refusals
  await call('GET', '/api/v1/forms?limit=2');
  await call('GET', '/api/v1/forms?after=not-a-cursor'); // 400
  await call('GET', `/api/v1/forms/${form.id}`);
  await call('GET', '/api/v1/forms/k4n2iogu5ks9ut7lahuxkl27'); // 404
  const formPath = `/api/v1/forms/${form.id}`;
  const edited = form.steps.map((step, index) => ({
    id: step.id,
    name: step.name,
    components: step.components.map(({ id, type, content }) => ({
      id,
      type,
      content: index === 0 && type === 'ShortInput' ? { ...content, question: 'Your job title?' } : content,
    })),
  }));
  await call('PATCH', formPath, {
    body: { name: 'Discovery call', steps: edited, hiddenFields: ['utm_source'] },
    headers: { 'if-match': '"1"', 'idempotency-key': 'docs-example-key-0002' },
  });
  await call('PATCH', formPath, { body: { name: 'Stale edit' }, headers: { 'if-match': '"1"' } }); // 412
  await call('PATCH', formPath, { body: { steps: [{ name: 'Only', components: [] }] } }); // 400
  await call('PATCH', formPath, { body: { name: 'Other' }, headers: { 'idempotency-key': 'docs-example-key-0002' } }); // 422
  await call('PATCH', formPath, { raw: 'x', headers: { 'content-type': 'text/plain' } }); // 415
  await call('PATCH', '/api/v1/forms/k4n2iogu5ks9ut7lahuxkl27', { body: { name: 'x' } }); // 404

  // a multilingual form's translations: the languages' completeness, a language's document, a PUT and its refusals
  const multilingual = await call('POST', generate, {
    body: {
      sourceFormId: tenant.templateId,
      name: { en: 'Sign-up', de: 'Anmeldung' },
      languages: { default: 'en', others: ['de', 'fr'] },
      steps: [
        {
          name: { en: 'Contact', de: 'Kontakt' },
          key: 'contact',
          components: [{ type: 'ShortInput', key: 'email', content: { question: { en: 'Your e-mail address?', de: 'Ihre E-Mail-Adresse?' } } }],
        },
        { name: 'Thanks', key: 'done', components: [{ type: 'Header', key: 'thanks', content: { title: 'See you soon' } }] },
      ],
    },
  });
  const translated = `/api/v1/forms/${(multilingual.json() as { result: { form: { id: string } } }).result.form.id}/translations`;
  await call('GET', translated);
  await call('GET', `${translated}/de`);
  await call('GET', `${translated}/es`); // 404
  await call('PUT', `${translated}/fr`, {
    body: { name: 'Inscription', 'steps.contact.name': 'Contact', 'steps.done.components.thanks.title': 'À bientôt' },
    headers: { 'if-match': '"1"' },
  });
  await call('PUT', `${translated}/fr`, { body: { 'steps.contact.components.mail.question': 'Votre e-mail ?' } }); // 400
  await call('PUT', `${translated}/fr`, { body: {}, headers: { 'if-match': '"1"' } }); // 412

  // a respondent answers through the public API, then the listing and the export
  const [identity, role] = form.steps[0]!.components;
  await call('GET', `/s/${form.id}/definition`);
  await call('GET', `/s/${form.id}/definition?version=first`); // 400
  await call('GET', '/s/k4n2iogu5ks9ut7lahuxkl27/definition'); // 404
  const answered = await call('POST', `/s/${form.id}/responses`, {
    body: { answers: { [identity!.id]: { emailAddress: 'ada@example.com' }, [role!.id]: 'CTO' }, finished: true },
  });
  if (answered.status !== 201) throw new Error(`the example submission answered ${answered.status}: ${JSON.stringify(answered.json())}`);
  await call('POST', `/s/${form.id}/responses`, { body: { answers: { [role!.id]: 42 } } }); // 400
  await call('GET', `/api/v1/responses?formId=${form.id}`);
  await call('GET', '/api/v1/responses?limit=1000'); // 400
  await call('GET', '/api/v1/responses?formId=k4n2iogu5ks9ut7lahuxkl27'); // 404
  await call('GET', `/api/v1/responses/export?formId=${form.id}&format=csv`);
  await call('GET', `/api/v1/responses/export?formId=${form.id}&format=ndjson`);
  await call('GET', `/api/v1/responses/export?formId=${form.id}&format=xlsx`); // 400
  await call('GET', '/api/v1/responses/export?formId=k4n2iogu5ks9ut7lahuxkl27'); // 404
  // a respondent who starts, then finishes with a PATCH (after the listing's examples, which show one response)
  const started = (await call('POST', `/s/${form.id}/responses`, { body: { answers: { [identity!.id]: { emailAddress: 'grace@example.com' } } } })).json() as {
    id: string;
    resumeToken: string;
  };
  const responsePath = `/s/${form.id}/responses/${started.id}`;
  await call('PATCH', responsePath, { body: { answers: { [role!.id]: 'CEO' }, finished: true }, headers: { authorization: `Bearer ${started.resumeToken}` } });
  await call('PATCH', responsePath, { body: { answers: {} } }); // 401
  await call('PATCH', responsePath, { body: { answers: {} }, headers: { authorization: `Bearer ${started.resumeToken}` } }); // 409: finished

  // insights: a view reported by a custom client, then the form's and the environment's figures
  await call('POST', `/s/${form.id}/views`, { body: { hiddenFields: { utm_source: 'ad' } } });
  await call('GET', `/api/v1/forms/${form.id}/insights?timeZone=Europe/Berlin&groupBy=week`);
  await call('GET', `/api/v1/forms/${form.id}/insights?since=yesterday`); // 400
  await call('GET', '/api/v1/forms/k4n2iogu5ks9ut7lahuxkl27/insights'); // 404
  await call('GET', '/api/v1/insights?device=mobile');

  // webhooks
  const endpoint = (
    await call('POST', '/api/v1/webhooks', { body: { url: 'http://127.0.0.1:9/formloom', eventTypes: ['response.finished'], formIds: [form.id], description: 'CRM sync' } })
  ).json() as { id: string };
  await call('POST', '/api/v1/webhooks', { body: { url: 'ftp://example.com/', eventTypes: ['response.finished'] } }); // 400
  await call('POST', '/api/v1/webhooks', { raw: 'x', headers: { 'content-type': 'text/plain' } }); // 415
  await call('GET', '/api/v1/webhooks');
  await call('GET', `/api/v1/webhooks/${endpoint.id}`);
  await call('GET', '/api/v1/webhooks/ep_k4n2iogu5ks9ut7lahuxkl27'); // 404
  await call('PATCH', `/api/v1/webhooks/${endpoint.id}`, { body: { description: 'CRM sync (EU)' } });
  await call('PATCH', `/api/v1/webhooks/${endpoint.id}`, { raw: 'x', headers: { 'content-type': 'text/plain' } }); // 415
  const test = (await call('POST', `/api/v1/webhooks/${endpoint.id}/test`)).json() as { id: string };
  await call('GET', `/api/v1/webhooks/${endpoint.id}/deliveries`);
  await call('GET', `/api/v1/webhooks/${endpoint.id}/deliveries?status=lost`); // 400
  await call('POST', `/api/v1/webhook-deliveries/${test.id}/resend`);
  await call('POST', '/api/v1/webhook-deliveries/msg_k4n2iogu5ks9ut7lahuxkl27/resend'); // 404
  await call('DELETE', `/api/v1/webhooks/${endpoint.id}`);

  // an environment's settings: its captcha keys (the secret key write-only)
  await call('GET', `/api/v1/environments/${env}/settings`);
  await call('PATCH', `/api/v1/environments/${env}/settings`, { body: { turnstile: { siteKey: '0x4AAAAAAAexample', secretKey: '0x4AAAAAAAexample-secret' } } });
  await call('PATCH', `/api/v1/environments/${env}/settings`, { body: { retentionDays: 0, recaptcha: { secretKey: 'has spaces' } } }); // 400
  await call('PATCH', `/api/v1/environments/${env}/settings`, { raw: 'x', headers: { 'content-type': 'text/plain' } }); // 415
  await call('GET', `/api/v1/environments/${other.environmentId}/settings`); // 403

  // API keys: a narrower key made by the tenant's, the refusals of a key lacking a scope, revocation
  const keys = `/api/v1/environments/${env}/keys`;
  const reader = (await call('POST', keys, { body: { name: 'BI export', scopes: ['responses:read', 'forms:read'], expires: '30d' } })).json() as { id: string; key: string };
  await call('POST', keys, { body: { scopes: ['responses:raed'], expires: 'soon' } }); // 400
  await call('POST', keys, { raw: 'x', headers: { 'content-type': 'text/plain' } }); // 415
  await call('GET', keys);
  await call('GET', keys, { headers: { 'x-api-key': reader.key } }); // 403: lacks keys:manage
  await call('DELETE', `${keys}/${reader.id}`);
  await call('DELETE', `${keys}/k4n2iogu5ks9`); // 404

  // the admin backup: only its refusals have a JSON body
  await call('GET', '/api/v1/admin/backup', { headers: { 'x-api-key': '' } }); // 401
  await call('GET', '/api/v1/admin/backup'); // 403
  return Object.fromEntries(Object.entries(captured).sort(([a], [b]) => a.localeCompare(b)));
}

/** Differences between two captures, by shape (see the module comment). */
export function staleExamples(committed: CapturedExamples, fresh: CapturedExamples): string[] {
  const problems: string[] = [];
  for (const key of Object.keys(fresh)) {
    if (!(key in committed)) problems.push(`${key}: answered now, missing from the file`);
    else if (JSON.stringify(shapeOf(committed[key])) !== JSON.stringify(shapeOf(fresh[key]))) problems.push(`${key}: its shape changed`);
  }
  for (const key of Object.keys(committed)) if (!(key in fresh)) problems.push(`${key}: in the file, no longer answered`);
  return problems;
}

const committedExamples = (): CapturedExamples => JSON.parse(readFileSync(EXAMPLES_FILE, 'utf8')) as CapturedExamples;
export { committedExamples };

if (import.meta.url === `file://${process.argv[1]}`) {
  const handle = await openDatabase({});
  await handle.migrate();
  const fresh = await captureExamples(handle.db);
  await handle.close();
  if (process.argv.includes('--check')) {
    const problems = staleExamples(committedExamples(), fresh);
    if (problems.length > 0) {
      process.stderr.write(`src/rest/openapi-examples.json is stale; run npm run openapi:examples\n${problems.map((p) => `  ${p}`).join('\n')}\n`);
      process.exit(1);
    }
    process.stdout.write(`openapi examples up to date (${Object.keys(fresh).length})\n`);
  } else {
    writeFileSync(EXAMPLES_FILE, `${JSON.stringify(fresh, null, 2)}\n`);
    process.stdout.write(`wrote ${Object.keys(fresh).length} examples to src/rest/openapi-examples.json\n`);
  }
}
