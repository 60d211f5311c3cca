/**
 * The public JSON submission API: definition, start, update, finish, visitor tokens, errors, CORS,
 * and the size and rate limits every public submission has.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import { deleteForm, type Form } from '../../src/forms/forms.service.ts';
import { toResponseObject } from '../../src/responses/model.ts';
import { verifyPassword } from '../../src/responses/shapes.ts';
import { appWith, createTenant, jsonRequest, setupTestApp, testConfig, type TestTenant } from '../support/helpers.ts';
import { answerIn, componentAt, field, leadById, makeForm, responsesOf, Visitor, type App } from '../support/public-helpers.ts';

let db: Database;
let app: App;
let tenant: TestTenant;
let form: Form;

beforeAll(async () => {
  ({ db, app } = await setupTestApp());
  tenant = await createTenant(db);
  form = await makeForm(db, tenant, [
    {
      name: 'About you',
      components: [
        { type: 'Header', content: { title: 'Hello' } },
        {
          type: 'IdentityInfo',
          content: {
            fields: [
              { key: 'firstName', label: 'First name' },
              { key: 'emailAddress', label: 'E-mail', blockPersonalEmails: true },
            ],
          },
        },
        { type: 'ShortInput', content: { question: 'Role?' } },
        { type: 'LongInput', content: { question: 'Story?' } },
        { type: 'EmailForm', content: { question: 'Newsletter?' } },
        { type: 'PasswordInput', content: { question: 'Password' } },
        { type: 'PasswordCreatorInput', content: { question: 'New password' } },
      ],
    },
    {
      name: 'Choices',
      components: [
        { type: 'Dropdown', content: { question: 'Size?', options: ['S', 'M', 'L'], isMulti: true } },
        { type: 'MultipleOptionsQuestion', content: { question: 'Pick one', choices: ['Yes', 'No'] } },
        {
          type: 'GraphicOptions',
          content: {
            question: 'Style?',
            options: [
              { label: 'Modern', value: 'modern' },
              { label: 'Classic', value: 'classic' },
            ],
          },
        },
        { type: 'Disclaimer', content: { text: 'Terms' } },
        { type: 'FileUploader', content: { question: 'CV' } },
        { type: 'Scheduler', content: { url: 'https://cal.com/acme', calendarType: 'Cal' } },
      ],
    },
  ]);
});

const c = (step: number, index: number) => componentAt(form, step, index);
const identity = () => c(0, 1);
let emails = 0;
const email = () => `person.${++emails}@api-test.io`;

const start = (body: unknown, target: App = app) => target.request(`/s/${form.id}/responses`, jsonRequest('POST', body));
const update = (id: string, token: string | null, body: unknown, target: App = app) =>
  target.request(`/s/${form.id}/responses/${id}`, jsonRequest('PATCH', body, token === null ? {} : { authorization: `Bearer ${token}` }));
const stored = async (id: string) => (await responsesOf(db, form.id)).find((r) => r.id === id)!;

interface Started {
  id: string;
  resumeToken: string;
  visitorToken: string;
  finished: boolean;
  status: number;
}

describe('definition', () => {
  it('describes the published form: steps, components with their ids (the questionIds), and theme, with CORS open', async () => {
    const response = await app.request(`/s/${form.id}/definition`, { headers: { origin: 'https://customer.example' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const body = await response.json();
    expect(body).toMatchObject({ id: form.id, name: 'Public form', url: `/s/${form.id}`, theme: { colors: { primary: '#0f766e' } } });
    expect(body.steps[0].components[1]).toEqual({ id: identity().id, key: null, type: 'IdentityInfo', content: identity().content, answerable: true, required: true });
    expect(body.steps[0].components[0]).toMatchObject({ type: 'Header', answerable: false, required: false });
  });

  it('is 404 {message: "Form not found"} for unknown and deleted forms', async () => {
    const gone = await makeForm(db, tenant, [
      { name: 'a', components: [{ type: 'Header', content: {} }] },
      { name: 'b', components: [{ type: 'Header', content: {} }] },
    ]);
    await deleteForm(db, tenant.environmentId, gone.id);
    for (const id of ['nope', gone.id]) {
      const response = await app.request(`/s/${id}/definition`);
      expect([response.status, await response.json()]).toEqual([404, { message: 'Form not found' }]);
      const post = await app.request(`/s/${id}/responses`, jsonRequest('POST', { answers: {} }));
      expect([post.status, await post.json()]).toEqual([404, { message: 'Form not found' }]);
    }
  });
});

describe('submitting', () => {
  it('starts a response and returns its id, a resume token and a visitor token', async () => {
    const response = await start({ answers: { [identity().id]: { firstName: 'Ada', emailAddress: email() } } });
    expect(response.status).toBe(201);
    const body = (await response.json()) as Started;
    expect(body).toEqual({
      id: expect.any(String),
      resumeToken: expect.stringMatching(/^[\w-]{43}$/),
      visitorToken: expect.any(String),
      finished: false,
      status: 2,
      formVersion: 1,
      nextStep: 'step_2',
    });
    const row = await stored(body.id);
    expect(toResponseObject(row, new Date(), testConfig().dropOffMs)).toMatchObject({ finished: false, status: 2, meta: { source: 'api', leadId: row.leadId, formVersion: 1 } });
    expect(row.sessionId).not.toContain(body.resumeToken); // only a hash of the token is kept
  });

  it('updates with the resume token, merging answers, and finishes with status 4', async () => {
    const first = (await (await start({ answers: { [identity().id]: { firstName: 'Bo', emailAddress: email() } } })).json()) as Started;
    const second = await update(first.id, first.resumeToken, { answers: { [c(0, 2).id]: 'CTO' } });
    expect([second.status, await second.json()]).toEqual([200, { id: first.id, visitorToken: first.visitorToken, finished: false, status: 2, formVersion: 1, nextStep: 'step_2' }]);
    const done = await update(first.id, first.resumeToken, { answers: { [c(1, 0).id]: ['M'] }, finished: true });
    expect(await done.json()).toMatchObject({ id: first.id, finished: true, status: 4 });
    const row = await stored(first.id);
    expect(row.data.map((a) => a.questionId)).toEqual([identity().id, c(0, 2).id, c(1, 0).id]);
    expect(row).toMatchObject({ finished: true, completedForm: 1 });
  });

  it('stores every component type from its JSON answer in the response shape', async () => {
    const answers = {
      [identity().id]: { firstName: 'Cy', emailAddress: email() },
      [c(0, 2).id]: 'Founder',
      [c(0, 3).id]: 'Once upon a time',
      [c(0, 4).id]: 'news@cy.io',
      [c(0, 5).id]: 'secret-1',
      [c(0, 6).id]: { password: 'secret-22', confirmation: 'secret-22' },
      [c(1, 0).id]: ['L', 'S'],
      [c(1, 1).id]: 'No',
      [c(1, 2).id]: 'classic',
      [c(1, 3).id]: true,
      [c(1, 4).id]: 'https://files.example.com/cv.pdf',
      [c(1, 5).id]: { eventScheduled: true, meetingTime: '2030-05-01T09:00:00Z', meetingEndTime: '2030-05-01T09:30:00Z' },
    };
    const body = (await (await start({ answers, finished: true })).json()) as Started;
    expect(body).toMatchObject({ finished: true, status: 4 });
    const row = await stored(body.id);
    const shape = (i: number, j: number) => answerIn(row, c(i, j).id);
    expect(shape(0, 1)).toMatchObject({ type: 'IdentityInfo', firstName: 'Cy', fullName: 'Cy' });
    expect(shape(0, 2)).toEqual({ type: 'ShortInput', componentShapeVersion: '2.0', headline: 'Role?', input: 'Founder' });
    expect(shape(0, 3)).toMatchObject({ type: 'LongInput', input: 'Once upon a time' });
    expect(shape(0, 4)).toMatchObject({ type: 'EmailForm', emailAddress: 'news@cy.io' });
    expect(await verifyPassword('secret-1', String(shape(0, 5)!.input))).toBe(true);
    expect(await verifyPassword('secret-22', String(shape(0, 6)!.input))).toBe(true);
    expect(JSON.stringify(row.data)).not.toContain('secret-');
    expect(shape(1, 0)).toMatchObject({ type: 'Dropdown', selected: ['S', 'L'] });
    expect(shape(1, 1)).toMatchObject({
      type: 'MultipleOptionsQuestion',
      choices: [
        { key: 'Yes', value: false, index: 0 },
        { key: 'No', value: true, index: 1 },
      ],
      selectedOther: false,
    });
    expect(shape(1, 2)).toMatchObject({ type: 'GraphicOptions', index: 1, value: 'classic' });
    expect(shape(1, 3)).toMatchObject({ type: 'Disclaimer', check: true });
    expect(shape(1, 4)).toMatchObject({ type: 'FileUploader', fileUrl: 'https://files.example.com/cv.pdf' });
    expect(shape(1, 5)).toEqual({
      type: 'Scheduler',
      componentShapeVersion: '2.0',
      headline: 'Book a meeting',
      eventScheduled: true,
      meetingTime: '2030-05-01T09:00:00Z',
      meetingEndTime: '2030-05-01T09:30:00Z',
    });
  });

  it('keeps one lead across responses through the visitor token, and attaches known e-mails to their lead', async () => {
    const first = (await (await start({ answers: { [c(0, 2).id]: 'anonymous' } })).json()) as Started;
    const second = (await (await start({ answers: { [c(0, 2).id]: 'again' }, visitorToken: first.visitorToken })).json()) as Started;
    const [a, b] = [await stored(first.id), await stored(second.id)];
    expect(b.leadId).toBe(a.leadId);
    expect(b.visitedForm).toBe(2);

    const address = email();
    const named = (await (await start({ answers: { [identity().id]: { firstName: 'Di', emailAddress: address } } })).json()) as Started;
    const namedLead = (await stored(named.id)).leadId;
    const later = (await (await start({ answers: { [identity().id]: { firstName: 'Di', emailAddress: address.toUpperCase() } } })).json()) as Started;
    expect((await stored(later.id)).leadId).toBe(namedLead);
    expect(later.visitorToken).toBe(named.visitorToken);
    expect((await leadById(db, namedLead))?.email).toBe(address);
  });
});

describe('errors', () => {
  it('answers 400 {message, errors: [{message, path}]} for invalid answers, with paths from the body root', async () => {
    const before = (await responsesOf(db, form.id)).length;
    const response = await start({
      answers: { [identity().id]: { firstName: '', emailAddress: 'ada@gmail.com' }, [c(1, 1).id]: 'Maybe', unknownQuestion: 'x', [c(0, 0).id]: 'header' },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      message: 'Invalid request body',
      errors: [
        { message: 'A Header component takes no answer', path: ['answers', c(0, 0).id] },
        { message: 'First name is required', path: ['answers', identity().id, 'firstName'] },
        { message: 'Please use your work e-mail address', path: ['answers', identity().id, 'emailAddress'] },
        { message: '"Maybe" is not one of the choices', path: ['answers', c(1, 1).id] },
        { message: 'No question with this id in the form', path: ['answers', 'unknownQuestion'] },
      ],
    });
    expect((await responsesOf(db, form.id)).length).toBe(before);
  });

  it('rejects a body that is not JSON, not an object, or has unknown keys, and forged visitor tokens', async () => {
    const cases: [unknown, unknown[]][] = [
      ['{not json', [{ message: 'Body must be valid JSON', path: [] }]],
      ['[1,2]', [{ message: 'Body must be a JSON object', path: [] }]],
      [{ answers: {}, finish: true }, [{ message: expect.stringContaining('finish'), path: [] }]],
      [{ answers: [] }, [{ message: expect.any(String), path: ['answers'] }]],
      [{ answers: {}, visitorToken: 'someone.else' }, [{ message: 'Unknown visitor token', path: ['visitorToken'] }]],
    ];
    for (const [body, errors] of cases) {
      const response = await start(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await response.json()).toEqual({ message: 'Invalid request body', errors });
    }
  });

  it('refuses to finish while required questions are unanswered, storing nothing', async () => {
    const before = (await responsesOf(db, form.id)).length;
    const response = await start({ answers: { [c(0, 2).id]: 'x' }, finished: true });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      message: 'Invalid request body',
      errors: [{ message: 'This question must be answered before the response can finish', path: ['answers', identity().id] }],
    });
    expect((await responsesOf(db, form.id)).length).toBe(before);
  });

  it('needs the resume token to update: 401 without it, 404 with a wrong one or an unknown response', async () => {
    const body = (await (await start({ answers: {} })).json()) as Started;
    const missing = await update(body.id, null, { answers: {} });
    expect([missing.status, await missing.json()]).toEqual([401, { message: 'Missing resume token' }]);
    const wrong = await update(body.id, 'x'.repeat(43), { answers: {} });
    expect([wrong.status, await wrong.json()]).toEqual([404, { message: 'Response not found' }]);
    const unknown = await update('no-such-response', body.resumeToken, { answers: {} });
    expect([unknown.status, await unknown.json()]).toEqual([404, { message: 'Response not found' }]);
  });

  it('a page session can not be updated through the API', async () => {
    const visitor = new Visitor(app);
    await visitor.get(`/s/${form.id}`);
    await visitor.submit(form, 0, { [field(identity(), 'firstName')]: 'Pia', [field(identity(), 'emailAddress')]: email() });
    const pageResponse = (await responsesOf(db, form.id)).find((r) => r.meta.source === 'page')!;
    const attempt = await update(pageResponse.id, pageResponse.sessionId, { answers: {} });
    expect(attempt.status).toBe(404);
  });

  it('answers 409 once the response is finished', async () => {
    const body = (await (await start({ answers: { [identity().id]: { firstName: 'Ed', emailAddress: email() } }, finished: true })).json()) as Started;
    const late = await update(body.id, body.resumeToken, { answers: { [c(0, 2).id]: 'late' } });
    expect([late.status, await late.json()]).toEqual([409, { message: 'Response is already finished' }]);
  });

  it('answers CORS preflights for embedding sites', async () => {
    const response = await app.request(`/s/${form.id}/responses/abc`, {
      method: 'OPTIONS',
      headers: { origin: 'https://customer.example', 'access-control-request-method': 'PATCH', 'access-control-request-headers': 'authorization, content-type' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toContain('PATCH');
    expect(response.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
  });
});

describe('updating: errors (PATCH /s/:formId/responses/:responseId)', () => {
  const twoSteps = [
    { name: 'One', components: [{ type: 'ShortInput', content: { question: 'Q?' } }] },
    { name: 'Two', components: [{ type: 'Header', content: { title: 'Thanks' } }] },
  ];
  const patch = (formId: string, id: string, token: string, body: unknown) =>
    app.request(`/s/${formId}/responses/${id}`, jsonRequest('PATCH', body, { authorization: `Bearer ${token}` }));
  /** What a refused update must leave as it was. */
  const snapshot = async (formId: string, id: string) => {
    const row = (await responsesOf(db, formId)).find((r) => r.id === id)!;
    return { data: row.data, finished: row.finished, updatedAt: row.updatedAt, dataUpdatedAt: row.dataUpdatedAt, leadId: row.leadId };
  };

  it('is 404 {message: "Form not found"} for an unknown form and for a form deleted after the response began', async () => {
    const gone = await makeForm(db, tenant, twoSteps);
    const started = await app.request(`/s/${gone.id}/responses`, jsonRequest('POST', { answers: { [componentAt(gone, 0, 0).id]: 'before' } }));
    expect(started.status).toBe(201);
    const { id, resumeToken } = (await started.json()) as Started;
    const before = await snapshot(gone.id, id);
    await deleteForm(db, tenant.environmentId, gone.id);
    const deleted = await patch(gone.id, id, resumeToken, { answers: { [componentAt(gone, 0, 0).id]: 'after' }, finished: true });
    expect([deleted.status, await deleted.json()]).toEqual([404, { message: 'Form not found' }]);
    expect(await snapshot(gone.id, id)).toEqual(before);
    const unknown = await patch('no-such-form', id, resumeToken, { answers: {} });
    expect([unknown.status, await unknown.json()]).toEqual([404, { message: 'Form not found' }]);
  });

  it('answers 400 Invalid request body with errors for a body that is not JSON, not an object, or has unknown keys', async () => {
    const body = (await (await start({ answers: { [c(0, 2).id]: 'kept' } })).json()) as Started;
    const before = await snapshot(form.id, body.id);
    const cases: [unknown, unknown[]][] = [
      ['{not json', [{ message: 'Body must be valid JSON', path: [] }]],
      ['', [{ message: 'Body must be valid JSON', path: [] }]],
      ['[1,2]', [{ message: 'Body must be a JSON object', path: [] }]],
      ['"answers"', [{ message: 'Body must be a JSON object', path: [] }]],
      ['null', [{ message: 'Body must be a JSON object', path: [] }]],
      // visitorToken belongs to POST only: an update can't move a response to another lead.
      [{ answers: {}, visitorToken: body.visitorToken }, [{ message: expect.stringContaining('visitorToken'), path: [] }]],
      [{ answers: {}, finish: true }, [{ message: expect.stringContaining('finish'), path: [] }]],
      [{ answers: [] }, [{ message: expect.any(String), path: ['answers'] }]],
      [{ answers: {}, finished: 'yes' }, [{ message: expect.any(String), path: ['finished'] }]],
    ];
    for (const [payload, errors] of cases) {
      const response = await patch(form.id, body.id, body.resumeToken, payload);
      expect(response.status, JSON.stringify(payload)).toBe(400);
      expect(await response.json(), JSON.stringify(payload)).toEqual({ message: 'Invalid request body', errors });
    }
    expect(await snapshot(form.id, body.id)).toEqual(before);
  });

  it('answers 400 with paths ["answers", questionId, ...] for invalid answers, changing nothing', async () => {
    const body = (await (await start({ answers: { [c(0, 2).id]: 'kept' } })).json()) as Started;
    const before = await snapshot(form.id, body.id);
    const response = await patch(form.id, body.id, body.resumeToken, {
      answers: { [identity().id]: { firstName: 'Fay', emailAddress: 'fay@gmail.com' }, [c(1, 1).id]: 'Maybe', [c(0, 2).id]: 'changed' },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      message: 'Invalid request body',
      errors: [
        { message: 'Please use your work e-mail address', path: ['answers', identity().id, 'emailAddress'] },
        { message: '"Maybe" is not one of the choices', path: ['answers', c(1, 1).id] },
      ],
    });
    expect(await snapshot(form.id, body.id)).toEqual(before);
  });

  it('answers 400 for finished: true while required questions are unanswered, and keeps the response as it was', async () => {
    const body = (await (await start({ answers: { [c(0, 2).id]: 'kept' } })).json()) as Started;
    const before = await snapshot(form.id, body.id);
    const response = await patch(form.id, body.id, body.resumeToken, { answers: { [c(0, 3).id]: 'a story' }, finished: true });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      message: 'Invalid request body',
      errors: [{ message: 'This question must be answered before the response can finish', path: ['answers', identity().id] }],
    });
    expect(await snapshot(form.id, body.id)).toEqual(before); // the answers sent with it were rolled back too
    expect(before.finished).toBe(false);
  });

  it('is 404 {message: "Response not found"} for a response and resume token of another form on this form\'s path', async () => {
    const formB = await makeForm(db, tenant, twoSteps);
    const onA = (await (await start({ answers: { [c(0, 2).id]: 'on A' } })).json()) as Started;
    const before = await snapshot(form.id, onA.id);
    const crossed = await patch(formB.id, onA.id, onA.resumeToken, { answers: { [componentAt(formB, 0, 0).id]: 'on B' } });
    expect([crossed.status, await crossed.json()]).toEqual([404, { message: 'Response not found' }]);
    expect(await snapshot(form.id, onA.id)).toEqual(before);
    expect(await responsesOf(db, formB.id)).toEqual([]);
    // The token still works where it belongs.
    expect((await patch(form.id, onA.id, onA.resumeToken, { answers: { [c(0, 2).id]: 'still A' } })).status).toBe(200);
  });

  it('answers 409 for any update of a response finished by an earlier update, changing nothing', async () => {
    const body = (await (await start({ answers: { [c(0, 2).id]: 'early' } })).json()) as Started;
    const done = await patch(form.id, body.id, body.resumeToken, { answers: { [identity().id]: { firstName: 'Gus', emailAddress: email() } }, finished: true });
    expect([done.status, await done.json()]).toMatchObject([200, { id: body.id, finished: true, status: 4 }]);
    const finished = await snapshot(form.id, body.id);
    for (const payload of [{ answers: { [c(0, 2).id]: 'late' } }, { answers: {}, finished: true }, { answers: {} }]) {
      const late = await patch(form.id, body.id, body.resumeToken, payload);
      expect([late.status, await late.json()], JSON.stringify(payload)).toEqual([409, { message: 'Response is already finished' }]);
    }
    expect(await snapshot(form.id, body.id)).toEqual(finished);
  });
});

describe('visitor tokens and tenancy', () => {
  it("refuses a visitor token issued for another environment's form with 400, storing nothing", async () => {
    const other = await createTenant(db);
    const otherForm = await makeForm(db, other, [
      { name: 'One', components: [{ type: 'ShortInput', content: { question: 'Q?' } }] },
      { name: 'Two', components: [{ type: 'Header', content: {} }] },
    ]);
    const there = await app.request(`/s/${otherForm.id}/responses`, jsonRequest('POST', { answers: {} }));
    expect(there.status).toBe(201);
    const foreign = (await there.json()) as Started;
    const foreignLead = (await responsesOf(db, otherForm.id)).find((r) => r.id === foreign.id)!.leadId;

    const before = (await responsesOf(db, form.id)).length;
    const refused = await start({ answers: { [c(0, 2).id]: 'x' }, visitorToken: foreign.visitorToken });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ message: 'Invalid request body', errors: [{ message: 'Unknown visitor token', path: ['visitorToken'] }] });
    expect((await responsesOf(db, form.id)).length).toBe(before);
    expect((await responsesOf(db, form.id)).some((r) => r.leadId === foreignLead)).toBe(false);

    // In its own environment the same token is honoured (so it was refused for its environment, not its form).
    const again = await app.request(`/s/${otherForm.id}/responses`, jsonRequest('POST', { answers: {}, visitorToken: foreign.visitorToken }));
    expect(again.status).toBe(201);
    const sameLead = (await again.json()) as Started;
    expect((await responsesOf(db, otherForm.id)).find((r) => r.id === sameLead.id)!.leadId).toBe(foreignLead);
  });
});

describe('limits', () => {
  it('answers 413 {message} for a submission over PUBLIC_MAX_BODY_BYTES (an HTML page for the form page)', async () => {
    const small = appWith(db, { publicMaxBodyBytes: 1024 });
    const big = { answers: { [c(0, 3).id]: 'x'.repeat(2000) } };
    const api = await start(big, small);
    expect([api.status, await api.json()]).toEqual([413, { message: 'Request body too large (limit 1024 bytes)' }]);
    const page = await small.request(`/s/${form.id}?step=0`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `a=${'x'.repeat(2000)}` });
    expect(page.status).toBe(413);
    expect(await page.text()).toContain('More was sent than this form takes at once (at most 1 KB).');
    expect((await start({ answers: {} }, small)).status).toBe(201);
  });

  it('answers 429 {message: "Too many requests"} with Retry-After past PUBLIC_RATE_LIMIT submissions per IP and minute', async () => {
    const limited = appWith(db, { publicRateLimitPerMinute: 3, trustProxy: 1 });
    const from = (ip: string) => ({ 'x-forwarded-for': ip });
    const post = (ip: string) => limited.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers: {} }, from(ip)));
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await post('198.51.100.7')).status);
    expect(statuses).toEqual([201, 201, 201]);
    const refused = await post('198.51.100.7');
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ message: 'Too many requests' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    // Page submissions share the budget; other IPs are not limited, page views count apart (PAGE_RATE_LIMIT).
    const page = await limited.request(`/s/${form.id}?step=0`, { method: 'POST', headers: from('198.51.100.7'), body: new URLSearchParams() });
    expect(page.status).toBe(429);
    expect(await page.text()).toContain('Too many requests');
    expect((await post('198.51.100.8')).status).toBe(201);
    expect((await limited.request(`/s/${form.id}`, { headers: from('198.51.100.7') })).status).toBe(200);
  });

  it('answers 429 past PAGE_RATE_LIMIT page and definition reads per IP and minute: a page, or JSON on the definition', async () => {
    const limited = appWith(db, { pageRateLimitPerMinute: 3, trustProxy: 1 });
    const from = (ip: string) => ({ 'x-forwarded-for': ip });
    const statuses = [];
    for (const path of [`/s/${form.id}`, `/s/${form.id}/definition`, `/s/${form.id}`]) statuses.push((await limited.request(path, { headers: from('198.51.100.9') })).status);
    expect(statuses).toEqual([200, 200, 200]);
    const page = await limited.request(`/s/${form.id}`, { headers: from('198.51.100.9') });
    expect(page.status).toBe(429);
    expect(await page.text()).toContain('Too many requests');
    expect(page.headers.get('ratelimit-policy')).toBe('"public-pages";q=3;w=60');
    expect(Number(page.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const definition = await limited.request(`/s/${form.id}/definition`, { headers: from('198.51.100.9') });
    expect([definition.status, await definition.json()]).toEqual([429, { message: 'Too many requests' }]);
    expect(definition.headers.get('access-control-allow-origin')).toBe('*');
    // Another address reads on; submissions have their own budget.
    expect((await limited.request(`/s/${form.id}`, { headers: from('198.51.100.10') })).status).toBe(200);
    expect((await limited.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers: {} }, from('198.51.100.9')))).status).toBe(201);
  });
});
