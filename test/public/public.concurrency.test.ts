/**
 * Simultaneous submissions for one session never lose an answer and never create two responses.
 * On PostgreSQL (DATABASE_URL) they really run at once, on separate connections, so the race branches
 * (the conflicting insert, the row lock) run only there. PGlite has one connection and serialises the
 * transactions: on it these tests check the outcome only, not that a race was handled.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { rowsOf } from '../../src/db/rows.ts';
import type { Database } from '../../src/db/client.ts';
import type { Form } from '../../src/forms/forms.service.ts';
import { createId } from '../../src/ids.ts';
import { prepareAnswers, submitAnswers } from '../../src/responses/submissions.service.ts';
import { createTenant, jsonRequest, setupTestApp, type TestTenant } from '../support/helpers.ts';
import { type App, componentAt, field, leadById, leadOf, makeForm, responsesOf, testAnswerLimits, Visitor } from '../support/public-helpers.ts';

let db: Database;
let app: App;
let tenant: TestTenant;
let form: Form;
const QUESTIONS_PER_STEP = 6;

const limits = testAnswerLimits();
beforeAll(async () => {
  ({ db, app } = await setupTestApp());
  tenant = await createTenant(db);
  const questions = (step: number) => Array.from({ length: QUESTIONS_PER_STEP }, (_, i) => ({ type: 'ShortInput', content: { question: `Step ${step} question ${i}` } }));
  form = await makeForm(db, tenant, [
    { name: 'One', components: questions(1) },
    { name: 'Two', components: questions(2) },
    { name: 'Contact', components: [{ type: 'IdentityInfo', content: { fields: [{ key: 'emailAddress', label: 'E-mail' }] } }] },
  ]);
});

const allQuestions = () => form.steps.slice(0, 2).flatMap((step) => step.components);
const sessionRows = async (sessionId: string) => (await responsesOf(db, form.id)).filter((r) => r.sessionId === sessionId);

async function submitOne(sessionId: string, raw: Record<string, unknown>, visitorLeadId?: string) {
  const { answers } = await prepareAnswers(form, raw, limits);
  return submitAnswers(db, { form, sessionId, visitorLeadId, answers, finish: false, context: { source: 'page', ip: '', country: '' } });
}

describe('concurrent submissions of one session (real races on PostgreSQL; serialised on PGlite)', () => {
  it('every simultaneous answer lands in one response (service)', async () => {
    const sessionId = createId();
    const visitor = createId();
    const results = await Promise.all(allQuestions().map((q, i) => submitOne(sessionId, { [q.id]: `answer ${i}` }, visitor)));
    expect(results.filter((r) => r.created)).toHaveLength(1);
    const rows = await sessionRows(sessionId);
    expect(rows).toHaveLength(1);
    expect(new Set(results.map((r) => r.response.id))).toEqual(new Set([rows[0]!.id]));
    expect(rows[0]!.data.map((a) => [a.questionId, a.response.input])).toEqual(allQuestions().map((q, i) => [q.id, `answer ${i}`]));
    expect(rows[0]!.visitedForm).toBe(1);
  });

  it('the same step sent twice at once gives one response holding one of the two answers', async () => {
    const sessionId = createId();
    const [q] = allQuestions();
    await Promise.all([submitOne(sessionId, { [q!.id]: 'first' }), submitOne(sessionId, { [q!.id]: 'second' })]);
    const rows = await sessionRows(sessionId);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.data).toHaveLength(1);
    expect(['first', 'second']).toContain(rows[0]!.data[0]!.response.input);
  });

  it('two steps posted at once from one browser both land in its one response (page)', async () => {
    const visitor = new Visitor(app);
    await visitor.get(`/s/${form.id}`);
    const fieldsOf = (step: number) => Object.fromEntries(form.steps[step]!.components.map((c, i) => [field(c), `step ${step} answer ${i}`]));
    // The server takes a step only once it is on the response's path or next (docs/logic.md): the first
    // step lands first, then it is sent again at the same time as the second.
    expect((await visitor.submit(form, 0, fieldsOf(0))).status).toBe(303);
    const results = await Promise.all([visitor.submit(form, 1, fieldsOf(1)), visitor.submit(form, 0, fieldsOf(0))]);
    expect(results.map((r) => r.status)).toEqual([303, 303]);
    const rows = (await responsesOf(db, form.id)).filter((r) => r.leadId === leadOf(visitor, tenant.environmentId));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.data).toHaveLength(2 * QUESTIONS_PER_STEP);
  });

  it('simultaneous updates through the JSON API all land', async () => {
    const start = await app.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers: {} }));
    const { id, resumeToken } = (await start.json()) as { id: string; resumeToken: string };
    const updates = await Promise.all(
      allQuestions().map((q, i) =>
        app.request(`/s/${form.id}/responses/${id}`, jsonRequest('PATCH', { answers: { [q.id]: `api ${i}` } }, { authorization: `Bearer ${resumeToken}` })),
      ),
    );
    expect(updates.map((r) => r.status)).toEqual(allQuestions().map(() => 200));
    const [row] = (await responsesOf(db, form.id)).filter((r) => r.id === id);
    expect(row!.data.map((a) => a.response.input)).toEqual(allQuestions().map((_, i) => `api ${i}`));
  });

  it('two sessions answering the same new e-mail at once end with one lead for it', async () => {
    const email = `same-${createId().slice(0, 8)}@concurrent.io`;
    const contact = componentAt(form, 2, 0);
    const results = await Promise.all(Array.from({ length: 12 }, () => submitOne(createId(), { [contact.id]: { emailAddress: email } }, createId())));
    const leadIds = new Set(results.map((r) => r.response.leadId));
    expect(leadIds.size).toBe(1);
    expect((await leadById(db, [...leadIds][0]!))?.email).toBe(email);
    expect(Math.max(...results.map((r) => r.response.visitedForm))).toBe(12);
  });
});

describe('one visitor lead, created by two transactions at once', () => {
  it('gives both the same lead when the second waited on the first one inserting it', async () => {
    const { ensureVisitorLead } = await import('../../src/leads/leads.service.ts');
    const candidate = createId();
    let committed!: () => void;
    const hold = new Promise<void>((resolve) => (committed = resolve));
    let insertedFirst!: () => void;
    const firstInserted = new Promise<void>((resolve) => (insertedFirst = resolve));
    // The first transaction inserts the candidate and holds its lock until the second one is waiting on it.
    const first = db.transaction(async (tx) => {
      const lead = await ensureVisitorLead(tx, tenant.environmentId, candidate);
      insertedFirst();
      await hold;
      return lead.id;
    });
    await firstInserted;
    const second = db.transaction((tx) => ensureVisitorLead(tx, tenant.environmentId, candidate));
    if (inject('testDatabaseUrl')) {
      // On PostgreSQL the first commits only once the second's lead insert waits for it (another test file's
      // lock wait does not count): the case under test.
      let waiting = 0;
      for (let i = 0; i < 500 && waiting === 0; i++) {
        const [row] = rowsOf<{ n: number }>(
          await db.execute(
            sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query like ${'%insert into "leads"%'}`,
          ),
        );
        waiting = row!.n;
        if (waiting === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(waiting).toBeGreaterThan(0);
    }
    // (PGlite runs the transactions one after the other: the second starts once the first commits.)
    committed();
    expect(await first).toBe(candidate);
    expect((await second).id).toBe(candidate);
  });
});
