/**
 * Cursors are input. Every REST listing and every GraphQL connection refuses a cursor no listing wrote,
 * well-formed base64url JSON included (a date that does not exist, year 0000, a NUL in the id, a huge
 * string, wrong types, extra keys), as a 400 `Invalid query parameters` / BAD_USER_INPUT with the path
 * `after`, before any statement runs: the log holds no failed SQL. The codec (src/keyset.ts) accepts
 * what the listings write, and whatever it accepts PostgreSQL takes and writes back the same.
 */
import { Writable } from 'node:stream';
import { fc, test } from '@fast-check/vitest';
import { sql } from 'drizzle-orm';
import { pino } from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.ts';
import { rowsOf } from '../../src/db/rows.ts';
import { createEndpoint } from '../../src/events/webhooks.service.ts';
import { decodeCursor, encodeCursor } from '../../src/keyset.ts';
import { createForm, createLead, insertResponse } from '../support/factories.ts';
import { ADMIN_TOKEN, checkedApp, createTenant, graphql, setupTestApp, testConfig, type TestContext, type TestTenant } from '../support/helpers.ts';
import { cursorTimestamp } from '../support/hostile-checks.ts';
import { makeForm } from '../support/public-helpers.ts';

let ctx: TestContext;
let app: TestContext['app'];
let tenant: TestTenant;
let formId: string;
let leadId: string;
let endpointId: string;
/** What the app logged at level warn and above. */
const logLines: { level: number; msg?: string; err?: unknown }[] = [];

beforeAll(async () => {
  ctx = await setupTestApp();
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line.trim()) logLines.push(JSON.parse(line) as (typeof logLines)[number]);
      done();
    },
  });
  app = checkedApp(createApp({ config: testConfig(), db: ctx.db, logger: pino({ level: 'warn' }, sink), adminToken: ADMIN_TOKEN }));
  tenant = await createTenant(ctx.db);
  const form = await createForm(ctx.db, tenant.environmentId);
  formId = form.id;
  leadId = (await createLead(ctx.db, tenant.environmentId, 'ada@example.com')).id;
  await insertResponse(ctx.db, { environmentId: tenant.environmentId, formId, leadId, finished: true, createdAt: '2024-03-01T00:00:00.000001Z' });
  await makeForm(ctx.db, { ...tenant, templateId: formId }, [
    { name: 'A', components: [{ type: 'ShortInput', content: { question: 'Q?' } }] },
    { name: 'B', components: [{ type: 'Header', content: { title: 'T' } }] },
  ]);
  endpointId = (await createEndpoint(ctx.db, tenant.environmentId, { url: 'http://127.0.0.1:9/hook', eventTypes: ['response.created'] }, { allowPrivate: true })).endpoint.id;
});

const base64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
const cursorOfJson = (value: unknown) => base64url(JSON.stringify(value));
const at = (createdAt: unknown, id: unknown = 'a') => cursorOfJson({ createdAt, id });

/** Cursors no listing writes: each well-formed base64url unless it says otherwise. */
const IMPOSSIBLE: [string, string][] = [
  ['30 February', at('2024-02-30T00:00:00.000000Z')],
  ['29 February of a common year', at('2023-02-29T00:00:00.000000Z')],
  ['31 April', at('2024-04-31T00:00:00.000000Z')],
  ['year 0000', at('0000-01-01T00:00:00.000000Z')],
  ['month 13', at('2024-13-01T00:00:00.000000Z')],
  ['day 00', at('2024-01-00T00:00:00.000000Z')],
  ['hour 24', at('2024-01-01T24:00:00.000000Z')],
  ['second 60', at('2016-12-31T23:59:60.000000Z')],
  ['year 10000', at('10000-01-01T00:00:00.000000Z')],
  ['milliseconds only', at('2024-01-01T00:00:00.000Z')],
  ['an offset instead of Z', at('2024-01-01T00:00:00.000000+00:00')],
  ['an id with NUL', at('2024-01-01T00:00:00.000000Z', 'a\u0000b')],
  ['an id with an unpaired surrogate', at('2024-01-01T00:00:00.000000Z', 'a\ud800')],
  ['an empty id', at('2024-01-01T00:00:00.000000Z', '')],
  ['an id longer than any id', at('2024-01-01T00:00:00.000000Z', 'a'.repeat(129))],
  ['a huge id', at('2024-01-01T00:00:00.000000Z', 'a'.repeat(100_000))],
  ['a huge date', at(`2024-01-01T00:00:00.000000Z${' '.repeat(5000)}`)],
  ['a number for the date', at(1704067200000)],
  ['a number for the id', at('2024-01-01T00:00:00.000000Z', 7)],
  ['null for the id', at('2024-01-01T00:00:00.000000Z', null)],
  ['an object for the date', at({ $gt: '' })],
  ['an extra key', cursorOfJson({ createdAt: '2024-01-01T00:00:00.000000Z', id: 'a', limit: 1 })],
  ['a missing id', cursorOfJson({ createdAt: '2024-01-01T00:00:00.000000Z' })],
  ['an array', cursorOfJson(['2024-01-01T00:00:00.000000Z', 'a'])],
  ['JSON null', cursorOfJson(null)],
  ['a JSON string', cursorOfJson('2024-01-01T00:00:00.000000Z')],
  ['base64 of text that is not JSON', base64url('{"createdAt":')],
  ['not base64url', 'eyJ+/=='],
  ['an SQL fragment', "'); drop table responses; --"],
];

/** A possible position that names no row: a valid cursor, answered with what follows it. */
const LEAP_DAY = at('2024-02-29T23:59:59.999999Z', 'zzzz');

const key = () => ({ 'x-api-key': tenant.apiKey });

function expectInvalidCursor(status: number, body: unknown, label: string) {
  expect(status, label).toBe(400);
  expect(body, label).toEqual({ message: 'Invalid query parameters', errors: [{ message: expect.stringMatching(/^after is not a valid cursor/), path: ['after'] }] });
}

describe('REST listings', () => {
  const listings = () => ['/api/v1/responses?after=', `/api/v1/responses?formId=${formId}&after=`, '/api/v1/responses?limit=5&after=', '/api/v1/audit-log?after='];

  it('refuse every impossible cursor with a 400 naming `after`, and log nothing', async () => {
    const logged = logLines.length;
    for (const path of listings()) {
      for (const [what, cursor] of IMPOSSIBLE) {
        const response = await app.request(path + encodeURIComponent(cursor), { headers: key() });
        expectInvalidCursor(response.status, await response.json(), `${path} ${what}`);
      }
    }
    expect(logLines.slice(logged)).toEqual([]);
  });

  it('take a possible position that names no row, and the cursor of a page', async () => {
    for (const path of listings()) {
      const response = await app.request(path + LEAP_DAY, { headers: key() });
      expect(response.status, path).toBe(200);
    }
    const { data, nextCursor } = (await (await app.request(`/api/v1/responses?limit=1&after=${LEAP_DAY}`, { headers: key() })).json()) as {
      data: unknown[];
      nextCursor: string | null;
    };
    expect(data).toEqual([]);
    expect(nextCursor).toBeNull();
    const first = (await (await app.request('/api/v1/responses?limit=1&returnPartials=true&after=' + at('9999-12-31T23:59:59.999999Z', 'z'), { headers: key() })).json()) as {
      data: { id: string }[];
    };
    expect(first.data).toHaveLength(1);
  });

  it('the export and the webhook deliveries take no cursor: `after` is ignored like any unknown parameter', async () => {
    for (const path of [`/api/v1/responses/export?formId=${formId}`, `/api/v1/webhooks/${endpointId}/deliveries`]) {
      const plain = await app.request(path, { headers: key() });
      const withCursor = await app.request(`${path}&after=${encodeURIComponent(IMPOSSIBLE[0]![1])}`.replace('deliveries&', 'deliveries?'), { headers: key() });
      expect(withCursor.status, path).toBe(200);
      expect(await withCursor.text(), path).toBe(await plain.text());
    }
  });
});

describe('GraphQL connections', () => {
  const connections = () => ({
    'Environment.forms': `query($a: String) { environment(id: "${tenant.environmentId}") { forms(after: $a) { edges { cursor } } } }`,
    'Environment.leads': `query($a: String) { environment(id: "${tenant.environmentId}") { leads(after: $a) { edges { cursor } } } }`,
    'Environment.responses': `query($a: String) { environment(id: "${tenant.environmentId}") { responses(after: $a) { edges { cursor } } } }`,
    'Form.responses': `query($a: String) { form(id: "${formId}") { responses(after: $a) { edges { cursor } } } }`,
    'Form.generatedForms': `query($a: String) { form(id: "${formId}") { generatedForms(after: $a) { edges { cursor } } } }`,
    'Form.versions': `query($a: String) { form(id: "${formId}") { versions(after: $a) { edges { cursor } } } }`,
    'Form.notificationDeliveries': `query($a: String) { form(id: "${formId}") { notificationDeliveries(after: $a) { edges { cursor } } } }`,
    formNotificationDeliveries: `query($a: String) { formNotificationDeliveries(formId: "${formId}", after: $a) { edges { cursor } } }`,
    'Lead.responses': `query($a: String) { node(id: "${leadId}") { ... on Lead { responses(after: $a) { edges { cursor } } } } }`,
    auditLog: 'query($a: String) { auditLog(after: $a) { edges { cursor } } }',
    environmentResponses: 'query($a: String) { environmentResponses(after: $a) { edges { cursor } } }',
    formResponses: `query($a: String) { formResponses(formId: "${formId}", after: $a) { edges { cursor } } }`,
  });

  it('cover every connection of the schema that takes `after`', async () => {
    const { body } = await graphql(app, '{ __schema { types { name fields { name args { name } } } } }', {}, key());
    const withAfter = (body.data.__schema.types as { name: string; fields: { name: string; args: { name: string }[] }[] | null }[])
      .filter((type) => !type.name.startsWith('__'))
      .flatMap((type) =>
        (type.fields ?? []).filter((field) => field.args.some((arg) => arg.name === 'after')).map((field) => (type.name === 'Query' ? field.name : `${type.name}.${field.name}`)),
      );
    expect(Object.keys(connections()).sort()).toEqual(withAfter.sort());
  });

  it('refuse every impossible cursor with BAD_USER_INPUT at `after`, and log nothing', async () => {
    const logged = logLines.length;
    for (const [name, query] of Object.entries(connections())) {
      for (const [what, cursor] of IMPOSSIBLE) {
        const { status, body } = await graphql(app, query, { a: cursor }, key());
        const label = `${name}: ${what}`;
        expect(status, label).toBe(200);
        expect(body.errors, label).toEqual([
          expect.objectContaining({
            message: 'Invalid arguments',
            extensions: { code: 'BAD_USER_INPUT', errors: [{ message: expect.stringMatching(/^after is not a valid cursor/), path: ['after'] }] },
          }),
        ]);
      }
    }
    expect(logLines.slice(logged)).toEqual([]);
  });

  it('take a possible position that names no row, and continue from a page’s endCursor', async () => {
    for (const [name, query] of Object.entries(connections())) {
      const { body } = await graphql(app, query, { a: LEAP_DAY }, key());
      expect(body.errors, name).toBeUndefined();
    }
    const page = await graphql(
      app,
      'query($a: String) { environmentResponses(first: 1, after: $a, filter: {returnPartials: true}) { edges { cursor } pageInfo { endCursor } } }',
      { a: null },
      key(),
    );
    const endCursor = page.body.data.environmentResponses.pageInfo.endCursor as string;
    expect(decodeCursor(endCursor)).toEqual({ createdAt: '2024-03-01T00:00:00.000001Z', id: expect.any(String) });
    const next = await graphql(app, 'query($a: String) { environmentResponses(after: $a) { edges { cursor } } }', { a: endCursor }, key());
    expect(next.body).toEqual({ data: { environmentResponses: { edges: [] } } });
  });
});

describe('the cursor codec', () => {
  /** Timestamps in the cursors' shape with any field value, possible or not, and other text. */
  const createdAt = fc.oneof(
    { weight: 6, arbitrary: cursorTimestamp },
    fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }).map((date) => date.toISOString().replace('Z', '123Z')),
    fc.string({ maxLength: 40 }),
    fc.anything(),
  );
  const id = fc.oneof(fc.string({ minLength: 0, maxLength: 140 }), fc.string({ unit: fc.constantFrom('a', '\u0000', '\ud800', '\udc00', 'é', '"'), maxLength: 10 }), fc.anything());
  const position = fc.oneof(
    fc.record({ createdAt, id }),
    fc.record({ createdAt, id, extra: fc.anything() }),
    fc.dictionary(fc.string({ maxLength: 10 }), fc.anything(), { maxKeys: 3 }),
  );

  test.prop([position], { numRuns: 300 })('never throws, and whatever it accepts PostgreSQL takes and writes back unchanged', async (value) => {
    const cursor = cursorOfJson(value);
    const decoded = decodeCursor(cursor);
    if (decoded === undefined) return;
    expect(Object.keys(decoded).sort()).toEqual(['createdAt', 'id']);
    const [row] = rowsOf<{ written: string; id: string }>(
      await ctx.db.execute(sql`select to_char(${decoded.createdAt}::timestamptz at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as written, ${decoded.id}::text as id`),
    );
    expect(row).toEqual({ written: decoded.createdAt, id: decoded.id });
    expect(encodeCursor(decoded)).toBe(cursor);
  });

  test.prop([fc.string({ maxLength: 2000 })], { numRuns: 300 })('never throws on any text', (text) => {
    expect(() => decodeCursor(text)).not.toThrow();
  });
});
