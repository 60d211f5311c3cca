/**
 * Insight counters after the ways responses go away besides a plain delete: the retention job (a
 * form's retention days), erasing a person, and the purge of a deleted form. Right after each, starts,
 * finishes and the steps equal what the remaining responses count (the summary's counts), views stay,
 * and the results page shows the same figures.
 */
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '../../src/audit/audit.service.ts';
import { formInsightCounts, forms, jobRuns } from '../../src/db/schema.ts';
import type { Form } from '../../src/forms/forms.service.ts';
import { runRetentionJob } from '../../src/privacy/retention.service.ts';
import { setFormRetention } from '../../src/privacy/settings.service.ts';
import { createTenant, graphql, jsonRequest, setupIsolatedTestApp, type TestContext, type TestTenant } from '../support/helpers.ts';
import { componentAt, makeForm } from '../support/public-helpers.ts';

let ctx: TestContext;
let tenant: TestTenant;

const RETENTION = { intervalMs: 3_600_000, formPurgeDays: 30, batchSize: 2 };

const threeSteps = (name: string) =>
  makeForm(
    ctx.db,
    tenant,
    [
      {
        name: 'Contact',
        components: [{ type: 'IdentityInfo', content: { fields: [{ key: 'emailAddress', label: 'E-mail' }] } }],
      },
      { name: 'Role', components: [{ type: 'ShortInput', content: { question: 'Role?' } }] },
      { name: 'Team', components: [{ type: 'ShortInput', content: { question: 'Team?' } }] },
    ],
    name,
  );

/** A response through the public API; finished when `finish`. Its id. */
async function respond(form: Form, email: string, finish: boolean): Promise<string> {
  const answers = {
    [componentAt(form, 0, 0).id]: { emailAddress: email },
    ...(finish ? { [componentAt(form, 1, 0).id]: 'r', [componentAt(form, 2, 0).id]: 't' } : {}),
  };
  const res = await ctx.app.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers, finished: finish }));
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

async function figures(form: Form) {
  const res = await ctx.app.request(`/api/v1/forms/${form.id}/insights`, { headers: { 'x-api-key': tenant.apiKey } });
  const { data } = (await res.json()) as {
    data: { views: number; starts: number; finishes: number; steps: { reached: number; leftHere: number }[] };
  };
  const summary = await graphql(ctx.app, 'query($id: ID!) { form(id: $id) { summary { total finished } } }', { id: form.id }, { 'x-api-key': tenant.apiKey });
  return {
    views: data.views,
    starts: data.starts,
    finishes: data.finishes,
    steps: data.steps.map((s) => [s.reached, s.leftHere]),
    summary: summary.body.data.form.summary,
  };
}

const olderThan = (ids: string[], days: number) =>
  ctx.db.execute(
    sql`update responses set created_at = now() - make_interval(days => ${days}) where id in (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )})`,
  );

beforeAll(async () => {
  ctx = await setupIsolatedTestApp();
  tenant = await createTenant(ctx.db);
});

describe('insight counters when responses go away', () => {
  it('the retention job takes off what the expired responses counted; views stay', async () => {
    const form = await threeSteps('Retention');
    for (let i = 0; i < 5; i++) await ctx.app.request(`/s/${form.id}/views`, jsonRequest('POST', {}));
    const oldFinished = await respond(form, 'old1@example.org', true);
    const oldOpen = await respond(form, 'old2@example.org', false);
    await respond(form, 'new1@example.org', true);
    await respond(form, 'new2@example.org', false);
    expect(await figures(form)).toMatchObject({
      views: 5,
      starts: 4,
      finishes: 2,
      steps: [
        [4, 0],
        [4, 2],
        [2, 0],
      ],
    });
    await olderThan([oldFinished, oldOpen], 40);
    await setFormRetention(ctx.db, tenant.environmentId, form.id, 30, SYSTEM_ACTOR);
    await ctx.db.delete(jobRuns);
    expect(await runRetentionJob(ctx.handle, RETENTION)).toMatchObject({
      ran: true,
      run: { status: 'succeeded', responsesDeleted: 2 },
    });
    expect(await figures(form)).toEqual({
      views: 5,
      starts: 2,
      finishes: 1,
      steps: [
        [2, 0],
        [2, 1],
        [1, 0],
      ],
      summary: { total: 2, finished: 1 },
    });
    // The results page reads the same counters.
    const made = await ctx.app.request(`/api/v1/forms/${form.id}/share-links`, jsonRequest('POST', {}, { 'x-api-key': tenant.apiKey }));
    const page = await (await ctx.app.request(((await made.json()) as { url: string }).url)).text();
    expect(page.replace(/\s+/g, ' ')).toMatch(/<th scope="row">\s?Starts\s?<\/th>\s?<td>\s?2 \(40\s?%\)\s?<\/td>/);
  });

  it('erasing a person takes off their responses’ counts', async () => {
    const form = await threeSteps('Erasure');
    await respond(form, 'keep@example.org', true);
    await respond(form, 'erase@example.org', true);
    await respond(form, 'erase@example.org', false);
    const erased = await graphql(ctx.app, 'mutation { eraseLead(email: "erase@example.org") { erased erasure { responsesDeleted } } }', {}, { 'x-api-key': tenant.apiKey });
    expect(erased.body.data.eraseLead).toEqual({ erased: true, erasure: { responsesDeleted: 2 } });
    expect(await figures(form)).toEqual({
      views: 0,
      starts: 1,
      finishes: 1,
      steps: [
        [1, 0],
        [1, 0],
        [1, 0],
      ],
      summary: { total: 1, finished: 1 },
    });
  });

  it('the purge of a deleted form removes its counters with it', async () => {
    const form = await threeSteps('Purged');
    await ctx.app.request(`/s/${form.id}/views`, jsonRequest('POST', {}));
    await respond(form, 'gone@example.org', true);
    const counted = () => ctx.db.select().from(formInsightCounts).where(eq(formInsightCounts.formId, form.id));
    expect((await counted()).length).toBeGreaterThan(0);
    await ctx.db
      .update(forms)
      .set({ deletedAt: sql`now() - interval '31 days'` })
      .where(eq(forms.id, form.id));
    await ctx.db.delete(jobRuns);
    expect(await runRetentionJob(ctx.handle, RETENTION)).toMatchObject({
      ran: true,
      run: { status: 'succeeded', formsPurged: 1 },
    });
    expect(await counted()).toEqual([]);
  });
});
