/**
 * The OpenAPI document types every answer by its component type: each answered type has its JSON API
 * answer (`Answer.<type>`) and its stored answer (`StoredAnswer.<type>`) from its component module, the
 * listing's `QuestionResponse.response` is one of the stored ones, and real answers (sent through the
 * public JSON API, read back from the REST listing) validate against their type's schemas, while answers
 * of the wrong shape do not. The public JSON API's operations are in the document too, and their real
 * answers (the definition, a start, an update, a view and their refusals) are what it says.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import type { Form } from '../../src/forms/forms.service.ts';
import { isAnswerable, STORED_COMPONENT_TYPES } from '../../src/components/catalogue.ts';
import { openApiDocument } from '../../src/rest/docs.ts';
import { createTenant, jsonRequest, setupTestApp, type TestTenant } from '../support/helpers.ts';
import { componentAt, makeForm, type App } from '../support/public-helpers.ts';
import { checkAgainstOpenApi, checkedAnswers, schemaProblem } from '../support/openapi-check.ts';

let db: Database;
let app: App;
let tenant: TestTenant;

beforeAll(async () => {
  ({ db, app } = await setupTestApp());
  tenant = await createTenant(db);
});

type Schema = { oneOf?: { $ref: string }[]; anyOf?: { $ref?: string }[]; additionalProperties?: Schema; properties?: Record<string, Schema> };
const schemas = () => (openApiDocument() as unknown as { components: { schemas: Record<string, Schema> } }).components.schemas;
const ANSWERED = STORED_COMPONENT_TYPES.filter(isAnswerable);

describe('the answer schemas', () => {
  it('has both schemas of every answered component type, and the listing and the public answers refer to them', () => {
    const all = schemas();
    // The older types as well as the survey types; a type that takes no answer has none.
    expect(ANSWERED).toEqual(
      expect.arrayContaining(['ShortInput', 'IdentityInfo', 'Dropdown', 'FileUploader', 'Disclaimer', 'Scheduler', 'Rating', 'NPS', 'Matrix', 'Ranking', 'Number', 'Date']),
    );
    expect(ANSWERED).not.toContain('Header');
    for (const type of ANSWERED) {
      expect(all[`Answer.${type}`], type).toBeDefined();
      expect(all[`StoredAnswer.${type}`], type).toBeDefined();
    }
    const listed = all.QuestionResponse!.properties!.response!.oneOf!.map((member) => member.$ref);
    expect(listed.sort()).toEqual(ANSWERED.map((type) => `#/components/schemas/StoredAnswer.${type}`).sort());
    const taken = all.PublicAnswers!.additionalProperties!.anyOf!.flatMap((member) => (member.$ref ? [member.$ref] : []));
    expect(taken.sort()).toEqual(ANSWERED.map((type) => `#/components/schemas/Answer.${type}`).sort());
  });

  it("describes the response events' webhook bodies with the same response object", () => {
    const { webhooks } = openApiDocument() as unknown as { webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: Schema }> } } }> };
    expect(Object.keys(webhooks).sort()).toEqual(['response.created', 'response.finished', 'response.updated']);
    for (const item of Object.values(webhooks))
      expect(item.post.requestBody.content['application/json']!.schema.properties!.data).toEqual({ $ref: '#/components/schemas/Response' });
  });

  it('holds a type to its own shape', () => {
    expect(schemaProblem('Answer.Rating', 4)).toBeUndefined();
    for (const [type, wrong] of [
      ['Rating', 11],
      ['Rating', 2.5],
      ['NPS', -1],
      ['Number', '3'],
      ['Date', '2026-02-30'],
      ['Matrix', ['Speed', 'Good']],
      ['Ranking', 'Speed'],
      ['IdentityInfo', { nickname: 'Cy' }],
      ['Disclaimer', 'yes'],
    ] as const) {
      expect(schemaProblem(`Answer.${type}`, wrong), `${type} ${JSON.stringify(wrong)}`).toBeDefined();
    }
    const stored = { type: 'Rating', headline: 'Rate us', componentShapeVersion: '2.0', value: 3 };
    expect(schemaProblem('StoredAnswer.Rating', stored)).toBeUndefined();
    expect(schemaProblem('StoredAnswer.Rating', { ...stored, value: '3' })).toBeDefined();
    expect(schemaProblem('StoredAnswer.Rating', { ...stored, value: undefined })).toBeDefined();
    expect(schemaProblem('StoredAnswer.Rating', { ...stored, headline: undefined })).toBeDefined();
    expect(schemaProblem('StoredAnswer.NPS', stored)).toBeDefined();
  });
});

describe('real answers', () => {
  let form: Form;
  const c = (index: number) => componentAt(form, 0, index);
  const STEP = [
    { type: 'ShortInput', content: { question: 'Role?' } },
    { type: 'LongInput', content: { question: 'Story?' } },
    {
      type: 'IdentityInfo',
      content: {
        fields: [
          { key: 'firstName', label: 'First name' },
          { key: 'emailAddress', label: 'E-mail' },
        ],
      },
    },
    { type: 'EmailForm', content: { question: 'Newsletter?' } },
    { type: 'PasswordCreatorInput', content: { question: 'New password' } },
    { type: 'Dropdown', content: { question: 'Size?', options: ['S', 'M', 'L'], isMulti: true } },
    { type: 'MultipleOptionsQuestion', content: { question: 'Pick', choices: ['Yes', 'No'], isMulti: true, allowOther: true } },
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
    { type: 'Disclaimer', content: { text: 'Terms', required: true } },
    { type: 'FileUploader', content: { question: 'CV', multiple: true, maxFiles: 2 } },
    { type: 'Scheduler', content: { url: 'https://cal.com/acme', calendarType: 'Cal' } },
    { type: 'Rating', content: { question: 'Rate us', scale: 4 } },
    { type: 'NPS', content: { question: 'Recommend us?' } },
    { type: 'OpinionScale', content: { question: 'Clear?', from: 0, to: 4 } },
    { type: 'Number', content: { question: 'Seats?', min: 1, max: 500, decimals: 1 } },
    { type: 'Date', content: { question: 'Start?', min: '2026-01-01' } },
    { type: 'Matrix', content: { question: 'How is it?', rows: ['Speed', 'Price'], columns: ['Bad', 'Good'], isMulti: true } },
    { type: 'Matrix', content: { question: 'And now?', rows: ['Speed', 'Price'], columns: ['Bad', 'Good'] } },
    { type: 'Ranking', content: { question: 'Order these', options: ['Speed', 'Price', 'Support'] } },
  ];

  beforeAll(async () => {
    form = await makeForm(db, tenant, [
      { name: 'Everything', components: STEP },
      { name: 'Thanks', components: [{ type: 'Header', content: { title: 'Thanks' } }] },
    ]);
  });

  async function upload(name: string): Promise<string> {
    const body = new FormData();
    body.append('componentId', c(9).id);
    body.append('file', new File(['%PDF-1.4 a cv'], name, { type: 'application/pdf' }));
    const response = await app.request(`/s/${form.id}/uploads`, { method: 'POST', body });
    expect(response.status).toBe(201);
    return ((await response.json()) as { files: { id: string }[] }).files[0]!.id;
  }

  it('validate against their type’s schemas, as sent and as listed', async () => {
    const answers: unknown[] = [
      'Founder',
      'Once upon a time',
      { firstName: 'Cy', emailAddress: 'cy@example.com' },
      'news@example.com',
      { password: 'secret-22', confirmation: 'secret-22' },
      ['L', 'S'],
      { selected: ['Yes'], other: 'Maybe' },
      'classic',
      true,
      [await upload('a.pdf'), await upload('b.pdf')],
      { eventScheduled: true, meetingTime: '2030-05-01T09:00:00Z', meetingEndTime: '2030-05-01T09:30:00Z' },
      4,
      0,
      3,
      12.5,
      '2026-03-31',
      { Speed: ['Bad', 'Good'], Price: 'Good' },
      { Speed: 'Good', Price: 'Bad' },
      ['Support', 'Speed', 'Price'],
    ];
    expect(answers).toHaveLength(STEP.length);
    const body = { answers: Object.fromEntries(answers.map((answer, index) => [c(index).id, answer])), finished: true };
    expect(schemaProblem('PublicAnswers', body.answers)).toBeUndefined();
    answers.forEach((answer, index) => expect(schemaProblem(`Answer.${c(index).type}`, answer), c(index).type).toBeUndefined());
    const started = await app.request(`/s/${form.id}/responses`, jsonRequest('POST', body));
    expect(started.status, await started.clone().text()).toBe(201);

    const listing = await app.request(`/api/v1/responses?formId=${form.id}`, { headers: { 'x-api-key': tenant.apiKey } });
    expect(listing.status).toBe(200);
    const [response] = ((await listing.json()) as { data: { data: { questionId: string; response: { type: string } }[] }[] }).data;
    const listed = response!.data;
    expect(listed.map((answer) => answer.response.type)).toEqual(STEP.map((component) => component.type));
    for (const { response: answer } of listed) expect(schemaProblem(`StoredAnswer.${answer.type}`, answer), answer.type).toBeUndefined();
    expect(schemaProblem('ResponseList', { data: [response] })).toBeUndefined();
    // Another type's schema refuses it: the document says which answer is which.
    const rating = listed.find((answer) => answer.response.type === 'Rating')!.response;
    expect(schemaProblem('StoredAnswer.Number', rating)).toBeDefined();
  });

  it("answer the public JSON API's operations as the document describes them", async () => {
    // Each answer checked against its operation in the document; the count shows the operation was found.
    const checked = async (method: string, path: string, init: RequestInit, label: string) => {
      const response = await app.request(path, { method, ...init });
      const before = checkedAnswers.get(label) ?? 0;
      await checkAgainstOpenApi(method, path, response.clone(), { publicApi: true });
      expect(checkedAnswers.get(label), label).toBe(before + 1);
      return response;
    };
    const definition = await checked('GET', `/s/${form.id}/definition`, {}, 'GET /s/{formId}/definition → 200');
    expect(((await definition.json()) as { steps: unknown[] }).steps).toHaveLength(2);
    await checked('GET', `/s/${form.id}/definition?version=x`, {}, 'GET /s/{formId}/definition → 400');
    await checked('GET', '/s/k4n2iogu5ks9ut7lahuxkl27/definition', {}, 'GET /s/{formId}/definition → 404');
    const start = await checked('POST', `/s/${form.id}/responses`, jsonRequest('POST', { answers: { [c(11).id]: 3 } }), 'POST /s/{formId}/responses → 201');
    const { id, resumeToken } = (await start.json()) as { id: string; resumeToken: string };
    await checked('POST', `/s/${form.id}/responses`, jsonRequest('POST', { answers: { [c(11).id]: 9 } }), 'POST /s/{formId}/responses → 400');
    const path = `/s/${form.id}/responses/${id}`;
    const auth = { authorization: `Bearer ${resumeToken}`, 'content-type': 'application/json' };
    await checked(
      'PATCH',
      path,
      { headers: auth, body: JSON.stringify({ answers: { [c(12).id]: 10, [c(18).id]: ['Price', 'Support', 'Speed'] } }) },
      'PATCH /s/{formId}/responses/{responseId} → 200',
    );
    await checked('PATCH', path, jsonRequest('PATCH', { answers: {} }), 'PATCH /s/{formId}/responses/{responseId} → 401');
    await checked('POST', `/s/${form.id}/views`, jsonRequest('POST', { referrer: 'https://example.com/blog' }), 'POST /s/{formId}/views → 202');
    const files = (bytes: string, name: string) => {
      const body = new FormData();
      body.append('componentId', c(9).id);
      body.append('file', new File([bytes], name, { type: 'application/pdf' }));
      return { body };
    };
    await checked('POST', `/s/${form.id}/uploads`, files('%PDF-1.4 a cv', 'cv.pdf'), 'POST /s/{formId}/uploads → 201');
    await checked('POST', `/s/${form.id}/uploads`, files('MZ not a pdf', 'cv.exe'), 'POST /s/{formId}/uploads → 400');
    await checked('POST', `/s/${form.id}/uploads`, jsonRequest('POST', {}), 'POST /s/{formId}/uploads → 415');
    // A body of the wrong shape fails the check: the document's schemas are closed.
    const wrong = new Response(JSON.stringify({ id, resumeToken, extra: true }), { status: 201, headers: { 'content-type': 'application/json' } });
    await expect(checkAgainstOpenApi('POST', `/s/${form.id}/responses`, wrong, { publicApi: true })).rejects.toThrow('does not match the schema');
  });
});
