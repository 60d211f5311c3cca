/**
 * Matrix and Ranking questions: content refused with every problem at its path, the page's table of radio
 * buttons and check boxes and its selects per position without JavaScript, answers from the page and the
 * JSON API, the listing, the export (a column per row, a column per option), the GraphQL members, the
 * summary (checked against an independent calculation over 1,000 random answers) and conditions on a row
 * and on an option's position.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { fc } from '@fast-check/vitest';
import type { Database } from '../../src/db/client.ts';
import type { Form } from '../../src/forms/forms.service.ts';
import type { ResponseAnswer } from '../../src/db/json-columns.ts';
import { createTenant, graphql, jsonRequest, setupTestApp, type TestTenant } from '../support/helpers.ts';
import { insertResponses } from '../support/factories.ts';
import { type App, componentAt, field, generateThroughApi, makeForm, onlyResponse, Visitor } from '../support/public-helpers.ts';

let db: Database;
let app: App;
let tenant: TestTenant;

beforeAll(async () => {
  ({ db, app } = await setupTestApp());
  tenant = await createTenant(db);
});

const generate = (steps: unknown[], more: Record<string, unknown> = {}) => generateThroughApi(app, db, tenant, 'Research', steps, more);

const FEATURES = ['Speed', 'Price', 'Support'];
const STEPS = [
  {
    name: 'Research',
    components: [
      {
        type: 'Matrix',
        key: 'grid',
        content: {
          question: 'How do these matter?',
          rows: ['Speed', 'Price'],
          columns: ['Low', 'Mid', 'High'],
          required: true,
        },
      },
      {
        type: 'Matrix',
        key: 'used',
        content: { question: 'Where do you use them?', rows: ['Web', 'App'], columns: ['Work', 'Home'], isMulti: true },
      },
      { type: 'Ranking', key: 'order', content: { question: 'Put these in order', choices: FEATURES } },
    ],
  },
  { name: 'Why', key: 'why', components: [{ type: 'LongInput', content: { question: 'Why?' } }] },
  { name: 'End', key: 'end', components: [{ type: 'Header', content: { title: 'Thanks' } }] },
];

describe('content', () => {
  it("stores a Ranking's choices as its options", async () => {
    const { status, form } = await generate(STEPS);
    expect(status).toBe(200);
    expect(form.steps[0]!.components[2]!.content).toEqual({ question: 'Put these in order', options: FEATURES });
  });

  it('refuses duplicate, missing and too many rows, columns and options, and unknown keys, every problem at its path', async () => {
    const { status, body } = await generate([
      {
        name: 'A',
        components: [
          { type: 'Matrix', content: { rows: ['a', 'a'], columns: ['x'], isMulti: 'yes', colour: 'red' } },
          { type: 'Matrix', content: { rows: [], columns: Array.from({ length: 11 }, (_, i) => `c${i}`) } },
          { type: 'Ranking', content: { options: ['a', 'b', 'a'], extra: 1 } },
          { type: 'Ranking', content: { question: 'Q' } },
          { type: 'Ranking', content: { choices: ['only'] } },
        ],
      },
      { name: 'B', components: [{ type: 'Header', content: { title: 'T' } }] },
    ]);
    expect(status).toBe(400);
    const at = (component: number, ...path: (string | number)[]) => JSON.stringify(['steps', 0, 'components', component, 'content', ...path]);
    const paths = body.errors.map((e: { path: unknown[] }) => JSON.stringify(e.path)).sort();
    expect(paths).toEqual(
      [at(0), at(0, 'rows', 1), at(0, 'columns'), at(0, 'isMulti'), at(1, 'rows'), at(1, 'columns'), at(2), at(2, 'options', 2), at(3, 'options'), at(4, 'choices')].sort(),
    );
  });
});

describe('a research form, end to end', () => {
  let form: Form;
  beforeAll(async () => {
    const generated = await generate(
      [
        {
          ...STEPS[0],
          logic: {
            rules: [
              {
                if: {
                  any: [
                    { question: 'grid', field: 'Price', op: 'equals', value: 'High' },
                    { question: 'order', field: 'Support', op: 'equals', value: 1 },
                  ],
                },
                then: { goTo: 'why' },
              },
            ],
            next: 'end',
          },
        },
        ...STEPS.slice(1),
      ],
      { locale: 'es' },
    );
    expect(generated.status).toBe(200);
    form = generated.form;
  });
  const grid = () => componentAt(form, 0, 0);
  const used = () => componentAt(form, 0, 1);
  const order = () => componentAt(form, 0, 2);

  it('draws a table with row and column headers, and one select per position, without JavaScript', async () => {
    const page = await (await app.request(`/s/${form.id}`)).text();
    const id = `f-${grid().id}`;
    expect(page).toContain(`<th scope="col" id="${id}-c2">High</th>`);
    expect(page).toContain(
      `<tr><th scope="row" id="${id}-r1">Price</th><td><input type="radio" name="${field(grid(), '1')}" value="Low" aria-labelledby="${id}-r1 ${id}-c0" required></td>`,
    );
    expect(page).toContain(`<input type="checkbox" name="${field(used(), '0')}" value="Home" aria-labelledby="f-${used().id}-r0 f-${used().id}-c1"></td>`);
    expect(page).toContain(
      `<label for="f-${order().id}-3">Posición 3</label><select id="f-${order().id}-3" name="${field(order(), '3')}" class="fl-input"><option value="">Selecciona…</option><option value="Speed">Speed</option>`,
    );
  });

  it('takes the page’s fields, refuses what is missing or repeated in the form’s language, and follows a row and a position', async () => {
    const visitor = new Visitor(app);
    await visitor.get(`/s/${form.id}`);
    const refused = await visitor.submit(form, 0, {
      [field(grid(), '0')]: 'Mid',
      [field(order(), '1')]: 'Price',
      [field(order(), '2')]: 'Price',
    });
    expect(refused.status).toBe(422);
    const page = await refused.text();
    expect(page).toContain('Esta fila requiere una respuesta');
    expect(page).toContain('«Price» aparece dos veces');
    expect(page).toContain('Ordena todas las opciones; faltan: &quot;Speed&quot;, &quot;Support&quot;');
    const sent = await visitor.submit(form, 0, {
      [field(grid(), '0')]: 'Mid',
      [field(grid(), '1')]: 'Low',
      [field(used(), '1')]: ['Home', 'Work'],
      [field(order(), '1')]: 'Support',
      [field(order(), '2')]: 'Speed',
      [field(order(), '3')]: 'Price',
    });
    expect(sent.status).toBe(303);
    expect(sent.headers.get('location')).toContain('step=1');
    const response = await onlyResponse(db, form.id);
    const stored = Object.fromEntries(response.data.map((a) => [a.questionId, a.response]));
    expect(stored[grid().id]).toMatchObject({ rows: { Speed: 'Mid', Price: 'Low' } });
    expect(stored[used().id]).toMatchObject({ rows: { App: ['Work', 'Home'] } });
    expect(stored[order().id]).toMatchObject({ ranking: ['Support', 'Speed', 'Price'] });
    const again = await (await visitor.get(`/s/${form.id}?step=0`)).text();
    expect(again).toContain(`value="Mid" aria-labelledby="f-${grid().id}-r0 f-${grid().id}-c1" checked`);
    expect(again).toContain('<option value="Support" selected>');
  });

  it('takes the JSON shapes, and refuses unknown rows and columns and incomplete rankings with the answer’s path', async () => {
    const post = (answers: Record<string, unknown>) => app.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers }));
    const bad = await post({
      [grid().id]: { Speed: 'Top', Size: 'Low', Price: ['Low'] },
      [used().id]: { Web: 'Gym' },
      [order().id]: ['Speed', 'Speed', 'Nope'],
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { errors: unknown[] }).errors).toEqual([
      { path: ['answers', grid().id, 'Size'], message: '"Size" is not one of the rows' },
      { path: ['answers', grid().id, 'Speed'], message: '"Top" is not one of the columns' },
      { path: ['answers', grid().id, 'Price'], message: 'Must be one of the columns' },
      { path: ['answers', used().id, 'Web'], message: '"Gym" is not one of the columns' },
      { path: ['answers', order().id, 1], message: '"Speed" is ranked twice' },
      { path: ['answers', order().id, 2], message: '"Nope" is not one of the options' },
      { path: ['answers', order().id], message: 'Rank every option; missing: "Price", "Support"' },
    ]);
    const good = await post({
      [grid().id]: { Speed: 'High', Price: 'High' },
      [used().id]: { Web: ['Work'] },
      [order().id]: ['Price', 'Support', 'Speed'],
    });
    expect(good.status).toBe(201);
    expect(((await good.json()) as { nextStep: string }).nextStep).toBe('why');
  });

  it('lists, exports and types the answers; the summary counts per row and per position', async () => {
    const headers = { 'x-api-key': tenant.apiKey };
    const listing = (await (await app.request(`/api/v1/responses?formId=${form.id}&returnPartials=true`, { headers })).json()) as { data: { data: ResponseAnswer[] }[] };
    expect(listing.data.flatMap((r) => r.data.filter((a) => a.questionId === order().id).map((a) => a.response.ranking))).toHaveLength(2);
    const csv = await (await app.request(`/api/v1/responses/export?formId=${form.id}&returnPartials=true`, { headers })).text();
    const [head, ...rows] = csv.trim().split('\r\n');
    expect(head).toContain(
      `Speed [${grid().id}.Speed],Price [${grid().id}.Price],Web [${used().id}.Web],App [${used().id}.App],Speed [${order().id}.Speed],Price [${order().id}.Price],Support [${order().id}.Support]`,
    );
    expect(rows.map((row) => row.split(',').slice(-8, -1).join(',')).sort()).toEqual(['High,High,Work,,3,1,2', 'Mid,Low,,Work; Home,2,3,1']);
    const { body } = await graphql(
      app,
      `query ($id: ID!, $formId: ID!) {
        form(id: $id) {
          steps { components { __typename ... on Matrix { rows columns isMulti required } ... on Ranking { options } } }
          summary { questions { type answers options { option count } rows { row options { option count } mean } } }
        }
        formResponses(formId: $formId, filter: { returnPartials: true }) { edges { node { data { answer { __typename ... on MatrixAnswer { rows { row columns } } ... on RankingAnswer { ranking } } } } } }
      }`,
      { id: form.id, formId: form.id },
      headers,
    );
    expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
    expect(body.data.form.steps[0].components).toEqual([
      {
        __typename: 'Matrix',
        rows: ['Speed', 'Price'],
        columns: ['Low', 'Mid', 'High'],
        isMulti: null,
        required: true,
      },
      { __typename: 'Matrix', rows: ['Web', 'App'], columns: ['Work', 'Home'], isMulti: true, required: null },
      { __typename: 'Ranking', options: FEATURES },
    ]);
    const typed = body.data.formResponses.edges.flatMap((e: any) => e.node.data.map((d: any) => d.answer));
    expect(typed).toContainEqual({ __typename: 'MatrixAnswer', rows: [{ row: 'App', columns: ['Work', 'Home'] }] });
    expect(typed).toContainEqual({ __typename: 'RankingAnswer', ranking: ['Support', 'Speed', 'Price'] });
    const [gridSummary, usedSummary, orderSummary] = body.data.form.summary.questions;
    expect(gridSummary).toEqual({
      type: 'Matrix',
      answers: 2,
      options: null,
      rows: [
        {
          row: 'Speed',
          options: [
            { option: 'Low', count: 0 },
            { option: 'Mid', count: 1 },
            { option: 'High', count: 1 },
          ],
          mean: null,
        },
        {
          row: 'Price',
          options: [
            { option: 'Low', count: 1 },
            { option: 'Mid', count: 0 },
            { option: 'High', count: 1 },
          ],
          mean: null,
        },
      ],
    });
    expect(usedSummary.rows[1]).toEqual({
      row: 'App',
      options: [
        { option: 'Work', count: 1 },
        { option: 'Home', count: 1 },
      ],
      mean: null,
    });
    expect(orderSummary.rows).toEqual([
      {
        row: 'Speed',
        options: [
          { option: '1', count: 0 },
          { option: '2', count: 1 },
          { option: '3', count: 1 },
        ],
        mean: 2.5,
      },
      {
        row: 'Price',
        options: [
          { option: '1', count: 1 },
          { option: '2', count: 0 },
          { option: '3', count: 1 },
        ],
        mean: 2,
      },
      {
        row: 'Support',
        options: [
          { option: '1', count: 1 },
          { option: '2', count: 1 },
          { option: '3', count: 0 },
        ],
        mean: 1.5,
      },
    ]);
  });
});

describe('the summary over 1,000 random answers', () => {
  it('matches an independent count per row and column, and per option and position with the mean position', async () => {
    const form = await makeForm(db, tenant, STEPS, 'Random');
    const [gridQ, , orderQ] = form.steps[0]!.components;
    const columns = ['Low', 'Mid', 'High'];
    const answers = fc.sample(
      fc.record({
        speed: fc.option(fc.constantFrom(...columns)),
        price: fc.constantFrom(...columns),
        order: fc.shuffledSubarray(FEATURES, { minLength: 3, maxLength: 3 }),
      }),
      { numRuns: 1000, seed: 37 },
    );
    const answer = (questionId: string, type: string, fields: Record<string, unknown>): ResponseAnswer => ({
      questionId,
      response: { type, componentShapeVersion: '2.0', headline: 'Q', ...fields },
    });
    await insertResponses(
      db,
      answers.map((a) => ({
        environmentId: tenant.environmentId,
        formId: form.id,
        data: [
          answer(gridQ!.id, 'Matrix', {
            rows: a.speed === null ? { Price: a.price } : { Speed: a.speed, Price: a.price },
          }),
          answer(orderQ!.id, 'Ranking', { ranking: a.order }),
        ],
      })),
    );
    const { body } = await graphql(
      app,
      `query ($id: ID!) { form(id: $id) { summary { questions { rows { row options { option count } mean } } } } }`,
      { id: form.id },
      { 'x-api-key': tenant.apiKey },
    );
    const [gridSummary, , orderSummary] = body.data.form.summary.questions;
    const count = (pick: (a: (typeof answers)[number]) => unknown, value: unknown) => answers.filter((a) => pick(a) === value).length;
    expect(gridSummary.rows).toEqual([
      {
        row: 'Speed',
        options: columns.map((option) => ({ option, count: count((a) => a.speed, option) })),
        mean: null,
      },
      {
        row: 'Price',
        options: columns.map((option) => ({ option, count: count((a) => a.price, option) })),
        mean: null,
      },
    ]);
    const positionOf = (a: (typeof answers)[number], option: string) => a.order.indexOf(option) + 1;
    expect(orderSummary.rows.map((r: { row: string }) => r.row)).toEqual(FEATURES);
    FEATURES.forEach((option, i) => {
      const row = orderSummary.rows[i];
      expect(row.options).toEqual(
        [1, 2, 3].map((position) => ({
          option: String(position),
          count: answers.filter((a) => positionOf(a, option) === position).length,
        })),
      );
      expect(row.mean).toBeCloseTo(answers.reduce((sum, a) => sum + positionOf(a, option), 0) / answers.length, 9);
    });
  });
});

describe('conditions', () => {
  const withRule = (condition: unknown) => generate([{ ...STEPS[0], logic: { rules: [{ if: condition, then: { goTo: 'why' } }] } }, ...STEPS.slice(1)]);

  it('take a Matrix row as a choice and a Ranking option as its position, and refuse the rest', async () => {
    for (const condition of [
      { question: 'grid', field: 'Speed', op: 'in', value: ['Mid', 'High'] },
      { question: 'used', field: 'Web', op: 'contains', value: 'Home' },
      { question: 'order', field: 'Price', op: 'lessOrEqual', value: 2 },
      { question: 'order', op: 'answered' },
    ]) {
      expect((await withRule(condition)).status, JSON.stringify(condition)).toBe(200);
    }
    const refusals = [
      [{ question: 'grid', field: 'Size', op: 'equals', value: 'Low' }, 'field', /not one of the rows/],
      [{ question: 'grid', field: 'Speed', op: 'equals', value: 'Top' }, 'value', /not one of the options/],
      [{ question: 'grid', op: 'equals', value: 'Low' }, 'op', /only be tested for presence/],
      [{ question: 'order', field: 'Price', op: 'equals', value: 4 }, 'value', /answers 1 to 3/],
      [{ question: 'order', field: 'Nope', op: 'equals', value: 1 }, 'field', /not one of the options of this Ranking/],
    ] as const;
    for (const [condition, key, message] of refusals) {
      const { status, body } = await withRule(condition);
      expect(status, JSON.stringify(condition)).toBe(400);
      expect(body.errors).toEqual([{ path: ['steps', 0, 'logic', 'rules', 0, 'if', key], message: expect.stringMatching(message) }]);
    }
  });
});
