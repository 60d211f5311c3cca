/**
 * Property: whatever scripted respondents do (device, hidden value, how far they go, finishing, some
 * responses deleted), the insights equal a brute-force count over the raw responses and the views sent.
 */
import { fc, test } from '@fast-check/vitest';
import { beforeAll, expect } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import { deleteResponses } from '../../src/privacy/deletion.service.ts';
import { createTenant, jsonRequest, setupTestApp } from '../support/helpers.ts';
import { componentAt, makeForm, responsesOf, type App } from '../support/public-helpers.ts';

let db: Database;
let app: App;

const AGENTS = {
  desktop: 'Mozilla/5.0 (X11; Linux x86_64)',
  mobile: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148',
  tablet: 'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X)',
} as const;

beforeAll(async () => {
  ({ db, app } = await setupTestApp());
});

const respondent = fc.record({
  device: fc.constantFrom('desktop', 'mobile', 'tablet' as const),
  source: fc.constantFrom('ad', 'mail', 'x'),
  views: fc.integer({ min: 0, max: 2 }),
  /** Steps answered: 0 (a view only) to 3, and whether it finishes. */
  steps: fc.integer({ min: 0, max: 3 }),
  deleted: fc.boolean(),
});

test.prop([fc.array(respondent, { maxLength: 8 }), fc.constantFrom(undefined, 'desktop', 'mobile'), fc.constantFrom(undefined, 'ad')], { numRuns: 6 })(
  'insights equal a brute-force count over the responses',
  async (people, device, source) => {
    const tenant = await createTenant(db);
    const form = await makeForm(
      db,
      tenant,
      ['One', 'Two', 'Three'].map((name) => ({
        name,
        components: [{ type: 'ShortInput', content: { question: `${name}?` } }],
      })),
      'Property',
      { hiddenFields: ['utm_source'] },
    );
    const answer = (step: number) => ({ [componentAt(form, step, 0).id]: `a${step}` });
    let views = 0;
    const doomed: string[] = [];
    for (const person of people) {
      const headers = { 'user-agent': AGENTS[person.device] };
      const counts = (!device || device === person.device) && (!source || source === person.source);
      for (let i = 0; i < person.views; i++) {
        await app.request(`/s/${form.id}/views`, jsonRequest('POST', { hiddenFields: { utm_source: person.source } }, headers));
        if (counts) views++;
      }
      if (person.steps === 0) continue;
      const started = await app.request(
        `/s/${form.id}/responses`,
        jsonRequest('POST', { answers: answer(0), hiddenFields: { utm_source: person.source }, finished: false }, headers),
      );
      const { id, resumeToken } = (await started.json()) as { id: string; resumeToken: string };
      for (let step = 1; step < person.steps; step++) {
        const last = step === 2;
        await app.request(`/s/${form.id}/responses/${id}`, jsonRequest('PATCH', { answers: answer(step), finished: last }, { authorization: `Bearer ${resumeToken}`, ...headers }));
      }
      if (person.deleted) doomed.push(id);
    }
    if (doomed.length > 0) await deleteResponses(db, { environmentId: tenant.environmentId, ids: doomed });

    // The brute force: every stored response, its User-Agent, hidden value, path and state.
    const deviceOf = (userAgent: string | undefined) => Object.entries(AGENTS).find(([, agent]) => agent === userAgent)?.[0] ?? 'desktop';
    const rows = (await responsesOf(db, form.id)).filter((r) => (!device || deviceOf(r.meta.userAgent) === device) && (!source || r.meta.hiddenFields?.utm_source === source));
    const keys = ['step_1', 'step_2', 'step_3'];
    const reached = keys.map((key, index) => rows.filter((r) => (r.meta.path ?? []).includes(key) || (!r.finished && (r.meta.path ?? []).length === index)).length);
    const left = keys.map((_, index) => rows.filter((r) => !r.finished && (r.meta.path ?? []).length === index).length);
    const query = new URLSearchParams({
      ...(device ? { device } : {}),
      ...(source ? { 'hidden.utm_source': source } : {}),
    });
    const res = await app.request(`/api/v1/forms/${form.id}/insights?${query}`, {
      headers: { 'x-api-key': tenant.apiKey },
    });
    const { data } = (await res.json()) as { data: Record<string, any> };
    expect(data.views).toBe(views);
    expect(data.starts).toBe(rows.length);
    expect(data.finishes).toBe(rows.filter((r) => r.finished).length);
    expect(data.steps.map((s: { reached: number }) => s.reached)).toEqual(reached);
    expect(data.steps.map((s: { leftHere: number }) => s.leftHere)).toEqual(left);
    expect(data.timeToComplete === null).toBe(rows.every((r) => !r.finished));
    const bySource = new Map<string, number>();
    for (const r of rows) bySource.set(r.meta.hiddenFields!.utm_source!, (bySource.get(r.meta.hiddenFields!.utm_source!) ?? 0) + 1);
    const reported = new Map<string, number>(
      ((data.hiddenFields[0]?.values ?? []) as { value: string; starts: number }[]).filter((v) => v.starts > 0).map((v) => [v.value, v.starts]),
    );
    expect(reported).toEqual(bySource);
  },
);
