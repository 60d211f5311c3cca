/**
 * Number and Date questions: content refused with every problem at its path, the page's inputs without
 * JavaScript, answers from the page (a decimal comma too) and the JSON API, the listing, the export, the
 * GraphQL members, the summary (checked against an independent calculation over 1,000 random answers) and
 * conditions on numbers and dates.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { fc } from '@fast-check/vitest';
import type { Database } from '../../src/db/client.ts';
import type { Form } from '../../src/forms/forms.service.ts';
import type { ResponseAnswer } from '../../src/db/json-columns.ts';
import { createTenant, graphql, jsonRequest, setupTestApp, type TestTenant } from '../support/helpers.ts';
import { insertResponses } from '../support/factories.ts';
import { type App, componentAt, field, generateThroughApi, makeForm, onlyResponse, Visitor } from '../support/public-helpers.ts';
import { monthsBetween } from '../../src/components/date.ts';

let db: Database;
let app: App;
let tenant: TestTenant;

beforeAll(async () => {
  ({ db, app } = await setupTestApp());
  tenant = await createTenant(db);
});

const generate = (steps: unknown[], more: Record<string, unknown> = {}) => generateThroughApi(app, db, tenant, 'Order', steps, more);

const STEPS = [
  {
    name: 'Order',
    components: [
      { type: 'Number', key: 'seats', content: { question: 'How many seats?', min: 1, max: 500, required: true } },
      {
        type: 'Number',
        key: 'budget',
        content: { question: 'Budget', min: 0, decimals: 2, unit: 'k€', placeholder: '12,5' },
      },
      { type: 'Date', key: 'start', content: { question: 'Start date', min: '2026-01-01', max: '2026-12-31' } },
    ],
  },
  { name: 'Big', key: 'big', components: [{ type: 'LongInput', content: { question: 'Tell us more' } }] },
  { name: 'End', key: 'end', components: [{ type: 'Header', content: { title: 'Thanks' } }] },
];

describe('content', () => {
  it('stores whole numbers by default', async () => {
    const { status, form } = await generate(STEPS);
    expect(status).toBe(200);
    expect(form.steps[0]!.components.map((c) => c.content.decimals)).toEqual([0, 2, undefined]);
  });

  it('refuses min above max, decimals out of bounds, impossible dates and unknown keys, every problem at its path', async () => {
    const { status, body } = await generate([
      {
        name: 'A',
        components: [
          { type: 'Number', content: { min: 5, max: 1, decimals: 7, colour: 'red' } },
          { type: 'Number', content: { max: 1e16, decimals: 1.5, unit: 3 } },
          { type: 'Date', content: { min: '2026-02-30', max: '2026-13-01' } },
          { type: 'Date', content: { min: '2026-06-01', max: '2026-05-31', format: 'dd/mm' } },
        ],
      },
      { name: 'B', components: [{ type: 'Header', content: { title: 'T' } }] },
    ]);
    expect(status).toBe(400);
    const at = (component: number, ...path: string[]) => JSON.stringify(['steps', 0, 'components', component, 'content', ...path]);
    const paths = body.errors.map((e: { path: unknown[] }) => JSON.stringify(e.path)).sort();
    expect(paths).toEqual([at(0), at(0, 'decimals'), at(0, 'min'), at(1, 'decimals'), at(1, 'max'), at(1, 'unit'), at(2, 'max'), at(2, 'min'), at(3), at(3, 'min')].sort());
  });
});

describe('an order form, end to end', () => {
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
                    { question: 'seats', op: 'greaterOrEqual', value: 100 },
                    { question: 'start', op: 'before', value: '2026-02-01' },
                  ],
                },
                then: { goTo: 'big' },
              },
            ],
            next: 'end',
          },
        },
        ...STEPS.slice(1),
      ],
      { locale: 'fr' },
    );
    expect(generated.status).toBe(200);
    form = generated.form;
  });
  const seats = () => componentAt(form, 0, 0);
  const budget = () => componentAt(form, 0, 1);
  const start = () => componentAt(form, 0, 2);

  it('draws a decimal text field with its unit and a date input with its bounds and their hint in the form’s language, without JavaScript', async () => {
    const page = await (await app.request(`/s/${form.id}`)).text();
    expect(page).toContain(
      `<input type="text" inputmode="decimal" autocomplete="off" id="f-${seats().id}" name="${field(seats())}" class="fl-input" maxlength="40" value="" required aria-required="true">`,
    );
    expect(page).toContain(`placeholder="12,5" aria-describedby="f-${budget().id}-unit"><span class="fl-unit" id="f-${budget().id}-unit">k€</span>`);
    expect(page).toContain(
      `<input type="date" id="f-${start().id}" name="${field(start())}" class="fl-input fl-date" value="" min="2026-01-01" max="2026-12-31" aria-describedby="f-${start().id}-hint"><p class="fl-note" id="f-${start().id}-hint">Entre le 1 janvier 2026 et le 31 décembre 2026</p>`,
    );
  });

  it('takes the page’s fields (a decimal comma too), refuses the rest in the form’s language, and follows the conditions', async () => {
    const visitor = new Visitor(app);
    await visitor.get(`/s/${form.id}`);
    const refused = await visitor.submit(form, 0, {
      [field(seats())]: '2.5',
      [field(budget())]: '1,234',
      [field(start())]: '2026-02-30',
    });
    expect(refused.status).toBe(422);
    const page = await refused.text();
    expect(page).toContain('Saisissez un nombre entier');
    expect(page).toContain('2 décimales au maximum');
    expect(page).toContain('Saisissez une date au format AAAA-MM-JJ');
    const outside = await (
      await visitor.submit(form, 0, {
        [field(seats())]: '501',
        [field(budget())]: 'a lot',
        [field(start())]: '2027-01-01',
      })
    ).text();
    expect(outside).toContain('Au plus 500');
    expect(outside).toContain('Saisissez un nombre');
    expect(outside).toContain('Au plus tard le 31 décembre 2026');
    const sent = await visitor.submit(form, 0, {
      [field(seats())]: '120',
      [field(budget())]: ' 12,5 ',
      [field(start())]: '2026-03-02',
    });
    expect(sent.status).toBe(303);
    expect(sent.headers.get('location')).toContain('step=1');
    const response = await onlyResponse(db, form.id);
    expect(Object.fromEntries(response.data.map((a) => [a.questionId, a.response.value]))).toEqual({
      [seats().id]: 120,
      [budget().id]: 12.5,
      [start().id]: '2026-03-02',
    });
    const again = await (await visitor.get(`/s/${form.id}?step=0`)).text();
    expect(again).toContain('value="12.5"');
    expect(again).toContain('value="2026-03-02"');
  });

  it('takes numbers and dates on the JSON API, and refuses the rest with the answer’s path', async () => {
    const post = (answers: Record<string, unknown>) => app.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers }));
    const bad = await post({ [seats().id]: '3', [budget().id]: 1.005, [start().id]: '2026-1-5' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { errors: unknown[] }).errors).toEqual([
      { path: ['answers', seats().id], message: 'Must be a number' },
      { path: ['answers', budget().id], message: 'Must have at most 2 decimal places' },
      { path: ['answers', start().id], message: 'Must be a date written YYYY-MM-DD' },
    ]);
    const low = await post({ [seats().id]: 0, [budget().id]: -1, [start().id]: '2025-12-31' });
    expect(((await low.json()) as { errors: { message: string }[] }).errors.map((e) => e.message)).toEqual([
      'Must be at least 1',
      'Must be at least 0',
      'Must be on or after 2026-01-01',
    ]);
    const good = await post({ [seats().id]: 4, [budget().id]: 0.25, [start().id]: '2026-09-30' });
    expect(good.status).toBe(201);
    expect(((await good.json()) as { nextStep: string }).nextStep).toBe('end');
  });

  it('lists, exports and types the answers; the summary measures them', async () => {
    const headers = { 'x-api-key': tenant.apiKey };
    const listing = (await (await app.request(`/api/v1/responses?formId=${form.id}&returnPartials=true`, { headers })).json()) as { data: { data: ResponseAnswer[] }[] };
    expect(listing.data.flatMap((r) => r.data.filter((a) => a.questionId === start().id).map((a) => a.response.value)).sort()).toEqual(['2026-03-02', '2026-09-30']);
    const csv = await (await app.request(`/api/v1/responses/export?formId=${form.id}&returnPartials=true`, { headers })).text();
    const [head, ...rows] = csv.trim().split('\r\n');
    expect(head).toContain(`Budget [${budget().id}]`);
    expect(rows.map((row) => row.split(',').slice(-4, -1).join(',')).sort()).toEqual(['120,12.5,2026-03-02', '4,0.25,2026-09-30']);
    const { body } = await graphql(
      app,
      `query ($id: ID!, $formId: ID!) {
        form(id: $id) {
          steps { components { __typename ... on NumberQuestion { type min max decimals unit placeholder required } ... on DateQuestion { type minDate maxDate } } }
          summary { questions { type answers options { option count } numbers { count mean median min max } dates { earliest latest } } }
        }
        formResponses(formId: $formId, filter: { returnPartials: true }) { edges { node { data { answer { __typename ... on NumberAnswer { number } ... on DateAnswer { date } ... on GraphicOptionsAnswer { value } } } } } }
      }`,
      { id: form.id, formId: form.id },
      headers,
    );
    expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
    expect(body.data.form.steps[0].components).toEqual([
      {
        __typename: 'NumberQuestion',
        type: 'Number',
        min: 1,
        max: 500,
        decimals: 0,
        unit: null,
        placeholder: null,
        required: true,
      },
      {
        __typename: 'NumberQuestion',
        type: 'Number',
        min: 0,
        max: null,
        decimals: 2,
        unit: 'k€',
        placeholder: '12,5',
        required: null,
      },
      { __typename: 'DateQuestion', type: 'Date', minDate: '2026-01-01', maxDate: '2026-12-31' },
    ]);
    const typed = body.data.formResponses.edges.flatMap((e: any) => e.node.data.map((d: any) => d.answer));
    expect(typed).toContainEqual({ __typename: 'NumberAnswer', number: 12.5 });
    expect(typed).toContainEqual({ __typename: 'DateAnswer', date: '2026-09-30' });
    const [seatsSummary, , startSummary] = body.data.form.summary.questions;
    expect(seatsSummary).toEqual({
      type: 'Number',
      answers: 2,
      options: null,
      numbers: { count: 2, mean: 62, median: 62, min: 4, max: 120 },
      dates: null,
    });
    expect(startSummary).toMatchObject({
      type: 'Date',
      answers: 2,
      numbers: null,
      dates: { earliest: '2026-03-02', latest: '2026-09-30' },
    });
    expect(startSummary.options).toHaveLength(12);
    expect(startSummary.options.filter((o: { count: number }) => o.count > 0)).toEqual([
      { option: '2026-03', count: 1 },
      { option: '2026-09', count: 1 },
    ]);
  });
});

describe('the summary over 1,000 random answers', () => {
  it('matches an independent calculation of count, mean, median, min, max, earliest, latest and the count per month', async () => {
    const form = await makeForm(
      db,
      tenant,
      [
        {
          name: 'A',
          components: [
            { type: 'Number', content: { decimals: 2 } },
            { type: 'Date', content: {} },
          ],
        },
        STEPS[2]!,
      ],
      'Random',
    );
    const [numberQ, dateQ] = form.steps[0]!.components;
    const day = fc.date({ min: new Date('2024-01-01T00:00:00Z'), max: new Date('2026-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
    const amount = fc.integer({ min: -100_000, max: 100_000 }).map((cents) => cents / 100);
    const answers = fc.sample(fc.record({ amount: fc.option(amount, { freq: 4 }), day }), { numRuns: 1000, seed: 37 });
    const answer = (questionId: string, type: string, value: number | string): ResponseAnswer => ({
      questionId,
      response: { type, componentShapeVersion: '2.0', headline: 'Q', value },
    });
    await insertResponses(
      db,
      answers.map((a) => ({
        environmentId: tenant.environmentId,
        formId: form.id,
        data: [...(a.amount === null ? [] : [answer(numberQ!.id, 'Number', a.amount)]), answer(dateQ!.id, 'Date', a.day)],
      })),
    );
    const { body } = await graphql(
      app,
      `query ($id: ID!) { form(id: $id) { summary { questions { answers options { option count } numbers { count mean median min max } dates { earliest latest } } } } }`,
      { id: form.id },
      { 'x-api-key': tenant.apiKey },
    );
    const [numberSummary, dateSummary] = body.data.form.summary.questions;
    const amounts = answers.flatMap((a) => (a.amount === null ? [] : [a.amount])).sort((x, y) => x - y);
    const middle = amounts.length / 2;
    expect(numberSummary.numbers.count).toBe(amounts.length);
    expect(numberSummary.numbers.mean).toBeCloseTo(amounts.reduce((sum, a) => sum + a, 0) / amounts.length, 6);
    expect(numberSummary.numbers.median).toBeCloseTo(amounts.length % 2 ? amounts[Math.floor(middle)]! : (amounts[middle - 1]! + amounts[middle]!) / 2, 9);
    expect([numberSummary.numbers.min, numberSummary.numbers.max]).toEqual([amounts[0], amounts.at(-1)]);
    const days = answers.map((a) => a.day).sort();
    expect(dateSummary.dates).toEqual({ earliest: days[0], latest: days.at(-1) });
    const perMonth = new Map<string, number>();
    for (const d of days) perMonth.set(d.slice(0, 7), (perMonth.get(d.slice(0, 7)) ?? 0) + 1);
    expect(dateSummary.options).toEqual([...perMonth].sort(([a], [b]) => (a < b ? -1 : 1)).map(([option, count]) => ({ option, count })));
  });

  it('lists every month between min and max, across years, and none when they are far apart', () => {
    expect(monthsBetween('2025-11-15', '2026-02-01')).toEqual(['2025-11', '2025-12', '2026-01', '2026-02']);
    expect(monthsBetween('2000-01-01', '2030-01-01')).toEqual([]);
    expect(monthsBetween(undefined, '2030-01-01')).toEqual([]);
  });
});

describe('conditions', () => {
  const withRule = (condition: unknown) => generate([{ ...STEPS[0], logic: { rules: [{ if: condition, then: { goTo: 'big' } }] } }, ...STEPS.slice(1)]);

  it('take number ops on a Number and date ops on a Date, and refuse the others', async () => {
    for (const condition of [
      { question: 'budget', op: 'between', value: [0.5, 10] },
      { question: 'seats', op: 'lessOrEqual', value: 3 },
      { question: 'start', op: 'between', value: ['2026-03-01', '2026-03-31'] },
      { question: 'start', op: 'after', value: '2026-06-30' },
      { question: 'start', op: 'equals', value: '2026-06-30' },
    ]) {
      expect((await withRule(condition)).status, JSON.stringify(condition)).toBe(200);
    }
    const refusals = [
      [{ question: 'start', op: 'greaterThan', value: 3 }, 'op', /can't test "start" \(a date\)/],
      [{ question: 'start', op: 'equals', value: '2026-02-30' }, 'value', /a date written YYYY-MM-DD/],
      [{ question: 'start', op: 'between', value: ['2026-01-01', 2] }, 'value', /two numbers, or two dates/],
      [{ question: 'start', op: 'after', value: 'tomorrow' }, 'value', /takes a date/],
      [{ question: 'seats', op: 'before', value: '2026-01-01' }, 'op', /can't test "seats" \(a number\)/],
      [{ question: 'seats', op: 'equals', value: 501 }, 'value', /answers 1 to 500/],
    ] as const;
    for (const [condition, key, message] of refusals) {
      const { status, body } = await withRule(condition);
      expect(status, JSON.stringify(condition)).toBe(400);
      expect(body.errors).toEqual([{ path: ['steps', 0, 'logic', 'rules', 0, 'if', key], message: expect.stringMatching(message) }]);
    }
  });
});
