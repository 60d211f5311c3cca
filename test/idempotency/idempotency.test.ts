/**
 * Idempotency-Key on POST …/forms/generate (REST and GraphQL) and on the public "start a response":
 * a repeat gets the first result and creates nothing, another body with the key is 422, concurrent
 * repeats create one row, keys are scoped and expire.
 */
import { randomUUID } from 'node:crypto';
import { and, count, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { forms, idempotencyKeys, responses } from '../../src/db/schema.ts';
import type { Form } from '../../src/forms/forms.service.ts';
import { deleteExpiredIdempotencyKeys } from '../../src/idempotency/idempotency.service.ts';
import { createTenant, graphql, jsonRequest, setupTestApp, validBody, type TestContext, type TestTenant } from '../support/helpers.ts';
import { componentAt, makeForm } from '../support/public-helpers.ts';

let ctx: TestContext;
let a: TestTenant;
let b: TestTenant;
let form: Form;

beforeAll(async () => {
  ctx = await setupTestApp();
  a = await createTenant(ctx.db);
  b = await createTenant(ctx.db);
  form = await makeForm(ctx.db, a, [
    { name: 'One', components: [{ type: 'ShortInput', content: { question: 'Name?' } }] },
    { name: 'Two', components: [{ type: 'Disclaimer', content: { text: 'OK?' } }] },
  ]);
});

const generate = (tenant: TestTenant, body: unknown, key?: string) =>
  ctx.app.request(
    `/api/v1/environments/${tenant.environmentId}/forms/generate`,
    jsonRequest('POST', body, { 'x-api-key': tenant.apiKey, ...(key === undefined ? {} : { 'idempotency-key': key }) }),
  );

async function formCount(tenant: TestTenant): Promise<number> {
  const [row] = await ctx.db.select({ n: count() }).from(forms).where(eq(forms.environmentId, tenant.environmentId));
  return row!.n;
}

const formIdOf = async (response: Response) => ((await response.json()) as { result: { form: { id: string } } }).result.form.id;

describe('generate with an Idempotency-Key', () => {
  it('returns the first form again for the same key and body, marked Idempotent-Replayed, creating nothing', async () => {
    const key = randomUUID();
    const before = await formCount(a);
    const first = await generate(a, validBody(a.templateId), key);
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const id = await formIdOf(first);
    // The same body with its keys in another order is the same request.
    const { steps, name, sourceFormId } = validBody(a.templateId);
    const again = await generate(a, { steps, name, sourceFormId }, key);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await formIdOf(again)).toBe(id);
    expect(await formCount(a)).toBe(before + 1);
  });

  it('creates a form per request without a key', async () => {
    const before = await formCount(a);
    const ids = [await formIdOf(await generate(a, validBody(a.templateId))), await formIdOf(await generate(a, validBody(a.templateId)))];
    expect(new Set(ids).size).toBe(2);
    expect(await formCount(a)).toBe(before + 2);
  });

  it('answers 422 to the same key with another body, and creates nothing', async () => {
    const key = randomUUID();
    expect((await generate(a, validBody(a.templateId), key)).status).toBe(200);
    const before = await formCount(a);
    const other = await generate(a, { ...validBody(a.templateId), name: 'Another name' }, key);
    expect(other.status).toBe(422);
    expect(await other.json()).toEqual({
      message: 'This Idempotency-Key was already used with a different request; use a new key for a new request',
    });
    expect(await formCount(a)).toBe(before);
  });

  it('scopes keys to the environment', async () => {
    const key = randomUUID();
    const inA = await formIdOf(await generate(a, validBody(a.templateId), key));
    const inB = await generate(b, validBody(b.templateId), key);
    expect(inB.status).toBe(200);
    expect(inB.headers.get('idempotent-replayed')).toBeNull();
    expect(await formIdOf(inB)).not.toBe(inA);
  });

  it('creates one form for concurrent requests with one key; every answer names it', async () => {
    const key = randomUUID();
    const before = await formCount(a);
    const answers = await Promise.all(Array.from({ length: 6 }, () => generate(a, validBody(a.templateId), key)));
    const statuses = answers.map((response) => response.status);
    // Documented: a concurrent repeat waits for the first and is answered with its form (200); 409 only
    // when the first is still running without a result to give.
    expect(statuses.every((status) => status === 200 || status === 409)).toBe(true);
    const ids = await Promise.all(answers.filter((response) => response.status === 200).map(formIdOf));
    expect(ids.length).toBeGreaterThan(0);
    expect(new Set(ids).size).toBe(1);
    expect(await formCount(a)).toBe(before + 1);
  });

  it('does not keep a key whose request failed: the retry runs again', async () => {
    const key = randomUUID();
    const missing = await generate(a, validBody('no-such-template'), key);
    expect(missing.status).toBe(404);
    const fixed = await generate(a, validBody(a.templateId), key);
    expect(fixed.status).toBe(200);
    expect(fixed.headers.get('idempotent-replayed')).toBeNull();
  });

  it('forgets a key after 24 hours', async () => {
    const key = randomUUID();
    const first = await formIdOf(await generate(a, validBody(a.templateId), key));
    await ctx.db
      .update(idempotencyKeys)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(and(eq(idempotencyKeys.key, key), eq(idempotencyKeys.scope, `env:${a.environmentId}:generateForm`)));
    const later = await generate(a, { ...validBody(a.templateId), name: 'After a day' }, key);
    expect(later.status).toBe(200);
    expect(await formIdOf(later)).not.toBe(first);
  });

  it('sweeps expired keys away and keeps live ones', async () => {
    const [expired, live] = [randomUUID(), randomUUID()];
    await generate(a, validBody(a.templateId), expired);
    await generate(a, validBody(a.templateId), live);
    await ctx.db
      .update(idempotencyKeys)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(idempotencyKeys.key, expired));
    expect(await deleteExpiredIdempotencyKeys(ctx.db)).toBeGreaterThanOrEqual(1);
    const left = await ctx.db.select({ key: idempotencyKeys.key }).from(idempotencyKeys);
    expect(left.map((row) => row.key)).toContain(live);
    expect(left.map((row) => row.key)).not.toContain(expired);
  });

  it('rejects a malformed key with 400 and a path', async () => {
    for (const key of ['x'.repeat(256), 'has space', 'é']) {
      const response = await generate(a, validBody(a.templateId), key);
      expect(response.status).toBe(400);
      const body = (await response.json()) as { message: string; errors: { path: string[] }[] };
      expect(body.message).toBe('Invalid Idempotency-Key header');
      expect(body.errors[0]!.path).toEqual(['Idempotency-Key']);
    }
  });

  it('works for generateForm over GraphQL through the header', async () => {
    const key = randomUUID();
    const mutation = `mutation ($env: ID!, $input: GenerateFormInput!) { generateForm(environmentId: $env, input: $input) { form { id } } }`;
    const variables = { env: a.environmentId, input: validBody(a.templateId) };
    const headers = { 'x-api-key': a.apiKey, 'idempotency-key': key };
    const first = await ctx.app.request('/graphql', jsonRequest('POST', { query: mutation, variables }, headers));
    const again = await ctx.app.request('/graphql', jsonRequest('POST', { query: mutation, variables }, headers));
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const ids = [first, again].map(async (response) => ((await response.json()) as { data: { generateForm: { form: { id: string } } } }).data.generateForm.form.id);
    expect(await ids[1]).toBe(await ids[0]);

    const other = await graphql(ctx.app, mutation, { ...variables, input: { ...validBody(a.templateId), name: 'Other' } }, headers);
    expect(other.body.errors?.[0]?.extensions?.code).toBe('UNPROCESSABLE');
  });
});

describe('public start with an Idempotency-Key', () => {
  const start = (body: unknown, key?: string) => ctx.app.request(`/s/${form.id}/responses`, jsonRequest('POST', body, key === undefined ? {} : { 'idempotency-key': key }));

  async function responseCount(): Promise<number> {
    const [row] = await ctx.db.select({ n: count() }).from(responses).where(eq(responses.formId, form.id));
    return row!.n;
  }

  it('answers a retried start with the same response and resume token, creating one response', async () => {
    const key = randomUUID();
    const body = { answers: { [componentAt(form, 0, 0).id]: 'Ada' } };
    const before = await responseCount();
    const first = await start(body, key);
    expect(first.status).toBe(201);
    const created = (await first.json()) as { id: string; resumeToken: string };
    const again = await start(body, key);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toMatchObject({ id: created.id, resumeToken: created.resumeToken });
    expect(await responseCount()).toBe(before + 1);

    // Without a key each start is a response of its own.
    await start(body);
    await start(body);
    expect(await responseCount()).toBe(before + 3);
  });

  it('creates one response for concurrent starts with one key, finished or not', async () => {
    for (const finished of [false, true]) {
      const key = randomUUID();
      const before = await responseCount();
      const body = { answers: { [componentAt(form, 0, 0).id]: 'Grace' }, finished };
      const answers = await Promise.all(Array.from({ length: 5 }, () => start(body, key)));
      expect(answers.map((response) => response.status)).toEqual([201, 201, 201, 201, 201]);
      const ids = await Promise.all(answers.map(async (response) => ((await response.json()) as { id: string }).id));
      expect(new Set(ids).size).toBe(1);
      expect(await responseCount()).toBe(before + 1);
    }
  });

  it('answers 422 to the key with another body, and 400 to a key shorter than 16 characters', async () => {
    const key = randomUUID();
    expect((await start({ answers: {} }, key)).status).toBe(201);
    const before = await responseCount();
    const other = await start({ answers: { [componentAt(form, 0, 0).id]: 'Someone else' } }, key);
    expect(other.status).toBe(422);
    expect(await responseCount()).toBe(before);
    const short = await start({ answers: {} }, 'abc');
    expect(short.status).toBe(400);
  });

  /**
   * The key after its claim expired: a new claim with a new random nonce, so a new session. Before, the
   * resume token was an HMAC of the key alone, and any body with the key took over the old response
   * (same id and resume token; its e-mail replaced, the response finished).
   */
  it('never continues the old response once the claim expired: a new response, another resume token', async () => {
    const key = randomUUID();
    const name = componentAt(form, 0, 0).id;
    const first = await start({ answers: { [name]: 'Victim' } }, key);
    expect(first.status).toBe(201);
    const victim = (await first.json()) as { id: string; resumeToken: string };
    const [claim] = await ctx.db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.key, key), eq(idempotencyKeys.scope, `form:${form.id}:start`)));
    expect(claim!.nonce).toMatch(/^[\w-]{24}$/);
    await ctx.db
      .update(idempotencyKeys)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(and(eq(idempotencyKeys.key, key), eq(idempotencyKeys.scope, `form:${form.id}:start`)));

    const later = await start({ answers: { [name]: 'Attacker' }, finished: true }, key);
    expect(later.status).toBe(201);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    const taken = (await later.json()) as { id: string; resumeToken: string };
    expect(taken.id).not.toBe(victim.id);
    expect(taken.resumeToken).not.toBe(victim.resumeToken);
    const [old] = await ctx.db.select().from(responses).where(eq(responses.id, victim.id));
    expect(old).toMatchObject({ finished: false, data: [expect.objectContaining({ questionId: name, response: expect.objectContaining({ input: 'Victim' }) })] });
    // The victim's own token still continues their response.
    const own = await ctx.app.request(`/s/${form.id}/responses/${victim.id}`, jsonRequest('PATCH', { answers: {} }, { authorization: `Bearer ${victim.resumeToken}` }));
    expect(own.status).toBe(200);
  });
});
