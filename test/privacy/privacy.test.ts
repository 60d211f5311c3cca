/**
 * The personal data lifecycle through REST and GraphQL: deleting responses (one, by filter, with
 * submissions arriving meanwhile), erasing a person (nothing of them left anywhere in the database),
 * IP minimisation, retention (one run per interval across two instances), the purge of deleted forms,
 * and the audit log — each with tenancy: another environment's ids behave like unknown ones.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { randomInt } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLog, erasures, forms, jobRuns, leads, outboxEvents, responses, webhookDeliveries } from '../../src/db/schema.ts';
import { rowsOf } from '../../src/db/rows.ts';
import { createEndpoint } from '../../src/events/webhooks.service.ts';
import type { Form } from '../../src/forms/forms.service.ts';
import { truncateIp } from '../../src/privacy/ip.ts';
import { runRetentionJob } from '../../src/privacy/retention.service.ts';
import { ADMIN_TOKEN, appWith, createTenant, graphql, jsonRequest, setupIsolatedTestApp, testConfig, type TestContext, type TestTenant } from '../support/helpers.ts';
import { insertResponses, insertTimeline } from '../support/factories.ts';
import { componentAt, makeForm, type App } from '../support/public-helpers.ts';

let ctx: TestContext;
/** Trusts one proxy, so X-Forwarded-For is the respondent's address; webhooks may point at loopback. */
let app: App;
let tenant: TestTenant;
let other: TestTenant;
let form: Form;
let secondForm: Form;

const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
const key = (t: TestTenant) => ({ 'x-api-key': t.apiKey });

const PERSON_FORM = [
  {
    name: 'You',
    components: [
      {
        type: 'IdentityInfo',
        content: {
          fields: [
            { key: 'firstName', label: 'First name', required: false },
            { key: 'emailAddress', label: 'E-mail', required: false },
            { key: 'phoneNumber', label: 'Phone', required: false },
          ],
        },
      },
      { type: 'ShortInput', content: { question: 'Company?' } },
    ],
  },
  { name: 'Thanks', components: [{ type: 'Header', content: { title: 'Thank you' } }] },
];

beforeAll(async () => {
  // Retention spans every environment and job_runs is one row: this file's own database.
  ctx = await setupIsolatedTestApp();
  app = appWith(ctx.db, { trustProxy: 1, webhooks: { ...testConfig().webhooks, allowPrivate: true } });
  tenant = await createTenant(ctx.db);
  other = await createTenant(ctx.db);
  form = await makeForm(ctx.db, tenant, PERSON_FORM, 'Contact');
  secondForm = await makeForm(ctx.db, tenant, PERSON_FORM, 'Event sign-up');
});

/** Starts (and finishes) a response through the public JSON API from `ip`; returns its id. */
async function submit(target: Form, person: { email?: string; phone?: string; name?: string; company?: string }, ip: string, visitorToken?: string) {
  const identity = componentAt(target, 0, 0);
  const company = componentAt(target, 0, 1);
  const answers: Record<string, unknown> = {
    [identity.id]: { firstName: person.name ?? 'Ada', ...(person.email ? { emailAddress: person.email } : {}), ...(person.phone ? { phoneNumber: person.phone } : {}) },
    [company.id]: person.company ?? 'Acme',
  };
  const response = await app.request(
    `/s/${target.id}/responses`,
    jsonRequest('POST', { answers, finished: true, ...(visitorToken ? { visitorToken } : {}) }, { 'x-forwarded-for': ip, 'cf-ipcountry': 'NL' }),
  );
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as { id: string; visitorToken: string };
}

const storedResponse = async (id: string) => (await ctx.db.select().from(responses).where(eq(responses.id, id)))[0];

/** Every row of every table (all schemas but the catalogs), as text: a logical dump of the whole database. */
async function dumpAllRows(): Promise<string> {
  const list = rowsOf<{ s: string; t: string }>(
    await ctx.db.execute(
      sql`select table_schema as s, table_name as t from information_schema.tables where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`,
    ),
  );
  expect(list.map((row) => row.t)).toContain('responses');
  let dump = '';
  for (const { s, t } of list) {
    const rows = rowsOf<{ rows: string }>(await ctx.db.execute(sql.raw(`select coalesce(string_agg(x::text, E'\\n'), '') as rows from "${s}"."${t}" x`)));
    dump += `-- ${s}.${t}\n${rows[0]?.rows ?? ''}\n`;
  }
  return dump;
}

/** A GraphQL call whose answer the assertions pick apart (`errors[0]`, `data.x`). */

const gq = (...args: Parameters<typeof graphql>): Promise<{ status: number; body: any }> => graphql(...args);

const PG_DUMP = '/usr/lib/postgresql/15/bin/pg_dump';

describe('IP minimisation', () => {
  it('truncates IPv4 to /24 and IPv6 to /48; anything else is stored empty', () => {
    expect(truncateIp('203.0.113.77')).toBe('203.0.113.0');
    expect(truncateIp('2001:db8:abcd:12:1:2:3:4')).toBe('2001:db8:abcd::');
    expect(truncateIp('::1')).toBe('::');
    expect(truncateIp('not an ip')).toBe('');
  });

  it('stores addresses as the environment says (full by default, truncated, none) and keeps the country', async () => {
    const env = await createTenant(ctx.db);
    const envForm = await makeForm(ctx.db, env, PERSON_FORM);
    const settings = (ipStorage: string) =>
      gq(app, 'mutation($input: EnvironmentSettingsInput!) { updateEnvironmentSettings(input: $input) { id ipStorage retentionDays } }', { input: { ipStorage } }, key(env));

    const full = await storedResponse((await submit(envForm, {}, '198.51.100.23')).id);
    expect(full).toMatchObject({ ip: '198.51.100.23', country: 'NL' });

    expect((await settings('TRUNCATED')).body.data.updateEnvironmentSettings).toEqual({ id: env.environmentId, ipStorage: 'TRUNCATED', retentionDays: null });
    const truncated = (await submit(envForm, {}, '198.51.100.23')).id;
    expect(await storedResponse(truncated)).toMatchObject({ ip: '198.51.100.0', country: 'NL' });
    // The full address is not written anywhere, not even into the response's webhook events.
    const events = await ctx.db.select({ payload: outboxEvents.payload }).from(outboxEvents).where(eq(outboxEvents.responseId, truncated));
    expect(events.length).toBeGreaterThan(0);
    expect(JSON.stringify(events)).toContain('198.51.100.0');
    expect(JSON.stringify(events)).not.toContain('198.51.100.23');
    expect(await storedResponse((await submit(envForm, {}, '2001:db8:abcd:12::99')).id)).toMatchObject({ ip: '2001:db8:abcd::', country: 'NL' });

    await settings('NONE');
    const none = (await submit(envForm, {}, '198.51.100.23')).id;
    expect(await storedResponse(none)).toMatchObject({ ip: '', country: 'NL' });
    // What the API shows is what is stored.
    const listed = await app.request(`/api/v1/responses?formId=${envForm.id}`, { headers: key(env) });
    const body = (await listed.json()) as { data: { id: string; personAttributes: { ip: string; country: string } }[] };
    expect(body.data.find((r) => r.id === none)!.personAttributes).toMatchObject({ ip: '', country: 'NL' });

    // Readable on the environment; another environment's settings are out of reach.
    const read = await gq(app, `{ environment(id: "${env.environmentId}") { ipStorage retentionDays } }`, {}, key(env));
    expect(read.body.data.environment).toEqual({ ipStorage: 'NONE', retentionDays: null });
    const foreign = await gq(
      app,
      'mutation($id: ID, $input: EnvironmentSettingsInput!) { updateEnvironmentSettings(environmentId: $id, input: $input) { id } }',
      { id: other.environmentId, input: { ipStorage: 'NONE' } },
      key(env),
    );
    expect(foreign.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});

describe('deleting responses', () => {
  it('DELETE /api/v1/responses/{id} deletes one response with its webhook events; again, or from another environment, is 404', async () => {
    await createEndpoint(ctx.db, tenant.environmentId, { url: 'http://127.0.0.1:9/hook', eventTypes: ['response.created', 'response.finished'] }, { allowPrivate: true });
    const { id } = await submit(form, { email: 'delete.me@example.org' }, '192.0.2.10');
    const keep = (await submit(form, { email: 'keep.me@example.org' }, '192.0.2.11')).id;
    expect((await ctx.db.select().from(outboxEvents).where(eq(outboxEvents.responseId, id))).length).toBeGreaterThan(0);

    const foreign = await app.request(`/api/v1/responses/${id}`, { method: 'DELETE', headers: key(other) });
    const unknown = await app.request('/api/v1/responses/no-such-response', { method: 'DELETE', headers: key(other) });
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toEqual(await unknown.json());
    expect(await storedResponse(id)).toBeDefined();

    const deleted = await app.request(`/api/v1/responses/${id}`, { method: 'DELETE', headers: key(tenant) });
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ id, deleted: true });
    expect(await storedResponse(id)).toBeUndefined();
    expect(await ctx.db.select().from(outboxEvents).where(eq(outboxEvents.responseId, id))).toEqual([]);
    expect(await storedResponse(keep)).toBeDefined();

    const again = await app.request(`/api/v1/responses/${id}`, { method: 'DELETE', headers: key(tenant) });
    expect(again.status).toBe(404);
    expect(await again.json()).toEqual({ message: 'Response not found' });
    expect((await app.request(`/api/v1/responses/${id}`, { method: 'DELETE' })).status).toBe(401);
  });

  it('deleteResponse in GraphQL, with an API key and with the admin token', async () => {
    const [a = '', b = ''] = await insertResponses(ctx.db, [
      { environmentId: tenant.environmentId, formId: form.id },
      { environmentId: tenant.environmentId, formId: form.id },
    ]);
    const mutation = 'mutation($id: ID!) { deleteResponse(id: $id) { id deleted } }';
    expect((await gq(app, mutation, { id: a }, key(other))).body.errors[0]).toMatchObject({ message: 'Response not found', extensions: { code: 'NOT_FOUND' } });
    expect((await gq(app, mutation, { id: a }, key(tenant))).body.data.deleteResponse).toEqual({ id: a, deleted: true });
    expect((await gq(app, mutation, { id: b }, admin)).body.data.deleteResponse).toEqual({ id: b, deleted: true });
    expect(await storedResponse(a)).toBeUndefined();
    expect(await storedResponse(b)).toBeUndefined();
  });

  it('POST /api/v1/responses/delete deletes what the filter matches and nothing else, and reports the count', async () => {
    const bulkForm = await makeForm(ctx.db, tenant, PERSON_FORM, 'Bulk');
    const untouched = await makeForm(ctx.db, tenant, PERSON_FORM, 'Untouched');
    const day = (d: number) => new Date(Date.UTC(2025, 0, d)).toISOString();
    const seeds = [
      ...[1, 2, 3, 4].map((d) => ({ environmentId: tenant.environmentId, formId: bulkForm.id, createdAt: day(d), finished: false })),
      ...[1, 2, 3, 4].map((d) => ({ environmentId: tenant.environmentId, formId: bulkForm.id, createdAt: day(d), finished: true })),
      ...[1, 2].map((d) => ({ environmentId: tenant.environmentId, formId: untouched.id, createdAt: day(d), finished: false })),
    ];
    const ids = await insertResponses(ctx.db, seeds);
    const otherForm = await makeForm(ctx.db, other, PERSON_FORM, 'Other env');
    const otherIds = await insertResponses(ctx.db, [{ environmentId: other.environmentId, formId: otherForm.id, createdAt: day(1), finished: false }]);

    const bulk = (body: unknown, t: TestTenant = tenant) => app.request('/api/v1/responses/delete', jsonRequest('POST', body, key(t)));

    // Partial responses of the form created before Jan 3: two.
    const partial = await bulk({ formId: bulkForm.id, until: '2025-01-03', partialOnly: true });
    expect(partial.status).toBe(200);
    expect(await partial.json()).toEqual({ deletedCount: 2, webhookEventsDeleted: 0 });
    const left = async () => new Set((await ctx.db.select({ id: responses.id }).from(responses)).map((r) => r.id));
    let remaining = await left();
    expect(ids.filter((id) => !remaining.has(id))).toEqual([ids[0], ids[1]]);

    // Another environment's form is an unknown form; nothing is deleted.
    const foreign = await bulk({ formId: otherForm.id, partialOnly: true });
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toEqual({ message: 'Form not found' });
    // The other environment's own key deletes only its own.
    expect(await (await bulk({ since: '2024-12-31', until: '2025-01-02' }, other)).json()).toEqual({ deletedCount: 1, webhookEventsDeleted: 0 });
    remaining = await left();
    expect(remaining.has(otherIds[0]!)).toBe(false);
    expect(ids.slice(2).every((id) => remaining.has(id))).toBe(true);

    // A date range on the whole environment: every form of this environment, only within the range.
    const ranged = await bulk({ since: '2025-01-02T00:00:00Z', until: '2025-01-04T00:00:00Z', dateField: 'createdAt' });
    expect(await ranged.json()).toEqual({ deletedCount: 4, webhookEventsDeleted: 0 }); // bulk: Jan 3 partial, Jan 2+3 finished; untouched: Jan 2
    remaining = await left();
    expect([ids[3], ids[4], ids[7], ids[8]].every((id) => remaining.has(id!))).toBe(true);
  });

  it('refuses an empty or contradictory filter and unknown fields with body paths (400), deleting nothing', async () => {
    const before = (await ctx.db.select({ n: sql<number>`count(*)::int` }).from(responses))[0]!.n;
    const send = (body: unknown) => app.request('/api/v1/responses/delete', jsonRequest('POST', body, key(tenant)));
    const empty = await send({});
    expect(empty.status).toBe(400);
    expect(await empty.json()).toEqual({ message: 'Invalid request body', errors: [{ message: 'Give at least one of formId, since, until or partialOnly', path: [] }] });
    const backwards = await send({ since: '2025-02-01', until: '2025-01-01' });
    expect(await backwards.json()).toEqual({ message: 'Invalid request body', errors: [{ message: 'until must be later than since', path: ['until'] }] });
    const unknownField = await send({ formId: form.id, everything: true });
    expect(unknownField.status).toBe(400);
    expect(((await unknownField.json()) as { errors: { message: string }[] }).errors[0]!.message).toMatch(/Unknown field/);
    const badDate = await send({ until: 'yesterday' });
    expect(((await badDate.json()) as { errors: { path: unknown[] }[] }).errors[0]!.path).toEqual(['until']);
    expect((await ctx.db.select({ n: sql<number>`count(*)::int` }).from(responses))[0]!.n).toBe(before);
  });

  it('a bulk delete of more than one batch runs while submissions arrive: only the filtered responses go', async () => {
    const busy = await makeForm(ctx.db, tenant, PERSON_FORM, 'Busy');
    const quiet = await makeForm(ctx.db, tenant, PERSON_FORM, 'Quiet');
    const cutoff = new Date(Date.now() - 60_000);
    // 1,200 old responses: three batches of 500.
    const ids = (rows: { id: string }[]) => rows.map((row) => row.id);
    const old = ids(await insertTimeline(ctx.db, { environmentId: tenant.environmentId, formId: busy.id, count: 1_200, newest: cutoff.getTime() - 1_000 }));
    const quietOld = ids(await insertTimeline(ctx.db, { environmentId: tenant.environmentId, formId: quiet.id, count: 50, newest: cutoff.getTime() - 1_000 }));

    const deletion = app.request('/api/v1/responses/delete', jsonRequest('POST', { formId: busy.id, until: cutoff.toISOString() }, key(tenant)));
    const submitted = await Promise.all(Array.from({ length: 16 }, (_, i) => submit(i % 2 === 0 ? busy : quiet, { company: `C${i}` }, '192.0.2.50')));
    const result = await deletion;
    expect(await result.json()).toMatchObject({ deletedCount: 1_200 });

    const remaining = new Set((await ctx.db.select({ id: responses.id }).from(responses)).map((r) => r.id));
    expect(old.filter((id) => remaining.has(id))).toEqual([]);
    expect(quietOld.every((id) => remaining.has(id))).toBe(true);
    expect(submitted.every(({ id }) => remaining.has(id))).toBe(true);
  });

  it('deleteResponses in GraphQL: the admin token names the environment; an API key may not name another', async () => {
    const target = await makeForm(ctx.db, tenant, PERSON_FORM, 'GraphQL bulk');
    await insertResponses(
      ctx.db,
      [1, 2, 3].map(() => ({ environmentId: tenant.environmentId, formId: target.id, finished: false })),
    );
    const mutation = 'mutation($env: ID, $filter: DeleteResponsesFilter!) { deleteResponses(environmentId: $env, filter: $filter) { deletedCount } }';
    const withoutEnv = await gq(app, mutation, { filter: { formId: target.id } }, admin);
    expect(withoutEnv.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect((await gq(app, mutation, { env: tenant.environmentId, filter: { formId: target.id } }, key(other))).body.errors[0].extensions.code).toBe('FORBIDDEN');
    const done = await gq(app, mutation, { env: tenant.environmentId, filter: { formId: target.id, partialOnly: true } }, admin);
    expect(done.body.data.deleteResponses).toEqual({ deletedCount: 3 });
  });
});

describe('erasing a person', () => {
  it('removes the lead, its responses in every form, their webhook payloads; nothing of the person is left in the database', async () => {
    const email = `Erase.Me.${randomInt(1e9)}@example.org`;
    const phone = `+3161${randomInt(1e6, 1e7)}`;
    const ip = `198.18.${randomInt(1, 255)}.${randomInt(1, 255)}`;
    const ipv6 = `2001:db8:${randomInt(1, 0xffff).toString(16)}::${randomInt(1, 0xffff).toString(16)}`;
    await createEndpoint(ctx.db, tenant.environmentId, { url: 'http://127.0.0.1:9/erasure', eventTypes: ['response.created', 'response.finished'] }, { allowPrivate: true });

    const first = await submit(form, { email, phone, name: 'Erasmus' }, ip);
    await submit(secondForm, { email: email.toLowerCase(), phone, name: 'Erasmus' }, ipv6, first.visitorToken);
    const bystander = await submit(form, { email: `bystander.${randomInt(1e9)}@example.org` }, '192.0.2.99');
    const leadId = (await storedResponse(first.id))!.leadId;
    expect((await ctx.db.select().from(responses).where(eq(responses.leadId, leadId))).length).toBe(2);
    const pending = await ctx.db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .innerJoin(outboxEvents, eq(outboxEvents.id, webhookDeliveries.eventId))
      .where(eq(outboxEvents.responseId, first.id));
    expect(pending.length).toBeGreaterThan(0);
    let dump = await dumpAllRows();
    expect(dump).toContain(email.toLowerCase());
    expect(dump).toContain(phone);
    expect(dump).toContain(ip);

    // Another environment's key: exactly like an unknown lead.
    const foreign = await app.request(`/api/v1/leads/${leadId}`, { method: 'DELETE', headers: key(other) });
    const unknown = await app.request('/api/v1/leads/no-such-lead', { method: 'DELETE', headers: key(other) });
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toEqual(await unknown.json());

    const erased = await app.request(`/api/v1/leads/${leadId}`, { method: 'DELETE', headers: key(tenant) });
    expect(erased.status).toBe(200);
    const body = (await erased.json()) as { erased: boolean; alreadyErased: boolean; erasure: Record<string, unknown> };
    expect(body).toEqual({
      erased: true,
      alreadyErased: false,
      erasure: {
        id: expect.any(String),
        environmentId: tenant.environmentId,
        leadId,
        erasedAt: expect.any(String),
        actorKind: 'apiKey',
        actorKeyId: tenant.apiKeyId,
        responsesDeleted: 2,
        webhookEventsDeleted: expect.any(Number),
      },
    });
    expect(body.erasure.webhookEventsDeleted as number).toBeGreaterThanOrEqual(2);

    // Nothing of the person in any row of any table; the bystander is still there.
    dump = await dumpAllRows();
    for (const trace of [email, email.toLowerCase(), phone, ip, ipv6]) expect(dump.includes(trace), trace).toBe(false);
    expect(await storedResponse(bystander.id)).toBeDefined();
    expect(await ctx.db.select().from(leads).where(eq(leads.id, leadId))).toEqual([]);
    expect(
      await ctx.db
        .select()
        .from(webhookDeliveries)
        .where(sql`${webhookDeliveries.id} in ${pending.map((p) => p.id)}`),
    ).toEqual([]);
    if (ctx.databaseUrl && existsSync(PG_DUMP)) {
      const pgDump = execFileSync(PG_DUMP, ['--data-only', ctx.databaseUrl], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
      expect(pgDump).toContain(bystander.id);
      for (const trace of [email.toLowerCase(), phone, ip, ipv6]) expect(pgDump.includes(trace), `pg_dump: ${trace}`).toBe(false);
    }

    // The record stays, without personal data; erasing again answers with it.
    const [record] = await ctx.db.select().from(erasures).where(eq(erasures.leadId, leadId));
    expect(JSON.stringify(record)).not.toContain('@');
    const again = await app.request(`/api/v1/leads/${leadId}`, { method: 'DELETE', headers: key(tenant) });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ ...body, alreadyErased: true });
    // By e-mail, the person is simply not there any more.
    const byEmail = await gq(app, 'mutation($email: String) { eraseLead(email: $email) { erased alreadyErased erasure { id } } }', { email }, key(tenant));
    expect(byEmail.body.data.eraseLead).toEqual({ erased: false, alreadyErased: false, erasure: null });
  });

  it('eraseLead by e-mail (case-insensitive) in GraphQL; the admin token names the environment; tenancy holds', async () => {
    const email = `graph.${randomInt(1e9)}@example.org`;
    const { id } = await submit(form, { email }, '192.0.2.77');
    const leadId = (await storedResponse(id))!.leadId;
    const mutation = 'mutation($email: String, $env: ID) { eraseLead(email: $email, environmentId: $env) { erased erasure { leadId responsesDeleted actorKind actorKeyId } } }';
    // The other environment's key looks in its own environment: no such person there.
    expect((await gq(app, mutation, { email }, key(other))).body.data.eraseLead).toEqual({ erased: false, erasure: null });
    expect((await gq(app, mutation, { email, env: tenant.environmentId }, key(other))).body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await gq(app, mutation, { email }, admin)).body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    const done = await gq(app, mutation, { email: email.toUpperCase(), env: tenant.environmentId }, admin);
    expect(done.body.data.eraseLead).toEqual({ erased: true, erasure: { leadId, responsesDeleted: 1, actorKind: 'admin', actorKeyId: null } });
    expect(await storedResponse(id)).toBeUndefined();
    const both = await gq(app, 'mutation { eraseLead(id: "x", email: "y@example.org") { erased } }', {}, key(tenant));
    expect(both.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });
});

describe('retention and the purge of deleted forms', () => {
  it('runs once per interval across two instances: responses past their retention and old deleted forms go, in batches, recorded everywhere', async () => {
    const env = await createTenant(ctx.db);
    const longKept = await makeForm(ctx.db, env, PERSON_FORM, 'Environment retention');
    const shortKept = await makeForm(ctx.db, env, PERSON_FORM, 'Form retention');
    const doomed = await makeForm(ctx.db, env, PERSON_FORM, 'Deleted long ago');
    const recent = await makeForm(ctx.db, env, PERSON_FORM, 'Deleted yesterday');
    const untouched = await makeForm(ctx.db, tenant, PERSON_FORM, 'No retention');
    const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000);

    const set = await gq(app, 'mutation { updateEnvironmentSettings(input: { retentionDays: 30 }) { retentionDays } }', {}, key(env));
    expect(set.body.data.updateEnvironmentSettings).toEqual({ retentionDays: 30 });
    const formSet = await gq(app, `mutation { setFormRetention(formId: "${shortKept.id}", retentionDays: 7) { id retentionDays } }`, {}, key(env));
    expect(formSet.body.data.setFormRetention).toEqual({ id: shortKept.id, retentionDays: 7 });
    expect((await gq(app, `mutation { setFormRetention(formId: "${shortKept.id}", retentionDays: 7) { id } }`, {}, key(other))).body.errors[0].message).toBe('Form not found');

    const seed = (formId: string, environmentId: string, ages: number[]) =>
      insertResponses(
        ctx.db,
        ages.map((age) => ({ environmentId, formId, createdAt: daysAgo(age) })),
      );
    const [old40, young20] = await seed(longKept.id, env.environmentId, [40, 20]);
    const [old10, young3] = await seed(shortKept.id, env.environmentId, [10, 3]);
    const doomedIds = await seed(doomed.id, env.environmentId, [1, 2]);
    const recentIds = await seed(recent.id, env.environmentId, [1]);
    const [ancient] = await seed(untouched.id, tenant.environmentId, [4000]);
    await ctx.db
      .update(forms)
      .set({ deletedAt: daysAgo(31) })
      .where(eq(forms.id, doomed.id));
    await ctx.db
      .update(forms)
      .set({ deletedAt: daysAgo(1) })
      .where(eq(forms.id, recent.id));
    await ctx.db.delete(jobRuns);

    // Two instances on the same database, started together (on PostgreSQL each on its own connections).
    const options = { intervalMs: 3_600_000, formPurgeDays: 30, batchSize: 1 };
    const runs = await Promise.all([runRetentionJob(ctx.handle, { ...options, node: 'node-a' }), runRetentionJob(ctx.handle, { ...options, node: 'node-b' })]);
    expect(runs.filter((r) => r.ran)).toHaveLength(1);
    const ran = runs.find((r) => r.ran) as { ran: true; run: { status: string; responsesDeleted: number; formsPurged: number } };
    expect(ran.run).toMatchObject({ status: 'succeeded', responsesDeleted: 4, formsPurged: 1 });
    // Within the interval nobody runs it again.
    expect(await runRetentionJob(ctx.handle, { ...options, node: 'node-c' })).toEqual({ ran: false });

    const remaining = new Set((await ctx.db.select({ id: responses.id }).from(responses)).map((r) => r.id));
    expect([old40, old10, ...doomedIds].some((id) => remaining.has(id!))).toBe(false);
    expect([young20, young3, ...recentIds, ancient].every((id) => remaining.has(id!))).toBe(true);
    expect(await ctx.db.select().from(forms).where(eq(forms.id, doomed.id))).toEqual([]);
    expect(await ctx.db.select({ id: forms.id }).from(forms).where(eq(forms.id, recent.id))).toHaveLength(1);

    // Visible: GraphQL (admin token), /metrics, and the environment's audit log.
    const status = await gq(app, '{ retentionStatus { status responsesDeleted formsPurged finishedAt node } }', {}, admin);
    expect(status.body.data.retentionStatus).toMatchObject({ status: 'succeeded', responsesDeleted: 4, formsPurged: 1, finishedAt: expect.any(String) });
    expect(['node-a', 'node-b']).toContain(status.body.data.retentionStatus.node);
    expect((await gq(app, '{ retentionStatus { status } }', {}, key(env))).body.errors[0].extensions.code).toBe('FORBIDDEN');
    const metrics = await (await app.request('/metrics', { headers: admin })).text();
    expect(metrics).toMatch(/^formloom_retention_last_run_deleted_responses 4$/m);
    expect(metrics).toMatch(/^formloom_retention_last_run_purged_forms 1$/m);
    expect(metrics).toMatch(/^formloom_retention_last_run_success 1$/m);
    const entries = await ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.environmentId, env.environmentId), eq(auditLog.actorKind, 'system')));
    expect(entries.map((e) => e.action).sort()).toEqual(['form.purge', 'responses.retention', 'responses.retention']);

    // Once the interval has passed, the next instance to tick runs it.
    await ctx.db.update(jobRuns).set({ startedAt: daysAgo(1) });
    expect(await runRetentionJob(ctx.handle, { ...options, node: 'node-c' })).toMatchObject({ ran: true, run: { responsesDeleted: 0, node: 'node-c' } });
  });
});

describe('audit log', () => {
  it('records administrative actions with actor and targets, newest first with cursors, per environment only', async () => {
    const created = await gq(app, 'mutation { createEnvironment(input: { name: "Audited" }) { id } }', {}, admin);
    const environmentId = created.body.data.createEnvironment.id as string;
    const keyResult = await gq(app, `mutation { createApiKey(input: { environmentId: "${environmentId}" }) { apiKey { id } key } }`, {}, admin);
    const apiKey = keyResult.body.data.createApiKey.key as string;
    const keyId = keyResult.body.data.createApiKey.apiKey.id as string;
    const headers = { 'x-api-key': apiKey };
    const imported = await graphql(
      app,
      'mutation($input: ImportFormInput!) { importForm(input: $input) { id } }',
      { input: { environmentId, name: 'Template', steps: PERSON_FORM } },
      headers,
    );
    const templateId = imported.body.data.importForm.id as string;
    const generated = await app.request(
      `/api/v1/environments/${environmentId}/forms/generate`,
      jsonRequest('POST', { sourceFormId: templateId, name: 'Child', steps: PERSON_FORM }, headers),
    );
    const childId = ((await generated.json()) as { result: { form: { id: string } } }).result.form.id;
    await app.request(`/api/v1/environments/${environmentId}/forms/${childId}/close`, { method: 'POST', headers });
    const hook = await app.request('/api/v1/webhooks', jsonRequest('POST', { url: 'http://127.0.0.1:9/audit', eventTypes: ['form.generated'] }, headers));
    const hookBody = (await hook.json()) as { id: string; secret: string };
    await app.request('/api/v1/responses/delete', jsonRequest('POST', { formId: childId }, headers));
    await gq(app, 'mutation { updateEnvironmentSettings(input: { ipStorage: TRUNCATED, retentionDays: 90 }) { id } }', {}, headers);
    await gq(app, `mutation { revokeApiKey(id: "${keyId}") { id } }`, {}, admin);

    const page = await graphql(
      app,
      'query($env: ID, $after: String) { auditLog(environmentId: $env, first: 100, after: $after) { edges { node { action actorKind actorKeyId targetIds details at } } } }',
      { env: environmentId },
      admin,
    );
    const entries = page.body.data.auditLog.edges.map((e: { node: unknown }) => e.node) as {
      action: string;
      actorKind: string;
      actorKeyId: string | null;
      targetIds: string[];
      details: Record<string, unknown>;
    }[];
    expect(entries.map((e) => e.action)).toEqual([
      'api_key.revoke',
      'environment.settings',
      'responses.delete',
      'webhook.create',
      'form.close',
      'form.generate',
      'form.import',
      'api_key.create',
      'environment.create',
    ]);
    expect(entries[0]).toMatchObject({ actorKind: 'admin', actorKeyId: null, targetIds: [keyId] });
    expect(entries[1]).toMatchObject({ actorKind: 'apiKey', actorKeyId: keyId, details: { ipStorage: 'truncated', retentionDays: 90 } });
    expect(entries[2]).toMatchObject({ targetIds: [childId], details: { deleted: 0 } });
    expect(entries[3]).toMatchObject({ targetIds: [hookBody.id] });
    expect(entries[5]).toMatchObject({ targetIds: [childId, templateId] });
    // Never a secret.
    const text = JSON.stringify(entries);
    for (const secret of [apiKey, hookBody.secret, ADMIN_TOKEN]) expect(text).not.toContain(secret);

    // REST pages through the same log with cursors (the key is revoked now: the tenant's own log instead).
    const first = await app.request('/api/v1/audit-log?limit=2', { headers: key(tenant) });
    expect(first.status).toBe(200);
    const firstBody = (await first.json()) as { data: { id: string; action: string; environmentId: string }[]; nextCursor: string | null };
    expect(firstBody.data).toHaveLength(2);
    expect(firstBody.nextCursor).toEqual(expect.any(String));
    const second = (await (await app.request(`/api/v1/audit-log?limit=2&after=${firstBody.nextCursor}`, { headers: key(tenant) })).json()) as typeof firstBody;
    expect(second.data.map((e) => e.id).some((id) => firstBody.data.some((f) => f.id === id))).toBe(false);
    const all = [...firstBody.data, ...second.data];
    expect(all.every((e) => e.environmentId === tenant.environmentId)).toBe(true);
    // The erasures above are in it, without the people's addresses.
    const everything = (await (await app.request('/api/v1/audit-log?limit=100', { headers: key(tenant) })).json()) as typeof firstBody;
    expect(everything.data.map((e) => e.action)).toContain('lead.erase');
    expect(JSON.stringify(everything)).not.toMatch(/@example\.org/);

    // Tenancy: another environment's key reads only its own log and can't name this one.
    const foreign = (await (await app.request('/api/v1/audit-log?limit=100', { headers: key(other) })).json()) as typeof firstBody;
    expect(foreign.data.every((e) => e.environmentId === other.environmentId)).toBe(true);
    expect((await gq(app, `{ auditLog(environmentId: "${tenant.environmentId}") { edges { node { id } } } }`, {}, key(other))).body.errors[0].extensions.code).toBe('FORBIDDEN');
    const bad = await app.request('/api/v1/audit-log?limit=0&after=zzz', { headers: key(tenant) });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { errors: { path: string[] }[] }).errors.map((e) => e.path[0])).toEqual(['limit', 'after']);
    expect((await app.request('/api/v1/audit-log')).status).toBe(401);
  });
});
