/** The write side (submissions.service, leads.service) on the real database: lifecycle, status codes, leads. */
import { and, asc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { leads, outboxEvents, responses } from '../../src/db/schema.ts';
import { rowsOf } from '../../src/db/rows.ts';
import { AppError } from '../../src/errors.ts';
import type { Form } from '../../src/forms/forms.service.ts';
import { createId } from '../../src/ids.ts';
import { toResponseObject } from '../../src/responses/model.ts';
import { currentPath, findFormAndResponse, prepareAnswers, submitAnswers, type SubmitInput } from '../../src/responses/submissions.service.ts';
import { createTenant, setupTestApp, testConfig, type TestTenant } from '../support/helpers.ts';
import { componentAt, leadById, makeForm, responsesOf, sleep, statsOf, testAnswerLimits } from '../support/public-helpers.ts';
import type { Database } from '../../src/db/client.ts';

let db: Database;
let tenant: TestTenant;
let form: Form;

const STEPS = [
  {
    name: 'Contact',
    components: [
      { type: 'Header', content: { title: 'Hi' } },
      {
        type: 'IdentityInfo',
        content: {
          fields: [
            { key: 'firstName', label: 'First name' },
            { key: 'emailAddress', label: 'E-mail' },
          ],
        },
      },
    ],
  },
  {
    name: 'Details',
    components: [
      { type: 'Dropdown', content: { question: 'Team size?', options: ['1-10', '11-50'] } },
      { type: 'ShortInput', content: { question: 'Role?' } },
    ],
  },
  { name: 'Book', components: [{ type: 'CalendlyScreen', content: { url: 'https://calendly.com/acme/intro' } }] },
];

const limits = testAnswerLimits();
beforeAll(async () => {
  ({ db } = await setupTestApp());
  tenant = await createTenant(db);
  form = await makeForm(db, tenant, STEPS);
});

const identity = () => componentAt(form, 0, 1);
const dropdown = () => componentAt(form, 1, 0);
const role = () => componentAt(form, 1, 1);
const calendar = () => componentAt(form, 2, 0);

async function submit(raw: Record<string, unknown>, options: Partial<SubmitInput> & { sessionId: string }) {
  const { answers, errors } = await prepareAnswers(options.form ?? form, raw, limits);
  expect(errors).toEqual([]);
  return submitAnswers(db, {
    form,
    answers,
    finish: false,
    context: { source: 'page', ip: '203.0.113.7', country: 'DE', userAgent: 'test' },
    ...options,
  });
}

const view = (row: Parameters<typeof toResponseObject>[0], dropOffMs = testConfig().dropOffMs) => toResponseObject(row, new Date(), dropOffMs);

describe('response lifecycle', () => {
  it('the first step creates an unfinished response in the documented shape', async () => {
    const sessionId = createId();
    const { response, created } = await submit({ [identity().id]: { firstName: 'Ada', emailAddress: 'ada@first.io' } }, { sessionId });
    expect(created).toBe(true);
    expect(view(response)).toEqual({
      id: response.id,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      dataUpdatedAt: expect.any(String),
      finished: false,
      status: 2,
      formId: form.id,
      version: '2.0',
      data: [
        {
          questionId: identity().id,
          response: { type: 'IdentityInfo', componentShapeVersion: '2.0', headline: 'First name, E-mail', firstName: 'Ada', emailAddress: 'ada@first.io', fullName: 'Ada' },
        },
      ],
      meta: { source: 'page', userAgent: 'test', formVersion: 1, leadId: response.leadId, path: ['step_1'], hiddenFields: {} },
      personAttributes: { ip: '203.0.113.7', country: 'DE', visitedForm: 1, completedForm: 0 },
    });
  });

  it('later steps update the same response (updatedAt, dataUpdatedAt) and the last one finishes it with status 4', async () => {
    const sessionId = createId();
    const first = (await submit({ [identity().id]: { firstName: 'Bo', emailAddress: 'bo@second.io' } }, { sessionId })).response;
    await sleep(5);
    const second = (await submit({ [dropdown().id]: '11-50', [role().id]: 'CTO' }, { sessionId })).response;
    expect(second.id).toBe(first.id);
    expect(second.createdAt).toEqual(first.createdAt);
    expect(second.updatedAt.getTime()).toBeGreaterThan(first.updatedAt.getTime());
    expect(second.dataUpdatedAt.getTime()).toBeGreaterThan(first.dataUpdatedAt.getTime());
    expect(second.data.map((a) => a.questionId)).toEqual([identity().id, dropdown().id, role().id]);
    await sleep(5);
    const last = await submit({ [calendar().id]: false }, { sessionId, finish: true });
    expect(last.created).toBe(false);
    expect(view(last.response)).toMatchObject({ id: first.id, finished: true, status: 4, personAttributes: { visitedForm: 1, completedForm: 1 } });
    expect((await responsesOf(db, form.id)).filter((r) => r.sessionId === sessionId)).toHaveLength(1);
  });

  it('a changed answer replaces the earlier one in place; an emptied optional answer is removed', async () => {
    const sessionId = createId();
    await submit({ [dropdown().id]: '1-10', [role().id]: 'CEO' }, { sessionId });
    const changed = (await submit({ [dropdown().id]: '11-50', [role().id]: '' }, { sessionId })).response;
    expect(changed.data).toEqual([{ questionId: dropdown().id, response: expect.objectContaining({ selected: '11-50' }) }]);
  });

  it('a step without answers moves updatedAt but not dataUpdatedAt', async () => {
    const sessionId = createId();
    const first = (await submit({ [role().id]: 'CEO' }, { sessionId })).response;
    await sleep(5);
    const touched = (await submit({}, { sessionId })).response;
    expect(touched.updatedAt.getTime()).toBeGreaterThan(first.updatedAt.getTime());
    expect(touched.dataUpdatedAt).toEqual(first.dataUpdatedAt);
  });

  it('a response cannot finish while a required question is unanswered, and nothing is saved then', async () => {
    const sessionId = createId();
    await submit({ [role().id]: 'CEO' }, { sessionId });
    const { answers } = await prepareAnswers(form, { [calendar().id]: false }, limits);
    const attempt = submitAnswers(db, { form, sessionId, answers, finish: true, context: { source: 'api', ip: '', country: '' } });
    await expect(attempt).rejects.toMatchObject({
      code: 'BAD_USER_INPUT',
      errors: [{ message: 'This question must be answered before the response can finish', path: ['answers', identity().id] }],
    });
    const [row] = (await responsesOf(db, form.id)).filter((r) => r.sessionId === sessionId);
    expect(row).toMatchObject({ finished: false, data: [expect.objectContaining({ questionId: role().id })] });
  });

  it('a finished response takes no more answers', async () => {
    const sessionId = createId();
    await submit({ [identity().id]: { firstName: 'Cy', emailAddress: 'cy@third.io' } }, { sessionId, finish: true });
    const again = submit({ [role().id]: 'late' }, { sessionId });
    await expect(again).rejects.toBeInstanceOf(AppError);
    await expect(again).rejects.toMatchObject({ code: 'CONFLICT', message: 'Response is already finished' });
  });

  it('status is 3 (dropped off) once an unfinished response is untouched for the drop-off time', async () => {
    const sessionId = createId();
    const { response } = await submit({ [role().id]: 'CEO' }, { sessionId });
    expect(view(response, 60_000).status).toBe(2);
    await sleep(30);
    expect(view(response, 20).status).toBe(3);
    const finished = (await submit({ [identity().id]: { firstName: 'Di', emailAddress: 'di@fourth.io' } }, { sessionId, finish: true })).response;
    expect(view(finished, 1).status).toBe(4);
  });

  it('a returning session resumes after the last step it answered', async () => {
    expect(currentPath(form, undefined).next).toBe(0);
    expect(currentPath(form, { data: [], meta: {}, finished: false }).next).toBe(0);
    const sessionId = createId();
    const { response } = await submit({ [identity().id]: { firstName: 'Ed', emailAddress: 'ed@fifth.io' } }, { sessionId });
    expect(currentPath(form, response).next).toBe(1);
  });
});

describe('answers PostgreSQL would refuse', () => {
  it('a NUL or an unpaired surrogate anywhere in an answer (value or key) is an error at its path, before validation', async () => {
    const { answers, errors } = await prepareAnswers(
      form,
      {
        [role().id]: 'C\u0000EO',
        [identity().id]: { firstName: 'Ada\uD800', emailAddress: 'ada@acme.io' },
        [dropdown().id]: { '\uDC00': '1-10' },
      },
      limits,
    );
    expect(answers.size).toBe(0);
    expect(errors).toEqual([
      { message: 'must be well-formed Unicode (no unpaired surrogates)', path: ['answers', identity().id, 'firstName'] },
      { message: 'key must be well-formed Unicode (no unpaired surrogates)', path: ['answers', dropdown().id] },
      { message: 'must not contain NUL (\\u0000) characters', path: ['answers', role().id] },
    ]);
  });
});

describe('leads', () => {
  it('one visitor (lead id from the cookie) is one lead across responses; visits count per response', async () => {
    const visitor = createId();
    const first = (await submit({ [role().id]: 'CEO' }, { sessionId: createId(), visitorLeadId: visitor })).response;
    const second = (await submit({ [role().id]: 'CEO' }, { sessionId: createId(), visitorLeadId: visitor })).response;
    expect(first.leadId).toBe(visitor);
    expect(second.leadId).toBe(visitor);
    expect([first.visitedForm, second.visitedForm]).toEqual([1, 2]);
    expect(await leadById(db, visitor)).toMatchObject({ environmentId: tenant.environmentId, email: null });
  });

  it('an anonymous lead that answers a new e-mail becomes that lead (lower-cased)', async () => {
    const visitor = createId();
    const { response } = await submit({ [identity().id]: { firstName: 'Flo', emailAddress: 'Flo@Example-Six.IO' } }, { sessionId: createId(), visitorLeadId: visitor });
    expect(response.leadId).toBe(visitor);
    expect((await leadById(db, visitor))?.email).toBe('flo@example-six.io');
  });

  it("an e-mail another lead has attaches the response to that lead, with that lead's counts", async () => {
    const known = createId();
    await submit({ [identity().id]: { firstName: 'Gus', emailAddress: 'gus@seven.io' } }, { sessionId: createId(), visitorLeadId: known, finish: true });
    const stranger = createId();
    const sessionId = createId();
    const started = (await submit({ [role().id]: 'CEO' }, { sessionId, visitorLeadId: stranger })).response;
    expect(started.leadId).toBe(stranger);
    const attached = (await submit({ [identity().id]: { firstName: 'Gus', emailAddress: 'GUS@seven.io' } }, { sessionId })).response;
    expect(attached.leadId).toBe(known);
    expect(attached).toMatchObject({ visitedForm: 2, completedForm: 1 });
    expect(await statsOf(db, stranger)).toEqual([expect.objectContaining({ visits: 0, completions: 0 })]);
    const done = (await submit({ [calendar().id]: false }, { sessionId, finish: true })).response;
    expect(done).toMatchObject({ leadId: known, visitedForm: 2, completedForm: 2 });
  });

  it("a visitor id that belongs to another environment's lead is not reused", async () => {
    const otherTenant = await createTenant(db);
    const otherForm = await makeForm(db, otherTenant, STEPS);
    const visitor = createId();
    await submit({ [role().id]: 'CEO' }, { sessionId: createId(), visitorLeadId: visitor });
    const { answers } = await prepareAnswers(otherForm, {}, limits);
    const { response } = await submitAnswers(db, {
      form: otherForm,
      sessionId: createId(),
      visitorLeadId: visitor,
      answers,
      finish: false,
      context: { source: 'page', ip: '', country: '' },
    });
    expect(response.leadId).not.toBe(visitor);
    expect((await leadById(db, response.leadId))?.environmentId).toBe(otherTenant.environmentId);
  });
});

describe("a new visitor's first submission (a new session, no lead yet: one statement)", () => {
  const eventsOf = (responseId: string) =>
    db.select({ type: outboxEvents.type, payload: outboxEvents.payload }).from(outboxEvents).where(eq(outboxEvents.responseId, responseId)).orderBy(asc(outboxEvents.seq));
  const storedResponse = async (id: string) => (await responsesOf(db, form.id)).find((r) => r.id === id)!;

  it('stores the response, its lead and counts and its events, which carry the stored response', async () => {
    const email = `hal.${createId()}@eight.io`;
    const first = await submit({ [identity().id]: { firstName: 'Hal', emailAddress: email.toUpperCase() } }, { sessionId: createId(), newSession: true });
    expect(first.created).toBe(true);
    const stored = await storedResponse(first.response.id);
    expect(first.response).toEqual(stored);
    expect(stored).toMatchObject({ ip: '203.0.113.7', visitedForm: 1, completedForm: 0, finished: false });
    expect(await leadById(db, stored.leadId)).toMatchObject({ environmentId: tenant.environmentId, email });
    expect(await eventsOf(stored.id)).toEqual([{ type: 'response.created', payload: { type: 'response.created', timestamp: stored.createdAt.toISOString(), data: view(stored) } }]);

    // The same e-mail in another new session, finished at once: the same lead, its counts raised.
    const second = await submit({ [identity().id]: { firstName: 'Hal', emailAddress: email } }, { sessionId: createId(), newSession: true, finish: true });
    const storedSecond = await storedResponse(second.response.id);
    expect(second.response).toEqual(storedSecond);
    expect(storedSecond).toMatchObject({ leadId: stored.leadId, visitedForm: 2, completedForm: 1, finished: true });
    expect(await statsOf(db, stored.leadId)).toEqual([expect.objectContaining({ formId: form.id, visits: 2, completions: 1 })]);
    expect((await eventsOf(storedSecond.id)).map((e) => [e.type, e.payload.data])).toEqual([
      ['response.created', view(storedSecond)],
      ['response.finished', view(storedSecond)],
    ]);
  });

  it('without an e-mail makes a new anonymous lead', async () => {
    const { response } = await submit({ [role().id]: 'CEO' }, { sessionId: createId(), newSession: true });
    expect(await leadById(db, response.leadId)).toMatchObject({ environmentId: tenant.environmentId, email: null });
    expect(await statsOf(db, response.leadId)).toEqual([expect.objectContaining({ visits: 1, completions: 0 })]);
  });

  it('fails as a whole when the session has a response after all: no lead, counts or events are left', async () => {
    const sessionId = createId();
    const { response } = await submit({ [role().id]: 'CEO' }, { sessionId });
    const email = `ivy.${createId()}@nine.io`;
    await expect(submit({ [identity().id]: { firstName: 'Ivy', emailAddress: email } }, { sessionId, newSession: true })).rejects.toThrow();
    expect(
      await db
        .select()
        .from(leads)
        .where(and(eq(leads.environmentId, tenant.environmentId), eq(leads.email, email))),
    ).toEqual([]);
    expect(await statsOf(db, response.leadId)).toEqual([expect.objectContaining({ visits: 1 })]);
    expect((await eventsOf(response.id)).map((e) => e.type)).toEqual(['response.created']);
    expect(await storedResponse(response.id)).toMatchObject({ data: [expect.objectContaining({ questionId: role().id })] });
  });
});

describe('an update of the response as read with the form (seen: one statement while the row is unchanged)', () => {
  const seenOf = async (id: string) => (await findFormAndResponse(db, form.id, id))!.response!;

  it('writes the answers and its event when the row is still as read', async () => {
    const sessionId = createId();
    const { response } = await submit({ [role().id]: 'CEO' }, { sessionId });
    const { response: updated, created } = await submit({ [dropdown().id]: '1-10' }, { sessionId, seen: await seenOf(response.id) });
    expect(created).toBe(false);
    const [stored] = (await responsesOf(db, form.id)).filter((r) => r.id === response.id);
    expect(updated).toEqual(stored);
    expect(stored!.data.map((a) => a.questionId)).toEqual([dropdown().id, role().id]);
    const [, event] = await db.select().from(outboxEvents).where(eq(outboxEvents.responseId, response.id)).orderBy(asc(outboxEvents.seq));
    expect(event).toMatchObject({ type: 'response.updated', payload: { data: view(stored!) } });
  });

  it('loses nothing when the row changed after it was read: the locked transaction merges into the newer row', async () => {
    const sessionId = createId();
    const { response } = await submit({ [role().id]: 'CEO' }, { sessionId });
    const stale = await seenOf(response.id);
    await submit({ [dropdown().id]: '11-50' }, { sessionId, seen: await seenOf(response.id) });
    const { response: last } = await submit({ [role().id]: 'CTO' }, { sessionId, seen: stale });
    expect(last.data.map((a) => [a.questionId, a.response.selected ?? a.response.input])).toEqual([
      [dropdown().id, '11-50'],
      [role().id, 'CTO'],
    ]);
    const [stored] = (await responsesOf(db, form.id)).filter((r) => r.id === response.id);
    expect(stored).toEqual(last);
  });

  it('a response deleted after it was read is not found, and nothing is written', async () => {
    const sessionId = createId();
    const { response } = await submit({ [role().id]: 'CEO' }, { sessionId });
    const stale = await seenOf(response.id);
    await db.delete(responses).where(eq(responses.id, response.id));
    await expect(submit({ [role().id]: 'CTO' }, { sessionId, seen: stale, mustExist: true })).rejects.toThrow('Response not found');
    expect((await responsesOf(db, form.id)).filter((r) => r.sessionId === sessionId)).toEqual([]);
    expect((await db.select().from(outboxEvents).where(eq(outboxEvents.responseId, response.id))).map((e) => e.type)).toEqual(['response.created']);
  });

  it('a finished response refuses it, as without the read', async () => {
    const sessionId = createId();
    const { response } = await submit({ [identity().id]: { firstName: 'Jo', emailAddress: `jo.${createId()}@ten.io` } }, { sessionId });
    const stale = await seenOf(response.id);
    await submit({}, { sessionId, finish: true });
    await expect(submit({ [role().id]: 'late' }, { sessionId, seen: stale })).rejects.toThrow('Response is already finished');
  });

  it("a finish moves the lead's completions and the row's counts together, with both events", async () => {
    const sessionId = createId();
    const email = `kai.${createId()}@eleven.io`;
    const { response } = await submit({ [identity().id]: { firstName: 'Kai', emailAddress: email } }, { sessionId });
    const { response: done } = await submit({ [calendar().id]: false }, { sessionId, finish: true, seen: await seenOf(response.id) });
    const [stored] = (await responsesOf(db, form.id)).filter((r) => r.id === response.id);
    expect(done).toEqual(stored);
    expect(stored).toMatchObject({ finished: true, visitedForm: 1, completedForm: 1, leadId: response.leadId });
    expect(await statsOf(db, response.leadId)).toEqual([expect.objectContaining({ formId: form.id, visits: 1, completions: 1 })]);
    const events = await db.select().from(outboxEvents).where(eq(outboxEvents.responseId, response.id)).orderBy(asc(outboxEvents.seq));
    expect(events.map((e) => [e.type, e.payload.data])).toEqual([
      ['response.created', expect.anything()],
      ['response.updated', view(stored!)],
      ['response.finished', view(stored!)],
    ]);
  });

  it('two finishes of one read at once: one finishes, the other is refused, the completion counts once', async () => {
    const sessionId = createId();
    const { response } = await submit({ [identity().id]: { firstName: 'Lu', emailAddress: `lu.${createId()}@twelve.io` } }, { sessionId });
    const seen = await seenOf(response.id);
    const results = await Promise.allSettled([0, 1, 2].map(() => submit({}, { sessionId, finish: true, seen })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'CONFLICT', message: 'Response is already finished' });
    expect(await statsOf(db, response.leadId)).toEqual([expect.objectContaining({ completions: 1 })]);
    const [stored] = (await responsesOf(db, form.id)).filter((r) => r.id === response.id);
    expect(stored).toMatchObject({ finished: true, completedForm: 1 });
  });

  // PGlite has one connection: a second transaction can't wait on the first there.
  it.skipIf(!inject('testDatabaseUrl'))('a finish waits for a writer holding the row, and then merges into what it committed', async () => {
    const sessionId = createId();
    const { response } = await submit({ [identity().id]: { firstName: 'Ny', emailAddress: `ny.${createId()}@fourteen.io` } }, { sessionId });
    const seen = await seenOf(response.id);
    let wrote!: () => void;
    const written = new Promise<void>((resolve) => (wrote = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    // Another submission's transaction changes the row and holds its lock until released.
    const holder = db.transaction(async (tx) => {
      const { answers } = await prepareAnswers(form, { [dropdown().id]: '11-50' }, limits);
      await submitAnswers(tx, { form, sessionId, answers, finish: false, context: { source: 'page', ip: '', country: '' } });
      wrote();
      await released;
    });
    await written;
    const finishing = submit({}, { sessionId, finish: true, seen });
    // The finish's statement is waiting on the row lock before the holder commits.
    for (let waiting = false; !waiting; await sleep(10)) {
      const rows = rowsOf(await db.execute(sql`select 1 from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`));
      waiting = rows.length > 0;
    }
    release();
    await holder;
    const { response: done } = await finishing;
    expect(done.data.map((a) => a.questionId)).toEqual([identity().id, dropdown().id]);
    const [stored] = (await responsesOf(db, form.id)).filter((r) => r.id === response.id);
    expect(stored).toEqual(done);
    expect(stored).toMatchObject({ finished: true, completedForm: 1 });
    expect(await statsOf(db, response.leadId)).toEqual([expect.objectContaining({ completions: 1 })]);
  });

  it('a finish whose read lacks a required answer is decided on the newer row', async () => {
    const sessionId = createId();
    const { response } = await submit({ [role().id]: 'CEO' }, { sessionId });
    const stale = await seenOf(response.id);
    await expect(submit({}, { sessionId, finish: true, seen: stale })).rejects.toThrow(AppError);
    await submit({ [identity().id]: { firstName: 'Mo', emailAddress: `mo.${createId()}@thirteen.io` } }, { sessionId, seen: stale });
    const { response: done } = await submit({}, { sessionId, finish: true, seen: stale });
    expect(done).toMatchObject({ finished: true, completedForm: 1 });
  });
});
