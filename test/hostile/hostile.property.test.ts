/**
 * Property-based: every endpoint (REST, GraphQL, public pages, the public JSON API, the CLI's
 * mutations) driven with generated hostile bodies, parameters and headers. For each request:
 * - never a 5xx;
 * - a 4xx has the documented body (JSON `{message, errors?: [{message, path}]}`; GraphQL `{errors}` with
 *   a code that is not INTERNAL_SERVER_ERROR; an HTML page on page routes);
 * - no body carries a stack, SQL, a file path or an engine message;
 * - a rejected request stores nothing (row counts of every table unchanged).
 * Runs per property are bounded (HOSTILE_RUNS, default 40) so CI time stays flat.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fc, test } from '@fast-check/vitest';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect } from 'vitest';
import {
  apiKeys,
  auditLog,
  environments,
  erasures,
  formInsightCounts,
  formVersionIds,
  formVersions,
  forms,
  leads,
  responses,
  uploads,
  webhookDeliveries,
  webhookEndpoints,
  formShareLinks,
} from '../../src/db/schema.ts';
import { createEndpoint } from '../../src/events/webhooks.service.ts';
import { TOOLS as MCP_TOOLS } from '../../src/mcp/tools.ts';
import { ADMIN_TOKEN, appWith, createTenant, setupIsolatedTestApp, testConfig, validBody, type TestContext, type TestTenant } from '../support/helpers.ts';
import { HOSTILE_OPTIONS, rowCounts } from '../support/hostile-checks.ts';
import { makeForm } from '../support/public-helpers.ts';

const options = HOSTILE_OPTIONS;

let ctx: TestContext;
let app: TestContext['app'];
let tenant: TestTenant;
let formId: string;
let resume: { id: string; token: string };
let endpointId: string;
let emptyFormId: string;
let uploaderId: string;
/** The form the update properties edit (others keep their steps and ids). */
let editedForm: { id: string; steps: { id: string; name: string; components: { id: string; type: string; content: Record<string, unknown> }[] }[] };
let logicFormId: string;
let logicResume: { id: string; token: string };

/** A generate body with every part of the logic contract: keys, hidden fields, completion and invalid steps, rules. */
const logicBody = (sourceFormId: string) => ({
  sourceFormId,
  name: 'Logic',
  hiddenFields: ['utm_source', 'plan'],
  steps: [
    {
      name: 'First',
      key: 'first',
      components: [
        { type: 'IdentityInfo', key: 'who', content: { fields: [{ key: 'numberOfEmployees', label: 'Employees', required: false }] } },
        { type: 'Dropdown', key: 'role', content: { options: ['a', 'b'] } },
      ],
      logic: {
        rules: [
          {
            if: { all: [{ question: 'who', field: 'numberOfEmployees', op: 'greaterThan', value: 10 }, { not: { hidden: 'plan', op: 'in', value: ['x', 'y'] } }] },
            then: { goTo: 'last' },
          },
          {
            if: {
              any: [
                { question: 'role', op: 'equals', value: 'b' },
                { hidden: 'utm_source', op: 'answered' },
              ],
            },
            then: { invalid: true },
          },
        ],
        next: 'end',
      },
    },
    { name: 'End', key: 'end', completion: true, components: [{ type: 'Header', content: { title: 'Done' } }] },
    { name: 'Last', key: 'last', components: [{ type: 'ShortInput', key: 'note', content: { question: 'Note?' } }] },
  ],
});

/** A generate body with every survey question type, their content fields and conditions on their answers. */
const surveyBody = (sourceFormId: string) => ({
  sourceFormId,
  name: 'Survey',
  steps: [
    {
      name: 'Feedback',
      components: [
        { type: 'Rating', key: 'rating', content: { question: 'Rate us', scale: 5, shape: 'star', lowLabel: 'Bad', highLabel: 'Good', required: true } },
        { type: 'NPS', key: 'nps', content: { question: 'Recommend us?', lowLabel: 'No', highLabel: 'Yes', required: false } },
        { type: 'OpinionScale', key: 'opinion', content: { question: 'Clear?', from: 0, to: 4, labels: { left: 'No', center: 'So so', right: 'Yes' }, required: false } },
        { type: 'Number', key: 'seats', content: { question: 'Seats?', min: 1, max: 500, decimals: 1, placeholder: '10', unit: 'seats', required: false } },
        { type: 'Date', key: 'start', content: { question: 'Start?', min: '2026-01-01', max: '2026-12-31', required: false } },
        { type: 'Matrix', key: 'grid', content: { question: 'Grid?', rows: ['Speed', 'constructor'], columns: ['Low', 'High'], isMulti: false, required: false } },
        { type: 'Ranking', key: 'order', content: { question: 'Order?', options: ['a', 'b', '__proto__'], required: false } },
      ],
      logic: {
        rules: [
          { if: { question: 'nps', op: 'between', value: [0, 6] }, then: { goTo: 'why' } },
          {
            if: {
              all: [
                { question: 'rating', op: 'greaterOrEqual', value: 4 },
                { question: 'opinion', op: 'in', value: [3, 4] },
              ],
            },
            then: { complete: true },
          },
          {
            if: {
              any: [
                { question: 'seats', op: 'lessOrEqual', value: 2.5 },
                { question: 'start', op: 'between', value: ['2026-03-01', '2026-03-31'] },
                { question: 'start', op: 'after', value: '2026-11-30' },
              ],
            },
            then: { goTo: 'why' },
          },
          {
            if: {
              all: [
                { question: 'grid', field: 'Speed', op: 'equals', value: 'Low' },
                { question: 'order', field: '__proto__', op: 'between', value: [1, 2] },
              ],
            },
            then: { goTo: 'why' },
          },
        ],
      },
    },
    { name: 'Why', key: 'why', components: [{ type: 'LongInput', content: { question: 'Why?' } }] },
  ],
});

let surveyForm: Awaited<ReturnType<typeof makeForm>>;

beforeAll(async () => {
  // Row counts must see this file's writes only.
  ctx = await setupIsolatedTestApp();
  // The handlers, not the rate limits, are under test here (the limits have tests of their own).
  app = appWith(ctx.db, {
    apiRateLimitPerMinute: 0,
    authFailureLimitPerMinute: 0,
    anonymousRateLimitPerMinute: 0,
    publicRateLimitPerMinute: 0,
    // Valid webhook bodies (a loopback URL) are created, so the whole path runs; URL rules have tests of their own.
    webhooks: { ...testConfig().webhooks, allowPrivate: true },
    // Uploads that pass their checks land in a folder of this run's own.
    dataDir: mkdtempSync(join(tmpdir(), 'formloom-hostile-')),
  });
  tenant = await createTenant(ctx.db);
  formId = (
    await makeForm(ctx.db, tenant, [
      {
        name: 'About you',
        components: [
          { type: 'ShortInput', content: { question: 'Name?' } },
          { type: 'IdentityInfo', content: { fields: [{ key: 'emailAddress', label: 'E-mail' }] } },
          { type: 'Dropdown', content: { question: 'Pick', options: ['a', 'b'], isMulti: true } },
        ],
      },
      {
        name: 'More',
        components: [
          { type: 'PasswordInput', content: { question: 'Secret' } },
          { type: 'Disclaimer', content: { text: 'OK?' } },
          { type: 'FileUploader', content: { question: 'File', allowedTypes: ['png', 'txt'], multiple: true } },
        ],
      },
    ])
  ).id;
  uploaderId = (await ctx.db.select({ steps: forms.steps }).from(forms).where(eq(forms.id, formId)))[0]!.steps[1]!.components[2]!.id;
  const started = await app.request(`/s/${formId}/responses`, json('POST', { answers: {} }));
  const body = (await started.json()) as { id: string; resumeToken: string };
  resume = { id: body.id, token: body.resumeToken };
  emptyFormId = (
    await makeForm(ctx.db, tenant, [
      { name: 'A', components: [{ type: 'ShortInput', content: { question: 'Q?' } }] },
      { name: 'B', components: [{ type: 'Header', content: { title: 'T' } }] },
    ])
  ).id;
  editedForm = await makeForm(ctx.db, tenant, validBody(tenant.templateId).steps, 'Edited');
  const logicForm = await makeForm(ctx.db, tenant, logicBody(tenant.templateId).steps, 'Logic', { hiddenFields: ['utm_source', 'plan'] });
  logicFormId = logicForm.id;
  const logicStarted = (await (await app.request(`/s/${logicFormId}/responses`, json('POST', { answers: {} }))).json()) as { id: string; resumeToken: string };
  logicResume = { id: logicStarted.id, token: logicStarted.resumeToken };
  surveyForm = await makeForm(ctx.db, tenant, surveyBody(tenant.templateId).steps, 'Survey');
  endpointId = (await createEndpoint(ctx.db, tenant.environmentId, { url: 'http://127.0.0.1:9/hook', eventTypes: ['response.created'] }, { allowPrivate: true })).endpoint.id;
});

// ---------------------------------------------------------------- generators

const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfff',
  '\udc00\ud800',
  '<img src=x onerror=alert(1)>',
  "'; drop table forms; --",
  '${{7*7}}',
  '../../etc/passwd',
  '%00',
  '1e309',
  '-0',
  'null',
  '𝟘🙂',
  '\u202e\u2066',
];
/** Every character `\s` matches: long runs of each must stay linear wherever client text is read. */
const WHITESPACE = ['\t', '\n', '\v', '\f', '\r', ' ', '\u00a0', '\u1680', '\u2000', '\u200a', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff'];
const hostileString = fc.oneof(
  fc.constantFrom(...HOSTILE_STRINGS),
  fc.constantFrom(...WHITESPACE).map((ch) => `a${ch.repeat(20_000)}b`),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: fc.constantFrom('a', '\u0000', '\ud800', '\udc00', 'é', '<', '"', '\\', '\n'), maxLength: 20 }),
  fc.constantFrom('a'.repeat(70_000), '\u0000'.repeat(1000)),
);
const hostileNumber = fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, -1, 2 ** 31, 2 ** 53 + 1, -(2 ** 63), 1e308, Number.MAX_SAFE_INTEGER));
const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    hostileNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(hostileString, tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** Every path (list of keys) inside a JSON value. */
function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const here = [prefix];
  if (Array.isArray(value)) return here.concat(...value.map((v, i) => pathsOf(v, [...prefix, i])));
  if (value && typeof value === 'object') return here.concat(...Object.entries(value).map(([k, v]) => pathsOf(v, [...prefix, k])));
  return here;
}

/** `base` with the value at one of its paths replaced by `replacement` (the whole body for the root). */
function mutate(base: unknown, pick: number, replacement: unknown): unknown {
  const paths = pathsOf(base);
  const path = paths[pick % paths.length]!;
  if (path.length === 0) return replacement;
  const copy = structuredClone(base) as Record<string | number, unknown>;
  let at = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  at[path.at(-1)!] = replacement;
  return copy;
}

/** A body: a valid one with one value replaced, a random value, or text that is barely JSON. */
const bodyFrom = (base: unknown) =>
  fc.oneof(
    fc.tuple(fc.nat(), hostileValue).map(([pick, value]) => JSON.stringify(mutate(base, pick, value))),
    hostileValue.map((value) => JSON.stringify(value)),
    fc.constantFrom('', '{', '{"a":', 'null', '[]', '"str"', `{"steps":${'['.repeat(5000)}`, `${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`),
    fc.string({ maxLength: 60 }),
  );

/** Header values a client can send (HTTP header values are byte strings without NUL, CR or LF). */
const headerValue = fc.oneof(
  fc.string({ unit: fc.integer({ min: 0x20, max: 0xff }).map((c) => String.fromCharCode(c)), maxLength: 60 }),
  fc.constantFrom('', 'fl_aaaaaaaaaaaa_' + 'x'.repeat(43), 'Bearer ', 'Bearer x', '1.2.3.4, ::1, garbage', 'application/json; charset=utf-16'),
);
const hostileHeaders = fc.record(
  {
    'x-api-key': headerValue,
    authorization: headerValue,
    'x-request-id': headerValue,
    'idempotency-key': headerValue,
    'user-agent': headerValue,
    'x-forwarded-for': headerValue,
    'cf-ipcountry': headerValue,
    'content-type': fc.oneof(headerValue, fc.constant('application/json')),
  },
  { requiredKeys: [] },
);

// ---------------------------------------------------------------- checks

const LEAKS = [
  /\bat .*\.(ts|js|mjs):\d+/,
  /node_modules/,
  /\/work\//,
  /\bselect\b.+\bfrom\b/i,
  /\binsert into\b/i,
  /PostgresError/i,
  /invalid byte sequence/i,
  /unsupported Unicode escape/i,
  /Maximum call stack/i,
  /Unexpected error/,
  /originalError/,
  /SyntaxError/,
  /in JSON at position/,
];

async function tableCounts() {
  return rowCounts(ctx.db, [
    environments,
    apiKeys,
    forms,
    formVersions,
    formVersionIds,
    responses,
    leads,
    webhookEndpoints,
    webhookDeliveries,
    auditLog,
    erasures,
    uploads,
    formInsightCounts,
    formShareLinks,
  ]);
}

interface Checked {
  status: number;
  body: unknown;
}

/** Sends the request and checks the properties every answer must have; returns what came back. */
/** `text`: a JSON error, or a successful body that is not JSON (an export's CSV or NDJSON). */
async function send(path: string, init: RequestInit, kind: 'json' | 'graphql' | 'page' | 'text' | 'mcp'): Promise<Checked> {
  const before = await tableCounts();
  const response = await app.request(path, init);
  const text = await response.text();
  const label = `${init.method ?? 'GET'} ${path.slice(0, 120)} → ${response.status}: ${text.slice(0, 300)}`;
  expect(response.status, label).toBeLessThan(500);
  for (const leak of LEAKS) expect(text, label).not.toMatch(leak);
  if (response.status >= 400) expect(text, `${label}: a 4xx needs a body`).not.toBe('');
  let body: unknown = text;
  const pageAnswer = kind === 'page' && (response.headers.get('content-type') ?? '').includes('text/html');
  const textAnswer = kind === 'text' && response.status < 400;
  if (!pageAnswer && !textAnswer && text !== '') {
    body = JSON.parse(text);
    if (response.status >= 400) {
      if (kind === 'graphql' && typeof body === 'object' && body && 'errors' in body) {
        const errors = (body as { errors: { message: unknown; extensions?: { code?: unknown } }[] }).errors;
        expect(errors.length, label).toBeGreaterThan(0);
        for (const error of errors) {
          expect(typeof error.message, label).toBe('string');
          expect(error.extensions?.code, label).not.toBe('INTERNAL_SERVER_ERROR');
        }
      } else if (kind === 'mcp' && typeof body === 'object' && body && 'jsonrpc' in body) expectJsonRpcError(body, label);
      else expectDocumentedError(body, label);
    }
  }
  if (kind === 'graphql' && response.status === 200) {
    for (const error of (body as { errors?: { extensions?: { code?: unknown } }[] }).errors ?? []) {
      expect(error.extensions?.code, label).not.toBe('INTERNAL_SERVER_ERROR');
    }
  }
  // A page's 422 may keep the step's valid answers (the last step sent before an earlier one was
  // answered: docs/public-pages.md, "The page"); every other refusal stores nothing.
  const refused = response.status >= 400 && !(kind === 'page' && response.status === 422);
  if (refused || (kind === 'graphql' && (body as { data?: unknown }).data == null)) {
    expect(await tableCounts(), `${label}: a refused request stored something`).toEqual(before);
  }
  return { status: response.status, body };
}

/** What MCP answers a message that is not valid JSON-RPC (docs/mcp.md): a JSON-RPC error, never an internal one. */
function expectJsonRpcError(body: unknown, label: string) {
  expect(body, label).toEqual({ jsonrpc: '2.0', id: null, error: { code: expect.any(Number), message: expect.any(String) } });
  expect((body as { error: { code: number } }).error.code, label).not.toBe(-32603);
}

function expectDocumentedError(body: unknown, label: string) {
  expect(body, label).toEqual({ message: expect.any(String), ...((body as { errors?: unknown }).errors ? { errors: expect.any(Array) } : {}) });
  for (const error of (body as { errors?: unknown[] }).errors ?? []) {
    expect(error, label).toEqual({ message: expect.any(String), path: expect.any(Array) });
    for (const segment of (error as { path: unknown[] }).path) expect(['string', 'number'], label).toContain(typeof segment);
  }
}

/**
 * A path segment as a client may write it: the string's UTF-8 bytes percent-encoded (an unpaired
 * surrogate becomes U+FFFD, as any HTTP client sends it), or raw escapes that decode to nothing valid.
 */
const segment = fc.oneof(
  hostileString.map((text) => [...Buffer.from(text, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('')),
  fc.constantFrom('%00', 'a%00b', '%ED%A0%80', '%', '%zz', '..', '%2e%2e', '%2F', '%C0%80', '%FF'),
);

const json = (method: string, body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method,
  headers: { 'content-type': 'application/json', ...headers },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

/** A valid body using every field of variables, calculations, optionScores, limits and quotas. */
const countingBody = (sourceFormId: string) => ({
  sourceFormId,
  name: 'Counting',
  hiddenFields: ['plan'],
  variables: [
    { name: 'score', type: 'number', initial: 1.5 },
    { name: 'label', type: 'text', initial: 'x' },
  ],
  limits: { maxResponses: 100, opensAt: '2026-01-01T00:00:00+01:00', closesAt: '2036-01-01T00:00:00Z', closedMessage: 'Closed', notYetOpenMessage: { en: 'Soon' } },
  quotas: [
    {
      key: 'large',
      condition: {
        all: [
          { question: 'pick', op: 'equals', value: 'A' },
          { variable: 'score', op: 'greaterThan', value: 2 },
        ],
      },
      limit: 5,
      action: { goTo: 'full' },
    },
  ],
  steps: [
    {
      name: 'One',
      components: [
        { type: 'Dropdown', key: 'pick', content: { question: 'Pick', options: ['A', 'B'], optionScores: { A: 2, B: -1 } } },
        { type: 'ShortInput', key: 'seats', content: { question: 'Seats' } },
      ],
      logic: {
        rules: [
          {
            if: { question: 'pick', op: 'answered' },
            then: [
              { calculate: { variable: 'score', op: 'add', value: { scoreOf: 'pick' } } },
              { calculate: { variable: 'score', op: 'multiply', value: { question: 'seats' } } },
              { calculate: { variable: 'label', op: 'append', value: { variable: 'label' } } },
            ],
          },
          { if: { variable: 'label', op: 'contains', value: 'x' }, then: [{ calculate: { variable: 'score', op: 'divide', value: 2 } }, { goTo: 'full' }] },
        ],
      },
    },
    { name: 'Two', components: [{ type: 'Header', content: { title: 'T' } }] },
    { name: 'Full', key: 'full', completion: true, components: [{ type: 'Header', content: { title: 'Full' } }] },
  ],
});

// ---------------------------------------------------------------- properties

describe('REST', () => {
  test.prop([fc.nat(), hostileValue, fc.boolean()], options)('generate: a valid body with one hostile value', async (pick, value, raw) => {
    const base = validBody(tenant.templateId);
    const body = raw ? JSON.stringify(value) : JSON.stringify(mutate(base, pick, value));
    await send(`/api/v1/environments/${tenant.environmentId}/forms/generate`, json('POST', body, { 'x-api-key': tenant.apiKey }), 'json');
  });

  test.prop([fc.nat(), hostileValue], options)('generate: a valid body with logic and one hostile value', async (pick, value) => {
    const body = JSON.stringify(mutate(logicBody(tenant.templateId), pick, value));
    await send(`/api/v1/environments/${tenant.environmentId}/forms/generate`, json('POST', body, { 'x-api-key': tenant.apiKey }), 'json');
  });

  test.prop([fc.nat(), hostileValue], options)('generate: a valid body with notifications and one hostile value', async (pick, value) => {
    const notifications = {
      team: [{ to: ['ops@example.com'], on: ['response.finished', 'response.invalid'], includeAnswers: true, subject: 'New lead' }],
      respondent: { enabled: true, emailFrom: 'contact.emailAddress', subject: 'Thanks', body: 'Thank you', includeAnswers: false },
    };
    const base = validBody(tenant.templateId) as { steps: { components: Record<string, unknown>[] }[] };
    base.steps[0]!.components[0]!.key = 'contact';
    const body = JSON.stringify(mutate({ ...base, notifications }, pick, value));
    await send(`/api/v1/environments/${tenant.environmentId}/forms/generate`, json('POST', body, { 'x-api-key': tenant.apiKey }), 'json');
  });

  test.prop([fc.nat(), hostileValue], options)('generate: a body with variables, calculations, optionScores, limits and quotas, and one hostile value', async (pick, value) => {
    const body = JSON.stringify(mutate(countingBody(tenant.templateId), pick, value));
    await send(`/api/v1/environments/${tenant.environmentId}/forms/generate`, json('POST', body, { 'x-api-key': tenant.apiKey }), 'json');
  });

  test.prop([fc.nat(), hostileValue], options)('generate: a survey body (every survey question type, conditions on them) with one hostile value', async (pick, value) => {
    const body = JSON.stringify(mutate(surveyBody(tenant.templateId), pick, value));
    await send(`/api/v1/environments/${tenant.environmentId}/forms/generate`, json('POST', body, { 'x-api-key': tenant.apiKey }), 'json');
  });

  // Rules of every size up to the worst a body may hold: taken within the rule budget, else 400 at the leaf past it.
  const ruleSizes = fc.array(fc.array(fc.record({ values: fc.integer({ min: 0, max: 500 }), notIn: fc.boolean() }), { minLength: 1, maxLength: 45 }), {
    minLength: 1,
    maxLength: 20,
  });
  test.prop([ruleSizes], options)('generate: rules of any cost', async (rules) => {
    const leaf = ({ values, notIn }: { values: number; notIn: boolean }) =>
      values === 0 ? { question: 'q', op: 'answered' } : { question: 'q', op: notIn ? 'notIn' : 'in', value: Array.from({ length: values }, (_, i) => i % 10) };
    const steps = [
      {
        name: 'One',
        components: [{ type: 'ShortInput', key: 'q', content: { question: 'Q' } }],
        logic: { rules: rules.map((leaves) => ({ if: { any: leaves.map(leaf) }, then: { complete: true } })) },
      },
      { name: 'Two', components: [{ type: 'Header', content: { title: 'T' } }] },
    ];
    const cost = rules.flat().reduce((sum, { values }) => sum + Math.max(values, 1), 0);
    const answer = await send(
      `/api/v1/environments/${tenant.environmentId}/forms/generate`,
      json('POST', JSON.stringify({ sourceFormId: tenant.templateId, name: 'Costly', steps }), { 'x-api-key': tenant.apiKey }),
      'json',
    );
    if (cost <= 10_000) expect(answer.status).toBe(200);
    else {
      expect(answer.status).toBe(400);
      const errors = (answer.body as { errors: { path: unknown[] }[] }).errors;
      expect(errors).toHaveLength(1);
      expect(errors[0]!.path.slice(0, 6)).toEqual(['steps', 0, 'logic', 'rules', expect.any(Number), 'if']);
    }
  });

  test.prop([bodyFrom(validBody('x'))], options)('generate: hostile body text', async (text) => {
    await send(`/api/v1/environments/${tenant.environmentId}/forms/generate`, json('POST', text, { 'x-api-key': tenant.apiKey }), 'json');
  });

  test.prop([segment], options)('generate: hostile environment id in the path', async (environmentId) => {
    await send(`/api/v1/environments/${environmentId}/forms/generate`, json('POST', validBody(tenant.templateId), { 'x-api-key': tenant.apiKey }), 'json');
  });

  const params = fc.dictionary(fc.oneof(fc.constantFrom('formId', 'returnPartials', 'since', 'until', 'dateField', 'language', 'limit', 'after'), hostileString), hostileString, {
    maxKeys: 4,
  });
  test.prop([params, fc.boolean()], options)('responses: hostile query parameters', async (query, withForm) => {
    const search = new URLSearchParams(withForm ? { formId } : {});
    for (const [name, value] of Object.entries(query)) search.append(name, value);
    await send(`/api/v1/responses?${search}`, { headers: { 'x-api-key': tenant.apiKey } }, 'json');
  });

  test.prop([segment, segment, fc.constantFrom('close', 'reopen'), hostileHeaders], options)(
    'close/reopen: hostile ids in the path and hostile headers',
    async (environmentId, id, action, headers) => {
      await send(`/api/v1/environments/${environmentId}/forms/${id}/${action}`, { method: 'POST', headers: { 'x-api-key': tenant.apiKey } }, 'json');
      await send(`/api/v1/environments/${tenant.environmentId}/forms/${id}/${action}`, { method: 'POST', headers: { 'x-api-key': tenant.apiKey } }, 'json');
      await send(`/api/v1/environments/${tenant.environmentId}/forms/${formId}/${action}`, { method: 'POST', headers }, 'json');
    },
  );

  const exportParams = fc.dictionary(
    fc.oneof(fc.constantFrom('formId', 'returnPartials', 'since', 'until', 'dateField', 'language', 'format', 'environmentId'), hostileString),
    fc.oneof(hostileString, fc.constantFrom('csv', 'ndjson', 'true')),
    { maxKeys: 4 },
  );
  test.prop([exportParams, fc.boolean(), fc.boolean()], options)('export: hostile query parameters, API key or admin token', async (query, withForm, admin) => {
    const search = new URLSearchParams(withForm ? { formId } : {});
    for (const [name, value] of Object.entries(query)) search.append(name, value);
    const headers: Record<string, string> = admin ? { authorization: `Bearer ${ADMIN_TOKEN}` } : { 'x-api-key': tenant.apiKey };
    await send(`/api/v1/responses/export?${search}`, { headers }, 'text');
  });

  test.prop([hostileHeaders, fc.constantFrom('GET', 'POST', 'DELETE'), fc.boolean()], options)(
    'openapi.json and /docs: hostile headers and methods',
    async (headers, method, docs) => {
      await send(docs ? '/docs' : '/api/v1/openapi.json', { method, headers }, docs ? 'page' : 'json');
    },
  );

  test.prop([hostileHeaders, fc.constantFrom('GET', 'POST', 'DELETE')], options)('metrics: hostile headers and methods', async (headers, method) => {
    await send('/metrics', { method, headers }, 'text');
  });

  test.prop([hostileHeaders, fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH')], options)('any API path: hostile headers and methods', async (headers, method) => {
    const init: RequestInit = { method, headers };
    if (method !== 'GET') init.body = JSON.stringify(validBody(tenant.templateId));
    await send(`/api/v1/responses?formId=${formId}`, init, 'json');
    await send(`/api/v1/environments/${tenant.environmentId}/forms/generate`, init, 'json');
  });
});

describe('REST forms (reading and editing)', () => {
  /** A valid update: every definition field, the steps with their ids. */
  const validUpdate = () => ({
    name: 'Edited',
    hiddenFields: ['utm_source'],
    steps: editedForm.steps.map((step) => ({ ...step, components: step.components.map((c) => ({ ...c })) })),
  });
  const updateHeaders = fc.record(
    { 'if-match': headerValue, 'idempotency-key': headerValue, 'content-type': fc.oneof(headerValue, fc.constant('application/json')) },
    { requiredKeys: [] },
  );

  test.prop([fc.nat(), hostileValue, fc.boolean()], options)('update: a valid body with one hostile value', async (pick, value, raw) => {
    const body = raw ? JSON.stringify(value) : JSON.stringify(mutate(validUpdate(), pick, value));
    await send(`/api/v1/forms/${editedForm.id}`, json('PATCH', body, { 'x-api-key': tenant.apiKey }), 'json');
  });

  test.prop([bodyFrom({ name: 'Edited', hiddenFields: ['utm_source'], steps: validBody('x').steps }), updateHeaders], options)(
    'update: hostile body text, If-Match and Idempotency-Key',
    async (text, headers) => {
      await send(
        `/api/v1/forms/${editedForm.id}`,
        { method: 'PATCH', headers: { 'content-type': 'application/json', 'x-api-key': tenant.apiKey, ...headers }, body: text },
        'json',
      );
    },
  );

  test.prop([segment, fc.constantFrom('GET', 'PATCH', 'POST', 'DELETE')], options)('hostile form ids in the path', async (id, method) => {
    const init = method === 'GET' ? { headers: { 'x-api-key': tenant.apiKey } } : json(method, { name: 'x' }, { 'x-api-key': tenant.apiKey });
    await send(`/api/v1/forms/${id}`, init, 'json');
  });

  const formParams = fc.dictionary(fc.oneof(fc.constantFrom('limit', 'after', 'status', 'nameContains'), hostileString), hostileString, { maxKeys: 4 });
  test.prop([formParams, hostileHeaders], options)('listing: hostile query parameters and headers', async (query, headers) => {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) search.append(name, value);
    await send(`/api/v1/forms?${search}`, { headers: { 'x-api-key': tenant.apiKey, ...headers } }, 'json');
  });
});

describe('REST translations and multilingual forms', () => {
  let multilingualId = '';
  let sizeId = '';
  /** A multilingual generate body: languages, and texts given per language (a name, a step name, a question, options). */
  const multilingualBody = (sourceFormId: string) => ({
    sourceFormId,
    name: { en: 'Sign-up', de: 'Anmeldung' },
    languages: { default: 'en', others: ['de', 'ar'] },
    steps: [
      {
        name: { en: 'Contact', ar: 'اتصال' },
        key: 'contact',
        components: [
          { type: 'ShortInput', key: 'email', content: { question: { en: 'E-mail?', de: 'E-Mail?' }, placeholder: 'you@example.com' } },
          { type: 'Dropdown', key: 'size', content: { question: 'Size?', options: [{ en: 'Small', de: 'Klein' }, 'Large'] } },
        ],
      },
      { name: 'Done', key: 'done', components: [{ type: 'Header', content: { title: { en: 'Thanks, {{question.email}}', de: 'Danke, {{question.email}}' } } }] },
    ],
  });
  const document = { name: 'Anmeldung', 'steps.contact.name': 'Kontakt', 'steps.contact.components.size.options.1': 'Groß' };
  beforeAll(async () => {
    const response = await app.request(
      `/api/v1/environments/${tenant.environmentId}/forms/generate`,
      json('POST', multilingualBody(tenant.templateId), { 'x-api-key': tenant.apiKey }),
    );
    multilingualId = ((await response.json()) as { result: { form: { id: string } } }).result.form.id;
    const [row] = await ctx.db.select({ steps: forms.steps }).from(forms).where(eq(forms.id, multilingualId));
    sizeId = row!.steps[0]!.components[1]!.id;
  });

  /** A language as an address or a header may carry it: the form's, another, or hostile text. */
  const language = fc.oneof(fc.constantFrom('de', 'ar', 'en', 'DE-ch', 'fr', '*', 'de;q=0.5, ar', ''), segment);
  test.prop([language, fc.constantFrom('', '&step=0', '&step=1', '&new=1'), headerValue], options)(
    'the page in a hostile ?lang= and Accept-Language',
    async (lang, step, accept) => {
      await send(`/s/${multilingualId}?lang=${lang}${step}`, { headers: { 'accept-language': accept } }, 'page');
      const body = new URLSearchParams({ 'c.x': 'y' }).toString();
      await send(
        `/s/${multilingualId}?step=0&lang=${lang}`,
        { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': accept }, body },
        'page',
      );
    },
  );

  test.prop([language, headerValue], options)('the definition in a hostile ?lang= and Accept-Language', async (lang, accept) => {
    await send(`/s/${multilingualId}/definition?lang=${lang}`, { headers: { 'accept-language': accept } }, 'json');
  });

  test.prop([fc.oneof(hostileValue, fc.constantFrom('de', 'ar', 'xx')), fc.constantFrom('Klein', 'Small', 'Groß', '')], options)(
    'POST responses: a hostile language',
    async (lang, size) => {
      await send(`/s/${multilingualId}/responses`, json('POST', { language: lang, answers: { [sizeId]: size } }), 'json');
    },
  );

  test.prop([fc.nat(), hostileValue], options)('generate: a multilingual body with one hostile value', async (pick, value) => {
    await send(
      `/api/v1/environments/${tenant.environmentId}/forms/generate`,
      json('POST', mutate(multilingualBody(tenant.templateId), pick, value), { 'x-api-key': tenant.apiKey }),
      'json',
    );
  });

  test.prop([bodyFrom(document), fc.constantFrom('de', 'ar', 'en', 'fr'), fc.option(headerValue)], options)(
    'PUT a translation: hostile documents and If-Match',
    async (text, locale, ifMatch) => {
      const headers: Record<string, string> = { 'content-type': 'application/json', 'x-api-key': tenant.apiKey, ...(ifMatch === null ? {} : { 'if-match': ifMatch }) };
      await send(`/api/v1/forms/${multilingualId}/translations/${locale}`, { method: 'PUT', headers, body: text }, 'json');
    },
  );

  test.prop([segment, fc.constantFrom('GET', 'PUT', 'POST')], options)('hostile locales in the path', async (locale, method) => {
    const init = method === 'GET' ? { headers: { 'x-api-key': tenant.apiKey } } : json(method, document, { 'x-api-key': tenant.apiKey });
    await send(`/api/v1/forms/${multilingualId}/translations/${locale}`, init, 'json');
  });

  test.prop([segment], options)('hostile form ids for the translations', async (id) => {
    await send(`/api/v1/forms/${id}/translations`, { headers: { 'x-api-key': tenant.apiKey } }, 'json');
  });
});

describe('REST webhooks', () => {
  const validEndpoint = () => ({ url: 'http://127.0.0.1:9/hook', eventTypes: ['response.created', 'form.generated'], formIds: [formId], description: 'd', enabled: true });
  test.prop([fc.nat(), hostileValue, fc.boolean()], options)('create: a valid body with one hostile value', async (pick, value, raw) => {
    const body = raw ? JSON.stringify(value) : JSON.stringify(mutate(validEndpoint(), pick, value));
    await send('/api/v1/webhooks', json('POST', body, { 'x-api-key': tenant.apiKey }), 'json');
  });

  test.prop([bodyFrom(validEndpoint())], options)('update: hostile body text', async (text) => {
    await send(`/api/v1/webhooks/${endpointId}`, json('PATCH', text, { 'x-api-key': tenant.apiKey }), 'json');
  });

  test.prop([segment, fc.constantFrom('', '/test', '/deliveries'), fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE')], options)(
    'hostile endpoint ids in the path',
    async (id, tail, method) => {
      await send(`/api/v1/webhooks/${id}${tail}`, { method, headers: { 'x-api-key': tenant.apiKey } }, 'json');
      await send(`/api/v1/webhook-deliveries/${id}/resend`, { method, headers: { 'x-api-key': tenant.apiKey } }, 'json');
    },
  );

  const deliveryParams = fc.dictionary(fc.oneof(fc.constantFrom('limit', 'status'), hostileString), hostileString, { maxKeys: 3 });
  test.prop([deliveryParams], options)('deliveries: hostile query parameters', async (query) => {
    await send(`/api/v1/webhooks/${endpointId}/deliveries?${new URLSearchParams(query)}`, { headers: { 'x-api-key': tenant.apiKey } }, 'json');
  });
});

describe('REST e-mail delivery log', () => {
  test.prop([segment, segment, fc.constantFrom('', '/x/retry'), fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE')], options)(
    'hostile form and delivery ids in the path',
    async (form, id, tail, method) => {
      await send(`/api/v1/forms/${form}/notifications/deliveries${tail}`, { method, headers: { 'x-api-key': tenant.apiKey } }, 'json');
      await send(`/api/v1/forms/${formId}/notifications/deliveries/${id}/retry`, { method, headers: { 'x-api-key': tenant.apiKey } }, 'json');
    },
  );

  test.prop([fc.nat(), hostileValue], options)('environment SMTP settings: a valid body with one hostile value', async (pick, value) => {
    const valid = { smtp: { url: 'smtp://mailer@smtp.example.com:587', password: 'secret password', from: 'Forms <forms@example.com>' } };
    const body = JSON.stringify(mutate(valid, pick, value));
    await send(`/api/v1/environments/${tenant.environmentId}/settings`, json('PATCH', body, { 'x-api-key': tenant.apiKey }), 'json');
  });

  const logParams = fc.dictionary(fc.oneof(fc.constantFrom('limit', 'after'), hostileString), hostileString, { maxKeys: 3 });
  test.prop([logParams, hostileHeaders], options)('listing: hostile query parameters and headers', async (query, headers) => {
    await send(`/api/v1/forms/${formId}/notifications/deliveries?${new URLSearchParams(query)}`, { headers: { 'x-api-key': tenant.apiKey, ...headers } }, 'json');
  });
});

describe('REST API keys', () => {
  const keys = () => `/api/v1/environments/${tenant.environmentId}/keys`;
  const validKey = () => ({ name: 'BI', scopes: ['responses:read', 'forms:read'], expires: '30d' });
  test.prop([fc.nat(), hostileValue, fc.boolean()], options)('create: a valid body with one hostile value', async (pick, value, raw) => {
    const body = raw ? JSON.stringify(value) : JSON.stringify(mutate(validKey(), pick, value));
    await send(keys(), json('POST', body, { 'x-api-key': tenant.apiKey }), 'json');
  });

  test.prop([bodyFrom(validKey()), hostileHeaders], options)('create: hostile body text and headers', async (text, headers) => {
    await send(keys(), { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': tenant.apiKey, ...headers }, body: text }, 'json');
  });

  test.prop([segment, segment, fc.constantFrom('GET', 'POST', 'DELETE', 'PATCH')], options)('hostile environment and key ids in the path', async (environmentId, id, method) => {
    await send(`/api/v1/environments/${environmentId}/keys/${id}`, { method, headers: { 'x-api-key': tenant.apiKey } }, 'json');
    await send(`/api/v1/environments/${environmentId}/keys`, { method, headers: { 'x-api-key': tenant.apiKey } }, 'json');
  });
});

describe('MCP', () => {
  const TOOLS = MCP_TOOLS.map((t) => t.name);
  const toolCall = (name: string, args: unknown) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });
  const headers = () => ({ 'x-api-key': tenant.apiKey, accept: 'application/json, text/event-stream' });
  test.prop([fc.constantFrom(...TOOLS), fc.nat(), hostileValue, fc.boolean()], options)('tools/call: every tool with hostile arguments', async (name, pick, value, raw) => {
    const valid =
      name === 'generate_form'
        ? validBody(formId)
        : { formId: emptyFormId, responseId: emptyFormId, limit: 10, after: undefined, status: 'published', includePartials: true, format: 'csv', changes: { name: 'Renamed' } };
    await send('/mcp', json('POST', JSON.stringify(toolCall(name, raw ? value : mutate(valid, pick, value))), headers()), 'mcp');
  });

  test.prop([hostileString, hostileValue], options)('resources/read and prompts/get with hostile URIs and arguments', async (uri, value) => {
    const read = { jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: `formloom://forms/${uri}` } };
    await send('/mcp', json('POST', JSON.stringify(read), headers()), 'mcp');
    const prompt = { jsonrpc: '2.0', id: 2, method: 'prompts/get', params: { name: 'summarise_form_responses', arguments: { formId: value } } };
    await send('/mcp', json('POST', JSON.stringify(prompt), headers()), 'mcp');
  });

  test.prop([bodyFrom(toolCall('list_forms', { limit: 5 })), hostileHeaders], options)('hostile JSON-RPC text and headers', async (text, extra) => {
    await send('/mcp', { method: 'POST', headers: { 'content-type': 'application/json', ...headers(), ...extra }, body: text }, 'mcp');
  });
});

describe('REST privacy (deleting, erasing, audit log)', () => {
  // A filter that matches nothing stored (a form without responses, and nothing before 2000), even with
  // one of its conditions replaced: valid bodies run the whole path and delete nothing others rely on.
  const validFilter = () => ({ formId: emptyFormId, until: '2000-01-01T00:00:00Z', partialOnly: true, dateField: 'createdAt' });
  test.prop([fc.nat(), hostileValue, fc.boolean()], options)('bulk delete: a valid body with one hostile value', async (pick, value, raw) => {
    const body = raw ? JSON.stringify(value) : JSON.stringify(mutate(validFilter(), pick, value));
    await send('/api/v1/responses/delete', json('POST', body, { 'x-api-key': tenant.apiKey }), 'json');
  });

  test.prop([bodyFrom(validFilter()), hostileHeaders], options)('bulk delete: hostile body text and headers', async (text, headers) => {
    await send('/api/v1/responses/delete', { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': tenant.apiKey, ...headers }, body: text }, 'json');
  });

  test.prop([segment, fc.constantFrom('responses', 'leads'), fc.constantFrom('GET', 'POST', 'DELETE', 'PATCH')], options)(
    'hostile response and lead ids in the path',
    async (id, kind, method) => {
      await send(`/api/v1/${kind}/${id}`, { method, headers: { 'x-api-key': tenant.apiKey } }, 'json');
    },
  );

  const auditParams = fc.record({ limit: hostileString, after: hostileString }, { requiredKeys: [] });
  test.prop([auditParams, hostileHeaders], options)('audit log: hostile query parameters and headers', async (query, headers) => {
    await send(`/api/v1/audit-log?${new URLSearchParams(query)}`, { headers: { 'x-api-key': tenant.apiKey, ...headers } }, 'json');
  });
});

describe('GraphQL', () => {
  const GENERATE = 'mutation G($env: ID!, $input: GenerateFormInput!) { generateForm(environmentId: $env, input: $input) { success form { id } } }';
  test.prop([fc.nat(), hostileValue], options)('generateForm: hostile variables', async (pick, value) => {
    const variables = mutate({ env: tenant.environmentId, input: validBody(tenant.templateId) }, pick, value);
    await send('/graphql', json('POST', { query: GENERATE, variables }, { 'x-api-key': tenant.apiKey }), 'graphql');
  });

  // The selection's page arguments are constants: a nested field's bad argument fails after the update
  // committed (GraphQL runs the mutation first); hostile cursors of Form.versions are in the cursor tests.
  const UPDATE = `mutation U($id: ID!, $input: UpdateFormInput!, $v: Int) {
    updateForm(id: $id, input: $input, expectedVersion: $v) { success version form { id versions(first: 2) { edges { node { version } } } } }
  }`;
  test.prop([fc.nat(), hostileValue], options)('updateForm: hostile variables', async (pick, value) => {
    const input = { name: 'Edited', hiddenFields: ['plan'], steps: editedForm.steps };
    const variables = mutate({ id: editedForm.id, input, v: null }, pick, value);
    await send('/graphql', json('POST', { query: UPDATE, variables }, { 'x-api-key': tenant.apiKey }), 'graphql');
  });

  test.prop([fc.nat(), hostileValue], options)('generateForm: hostile variables in logic', async (pick, value) => {
    const variables = mutate({ env: tenant.environmentId, input: logicBody(tenant.templateId) }, pick, value);
    await send('/graphql', json('POST', { query: GENERATE, variables }, { 'x-api-key': tenant.apiKey }), 'graphql');
  });

  const LISTING =
    'query L($formId: ID!, $filter: ResponseFilter, $first: Int, $after: String) { formResponses(formId: $formId, filter: $filter, first: $first, after: $after) { edges { node { id } } } }';
  test.prop([fc.nat(), hostileValue], options)('formResponses: hostile variables', async (pick, value) => {
    const variables = mutate({ formId, filter: { returnPartials: true, since: '2020-01-01T00:00:00Z' }, first: 10, after: null }, pick, value);
    await send('/graphql', json('POST', { query: LISTING, variables }, { 'x-api-key': tenant.apiKey }), 'graphql');
  });

  const GRAPH = `query G($id: ID!, $ids: [ID!]!, $env: ID!, $forms: FormFilter, $email: String, $first: Int, $after: String, $summary: SummaryFilter, $responses: ResponseFilter) {
    node(id: $id) { id }
    nodes(ids: $ids) { id }
    environment(id: $env) {
      forms(filter: $forms, first: $first, after: $after) { edges { node { id summary(filter: $summary) { total } responses(filter: $responses, first: 3) { edges { node { id } } } } } }
      leads(filter: { email: $email }, first: $first, after: $after) { edges { node { id } } }
    }
  }`;
  test.prop([fc.nat(), hostileValue], options)('the graph: hostile node ids, filters, pages and cursors', async (pick, value) => {
    const base = {
      id: 'Rm9ybTp4',
      ids: ['Rm9ybTp4'],
      env: tenant.environmentId,
      forms: { status: 'PUBLISHED', nameContains: 'a' },
      email: 'a@example.com',
      first: 5,
      after: null,
      summary: { since: '2020-01-01T00:00:00Z', dateField: 'CREATED_AT', language: 'de' },
      responses: { returnPartials: true, language: 'de' },
    };
    await send('/graphql', json('POST', { query: GRAPH, variables: mutate(base, pick, value) }, { 'x-api-key': tenant.apiKey }), 'graphql');
  });

  test.prop([hostileString, hostileValue], options)('literals: hostile strings and JSON written into the document', async (text, value) => {
    const literal = JSON.stringify(text);
    const jsonLiteral = JSON.stringify(value ?? null).replace(/"([^"\\]*)":/g, '$1:');
    const documents = [
      `{ formResponses(formId: ${literal}) { edges { node { id } } } }`,
      `{ environment(id: ${literal}) { id } }`,
      `mutation { generateForm(environmentId: ${JSON.stringify(tenant.environmentId)}, input: {sourceFormId: ${literal}, name: ${literal}, steps: [{name: ${literal}, components: [{type: "Header", content: ${jsonLiteral}}]}, {name: "b", components: [{type: "Header", content: {}}]}]}) { success } }`,
    ];
    for (const query of documents) await send('/graphql', json('POST', { query }, { 'x-api-key': tenant.apiKey }), 'graphql');
  });

  test.prop([bodyFrom({ query: '{ __typename }', variables: {} }), fc.oneof(fc.constant('application/json'), headerValue)], options)(
    'hostile request bodies and media types',
    async (text, contentType) => {
      await send('/graphql', { method: 'POST', headers: { 'content-type': contentType, 'x-api-key': tenant.apiKey }, body: text }, 'graphql');
    },
  );

  test.prop([fc.nat(), hostileValue, fc.boolean()], options)('persisted documents: hostile extensions, hashes and trusted documents', async (pick, value, withText) => {
    const persisted = mutate({ persistedQuery: { version: 1, sha256Hash: createHash('sha256').update(LISTING).digest('hex') } }, pick, value);
    const body = { ...(withText ? { query: LISTING } : {}), extensions: persisted, variables: { formId } };
    await send('/graphql', json('POST', body, { 'x-api-key': tenant.apiKey }), 'graphql');
  });

  test.prop([hostileString], options)('trustGraphQLDocument: a hostile document text', async (text) => {
    const query = 'mutation T($d: String!) { trustGraphQLDocument(document: $d) { hash } }';
    await send('/graphql', json('POST', { query, variables: { d: text } }, { authorization: `Bearer ${ADMIN_TOKEN}` }), 'graphql');
  });

  const ADMIN = [
    'mutation M($input: CreateEnvironmentInput!) { createEnvironment(input: $input) { id } }',
    'mutation M($input: CreateApiKeyInput!) { createApiKey(input: $input) { key } }',
    'mutation M($id: ID!) { createApiKey(input: { environmentId: $id, scopes: [RESPONSES_READ], expiresAt: "2030-01-01T00:00:00Z" }) { key } }',
    'mutation M($id: ID!) { revokeApiKey(id: $id) { id } }',
    'mutation M($id: ID!) { deleteForm(id: $id) { id } }',
    'mutation M($input: ImportFormInput!) { importForm(input: $input) { id } }',
    'mutation M($id: ID!) { closeForm(id: $id) { id } }',
    'mutation M($id: ID!) { reopenForm(id: $id) { id } }',
    'mutation M($id: ID!) { deleteResponse(id: $id) { id } }',
    'mutation M($input: DeleteResponsesFilter!) { deleteResponses(environmentId: "x", filter: $input) { deletedCount } }',
    'mutation M($id: ID) { eraseLead(id: $id) { erased } }',
    'mutation M($id: String) { eraseLead(email: $id, environmentId: "x") { erased } }',
    'mutation M($input: EnvironmentSettingsInput!) { updateEnvironmentSettings(environmentId: "x", input: $input) { id } }',
    'mutation M($id: ID!) { setFormRetention(formId: $id, retentionDays: 5) { id } }',
    'query M($id: String) { auditLog(environmentId: "x", after: $id) { edges { node { id } } } }',
  ];
  test.prop([fc.constantFrom(...ADMIN), hostileValue, hostileString], options)('the CLI mutations: hostile variables', async (query, value, text) => {
    const variables = { input: value, id: text };
    await send('/graphql', json('POST', { query, variables }, { authorization: `Bearer ${ADMIN_TOKEN}` }), 'graphql');
  });
});

describe('public pages and the public JSON API', () => {
  test.prop([segment, fc.constantFrom('', '?step=0', '?step=1', '?step=-1', '?step=99999999999', '?step=x', '?step=%00')], options)(
    'page GET: hostile ids and steps',
    async (id, query) => {
      await send(`/s/${id}${query}`, {}, 'page');
      await send(`/s/${formId}${query}`, {}, 'page');
    },
  );

  const fields = fc.array(fc.tuple(hostileString, hostileString), { maxLength: 6 });
  test.prop([fields, fc.constantFrom('0', '1', '7', 'x')], options)('page POST: hostile form fields', async (pairs, step) => {
    const body = new URLSearchParams();
    for (const [name, value] of pairs) body.append(name, value);
    body.append('c.x', 'y');
    await send(`/s/${formId}?step=${step}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: body.toString() }, 'page');
  });

  // Cookie values as a browser could send them (bytes up to 0xff), and broken signatures and escapes.
  const cookieValue = fc.oneof(headerValue, fc.constantFrom('.', 'x.', '%', '%E0%A4%A', `x.${'A'.repeat(43)}=`, `${'a'.repeat(5000)}.${'é'.repeat(44)}`));
  test.prop([cookieValue, cookieValue, fc.constantFrom('GET', 'POST')], options)('page GET and POST: hostile lead and session cookies', async (lead, session, method) => {
    const cookie = `fl_lead_${tenant.environmentId}=${lead}; fl_s_${formId}=${session}`;
    const init: RequestInit = method === 'GET' ? { headers: { cookie } } : { method, headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: 'c.x=y' };
    await send(`/s/${formId}?step=0`, init, 'page');
  });

  test.prop([fc.nat(), hostileValue], options)('POST responses: hostile answers', async (pick, value) => {
    const body = mutate({ answers: { q: 'a' }, finished: false }, pick, value);
    await send(`/s/${formId}/responses`, json('POST', body), 'json');
  });

  /** A valid answer to each survey question, by question id. */
  const surveyAnswers = () => {
    const [rating, nps, opinion, seats, start, grid, order] = surveyForm.steps[0]!.components;
    return {
      [rating!.id]: 4,
      [nps!.id]: 9,
      [opinion!.id]: 2,
      [seats!.id]: 12.5,
      [start!.id]: '2026-05-04',
      [grid!.id]: { Speed: 'Low', constructor: 'High' },
      [order!.id]: ['__proto__', 'a', 'b'],
    };
  };
  test.prop([fc.nat(), hostileValue], options)('POST responses of a survey: a hostile answer to any of its questions', async (pick, value) => {
    await send(`/s/${surveyForm.id}/responses`, json('POST', mutate({ answers: surveyAnswers(), finished: true }, pick, value)), 'json');
  });

  // A field of a question, or of a part: a Matrix row, a Ranking position (and parts no question has).
  const part = fc.constantFrom('', '.0', '.1', '.2', '.3', '.99', '.x', '.__proto__');
  test.prop([fc.array(fc.tuple(fc.nat(), part, hostileString), { maxLength: 8 })], options)('page POST of a survey: hostile values in its fields', async (fields) => {
    const ids = Object.keys(surveyAnswers());
    const body = new URLSearchParams();
    for (const [at, suffix, value] of fields) body.append(`c.${ids[at % ids.length]}${suffix}`, value);
    await send(`/s/${surveyForm.id}?step=0`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: body.toString() }, 'page');
  });

  test.prop([bodyFrom({ answers: {} }), hostileHeaders], options)('POST responses: hostile text and headers', async (text, headers) => {
    await send(`/s/${formId}/responses`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: text }, 'json');
  });

  test.prop([segment, segment, fc.constantFrom('since', 'until', 'timeZone', 'groupBy', 'device', 'language', 'hidden.utm_source', 'hidden.', 'x')], options)(
    'GET insights: hostile query parameters and form ids',
    async (value, id, name) => {
      await send(`/api/v1/forms/${logicFormId}/insights?${name}=${value}&since=2026-01-01`, { headers: { 'x-api-key': tenant.apiKey } }, 'json');
      await send(`/api/v1/insights?${name}=${value}`, { headers: { 'x-api-key': tenant.apiKey } }, 'json');
      await send(`/api/v1/forms/${id}/insights`, { headers: { 'x-api-key': tenant.apiKey } }, 'json');
    },
  );

  test.prop([fc.nat(), hostileValue, segment], options)('share links: hostile bodies, form ids and link ids', async (pick, value, id) => {
    const headers = { 'x-api-key': tenant.apiKey };
    const body = JSON.stringify(mutate({ includeTextAnswers: false, expiresAt: '2099-01-01T00:00:00Z' }, pick, value));
    await send(`/api/v1/forms/${logicFormId}/share-links`, json('POST', body, headers), 'json');
    await send(`/api/v1/forms/${id}/share-links`, json('POST', '{}', headers), 'json');
    await send(`/api/v1/forms/${id}/share-links`, { headers }, 'json');
    await send(`/api/v1/forms/${logicFormId}/share-links/${id}`, { method: 'DELETE', headers }, 'json');
  });

  test.prop([bodyFrom({ includeTextAnswers: true }), segment], options)('share links: hostile body text; results pages: hostile tokens', async (text, token) => {
    await send(`/api/v1/forms/${logicFormId}/share-links`, json('POST', text, { 'x-api-key': tenant.apiKey }), 'json');
    await send(`/r/${token}`, {}, 'page');
    await send(`/r/${token}?lang=${encodeURIComponent(token)}`, {}, 'page');
    await send(`/r/${token}?x=${token}`, { method: 'POST', body: token }, 'page');
  });

  test.prop([fc.nat(), hostileValue, hostileHeaders], options)('POST views: hostile hidden fields, referrers and headers', async (pick, value, headers) => {
    const body = JSON.stringify(mutate({ hiddenFields: { utm_source: 'ad' }, referrer: 'https://www.example.com/' }, pick, value));
    await send(`/s/${logicFormId}/views`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body }, 'json');
  });

  test.prop([bodyFrom({}), segment], options)('POST views: hostile text and form ids', async (text, id) => {
    await send(`/s/${formId}/views`, json('POST', text), 'json');
    await send(`/s/${id}/views`, json('POST', '{}'), 'json');
  });

  test.prop([fc.nat(), hostileValue, segment], options)('PATCH responses: hostile answers, ids and tokens', async (pick, value, id) => {
    const body = JSON.stringify(mutate({ answers: {}, finished: false }, pick, value));
    await send(`/s/${formId}/responses/${resume.id}`, json('PATCH', body, { authorization: `Bearer ${resume.token}` }), 'json');
    await send(`/s/${formId}/responses/${id}`, json('PATCH', '{"answers":{}}', { authorization: `Bearer ${resume.token}` }), 'json');
  });

  test.prop([fc.nat(), hostileValue], options)('POST and PATCH responses of a form with logic: hostile hidden fields, answers and finishing', async (pick, value) => {
    const body = mutate({ answers: { x: 'a' }, hiddenFields: { utm_source: 'ad', plan: 'x', other: 'y' }, finished: false }, pick, value);
    await send(`/s/${logicFormId}/responses`, json('POST', body), 'json');
    const patch = mutate({ answers: { x: 'a' }, finished: true }, pick, value);
    await send(`/s/${logicFormId}/responses/${logicResume.id}`, json('PATCH', patch, { authorization: `Bearer ${logicResume.token}` }), 'json');
  });

  test.prop([segment, segment, fc.constantFrom('0', '1', '2', 'x')], options)(
    'page GET and POST of a form with logic: hostile hidden field values in the URL',
    async (source, plan, step) => {
      const query = `utm_source=${source}&plan=${plan}&${plan}=1&embed=1`;
      await send(`/s/${logicFormId}?${query}`, {}, 'page');
      await send(`/s/${logicFormId}?step=${step}&${query}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'c.x=y' }, 'page');
    },
  );

  test.prop([segment, fc.option(fc.oneof(segment, fc.constantFrom('1', '2', '0', '-1', '2147483647', '2147483648', '9999999999', '99999999999', '1.5')))], options)(
    'definition: hostile ids and versions',
    async (id, version) => {
      const query = version === null ? '' : `?version=${version}`;
      // An empty id collapses the path to /s/definition: the page of a form that does not exist (HTML).
      await send(`/s/${id}/definition${query}`, {}, 'page');
      await send(`/s/${formId}/definition${query}`, {}, 'json');
      // An older version is only for a response's resume token: a real one (of version 1), a forged one.
      for (const token of [resume.token, `${resume.token}x`, '']) await send(`/s/${formId}/definition${query}`, { headers: { authorization: `Bearer ${token}` } }, 'json');
    },
  );

  // Files: hostile names, bytes, field names and component ids; a refused upload stores no row (and no file).
  const filePart = fc.record({
    name: fc.oneof(hostileString, fc.constantFrom('a.png', 'b.txt', 'c.html', '.png', 'x'.repeat(300) + '.txt')),
    bytes: fc.uint8Array({ maxLength: 64 }),
  });
  const multipart = (parts: [string, string | { name: string; bytes: Uint8Array }][]) => {
    const body = new FormData();
    for (const [name, value] of parts) body.append(name, typeof value === 'string' ? value : new File([new Uint8Array(value.bytes)], value.name));
    return body;
  };
  test.prop(
    [fc.oneof(hostileString, fc.constant('')), fc.array(filePart, { maxLength: 3 }), fc.array(fc.tuple(hostileString, hostileString), { maxLength: 2 }), fc.boolean()],
    options,
  )('POST uploads: hostile component ids, file names, bytes and fields', async (componentId, files, extra, realComponent) => {
    const parts: [string, string | { name: string; bytes: Uint8Array }][] = [
      ['componentId', realComponent ? uploaderId : componentId],
      ...files.map((file) => ['file', file] as [string, typeof file]),
      ...extra,
    ];
    // The version the response answers: a real one, or a hostile value.
    if (extra.length === 1) parts.push(['formVersion', realComponent ? '1' : extra[0]![1]]);
    await send(`/s/${formId}/uploads`, { method: 'POST', body: multipart(parts) }, 'json');
  });

  test.prop([bodyFrom({ componentId: 'x' }), hostileHeaders], options)('POST uploads: hostile text and headers', async (text, headers) => {
    await send(`/s/${formId}/uploads`, { method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=x', ...headers }, body: text }, 'json');
  });

  test.prop([fc.array(filePart, { maxLength: 2 }), fields], options)('page POST: hostile multipart with files', async (files, pairs) => {
    const parts: [string, string | { name: string; bytes: Uint8Array }][] = [...files.map((file) => [`c.${uploaderId}`, file] as [string, typeof file]), ...pairs];
    await send(`/s/${formId}?step=1`, { method: 'POST', body: multipart(parts) }, 'page');
  });
});

describe('files', () => {
  test.prop([segment, fc.dictionary(fc.oneof(fc.constantFrom('expires', 'signature'), hostileString), hostileString, { maxKeys: 3 }), fc.boolean()], options)(
    'GET /api/v1/files: hostile ids and signatures, with or without a key',
    async (id, query, withKey) => {
      await send(`/api/v1/files/${id}?${new URLSearchParams(query)}`, { headers: withKey ? { 'x-api-key': tenant.apiKey } : {} }, 'json');
    },
  );
});
