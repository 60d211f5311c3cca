/**
 * Reading and editing forms: GET /api/v1/forms[/{formId}], PATCH /api/v1/forms/{formId} and GraphQL
 * `updateForm`/`versions`; versions with If-Match (412) and without it under concurrency; ids kept
 * across versions; tenancy, idempotency, the audit log, the form.updated webhook to a real receiver;
 * and responses answered on the version they started on, on the page and through the JSON API.
 */
import { and, count, desc, eq } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, formVersions, forms, responses } from '../../src/db/schema.ts';
import { startWebhookDispatcher, type WebhookDispatcher } from '../../src/events/dispatcher.ts';
import { deleteForm, formStepsAt, setFormStatus, type Form } from '../../src/forms/forms.service.ts';
import { ADMIN_TOKEN, appWith, createTenant, graphql, jsonRequest, setupIsolatedTestApp, testConfig, validBody, type TestContext, type TestTenant } from '../support/helpers.ts';
import { componentAt, field, makeForm, responsesOf, Visitor } from '../support/public-helpers.ts';
import { eventually, Receiver } from '../support/webhook-helpers.ts';

let ctx: TestContext;
let app: TestContext['app'];
let tenant: TestTenant;
let other: TestTenant;

const key = (t: TestTenant = tenant) => ({ 'x-api-key': t.apiKey });
const get = (path: string, headers: Record<string, string> = key()) => app.request(path, { headers });
const patch = async (formId: string, body: unknown, headers: Record<string, string> = {}, t: TestTenant = tenant): Promise<Response> =>
  app.request(`/api/v1/forms/${formId}`, jsonRequest('PATCH', body, { ...key(t), ...headers }));

interface RestForm {
  id: string;
  name: string;
  url: string;
  status: string;
  version: number;
  createdAt: string;
  updatedAt: string;
  hiddenFields: string[];
  steps: { id: string; key: string; name: string; components: { id: string; type: string; content: Record<string, unknown> }[] }[];
}
const read = async (formId: string): Promise<RestForm> => ((await (await get(`/api/v1/forms/${formId}`)).json()) as { data: RestForm }).data;

/** A form of two steps: a required question, then a choice. */
const twoSteps = (name = 'Versioned') =>
  makeForm(
    ctx.db,
    tenant,
    [
      { name: 'About', components: [{ type: 'ShortInput', content: { question: 'Your role?', required: true } }] },
      { name: 'Size', components: [{ type: 'Dropdown', content: { question: 'Team size?', options: ['1-10', '11-50'] } }] },
    ],
    name,
  );

/** Steps as PATCH takes them, from the REST definition (ids kept). */
const asInput = (steps: RestForm['steps']) =>
  steps.map((step) => ({ id: step.id, name: step.name, components: step.components.map(({ id, type, content }) => ({ id, type, content })) }));

beforeAll(async () => {
  // Row counts (versions, audit entries) are asserted: a database of this file's own.
  ctx = await setupIsolatedTestApp();
  app = appWith(ctx.db, { publicRateLimitPerMinute: 0, apiRateLimitPerMinute: 0 });
  tenant = await createTenant(ctx.db);
  other = await createTenant(ctx.db);
});

describe('reading forms', () => {
  it('GET /api/v1/forms/{formId}: the form with its definition and ETag "<version>"', async () => {
    const form = await twoSteps();
    const response = await get(`/api/v1/forms/${form.id}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toBe('"1"');
    const body = (await response.json()) as { data: RestForm };
    expect(body.data).toEqual({
      id: form.id,
      name: 'Versioned',
      url: `/s/${form.id}`,
      status: 'published',
      version: 1,
      createdAt: form.createdAt.toISOString(),
      updatedAt: form.updatedAt.toISOString(),
      allowAnotherResponse: false,
      hiddenFields: [],
      variables: [],
      locale: 'en',
      steps: form.steps,
      notifications: null,
      limits: null,
      finishedResponses: 0,
      quotas: [],
    });
  });

  it("another environment's form, a deleted one and an unknown id are 404; the admin token is 403", async () => {
    const form = await twoSteps();
    for (const [path, headers] of [
      [`/api/v1/forms/${form.id}`, key(other)],
      ['/api/v1/forms/nope', key()],
    ] as const) {
      const response = await get(path, headers);
      expect([response.status, await response.json()]).toEqual([404, { message: 'Form not found' }]);
    }
    const admin = await get(`/api/v1/forms/${form.id}`, { authorization: `Bearer ${ADMIN_TOKEN}` });
    expect(admin.status).toBe(403);
    await deleteForm(ctx.db, tenant.environmentId, form.id);
    expect((await get(`/api/v1/forms/${form.id}`)).status).toBe(404);
    expect((await patch(form.id, { name: 'Back?' })).status).toBe(404);
  });

  it("GET /api/v1/forms lists the environment's forms newest first in cursor pages; bad parameters are 400 with their path", async () => {
    const t = await createTenant(ctx.db);
    const made: Form[] = [];
    for (let i = 0; i < 5; i++) made.push(await makeForm(ctx.db, t, validBody(t.templateId).steps, `Listed ${i}`));
    await createTenant(ctx.db); // another environment's forms are not listed
    const seen: string[] = [];
    let after: string | null = null;
    do {
      const response = await get(`/api/v1/forms?limit=2${after ? `&after=${after}` : ''}`, key(t));
      expect(response.status).toBe(200);
      const page = (await response.json()) as { data: RestForm[]; nextCursor: string | null };
      expect(page.data.length).toBeLessThanOrEqual(2);
      for (const item of page.data) expect(Object.keys(item).sort()).toEqual(['createdAt', 'id', 'name', 'status', 'updatedAt', 'url', 'version']);
      seen.push(...page.data.map((f) => f.id));
      after = page.nextCursor;
    } while (after);
    // The template first imported, then the five generated, newest first.
    expect(seen).toEqual([...made.map((f) => f.id).reverse(), t.templateId]);

    const closed = await setFormStatus(ctx.db, t.environmentId, made[1]!.id, 'closed');
    const filtered = (await (await get('/api/v1/forms?status=closed&nameContains=listed', key(t))).json()) as { data: RestForm[]; nextCursor: null };
    expect(filtered).toEqual({ data: [expect.objectContaining({ id: closed.id, status: 'closed' })], nextCursor: null });

    for (const [query, path, message] of [
      ['after=bm90LWEtY3Vyc29y', 'after', 'after is not a valid cursor (pass the endCursor or nextCursor of a previous page)'],
      ['limit=0', 'limit', 'limit must be at least 1'],
      ['limit=101', 'limit', 'limit must be at most 100'],
      ['status=deleted', 'status', 'status must be draft, published or closed'],
      ['limit=1&limit=2', 'limit', 'limit must be given once'],
    ] as const) {
      const response = await get(`/api/v1/forms?${query}`, key(t));
      expect([query, response.status, await response.json()]).toEqual([query, 400, { message: 'Invalid query parameters', errors: [{ message, path: [path] }] }]);
    }
  });
});

describe('hidden fields at generate', () => {
  it('generate takes hiddenFields (checked as an update checks them) and the form shows them', async () => {
    const generate = (body: unknown) => app.request(`/api/v1/environments/${tenant.environmentId}/forms/generate`, jsonRequest('POST', body, key()));
    const refused = await generate({ ...validBody(tenant.templateId), hiddenFields: ['plan', 'plan', '$x'] });
    expect([refused.status, await refused.json()]).toEqual([
      400,
      {
        message: 'Invalid request body',
        errors: [
          { message: 'A hidden field name must start with a letter or "_" and hold at most 64 letters, digits or "_"', path: ['hiddenFields', 2] },
          { message: 'Hidden field "plan" is declared twice', path: ['hiddenFields', 1] },
        ],
      },
    ]);
    const made = await generate({ ...validBody(tenant.templateId), hiddenFields: ['plan', 'utm_source'] });
    const { id } = ((await made.json()) as { result: { form: { id: string } } }).result.form;
    expect((await read(id)).hiddenFields).toEqual(['plan', 'utm_source']);
    const graph = await graphql(app, 'query($id: ID!) { form(id: $id) { hiddenFields definition { hiddenFields } } }', { id }, key());
    expect(graph.body.data.form).toEqual({ hiddenFields: ['plan', 'utm_source'], definition: { hiddenFields: ['plan', 'utm_source'] } });
    expect((await (await app.request(`/s/${id}/definition`)).json()) as object).toMatchObject({ version: 1, hiddenFields: ['plan', 'utm_source'] });
  });
});

describe('editing forms', () => {
  it('PATCH changes the name: version 2, the same id and url; GET shows it; the closed form stays closed', async () => {
    const form = await twoSteps();
    await setFormStatus(ctx.db, tenant.environmentId, form.id, 'closed');
    const response = await patch(form.id, { name: 'Renamed' });
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toBe('"2"');
    expect(await response.json()).toEqual({ success: true, result: { form: { id: form.id, url: `/s/${form.id}`, version: 2 } } });
    const now = await read(form.id);
    expect(now).toMatchObject({ id: form.id, name: 'Renamed', status: 'closed', version: 2, steps: form.steps });
    expect(now.updatedAt > form.updatedAt.toISOString()).toBe(true);
  });

  it('PATCH changes the locale (canonical), null is English, an unknown one is a 400 at ["locale"]; the page follows', async () => {
    const form = await twoSteps();
    const response = await patch(form.id, { locale: 'de-ch' });
    expect(response.status).toBe(200);
    expect(await read(form.id)).toMatchObject({ version: 2, locale: 'de-CH' });
    const page = await app.request(`/s/${form.id}`);
    expect(await page.text()).toContain('<html lang="de-CH"');
    const unknown = await patch(form.id, { locale: 'xx-unknown' });
    expect(unknown.status).toBe(400);
    const body = (await unknown.json()) as { message: string; errors: { path: unknown[] }[] };
    expect(body.message).toBe('Invalid request body');
    expect(body.errors.map((error) => error.path)).toEqual([['locale']]);
    expect((await patch(form.id, { locale: null })).status).toBe(200);
    expect(await read(form.id)).toMatchObject({ version: 3, locale: 'en' });
  });

  it('PATCH with steps keeps the ids it is given, makes new ones for the rest, and stores each version', async () => {
    const form = await twoSteps();
    const before = await read(form.id);
    const steps = asInput(before.steps);
    steps[0]!.components[0]!.content = { question: 'Your job title?', required: true };
    steps[1]!.components.push({ type: 'LongInput', content: { question: 'Anything else?' } } as never);
    const response = await patch(form.id, { steps, hiddenFields: ['utm_source'] });
    expect(response.status).toBe(200);
    const after = await read(form.id);
    expect(after.version).toBe(2);
    expect(after.hiddenFields).toEqual(['utm_source']);
    expect(after.steps.map((s) => s.id)).toEqual(before.steps.map((s) => s.id));
    expect(after.steps[0]!.components[0]).toEqual({ id: before.steps[0]!.components[0]!.id, type: 'ShortInput', content: { question: 'Your job title?', required: true } });
    expect(after.steps[1]!.components[1]!.id).not.toBe(before.steps[1]!.components[0]!.id);
    expect(after.steps[1]!.components[1]).toMatchObject({ type: 'LongInput', content: { question: 'Anything else?' } });

    const versions = await ctx.db.select().from(formVersions).where(eq(formVersions.formId, form.id)).orderBy(formVersions.version);
    expect(versions.map((v) => [v.version, v.definition.name, v.definition.steps[0]!.components[0]!.content.question, v.definition.hiddenFields])).toEqual([
      [1, 'Versioned', 'Your role?', []],
      [2, 'Versioned', 'Your job title?', ['utm_source']],
    ]);

    // A step or component brought back from an earlier version keeps its id there.
    const removed = before.steps[1]!.components[0]!;
    const dropped = await patch(form.id, { steps: [asInput(after.steps)[0], { name: 'Other', components: [{ type: 'ShortInput', content: {} }] }] });
    expect(dropped.status).toBe(200);
    const restored = await patch(form.id, { steps: [asInput(after.steps)[0], { name: 'Size', components: [{ id: removed.id, type: 'Dropdown', content: removed.content }] }] });
    expect(restored.status).toBe(200);
    expect((await read(form.id)).steps[1]!.components[0]!.id).toBe(removed.id);
  });

  it('steps read back and reordered keep their keys, default step_<n> keys included', async () => {
    const form = await twoSteps('Reordered');
    const before = await read(form.id);
    expect(before.steps.map((step) => step.key)).toEqual(['step_1', 'step_2']);
    const reordered = [before.steps[1]!, before.steps[0]!].map(({ id, key: stepKey, name, components }) => ({
      id,
      key: stepKey,
      name,
      components: components.map(({ id, type, content }) => ({ id, type, content })),
    }));
    const response = await patch(form.id, { steps: reordered });
    expect(response.status, await response.clone().text()).toBe(200);
    expect((await read(form.id)).steps.map((step) => [step.id, step.key])).toEqual([
      [before.steps[1]!.id, 'step_2'],
      [before.steps[0]!.id, 'step_1'],
    ]);

    // A step without a key at position 2 would get the default step_2, which the first step holds.
    const clash = await patch(form.id, { steps: [reordered[0], { name: 'New', components: [{ type: 'ShortInput', content: { question: 'New?' } }] }] });
    expect([clash.status, await clash.json()]).toEqual([
      400,
      {
        message: 'Invalid request body',
        errors: [{ message: '"step_2" is the default key of step 2, which has no key of its own: give one of the two steps another key', path: ['steps', 0, 'key'] }],
      },
    ]);
    expect((await read(form.id)).version).toBe(2);
  });

  it('validates steps exactly as generate does, all problems at once with body paths', async () => {
    const form = await twoSteps();
    const steps = [
      {
        name: 'Book',
        components: [
          { type: 'Header', content: { title: 'Hi' } },
          { type: 'CalendlyScreen', content: { message: 'no url' } },
        ],
      },
      { name: '', components: [] },
    ];
    const generated = await app.request(`/api/v1/environments/${tenant.environmentId}/forms/generate`, jsonRequest('POST', { ...validBody(tenant.templateId), steps }, key()));
    const updated = await patch(form.id, { steps });
    expect(updated.status).toBe(400);
    const body = await updated.json();
    expect(body).toEqual(await generated.json());
    expect(body).toMatchObject({
      message: 'Invalid request body',
      errors: expect.arrayContaining([
        { message: "CalendlyScreen requires a calendar URL (via 'dataUrl', 'url', or 'calendarUrl')", path: ['steps', 0, 'components', 1, 'content'] },
        { message: 'A step needs at least 1 component', path: ['steps', 1, 'components'] },
      ]),
    });

    for (const [sent, errors] of [
      [{}, [{ message: 'Give at least one of name, hiddenFields, variables, steps, locale, languages, notifications, limits, quotas, allowAnotherResponse', path: [] }]],
      [{ name: 'x', sourceFormId: tenant.templateId }, [{ message: 'Unknown field(s): sourceFormId', path: [] }]],
      [{ name: 7 }, [{ message: 'Invalid input: expected string, received number', path: ['name'] }]],
      [{ steps: [validBody('x').steps[0]] }, [{ message: 'A form needs at least 2 steps', path: ['steps'] }]],
      [
        { hiddenFields: ['ok', '1bad', 'ok'] },
        [
          { message: 'A hidden field name must start with a letter or "_" and hold at most 64 letters, digits or "_"', path: ['hiddenFields', 1] },
          { message: 'Hidden field "ok" is declared twice', path: ['hiddenFields', 2] },
        ],
      ],
    ] as const) {
      const response = await patch(form.id, sent);
      expect([response.status, await response.json()]).toEqual([400, { message: 'Invalid request body', errors }]);
    }
    expect((await read(form.id)).version).toBe(1);
  });

  it('refuses ids that are not a step or component of this form, a changed type, and an id given twice', async () => {
    const form = await twoSteps();
    const foreign = await twoSteps('Foreign');
    const [one, two] = asInput((await read(form.id)).steps);
    const response = await patch(form.id, {
      steps: [
        {
          ...one!,
          components: [
            { ...one!.components[0]!, type: 'LongInput' },
            { id: foreign.steps[0]!.components[0]!.id, type: 'ShortInput', content: {} },
          ],
        },
        { ...two!, id: one!.id, components: [{ ...two!.components[0]!, id: two!.id }] },
      ],
    });
    expect([response.status, await response.json()]).toEqual([
      400,
      {
        message: 'Invalid request body',
        errors: [
          {
            message: `Component ${one!.components[0]!.id} is a ShortInput; a component keeps its type (leave out id for a new component)`,
            path: ['steps', 0, 'components', 0, 'id'],
          },
          { message: 'No component with this id in this form; leave out id for a new component', path: ['steps', 0, 'components', 1, 'id'] },
          { message: 'This id is given twice', path: ['steps', 1, 'id'] },
          { message: 'No component with this id in this form; leave out id for a new component', path: ['steps', 1, 'components', 0, 'id'] },
        ],
      },
    ]);
    expect((await read(form.id)).version).toBe(1);
  });

  it('If-Match: the current version goes through; another is 412 naming the current one; a malformed header is 400', async () => {
    const form = await twoSteps();
    expect((await patch(form.id, { name: 'v2' }, { 'if-match': '"1"' })).status).toBe(200);
    const stale = await patch(form.id, { name: 'lost' }, { 'if-match': '"1"' });
    expect([stale.status, await stale.json()]).toEqual([412, { message: 'Form was changed; version 2 is current' }]);
    for (const tag of ['W/"2"', '"two"']) expect((await patch(form.id, { name: 'lost' }, { 'if-match': tag })).status).toBe(412);
    expect((await patch(form.id, { name: 'v3' }, { 'if-match': '*' })).status).toBe(200);
    expect((await patch(form.id, { name: 'v4' }, { 'if-match': '"3"' })).status).toBe(200);
    for (const bad of ['3', '"3", "4"']) {
      const response = await patch(form.id, { name: 'bad' }, { 'if-match': bad });
      expect([response.status, await response.json()]).toEqual([
        400,
        { message: 'Invalid If-Match header', errors: [{ message: 'If-Match must be one entity tag: the form\'s version in quotes, e.g. "3" (or *)', path: ['If-Match'] }] },
      ]);
    }
    expect(await read(form.id)).toMatchObject({ name: 'v4', version: 4 });
  });

  it('concurrent updates without If-Match: each gets its own version, none is lost', async () => {
    const form = await twoSteps();
    const n = 8;
    // Half change the name, half the hidden fields: the last of each kind wins, and neither undoes the other.
    const answers = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        patch(form.id, i % 2 === 0 ? { name: `Name ${i}` } : { hiddenFields: [`h${i}`] }).then(
          async (r) => [r.status, ((await r.json()) as { result: { form: { version: number } } }).result.form.version] as const,
        ),
      ),
    );
    expect(answers.every(([status]) => status === 200)).toBe(true);
    expect(answers.map(([, version]) => version).sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i + 2));
    const [row] = await ctx.db.select().from(forms).where(eq(forms.id, form.id));
    expect(row!.version).toBe(n + 1);
    const versions = await ctx.db.select().from(formVersions).where(eq(formVersions.formId, form.id)).orderBy(formVersions.version);
    expect(versions.map((v) => v.version)).toEqual(Array.from({ length: n + 1 }, (_, i) => i + 1));
    // Each version is stamped later than the one before it (the versions listing pages by time).
    for (let i = 1; i < versions.length; i++) expect(versions[i]!.createdAt.getTime()).toBeGreaterThan(versions[i - 1]!.createdAt.getTime());
    // Each snapshot is its predecessor with one field changed: no update worked on a stale copy.
    for (let i = 1; i < versions.length; i++) {
      const [prev, next] = [versions[i - 1]!.definition, versions[i]!.definition];
      const changed = (['name', 'hiddenFields'] as const).filter((f) => JSON.stringify(prev[f]) !== JSON.stringify(next[f]));
      expect(changed).toHaveLength(1);
    }
    expect(versions.at(-1)!.definition).toMatchObject({ name: row!.name, hiddenFields: row!.hiddenFields });
  });

  it('concurrent updates with the same If-Match: exactly one goes through, the others are 412', async () => {
    const form = await twoSteps();
    const statuses = await Promise.all(Array.from({ length: 6 }, (_, i) => patch(form.id, { name: `Racer ${i}` }, { 'if-match': '"1"' }).then((r) => r.status)));
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 412)).toHaveLength(5);
    expect((await read(form.id)).version).toBe(2);
  });

  it("another environment's key cannot edit a form (404) and the form is unchanged", async () => {
    const form = await twoSteps();
    const response = await patch(form.id, { name: 'Hijacked' }, {}, other);
    expect([response.status, await response.json()]).toEqual([404, { message: 'Form not found' }]);
    const graph = await graphql(app, 'mutation($id: ID!) { updateForm(id: $id, input: {name: "Hijacked"}) { version } }', { id: form.id }, key(other));
    expect(graph.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect(await read(form.id)).toMatchObject({ name: 'Versioned', version: 1 });
  });

  it('honours Idempotency-Key: a repeat answers with the version it made, another body with the key is 422', async () => {
    const form = await twoSteps();
    const headers = { 'idempotency-key': `update-${form.id}` };
    const first = await patch(form.id, { name: 'Once' }, headers);
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect((await patch(form.id, { name: 'Later' })).status).toBe(200); // version 3 by another request
    const again = await patch(form.id, { name: 'Once' }, headers);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('etag')).toBe('"2"');
    expect(await again.json()).toEqual({ success: true, result: { form: { id: form.id, url: `/s/${form.id}`, version: 2 } } });
    const reused = await patch(form.id, { name: 'Different' }, headers);
    expect(reused.status).toBe(422);
    expect(await read(form.id)).toMatchObject({ name: 'Later', version: 3 });
  });

  it('records every update in the audit log with its version', async () => {
    const form = await twoSteps();
    await patch(form.id, { name: 'Audited' });
    await graphql(app, 'mutation($id: ID!) { updateForm(id: $id, input: {hiddenFields: ["plan"]}) { version } }', { id: form.id }, key());
    const entries = await ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'form.update'), eq(auditLog.environmentId, tenant.environmentId)));
    const mine = entries.filter((e) => e.targetIds.includes(form.id)).map((e) => [e.actorKind, e.actorKeyId, e.details]);
    expect(mine).toEqual([
      ['apiKey', tenant.apiKeyId, { version: 2 }],
      ['apiKey', tenant.apiKeyId, { version: 3 }],
    ]);
    // A refused update leaves no entry.
    await patch(form.id, { name: 'x' }, { 'if-match': '"1"' });
    const [{ n }] = (await ctx.db.select({ n: count() }).from(auditLog).where(eq(auditLog.action, 'form.update'))) as [{ n: number }];
    expect(n).toBe(entries.length);
  });
});

describe('the API edge', () => {
  it('the /forms routes have the edge of every /api/v1 route: body size, rate limit, headers, CORS, methods', async () => {
    const form = await twoSteps();
    const small = appWith(ctx.db, { maxBodyBytes: 2048 });
    const big = await small.request(`/api/v1/forms/${form.id}`, jsonRequest('PATCH', { name: 'x'.repeat(4096) }, key()));
    expect([big.status, await big.json()]).toEqual([413, { message: 'Request body too large (limit 2048 bytes)' }]);

    const limited = appWith(ctx.db, { apiRateLimitPerMinute: 1 });
    expect((await limited.request('/api/v1/forms', { headers: key() })).status).toBe(200);
    const refused = await limited.request(`/api/v1/forms/${form.id}`, jsonRequest('PATCH', { name: 'Too many' }, key()));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);

    const read = await get(`/api/v1/forms/${form.id}`);
    expect(read.headers.get('x-content-type-options')).toBe('nosniff');
    expect(read.headers.get('cache-control')).toBe('no-store');
    expect((await get(`/api/v1/forms/${form.id}`, {})).status).toBe(401);
    const wrong = await app.request(`/api/v1/forms/${form.id}`, { method: 'DELETE', headers: key() });
    expect([wrong.status, wrong.headers.get('allow')]).toEqual([405, 'GET, PATCH']);
    const unsupported = await app.request(`/api/v1/forms/${form.id}`, { method: 'PATCH', headers: { ...key(), 'content-type': 'text/plain' }, body: 'name=x' });
    expect(unsupported.status).toBe(415);

    const origin = 'https://admin.example';
    const browser = appWith(ctx.db, { corsOrigins: [origin] });
    const preflight = await browser.request(`/api/v1/forms/${form.id}`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'PATCH', 'access-control-request-headers': 'x-api-key, if-match, content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('PATCH');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('If-Match');
    const answered = await browser.request(`/api/v1/forms/${form.id}`, { headers: { origin, ...key() } });
    expect(answered.headers.get('access-control-allow-origin')).toBe(origin);
    expect(answered.headers.get('access-control-expose-headers')).toContain('ETag');
  });
});

describe('GraphQL', () => {
  it('updateForm with expectedVersion, Form.version and the versions connection', async () => {
    const form = await twoSteps();
    const update =
      'mutation($id: ID!, $input: UpdateFormInput!, $v: Int) { updateForm(id: $id, input: $input, expectedVersion: $v) { success version form { id url version name } } }';
    const done = await graphql(app, update, { id: form.id, input: { name: 'Via GraphQL' }, v: 1 }, key());
    expect(done.body).toEqual({ data: { updateForm: { success: true, version: 2, form: { id: form.id, url: `/s/${form.id}`, version: 2, name: 'Via GraphQL' } } } });
    const stale = await graphql(app, update, { id: form.id, input: { name: 'Stale' }, v: 1 }, key());
    expect(stale.body.errors?.[0]).toMatchObject({ message: 'Form was changed; version 2 is current', extensions: { code: 'PRECONDITION_FAILED' } });
    const invalid = await graphql(app, update, { id: form.id, input: { steps: [{ name: 'only', components: [{ type: 'Nope', content: {} }] }] } }, key());
    expect(invalid.body.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      errors: [
        { message: 'Unknown component type "Nope"', path: ['steps', 0, 'components', 0, 'type'] },
        { message: 'A form needs at least 2 steps', path: ['steps'] },
      ],
    });
    await graphql(app, update, { id: form.id, input: { name: 'Third' } }, key());

    const versions = `query($id: ID!, $after: String) { form(id: $id) { version versions(first: 2, after: $after) {
      edges { cursor node { version createdAt definition { name hiddenFields steps { id name } json } } } pageInfo { hasNextPage endCursor } } } }`;
    const first = await graphql(app, versions, { id: form.id }, key());
    expect(first.body.errors).toBeUndefined();
    const page = first.body.data.form.versions;
    expect(first.body.data.form.version).toBe(3);
    expect(page.edges.map((e: { node: { version: number; definition: { name: string } } }) => [e.node.version, e.node.definition.name])).toEqual([
      [3, 'Third'],
      [2, 'Via GraphQL'],
    ]);
    expect(page.edges[1].node.definition.json).toEqual({ name: 'Via GraphQL', steps: form.steps, hiddenFields: [], variables: [], locale: 'en', notifications: null });
    expect(page.pageInfo.hasNextPage).toBe(true);
    const rest = await graphql(app, versions, { id: form.id, after: page.pageInfo.endCursor }, key());
    expect(rest.body.data.form.versions.edges.map((e: { node: { version: number } }) => e.node.version)).toEqual([1]);
    expect(rest.body.data.form.versions.pageInfo.hasNextPage).toBe(false);
    const bad = await graphql(app, versions, { id: form.id, after: 'djA' }, key());
    expect(bad.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', errors: [{ path: ['after'] }] });
  });

  it("the admin token updates any environment's form; the audit entry names the admin", async () => {
    const form = await twoSteps();
    const done = await graphql(
      app,
      'mutation($id: ID!) { updateForm(id: $id, input: {name: "By the admin"}) { version form { name } } }',
      { id: form.id },
      { authorization: `Bearer ${ADMIN_TOKEN}` },
    );
    expect(done.body).toEqual({ data: { updateForm: { version: 2, form: { name: 'By the admin' } } } });
    const [entry] = await ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'form.update'), eq(auditLog.environmentId, tenant.environmentId)))
      .orderBy(desc(auditLog.createdAt))
      .limit(1);
    expect(entry).toMatchObject({ actorKind: 'admin', actorKeyId: null, targetIds: [form.id], details: { version: 2 } });
    const unknown = await graphql(app, 'mutation { updateForm(id: "nope", input: {name: "x"}) { version } }', {}, { authorization: `Bearer ${ADMIN_TOKEN}` });
    expect(unknown.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});

describe("the graph's steps read apart from its listings", () => {
  it('formStepsAt reads the steps of the version a form was listed at, also when it changed since', async () => {
    const form = await twoSteps();
    const before = await read(form.id);
    const renamed = asInput(before.steps).map((step, i) => (i === 0 ? { ...step, name: 'Role' } : step));
    expect((await patch(form.id, { steps: renamed })).status).toBe(200);
    const [first, second, again] = await formStepsAt(ctx.db, [
      { id: form.id, version: 1 },
      { id: form.id, version: 2 },
      { id: form.id, version: 1 },
    ]);
    expect([first!.map((step) => step.name), second!.map((step) => step.name)]).toEqual([
      ['About', 'Size'],
      ['Role', 'Size'],
    ]);
    expect(again).toEqual(first);
    expect(await formStepsAt(ctx.db, [])).toEqual([]);
  });
});

describe('what versions may cost', () => {
  const nameVersions = 'query($id: ID!, $first: Int) { form(id: $id) { versions(first: $first) { edges { node { version definitionBytes } } } } }';
  const definitions = 'query($id: ID!, $first: Int) { form(id: $id) { versions(first: $first) { edges { node { version definition { name } } } } } }';

  it('a request reads at most GRAPHQL_MAX_DEFINITION_BYTES of definitions: beyond it BAD_USER_INPUT, listing their sizes stays free', async () => {
    const form = await twoSteps();
    for (const name of ['Two', 'Three']) expect((await patch(form.id, { name })).status).toBe(200);
    const stored = await ctx.db.select().from(formVersions).where(eq(formVersions.formId, form.id)).orderBy(desc(formVersions.version));
    expect(stored.map((row) => row.definitionBytes)).toEqual(stored.map((row) => Buffer.byteLength(JSON.stringify(row.definition))));
    const sizes = stored.map((row) => row.definitionBytes);
    // Room for the two newest definitions, not for all three.
    const budget = sizes[0]! + sizes[1]!;
    const limited = appWith(ctx.db, { apiRateLimitPerMinute: 0, graphql: { ...testConfig().graphql, maxDefinitionBytes: budget } });

    const listed = await graphql(limited, nameVersions, { id: form.id, first: 3 }, key());
    expect(listed.body.data.form.versions.edges.map((e: { node: unknown }) => e.node)).toEqual(
      stored.map((row) => ({ version: row.version, definitionBytes: row.definitionBytes })),
    );
    const two = await graphql(limited, definitions, { id: form.id, first: 2 }, key());
    expect(two.body.data.form.versions.edges.map((e: { node: { definition: { name: string } } }) => e.node.definition.name)).toEqual(['Three', 'Two']);

    const three = await graphql(limited, definitions, { id: form.id, first: 3 }, key());
    expect(three.body.data).toEqual({ form: null });
    expect(three.body.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' }, message: expect.stringContaining('select definition on fewer versions at a time') });
    // Aliases share the request's budget.
    const aliased = await graphql(
      limited,
      'query($id: ID!) { a: form(id: $id) { versions(first: 2) { edges { node { definition { name } } } } } b: form(id: $id) { versions(first: 1) { edges { node { definition { name } } } } } }',
      { id: form.id },
      key(),
    );
    expect(aliased.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
  });

  it("a form's current steps take their size from the same budget: forms(first: N) { steps } is refused past it", async () => {
    const other = await createTenant(ctx.db);
    const stepsAsking = (question: string) => [
      { name: 'A', components: [{ type: 'ShortInput', content: { question } }] },
      { name: 'B', components: [{ type: 'Header', content: { title: 'Thanks' } }] },
    ];
    const made = [await makeForm(ctx.db, other, stepsAsking('One?'), 'One'), await makeForm(ctx.db, other, stepsAsking('Two?'), 'Two')];
    const stored = await ctx.db.select({ steps: forms.steps }).from(forms).where(eq(forms.environmentId, other.environmentId));
    const sizes = stored.map((row) => Buffer.byteLength(JSON.stringify(row.steps)));
    // Room for either form's steps, not for both.
    const limited = appWith(ctx.db, { apiRateLimitPerMinute: 0, graphql: { ...testConfig().graphql, maxDefinitionBytes: sizes[0]! + sizes[1]! - 1 } });
    const steps = (selection: string, first: number) =>
      graphql(limited, `query { environment(id: "${other.environmentId}") { forms(first: ${first}) { edges { node { name ${selection} } } } } }`, {}, key(other));

    const one = await steps('steps { key }', 1);
    expect(one.body.data.environment.forms.edges).toMatchObject([{ node: { name: 'Two', steps: [{}, {}] } }]);
    expect((await steps('', 2)).body.data.environment.forms.edges).toHaveLength(2);
    for (const selection of ['steps { key }', 'definition { name }']) {
      const both = await steps(selection, 2);
      expect(both.body.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' }, message: expect.stringContaining('on fewer forms at a time') });
    }
    // Without a budget (0 turns it off) both are answered.
    const unlimited = appWith(ctx.db, { apiRateLimitPerMinute: 0, graphql: { ...testConfig().graphql, maxDefinitionBytes: 0 } });
    const all = await graphql(unlimited, `query { environment(id: "${other.environmentId}") { forms(first: 2) { edges { node { steps { key } } } } } }`, {}, key(other));
    expect(all.body.data.environment.forms.edges).toHaveLength(2);
    expect(made).toHaveLength(2);
  });

  it('a form has at most FORM_MAX_VERSIONS versions: the update beyond it is 409 and changes nothing', async () => {
    const form = await twoSteps();
    const capped = appWith(ctx.db, { apiRateLimitPerMinute: 0, formMaxVersions: 3 });
    const update = (name: string) => capped.request(`/api/v1/forms/${form.id}`, jsonRequest('PATCH', { name }, key()));
    expect([(await update('Two')).status, (await update('Three')).status]).toEqual([200, 200]);
    const refused = await update('Four');
    expect([refused.status, await refused.json()]).toEqual([
      409,
      { message: 'Form has 3 versions, the most a form may have: it can no longer be changed; generate a new form from it instead' },
    ]);
    expect((await read(form.id)).name).toBe('Three');
    const [{ n }] = (await ctx.db.select({ n: count() }).from(formVersions).where(eq(formVersions.formId, form.id))) as [{ n: number }];
    expect(n).toBe(3);
    const viaGraphql = await graphql(capped, 'mutation($id: ID!) { updateForm(id: $id, input: { name: "Four" }) { version } }', { id: form.id }, key());
    expect(viaGraphql.body.errors?.[0]?.extensions).toMatchObject({ code: 'CONFLICT' });
  });

  it("ids an update may keep are looked up in the form's ids, not in its snapshots", async () => {
    const form = await twoSteps();
    const [one, two] = asInput((await read(form.id)).steps);
    // Version 2 drops the first step's question; version 3 brings it back by id.
    expect((await patch(form.id, { steps: [{ ...one!, components: [{ type: 'LongInput', content: { question: 'New' } }] }, two!] })).status).toBe(200);
    // The snapshot of version 1 is no longer read: the known ids are.
    await ctx.db
      .update(formVersions)
      .set({ definition: { name: 'emptied', steps: [], hiddenFields: [], variables: [], locale: 'en' } })
      .where(and(eq(formVersions.formId, form.id), eq(formVersions.version, 1)));
    const back = await patch(form.id, { steps: [one!, two!] });
    expect(back.status).toBe(200);
    expect((await read(form.id)).steps[0]!.components[0]!.id).toBe(one!.components[0]!.id);
    const typeChanged = await patch(form.id, { steps: [{ ...one!, components: [{ ...one!.components[0]!, type: 'LongInput' }] }, two!] });
    expect(typeChanged.status).toBe(400);
  });
});

describe('responses answer the version they started on', () => {
  /** Version 2 replaces the question of step 1 with another, required one, and renames the steps. */
  async function publishVersion2(form: Form) {
    const current = await read(form.id);
    const steps = asInput(current.steps);
    steps[0] = { ...steps[0]!, name: 'About (v2)', components: [{ type: 'ShortInput', content: { question: 'Your company?', required: true } } as never] };
    steps[1] = { ...steps[1]!, name: 'Size (v2)' };
    const response = await patch(form.id, { steps });
    expect(response.status).toBe(200);
    return read(form.id);
  }

  it('the JSON API: a response started on version 1 is checked against version 1 until it finishes; new ones get version 2', async () => {
    const form = await twoSteps();
    const role = componentAt(form, 0, 0);
    const size = componentAt(form, 1, 0);
    const started = await app.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers: { [role.id]: 'CTO' } }));
    const { id, resumeToken, formVersion } = (await started.json()) as { id: string; resumeToken: string; formVersion: number };
    expect(formVersion).toBe(1);
    const v2 = await publishVersion2(form);
    const company = v2.steps[0]!.components[0]!;
    const update = (body: unknown) => app.request(`/s/${form.id}/responses/${id}`, jsonRequest('PATCH', body, { authorization: `Bearer ${resumeToken}` }));

    // Version 2's question is not one of version 1's; version 1's are, and finishing needs only theirs.
    const foreign = await update({ answers: { [company.id]: 'Acme' } });
    expect([foreign.status, await foreign.json()]).toEqual([
      400,
      { message: 'Invalid request body', errors: [{ message: 'No question with this id in the form', path: ['answers', company.id] }] },
    ]);
    const finished = await update({ answers: { [role.id]: 'CEO', [size.id]: '1-10' }, finished: true });
    expect([finished.status, await finished.json()]).toMatchObject([200, { finished: true, formVersion: 1 }]);

    // The definition of the version a response is on, and the current one.
    const old = (await (await app.request(`/s/${form.id}/definition?version=1`, { headers: { authorization: `Bearer ${resumeToken}` } })).json()) as {
      version: number;
      steps: { name: string }[];
    };
    expect([old.version, old.steps.map((s) => s.name)]).toEqual([1, ['About', 'Size']]);
    const now = (await (await app.request(`/s/${form.id}/definition`)).json()) as { version: number; steps: { name: string }[] };
    expect([now.version, now.steps.map((s) => s.name)]).toEqual([2, ['About (v2)', 'Size (v2)']]);
    expect((await app.request(`/s/${form.id}/definition?version=9`, { headers: { authorization: `Bearer ${resumeToken}` } })).status).toBe(404);
    expect((await app.request(`/s/${form.id}/definition?version=x`)).status).toBe(400);

    // A new response is on version 2: version 1's question is gone, version 2's is required.
    const refused = await app.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers: { [role.id]: 'CTO' } }));
    expect(refused.status).toBe(400);
    const fresh = await app.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers: { [size.id]: '1-10' }, finished: true }));
    expect([fresh.status, await fresh.json()]).toMatchObject([400, { errors: [{ path: ['answers', company.id] }] }]);
    const ok = await app.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers: { [company.id]: 'Acme', [size.id]: '1-10' }, finished: true }));
    const okBody = (await ok.json()) as { resumeToken: string };
    expect([ok.status, okBody]).toMatchObject([201, { finished: true, formVersion: 2 }]);

    const rows = await responsesOf(ctx.db, form.id);
    expect(
      rows
        .filter((r) => r.finished)
        .map((r) => r.meta.formVersion)
        .sort(),
    ).toEqual([1, 2]);

    // An older version is shown only with the resume token of a response on it: not without one, not with a version 2 response's.
    const anonymous = await app.request(`/s/${form.id}/definition?version=1`);
    expect([anonymous.status, ((await anonymous.json()) as { message: string }).message]).toEqual([
      401,
      'Missing resume token: an older version is shown only with the resume token of a response on it',
    ]);
    const onV2 = okBody.resumeToken;
    expect((await app.request(`/s/${form.id}/definition?version=1`, { headers: { authorization: `Bearer ${onV2}` } })).status).toBe(404);
    expect((await app.request(`/s/${form.id}/definition?version=1`, { headers: { authorization: 'Bearer forged' } })).status).toBe(404);
    expect((await app.request(`/s/${form.id}/definition?version=2`)).status).toBe(200);
  });

  it(`moves a response older than PINNED_VERSION_MAX_AGE_HOURS to the current version: its required questions then apply`, async () => {
    const form = await twoSteps('Aged');
    const [role, size] = [componentAt(form, 0, 0), componentAt(form, 1, 0)];
    const started = await app.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers: { [role.id]: 'CTO' } }));
    const { id, resumeToken } = (await started.json()) as { id: string; resumeToken: string };
    const company = (await publishVersion2(form)).steps[0]!.components[0]!;
    const ageMs = testConfig().pinnedVersionMaxAgeMs;
    expect(ageMs).toBe(72 * 3_600_000);
    await ctx.db
      .update(responses)
      .set({ createdAt: new Date(Date.now() - ageMs - 60_000) })
      .where(eq(responses.id, id));
    const update = (body: unknown) => app.request(`/s/${form.id}/responses/${id}`, jsonRequest('PATCH', body, { authorization: `Bearer ${resumeToken}` }));

    const finishOnV1 = await update({ answers: { [size.id]: '1-10' }, finished: true });
    expect([finishOnV1.status, await finishOnV1.json()]).toMatchObject([400, { errors: [{ path: ['answers', company.id] }] }]);
    const moved = await update({ answers: { [company.id]: 'Acme', [size.id]: '1-10' }, finished: true });
    expect([moved.status, await moved.json()]).toMatchObject([200, { finished: true, formVersion: 2 }]);
    expect((await app.request(`/s/${form.id}/definition?version=1`, { headers: { authorization: `Bearer ${resumeToken}` } })).status).toBe(404);
  });

  // A captcha added since: test/components/captchas.test.ts.
  it("applies the current version's guards (here a required consent) to a response on an older version: it moves to the current one", async () => {
    const form = await twoSteps('Guarded');
    const [role, size] = [componentAt(form, 0, 0), componentAt(form, 1, 0)];
    const started = await app.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers: { [role.id]: 'CTO' } }));
    const { id, resumeToken } = (await started.json()) as { id: string; resumeToken: string };
    const steps = asInput((await read(form.id)).steps);
    steps[1] = { ...steps[1]!, components: [...steps[1]!.components, { type: 'Disclaimer', content: { text: 'I agree', required: true } } as never] };
    expect((await patch(form.id, { steps })).status).toBe(200);
    const consent = (await read(form.id)).steps[1]!.components[1]!;
    const update = (body: unknown) => app.request(`/s/${form.id}/responses/${id}`, jsonRequest('PATCH', body, { authorization: `Bearer ${resumeToken}` }));

    const skipped = await update({ answers: { [size.id]: '1-10' }, finished: true });
    expect([skipped.status, await skipped.json()]).toMatchObject([400, { errors: [{ path: ['answers', consent.id] }] }]);
    const agreed = await update({ answers: { [size.id]: '1-10', [consent.id]: true }, finished: true });
    expect([agreed.status, await agreed.json()]).toMatchObject([200, { finished: true, formVersion: 2 }]);
    // The answer of version 1 stays by its question id.
    const [row] = (await responsesOf(ctx.db, form.id)).filter((r) => r.id === id);
    expect(row!.data.map((a) => a.questionId)).toEqual([role.id, size.id, consent.id]);
  });

  it('the page: a session that started on version 1 is shown and checked against version 1; a new session sees version 2', async () => {
    const form = await twoSteps();
    const role = componentAt(form, 0, 0);
    const size = componentAt(form, 1, 0);
    const visitor = new Visitor(app);
    expect((await visitor.get(`/s/${form.id}`)).status).toBe(200);
    expect((await visitor.submit(form, 0, { [field(role)]: 'CTO' })).headers.get('location')).toBe(`/s/${form.id}?step=1`);
    await publishVersion2(form);

    const step1 = await (await visitor.get(`/s/${form.id}?step=1`)).text();
    expect(step1).toContain('Team size?');
    expect(step1).not.toContain('Size (v2)');
    const back = await (await visitor.get(`/s/${form.id}?step=0`)).text();
    expect(back).toContain('Your role?');
    expect(back).not.toContain('Your company?');
    const done = await visitor.submit(form, 1, { [field(size)]: '1-10' });
    expect(done.headers.get('location')).toBe(`/s/${form.id}?done=1`);
    const [finished] = (await responsesOf(ctx.db, form.id)).filter((r) => r.finished);
    expect(finished!.meta.formVersion).toBe(1);
    expect(finished!.data.map((a) => a.questionId)).toEqual([role.id, size.id]);

    const newcomer = new Visitor(app);
    const page = await (await newcomer.get(`/s/${form.id}`)).text();
    expect(page).toContain('Your company?');
    expect(page).not.toContain('Your role?');
  });
});

describe('exports and summaries say which version each response answered', () => {
  it('CSV: a formVersion column, the current questions then those only earlier versions had; NDJSON: meta.formVersion; summaries count per version', async () => {
    const form = await twoSteps('Exported');
    const [role, size] = [componentAt(form, 0, 0), componentAt(form, 1, 0)];
    const answer = async (answers: Record<string, unknown>) => {
      const response = await app.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers, finished: true }));
      expect(response.status).toBe(201);
      return ((await response.json()) as { id: string }).id;
    };
    const onV1 = await answer({ [role.id]: 'CTO', [size.id]: '1-10' });
    // Version 2: the role question is replaced by a company question; the size question stays.
    const steps = asInput((await read(form.id)).steps);
    steps[0]!.components = [{ type: 'ShortInput', content: { question: 'Your company?' } } as never];
    expect((await patch(form.id, { steps })).status).toBe(200);
    const company = (await read(form.id)).steps[0]!.components[0]!;
    const onV2 = await answer({ [company.id]: 'Acme', [size.id]: '11-50' });

    const csv = await (await get(`/api/v1/responses/export?formId=${form.id}&format=csv`)).text();
    const [header, ...rows] = csv
      .trimEnd()
      .split('\r\n')
      .map((line) => line.split(','));
    expect(header!.slice(9)).toEqual(['formVersion', 'path', 'language', `Your company? [${company.id}]`, `Team size? [${size.id}]`, `Your role? [${role.id}]`]);
    expect(rows.map((row) => [row[0], ...row.slice(9)])).toEqual([
      [onV2, '2', 'step_1 > step_2', '', 'Acme', '11-50', ''],
      [onV1, '1', 'step_1 > step_2', '', '', '1-10', 'CTO'],
    ]);
    const ndjson = (await (await get(`/api/v1/responses/export?formId=${form.id}&format=ndjson`)).text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: string; meta: { formVersion: number } });
    expect(ndjson.map((r) => [r.id, r.meta.formVersion])).toEqual([
      [onV2, 2],
      [onV1, 1],
    ]);

    const summary = `query($id: ID!, $version: Int) { form(id: $id) { summary(filter: {version: $version}) {
      total finished versions { version total finished } questions { questionId answers } steps { name reached } } } }`;
    const all = await graphql(app, summary, { id: form.id }, key());
    expect(all.body.errors).toBeUndefined();
    expect(all.body.data.form.summary).toMatchObject({
      total: 2,
      versions: [
        { version: 2, total: 1, finished: 1 },
        { version: 1, total: 1, finished: 1 },
      ],
      questions: [
        { questionId: company.id, answers: 1 },
        { questionId: size.id, answers: 2 },
      ],
    });
    const first = await graphql(app, summary, { id: form.id, version: 1 }, key());
    expect(first.body.data.form.summary).toEqual({
      total: 1,
      finished: 1,
      versions: [{ version: 1, total: 1, finished: 1 }],
      questions: [
        { questionId: role.id, answers: 1 },
        { questionId: size.id, answers: 1 },
      ],
      steps: [
        { name: 'About', reached: 1 },
        { name: 'Size', reached: 1 },
      ],
    });
    const missing = await graphql(app, summary, { id: form.id, version: 3 }, key());
    expect(missing.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', errors: [{ path: ['filter', 'version'] }] });
  });
});

describe('the form.updated webhook', () => {
  let dispatcher: WebhookDispatcher | undefined;
  let receiver: Receiver | undefined;
  afterAll(async () => {
    await dispatcher?.stop();
    await receiver?.stop();
  });

  it('is delivered to a real receiver with the new version', async () => {
    const webhookApp = appWith(ctx.db, { webhooks: { ...testConfig().webhooks, allowPrivate: true } });
    receiver = await new Receiver().start();
    const form = await twoSteps();
    const created = await webhookApp.request('/api/v1/webhooks', jsonRequest('POST', { url: receiver.url, eventTypes: ['form.updated'], formIds: [form.id] }, key()));
    expect(created.status).toBe(201);
    receiver.secret = ((await created.json()) as { secret: string }).secret;
    dispatcher = startWebhookDispatcher({ db: ctx.db, config: { ...testConfig().webhooks, allowPrivate: true, timeoutMs: 2_000 }, logger: pino({ level: 'silent' }), pollMs: 20 });
    await patch(form.id, { name: 'Announced' });
    await eventually(() => receiver!.accepted.length === 1, 'the form.updated event');
    expect(receiver.accepted[0]!.body).toMatchObject({
      type: 'form.updated',
      data: { id: form.id, url: `/s/${form.id}`, name: 'Announced', status: 'published', version: 2, environmentId: tenant.environmentId },
    });
    expect(receiver.unverified).toBe(0);
  });
});
