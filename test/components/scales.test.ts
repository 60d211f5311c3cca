/**
 * Rating, NPS and OpinionScale (the numeric-scale core): content refused with every problem at its path,
 * the page's radio groups without JavaScript, answers from the page and the JSON API, the listing, the
 * export, the GraphQL members, the summary (checked against an independent calculation over 1,000 random
 * answers) and conditions on their numbers ("NPS ≤ 6 → ask what went wrong").
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

const generate = (steps: unknown[], more: Record<string, unknown> = {}) => generateThroughApi(app, db, tenant, 'Feedback', steps, more);

const SCALE_STEPS = [
  {
    name: 'Feedback',
    components: [
      {
        type: 'Rating',
        key: 'rating',
        content: { question: 'Rate the onboarding', scale: 4, lowLabel: 'Poor', highLabel: 'Great', required: true },
      },
      { type: 'NPS', key: 'nps', content: { question: 'How likely are you to recommend us?' } },
      {
        type: 'OpinionScale',
        key: 'opinion',
        content: { question: 'Docs are clear', from: 0, to: 4, labels: { left: 'No', center: 'Meh', right: 'Yes' } },
      },
    ],
  },
  { name: 'Why', key: 'why', components: [{ type: 'LongInput', content: { question: 'What went wrong?' } }] },
  { name: 'Thanks', key: 'thanks', components: [{ type: 'Header', content: { title: 'Thanks' } }] },
];

describe('content', () => {
  it('stores the defaults: a 5-star rating, a 1-to-5 opinion scale', async () => {
    const { status, form } = await generate([
      {
        name: 'A',
        components: [
          { type: 'Rating', content: {} },
          { type: 'NPS', content: {} },
          { type: 'OpinionScale', content: {} },
        ],
      },
      { name: 'B', components: [{ type: 'Header', content: { title: 'T' } }] },
    ]);
    expect(status).toBe(200);
    expect(form.steps[0]!.components.map((c: { content: unknown }) => c.content)).toEqual([{ scale: 5, shape: 'star' }, {}, { from: 1, to: 5 }]);
  });

  it('refuses out-of-bounds scales, unknown shapes and unknown keys, every problem at its path', async () => {
    const { status, body } = await generate([
      {
        name: 'A',
        components: [
          { type: 'Rating', content: { scale: 11, shape: 'heart', colour: 'red' } },
          { type: 'Rating', content: { scale: 2.5 } },
          { type: 'NPS', content: { question: 'Q', scale: 5 } },
          { type: 'OpinionScale', content: { from: 2, to: 11, labels: { left: 'a', middle: 'b' } } },
          { type: 'OpinionScale', content: { to: 1, required: 'yes' } },
        ],
      },
      { name: 'B', components: [{ type: 'Header', content: { title: 'T' } }] },
    ]);
    expect(status).toBe(400);
    const at = (component: number, ...path: (string | number)[]) => JSON.stringify(['steps', 0, 'components', component, 'content', ...path]);
    const byPath = new Map<string, string>(body.errors.map((e: { path: unknown[]; message: string }) => [JSON.stringify(e.path), e.message]));
    expect([...byPath.keys()].sort()).toEqual(
      [at(0, 'scale'), at(0, 'shape'), at(0), at(1, 'scale'), at(2), at(3, 'from'), at(3, 'to'), at(3, 'labels'), at(4, 'to'), at(4, 'required')].sort(),
    );
    expect(byPath.get(at(0))).toMatch(/colour/);
    expect(byPath.get(at(2))).toMatch(/scale/);
    expect(byPath.get(at(3, 'labels'))).toMatch(/middle/);
  });
});

describe('a feedback form, end to end', () => {
  let form: Form;
  beforeAll(async () => {
    const generated = await generate(
      [
        {
          ...SCALE_STEPS[0],
          logic: {
            rules: [{ if: { question: 'nps', op: 'lessOrEqual', value: 6 }, then: { goTo: 'why' } }],
            next: 'thanks',
          },
        },
        ...SCALE_STEPS.slice(1),
      ],
      { locale: 'de' },
    );
    expect(generated.status).toBe(200);
    form = generated.form;
  });
  const rating = () => componentAt(form, 0, 0);
  const npsQ = () => componentAt(form, 0, 1);
  const opinion = () => componentAt(form, 0, 2);

  it('draws each scale as a radio group without JavaScript, with its labels, in the form’s language', async () => {
    const page = await (await app.request(`/s/${form.id}`)).text();
    const group = (id: string) => page.slice(page.indexOf(`id="q-${id}"`), page.indexOf('</fieldset>', page.indexOf(`id="q-${id}"`)));
    const stars = group(rating().id);
    expect(stars).toContain('role="radiogroup" aria-required="true"');
    expect(stars.match(/type="radio"/g)).toHaveLength(4);
    expect(stars).toContain('<span class="sr-only">3 von 4</span>');
    expect(stars).toContain('<span>Poor</span><span></span><span>Great</span>');
    const nps = group(npsQ().id);
    expect([...nps.matchAll(/value="(\d+)"/g)].map((m) => Number(m[1]))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(nps).not.toContain('aria-required');
    expect(nps).toContain('Überhaupt nicht wahrscheinlich');
    expect(nps).toContain('Äußerst wahrscheinlich');
    expect(group(opinion().id)).toContain('<span>No</span><span>Meh</span><span>Yes</span>');
  });

  it('takes the page’s fields, refuses what is out of range in the form’s language, and follows NPS ≤ 6', async () => {
    const visitor = new Visitor(app);
    await visitor.get(`/s/${form.id}`);
    const refused = await visitor.submit(form, 0, {
      [field(rating())]: '5',
      [field(npsQ())]: 'x',
      [field(opinion())]: '2',
    });
    expect(refused.status).toBe(422);
    const page = await refused.text();
    expect(page).toContain('Eine ganze Zahl von 1 bis 4');
    expect(page).toContain('Eine ganze Zahl von 0 bis 10');
    const missing = await visitor.submit(form, 0, { [field(npsQ())]: '9' });
    expect(await missing.text()).toContain('Bitte beantworten Sie diese Frage');
    const sent = await visitor.submit(form, 0, {
      [field(rating())]: '3',
      [field(npsQ())]: '6',
      [field(opinion())]: '0',
    });
    expect(sent.status).toBe(303);
    expect(sent.headers.get('location')).toContain('step=1');
    const response = await onlyResponse(db, form.id);
    const values = Object.fromEntries(response.data.map((a) => [a.questionId, a.response.value]));
    expect(values).toEqual({ [rating().id]: 3, [npsQ().id]: 6, [opinion().id]: 0 });
    // The revisited step shows the answers chosen.
    const again = await (await visitor.get(`/s/${form.id}?step=0`)).text();
    expect(again).toContain(`id="f-${npsQ().id}-6" name="${field(npsQ())}" value="6" checked`);
  });

  it('takes whole numbers in range on the JSON API, and refuses the rest with the answer’s path', async () => {
    const start = (answers: Record<string, unknown>) => app.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers }));
    const bad = await start({ [rating().id]: 2.5, [npsQ().id]: 11, [opinion().id]: '3' });
    expect(bad.status).toBe(400);
    const errors = ((await bad.json()) as { errors: { path: unknown[]; message: string }[] }).errors;
    expect(errors).toEqual([
      { path: ['answers', rating().id], message: 'Must be a whole number from 1 to 4' },
      { path: ['answers', npsQ().id], message: 'Must be a whole number from 0 to 10' },
      { path: ['answers', opinion().id], message: 'Must be a whole number from 0 to 4' },
    ]);
    const good = await start({ [rating().id]: 4, [npsQ().id]: 10, [opinion().id]: 4 });
    expect(good.status).toBe(201);
    const { nextStep } = (await good.json()) as { nextStep: string };
    expect(nextStep).toBe('thanks');
  });

  it('lists, exports and types the answers; the summary measures them', async () => {
    const headers = { 'x-api-key': tenant.apiKey };
    const listing = (await (await app.request(`/api/v1/responses?formId=${form.id}&returnPartials=true`, { headers })).json()) as { data: { data: ResponseAnswer[] }[] };
    expect(listing.data.flatMap((r) => r.data.filter((a) => a.questionId === npsQ().id).map((a) => a.response.value)).sort()).toEqual([10, 6]);
    const csv = await (await app.request(`/api/v1/responses/export?formId=${form.id}&returnPartials=true`, { headers })).text();
    const [head, ...rows] = csv.trim().split('\r\n');
    expect(head).toContain(`Rate the onboarding [${rating().id}]`);
    expect(head).toContain(`How likely are you to recommend us? [${npsQ().id}]`);
    expect(rows.map((row) => row.split(',').slice(-4, -1).join(',')).sort()).toEqual(['3,6,0', '4,10,4']);

    const { body } = await graphql(
      app,
      `
        query ($id: ID!, $formId: ID!) {
          form(id: $id) {
            steps {
              components {
                __typename
                ... on Rating {
                  scale
                  shape
                  lowLabel
                  highLabel
                  required
                }
                ... on NPS {
                  question
                  lowLabel
                }
                ... on OpinionScale {
                  from
                  to
                  labels {
                    left
                    center
                    right
                  }
                }
              }
            }
            summary {
              questions {
                type
                answers
                options {
                  option
                  count
                }
                numbers {
                  count
                  mean
                  median
                  min
                  max
                }
                promoterScore {
                  promoters
                  passives
                  detractors
                  score
                }
              }
            }
          }
          formResponses(formId: $formId, filter: { returnPartials: true }) {
            edges {
              node {
                data {
                  answer {
                    __typename
                    ... on RatingAnswer {
                      score
                    }
                    ... on NPSAnswer {
                      score
                    }
                    ... on OpinionScaleAnswer {
                      score
                    }
                    ... on GraphicOptionsAnswer {
                      value
                    }
                  }
                }
              }
            }
          }
        }
      `,
      { id: form.id, formId: form.id },
      headers,
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.form.steps[0].components).toEqual([
      { __typename: 'Rating', scale: 4, shape: 'star', lowLabel: 'Poor', highLabel: 'Great', required: true },
      { __typename: 'NPS', question: 'How likely are you to recommend us?', lowLabel: null },
      { __typename: 'OpinionScale', from: 0, to: 4, labels: { left: 'No', center: 'Meh', right: 'Yes' } },
    ]);
    const typed = body.data.formResponses.edges.flatMap((e: any) => e.node.data.map((d: any) => d.answer));
    expect(typed, JSON.stringify(typed)).toContainEqual({ __typename: 'NPSAnswer', score: 6 });
    expect(typed).toContainEqual({ __typename: 'RatingAnswer', score: 4 });
    const [ratingSummary, npsSummary, opinionSummary] = body.data.form.summary.questions;
    expect(ratingSummary).toMatchObject({
      type: 'Rating',
      answers: 2,
      numbers: { count: 2, mean: 3.5, median: 3.5, min: 3, max: 4 },
      promoterScore: null,
    });
    expect(ratingSummary.options).toEqual([1, 2, 3, 4].map((v) => ({ option: String(v), count: v >= 3 ? 1 : 0 })));
    expect(npsSummary.promoterScore).toEqual({ promoters: 1, passives: 0, detractors: 1, score: 0 });
    expect(npsSummary.options).toHaveLength(11);
    expect(opinionSummary.numbers).toEqual({ count: 2, mean: 2, median: 2, min: 0, max: 4 });
  });
});

describe('the summary over 1,000 random answers', () => {
  it('matches an independent calculation of count, mean, median, counts per value and the NPS', async () => {
    const form = await makeForm(db, tenant, SCALE_STEPS, 'Random');
    const [ratingQ, npsQ] = [componentAt(form, 0, 0), componentAt(form, 0, 1)];
    const answers = fc.sample(
      fc.record({
        rating: fc.option(fc.integer({ min: 1, max: 4 }), { freq: 5 }),
        nps: fc.integer({ min: 0, max: 10 }),
      }),
      { numRuns: 1000, seed: 37 },
    );
    const answer = (questionId: string, type: string, value: number): ResponseAnswer => ({
      questionId,
      response: { type, componentShapeVersion: '2.0', headline: 'Q', value },
    });
    await insertResponses(
      db,
      answers.map((a) => ({
        environmentId: tenant.environmentId,
        formId: form.id,
        data: [...(a.rating === null ? [] : [answer(ratingQ.id, 'Rating', a.rating)]), answer(npsQ.id, 'NPS', a.nps)],
      })),
    );
    const { body } = await graphql(
      app,
      `
        query ($id: ID!) {
          form(id: $id) {
            summary {
              questions {
                answers
                options {
                  option
                  count
                }
                numbers {
                  count
                  mean
                  median
                  min
                  max
                }
                promoterScore {
                  promoters
                  passives
                  detractors
                  score
                }
              }
            }
          }
        }
      `,
      { id: form.id },
      { 'x-api-key': tenant.apiKey },
    );
    const [ratingSummary, npsSummary] = body.data.form.summary.questions;

    const ratings = answers.flatMap((a) => (a.rating === null ? [] : [a.rating])).sort((x, y) => x - y);
    const middle = ratings.length / 2;
    const median = ratings.length % 2 === 1 ? ratings[Math.floor(middle)]! : (ratings[middle - 1]! + ratings[middle]!) / 2;
    expect(ratingSummary.answers).toBe(ratings.length);
    expect(ratingSummary.numbers.count).toBe(ratings.length);
    expect(ratingSummary.numbers.mean).toBeCloseTo(ratings.reduce((sum, r) => sum + r, 0) / ratings.length, 9);
    expect(ratingSummary.numbers.median).toBe(median);
    expect(ratingSummary.options).toEqual([1, 2, 3, 4].map((v) => ({ option: String(v), count: ratings.filter((r) => r === v).length })));

    const scores = answers.map((a) => a.nps);
    const promoters = scores.filter((s) => s >= 9).length;
    const detractors = scores.filter((s) => s <= 6).length;
    expect(npsSummary.promoterScore).toEqual({
      promoters,
      passives: 1000 - promoters - detractors,
      detractors,
      score: Math.round(((promoters - detractors) / 1000) * 1000) / 10,
    });
    expect(npsSummary.options.map((o: { count: number }) => o.count)).toEqual(Array.from({ length: 11 }, (_, v) => scores.filter((s) => s === v).length));
  });
});

describe('conditions', () => {
  const withRule = (condition: unknown) => generate([{ ...SCALE_STEPS[0], logic: { rules: [{ if: condition, then: { goTo: 'why' } }] } }, ...SCALE_STEPS.slice(1)]);

  it('takes the number ops on a scale and refuses text ops, texts and values the scale never answers', async () => {
    for (const condition of [
      { question: 'nps', op: 'between', value: [0, 6] },
      { question: 'rating', op: 'greaterOrEqual', value: 3 },
      { question: 'opinion', op: 'in', value: [0, 1] },
      { question: 'nps', op: 'notAnswered' },
    ]) {
      expect((await withRule(condition)).status).toBe(200);
    }
    const refusals = [
      [{ question: 'nps', op: 'contains', value: '9' }, 'op', /can't test "nps" \(a number\)/],
      [{ question: 'nps', op: 'equals', value: '9' }, 'value', /a number: compare with a number/],
      [{ question: 'nps', op: 'equals', value: 11 }, 'value', /answers 0 to 10: 11 is never its answer/],
      [{ question: 'rating', op: 'between', value: [4, 1] }, 'value', /must not be above/],
      [{ question: 'rating', op: 'between', value: [1] }, 'value', /two numbers/],
      [{ question: 'rating', field: 'x', op: 'answered' }, 'field', /no fields/],
    ] as const;
    for (const [condition, key, message] of refusals) {
      const { status, body } = await withRule(condition);
      expect(status).toBe(400);
      expect(body.errors).toEqual([{ path: ['steps', 0, 'logic', 'rules', 0, 'if', key], message: expect.stringMatching(message) }]);
    }
  });
});
