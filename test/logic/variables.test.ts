/**
 * Form variables end to end (docs/logic.md): declared with the form, calculated by the rules of each
 * submitted step (optionScores, numeric and text answers, other variables), tested by conditions, and
 * recorded on the response (`meta.variables`) that the listings, GraphQL, the CSV export and the summary
 * read. Every refusal at save has its path.
 */
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { outboxEvents, responses } from '../../src/db/schema.ts';
import type { Form } from '../../src/forms/forms.service.ts';
import { appWith, createTenant, graphql, jsonRequest, setupIsolatedTestApp, type TestContext, type TestTenant } from '../support/helpers.ts';
import { generateThroughApi } from '../support/public-helpers.ts';

let ctx: TestContext;
let app: TestContext['app'];
let tenant: TestTenant;

beforeAll(async () => {
  ctx = await setupIsolatedTestApp();
  app = appWith(ctx.db, { publicRateLimitPerMinute: 0 });
  tenant = await createTenant(ctx.db);
});

const byKey = (form: Form, key: string) => form.steps.flatMap((s) => s.components).find((c) => c.key === key)!;

/** The JSON API of one form, answering by component key. */
function respondent(form: Form) {
  const answers = (byKeyAnswers: Record<string, unknown>) => Object.fromEntries(Object.entries(byKeyAnswers).map(([key, value]) => [byKey(form, key).id, value]));
  let id = '';
  let token = '';
  return {
    async send(byKeyAnswers: Record<string, unknown>, more: Record<string, unknown> = {}) {
      const response = id
        ? await app.request(`/s/${form.id}/responses/${id}`, jsonRequest('PATCH', { answers: answers(byKeyAnswers), ...more }, { authorization: `Bearer ${token}` }))
        : await app.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers: answers(byKeyAnswers), ...more }));
      const body: any = await response.json();
      if (!id && response.status < 300) ({ id, resumeToken: token } = body);
      return { status: response.status, body };
    },
    get id() {
      return id;
    },
  };
}

async function storedMeta(responseId: string) {
  const [row] = await ctx.db.select().from(responses).where(eq(responses.id, responseId));
  return row?.meta;
}

const QUIZ_STEPS = [
  {
    name: 'Capitals',
    key: 'q1',
    components: [
      {
        type: 'Dropdown',
        key: 'france',
        content: { question: 'Capital of France?', options: ['Paris', 'Lyon'], optionScores: { Paris: 5 } },
      },
    ],
    logic: {
      rules: [
        {
          if: { question: 'france', op: 'answered' },
          then: { calculate: { variable: 'score', op: 'add', value: { scoreOf: 'france' } } },
        },
      ],
    },
  },
  {
    name: 'Rivers',
    key: 'q2',
    components: [
      {
        type: 'MultipleOptionsQuestion',
        key: 'rivers',
        content: {
          question: 'Which are rivers?',
          choices: ['Rhine', 'Alps', 'Danube'],
          isMulti: true,
          optionScores: { Rhine: 2.5, Danube: 2.5, Alps: -1 },
        },
      },
    ],
    logic: {
      rules: [
        {
          if: { question: 'rivers', op: 'answered' },
          then: [{ calculate: { variable: 'score', op: 'add', value: { scoreOf: 'rivers' } } }, { calculate: { variable: 'picked', op: 'append', value: { question: 'rivers' } } }],
        },
        { if: { variable: 'score', op: 'greaterOrEqual', value: 10 }, then: { goTo: 'perfect' } },
      ],
    },
  },
  {
    name: 'Done',
    key: 'done',
    completion: true,
    components: [{ type: 'Header', content: { title: 'You scored {{variable.score}} of 10' } }],
  },
  {
    name: 'Perfect',
    key: 'perfect',
    completion: true,
    components: [{ type: 'Header', content: { title: 'Full marks' } }],
  },
];
const QUIZ_VARIABLES = [
  { name: 'score', type: 'number' },
  { name: 'picked', type: 'text', initial: 'Picked: ' },
];

describe('a scored quiz', () => {
  let quiz: Form;
  beforeAll(async () => {
    const made = await generateThroughApi(app, ctx.db, tenant, 'Quiz', QUIZ_STEPS, { variables: QUIZ_VARIABLES });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    quiz = made.form;
  });

  it('stores the variables with their defaults and reads them back typed in GraphQL', async () => {
    expect(quiz.variables).toEqual([
      { name: 'score', type: 'number', initial: 0 },
      { name: 'picked', type: 'text', initial: 'Picked: ' },
    ]);
    const { body } = await graphql(
      app,
      `
        query ($id: ID!) {
          form(id: $id) {
            variables {
              name
              type
              initial
            }
            steps {
              logic {
                rules {
                  action {
                    goTo
                  }
                  actions {
                    calculate {
                      variable
                      op
                      value
                    }
                  }
                  condition {
                    __typename
                    ... on VariableCondition {
                      variable
                      op
                      value
                    }
                  }
                }
              }
            }
          }
        }
      `,
      { id: quiz.id },
      { 'x-api-key': tenant.apiKey },
    );
    expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
    expect(body.data.form.variables).toEqual([
      { name: 'score', type: 'number', initial: 0 },
      { name: 'picked', type: 'text', initial: 'Picked: ' },
    ]);
    const rules = body.data.form.steps[1].logic.rules;
    expect(rules[0].action).toBeNull();
    expect(rules[0].actions.map((a: any) => a.calculate)).toEqual([
      { variable: 'score', op: 'add', value: { scoreOf: 'rivers' } },
      { variable: 'picked', op: 'append', value: { question: 'rivers' } },
    ]);
    expect(rules[1]).toMatchObject({
      action: { goTo: 'perfect' },
      condition: { __typename: 'VariableCondition', variable: 'score', op: 'greaterOrEqual', value: 10 },
    });
  });

  it("sums the chosen options' scores along the path and routes on the sum", async () => {
    const perfect = respondent(quiz);
    expect((await perfect.send({ france: 'Paris' })).body.nextStep).toBe('q2');
    expect(await storedMeta(perfect.id)).toMatchObject({ variables: { score: 5, picked: 'Picked: ' } });
    const finished = await perfect.send({ rivers: ['Rhine', 'Danube'] });
    expect(finished.body.finished).toBe(true);
    expect(await storedMeta(perfect.id)).toMatchObject({
      path: ['q1', 'q2', 'perfect'],
      variables: { score: 10, picked: 'Picked: Rhine, Danube' },
    });

    const partial = respondent(quiz);
    await partial.send({ france: 'Lyon' });
    await partial.send({ rivers: ['Rhine', 'Alps'] });
    expect(await storedMeta(partial.id)).toMatchObject({ path: ['q1', 'q2', 'done'], variables: { score: 1.5 } });
  });

  it('recomputes from the answers when an earlier answer changes: the same as answering that way first', async () => {
    const back = respondent(quiz);
    await back.send({ france: 'Lyon' });
    expect(await storedMeta(back.id)).toMatchObject({ variables: { score: 0 } });
    await back.send({ france: 'Paris' });
    expect(await storedMeta(back.id)).toMatchObject({ variables: { score: 5 } });
    await back.send({ france: 'Lyon' });
    expect(await storedMeta(back.id)).toMatchObject({ variables: { score: 0, picked: 'Picked: ' } });
  });

  it('gives GraphQL a typed list, the CSV export a column per variable, and the summary the number variables', async () => {
    const { body } = await graphql(
      app,
      `
        query ($id: ID!) {
          formResponses(formId: $id, filter: { returnPartials: true }) {
            edges {
              node {
                variables {
                  name
                  number
                  text
                }
              }
            }
          }
          form(id: $id) {
            summary {
              variables {
                name
                count
                mean
                min
                max
              }
            }
          }
        }
      `,
      { id: quiz.id },
      { 'x-api-key': tenant.apiKey },
    );
    expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
    const lists = body.data.formResponses.edges.map((e: any) => e.node.variables);
    expect(lists).toContainEqual([
      { name: 'score', number: 10, text: null },
      { name: 'picked', number: null, text: 'Picked: Rhine, Danube' },
    ]);
    // Finished: 10 and 1.5; the unfinished ones are left out.
    expect(body.data.form.summary.variables).toEqual([{ name: 'score', count: 2, mean: 5.75, min: 1.5, max: 10 }]);

    const listed: any = await (await app.request(`/api/v1/responses?formId=${quiz.id}`, { headers: { 'x-api-key': tenant.apiKey } })).json();
    expect(listed.data.map((r: any) => r.meta.variables)).toContainEqual({
      score: 10,
      picked: 'Picked: Rhine, Danube',
    });

    const csv = await (
      await app.request(`/api/v1/responses/export?formId=${quiz.id}&format=csv&returnPartials=true`, {
        headers: { 'x-api-key': tenant.apiKey },
      })
    ).text();
    const [header, ...rows] = csv.trim().split('\n');
    expect(header).toContain('score [variable],picked [variable]');
    expect(rows.some((row) => row.includes('10,"Picked: Rhine, Danube"') || row.includes('10,Picked: Rhine, Danube'))).toBe(true);

    const ndjson = await (
      await app.request(`/api/v1/responses/export?formId=${quiz.id}&format=ndjson&returnPartials=true`, {
        headers: { 'x-api-key': tenant.apiKey },
      })
    ).text();
    const exported = ndjson
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { meta: { variables?: unknown } });
    expect(exported.map((r) => r.meta.variables)).toContainEqual({ score: 10, picked: 'Picked: Rhine, Danube' });
    // The webhooks' response objects carry them as they were when the event was made.
    const events = await ctx.db
      .select()
      .from(outboxEvents)
      .where(and(eq(outboxEvents.formId, quiz.id), eq(outboxEvents.type, 'response.finished')));
    expect(events.map((event) => (event.payload.data as { meta: { variables?: unknown } }).meta.variables)).toContainEqual({ score: 10, picked: 'Picked: Rhine, Danube' });
  });
});

describe('a qualification form summing points', () => {
  it('adds numeric text answers, multiplies, divides (by zero: unchanged) and rounds to 6 places', async () => {
    const steps = [
      {
        name: 'Size',
        components: [
          { type: 'ShortInput', key: 'seats', content: { question: 'Seats?' } },
          { type: 'ShortInput', key: 'divisor', content: { question: 'Divide by?' } },
        ],
        logic: {
          rules: [
            {
              if: { question: 'seats', op: 'answered' },
              then: [{ calculate: { variable: 'points', op: 'add', value: { question: 'seats' } } }, { calculate: { variable: 'points', op: 'multiply', value: 3 } }],
            },
            {
              if: { question: 'divisor', op: 'answered' },
              then: { calculate: { variable: 'points', op: 'divide', value: { question: 'divisor' } } },
            },
            { if: { variable: 'points', op: 'greaterThan', value: 100 }, then: { goTo: 'sales' } },
          ],
        },
      },
      { name: 'Self serve', components: [{ type: 'Header', content: { title: 'Sign up' } }] },
      {
        name: 'Sales',
        key: 'sales',
        completion: true,
        components: [{ type: 'Header', content: { title: 'Our sales team calls you' } }],
      },
    ];
    const { form, status, body } = await generateThroughApi(app, ctx.db, tenant, 'Points', steps, {
      variables: [{ name: 'points', type: 'number', initial: 1 }],
    });
    expect(status, JSON.stringify(body)).toBe(200);

    const big = respondent(form);
    expect((await big.send({ seats: '40', divisor: '0' })).body.finished).toBe(true);
    expect(await storedMeta(big.id)).toMatchObject({ variables: { points: 123 }, path: ['step_1', 'sales'] });

    const small = respondent(form);
    expect((await small.send({ seats: '0.5', divisor: '7' })).body.nextStep).toBe('step_2');
    expect(await storedMeta(small.id)).toMatchObject({ variables: { points: 0.642857 } });

    // A text answer that is not a number: that calculation is skipped, the next still applies.
    const words = respondent(form);
    await words.send({ seats: 'many' });
    expect(await storedMeta(words.id)).toMatchObject({ variables: { points: 3 } });
  });
});

describe('refused at save, with the path', () => {
  const base = (logic: unknown, more: Record<string, unknown> = {}, content: Record<string, unknown> = { question: 'Pick', options: ['A', 'B'] }) => [
    {
      name: 'One',
      components: [
        { type: 'Dropdown', key: 'pick', content },
        { type: 'ShortInput', key: 'name', content: { question: 'Name' } },
      ],
      logic,
      ...more,
    },
    { name: 'Two', components: [{ type: 'ShortInput', key: 'later', content: { question: 'Later' } }] },
  ];
  const VARIABLES = [
    { name: 'score', type: 'number' },
    { name: 'label', type: 'text' },
  ];
  const calc = (calculate: unknown) => ({ rules: [{ if: { question: 'pick', op: 'answered' }, then: { calculate } }] });
  const at = ['steps', 0, 'logic', 'rules', 0, 'then', 'calculate'];

  const cases: [string, unknown[], Record<string, unknown>, (string | number)[]][] = [
    ['an undeclared variable', base(calc({ variable: 'nope', op: 'add', value: 1 })), { variables: VARIABLES }, [...at, 'variable']],
    ['append on a number variable', base(calc({ variable: 'score', op: 'append', value: 'x' })), { variables: VARIABLES }, [...at, 'op']],
    ['arithmetic on a text variable', base(calc({ variable: 'label', op: 'add', value: 'x' })), { variables: VARIABLES }, [...at, 'op']],
    ['a text for a number variable', base(calc({ variable: 'score', op: 'set', value: 'ten' })), { variables: VARIABLES }, [...at, 'value']],
    ['a number for a text variable', base(calc({ variable: 'label', op: 'set', value: 3 })), { variables: VARIABLES }, [...at, 'value']],
    ['a question on a later step', base(calc({ variable: 'score', op: 'add', value: { question: 'later' } })), { variables: VARIABLES }, [...at, 'value', 'question']],
    ['scoreOf a question without optionScores', base(calc({ variable: 'score', op: 'add', value: { scoreOf: 'pick' } })), { variables: VARIABLES }, [...at, 'value', 'scoreOf']],
    ['a variable of the other type', base(calc({ variable: 'score', op: 'set', value: { variable: 'label' } })), { variables: VARIABLES }, [...at, 'value', 'variable']],
    ['an unknown op', base(calc({ variable: 'score', op: 'power', value: 2 })), { variables: VARIABLES }, [...at, 'op']],
    ['a malformed value', base(calc({ variable: 'score', op: 'add', value: { answer: 'pick' } })), { variables: VARIABLES }, [...at, 'value']],
    [
      'an unknown option in optionScores',
      base(undefined, {}, { question: 'Pick', options: ['A', 'B'], optionScores: { C: 1 } }),
      {},
      ['steps', 0, 'components', 0, 'content', 'optionScores', 'C'],
    ],
    [
      'a score that is not a number',
      base(undefined, {}, { question: 'Pick', options: ['A', 'B'], optionScores: { A: 'one' } }),
      {},
      ['steps', 0, 'components', 0, 'content', 'optionScores', 'A'],
    ],
    ['a variable named as a hidden field', base(undefined), { variables: [{ name: 'plan', type: 'text' }], hiddenFields: ['plan'] }, ['variables', 0, 'name']],
    [
      'a variable declared twice',
      base(undefined),
      {
        variables: [
          { name: 'a', type: 'text' },
          { name: 'a', type: 'number' },
        ],
      },
      ['variables', 1, 'name'],
    ],
    ['an initial value of the other type', base(undefined), { variables: [{ name: 'a', type: 'number', initial: 'zero' }] }, ['variables', 0, 'initial']],
    [
      'a condition on an undeclared variable',
      base({ rules: [{ if: { variable: 'nope', op: 'equals', value: 1 }, then: { complete: true } }] }),
      { variables: VARIABLES },
      ['steps', 0, 'logic', 'rules', 0, 'if', 'variable'],
    ],
    [
      'a text op on a number variable',
      base({ rules: [{ if: { variable: 'score', op: 'contains', value: 'x' }, then: { complete: true } }] }),
      { variables: VARIABLES },
      ['steps', 0, 'logic', 'rules', 0, 'if', 'op'],
    ],
    [
      'two routing actions in one rule',
      base({ rules: [{ if: { question: 'pick', op: 'answered' }, then: [{ complete: true }, { invalid: true }] }] }),
      {},
      ['steps', 0, 'logic', 'rules', 0, 'then', 1],
    ],
    ['an empty action list', base({ rules: [{ if: { question: 'pick', op: 'answered' }, then: [] }] }), {}, ['steps', 0, 'logic', 'rules', 0, 'then']],
  ];
  it.each(cases)('%s', async (_what, steps, more, path) => {
    const { status, body } = await generateThroughApi(app, ctx.db, tenant, 'Refused', steps, more);
    expect(status).toBe(400);
    expect(body.errors.map((e: any) => JSON.stringify(e.path))).toContain(JSON.stringify(path));
  });

  it('an update with a bad calculation changes nothing', async () => {
    const { form } = await generateThroughApi(app, ctx.db, tenant, 'Kept', base(undefined), { variables: VARIABLES });
    const response = await app.request(
      `/api/v1/forms/${form.id}`,
      jsonRequest('PATCH', { variables: [{ name: 'score', type: 'text' }], steps: base(calc({ variable: 'score', op: 'add', value: 1 })) }, { 'x-api-key': tenant.apiKey }),
    );
    expect(response.status).toBe(400);
    const read: any = await (await app.request(`/api/v1/forms/${form.id}`, { headers: { 'x-api-key': tenant.apiKey } })).json();
    expect(read.data.version).toBe(1);
    expect(read.data.variables).toEqual([
      { name: 'score', type: 'number', initial: 0 },
      { name: 'label', type: 'text', initial: '' },
    ]);
  });
});
