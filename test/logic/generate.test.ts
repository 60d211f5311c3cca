/**
 * Logic in the generate contract (docs/logic.md), REST and GraphQL alike: keys, hidden fields,
 * completion and invalid steps and rules are stored and read back (the public definition, typed
 * GraphQL); every problem is refused at once with its path.
 */
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { forms } from '../../src/db/schema.ts';
import { stepKey } from '../../src/forms/logic.ts';
import { createTenant, graphql, jsonRequest, setupTestApp, type TestContext, type TestTenant } from '../support/helpers.ts';
import { QUALIFICATION_HIDDEN_FIELDS, QUALIFICATION_STEPS } from '../support/logic-fixtures.ts';

let ctx: TestContext;
let tenant: TestTenant;

beforeAll(async () => {
  ctx = await setupTestApp();
  tenant = await createTenant(ctx.db);
});

const body = (steps: unknown[], more: Record<string, unknown> = {}) => ({ sourceFormId: tenant.templateId, name: 'Qualify', steps, ...more });

async function generate(input: unknown) {
  const response = await ctx.app.request(`/api/v1/environments/${tenant.environmentId}/forms/generate`, jsonRequest('POST', input, { 'x-api-key': tenant.apiKey }));
  return { status: response.status, body: await response.json() };
}

const header = (title = 'x') => ({ type: 'Header', content: { title } });
const short = (key: string) => ({ type: 'ShortInput', key, content: { question: key } });

describe('a form with logic', () => {
  it('refuses hidden field names every object has (__proto__, constructor, prototype, toString, …) with their paths', async () => {
    const reserved = [...Object.getOwnPropertyNames(Object.prototype), 'prototype'];
    expect(reserved).toEqual(expect.arrayContaining(['__proto__', 'constructor', 'hasOwnProperty', 'toString', 'valueOf']));
    const { status, body: refused } = await generate(body([{ name: 'One', components: [short('a')] }], { hiddenFields: ['utm_source', ...reserved] }));
    expect(status).toBe(400);
    const paths = refused.errors.map((e: any) => JSON.stringify(e.path));
    reserved.forEach((_, index) => expect(paths).toContain(JSON.stringify(['hiddenFields', index + 1])));
    expect(paths).not.toContain(JSON.stringify(['hiddenFields', 0]));
    expect(refused.errors[0].message).toContain('must not be a name every object has');
  });

  it('is generated, stored with its keys (defaults where none was given), and described by the public definition', async () => {
    const steps = [...QUALIFICATION_STEPS, { name: 'Unnamed', components: [header()] }];
    const { status, body: created } = await generate(body(steps, { hiddenFields: QUALIFICATION_HIDDEN_FIELDS }));
    expect(status).toBe(200);
    const id = created.result.form.id as string;
    const [stored] = await ctx.db.select().from(forms).where(eq(forms.id, id));
    expect(stored!.hiddenFields).toEqual(['utm_source', 'plan']);
    expect(stored!.steps.map((step) => step.key)).toEqual(['about', 'students', 'demo', 'booked', 'pricing', 'step_6']);
    expect(stored!.steps[0]!.logic).toEqual(QUALIFICATION_STEPS[0]!.logic);
    expect(stored!.steps[0]!.components.map((c) => c.key)).toEqual(['who', 'role']);

    const definition = await (await ctx.app.request(`/s/${id}/definition`)).json();
    expect(definition.hiddenFields).toEqual(['utm_source', 'plan']);
    expect(definition.steps.map((s: any) => [s.key, s.completion, s.invalid])).toEqual([
      ['about', false, false],
      ['students', false, true],
      ['demo', false, false],
      ['booked', true, false],
      ['pricing', false, false],
      ['step_6', false, false],
    ]);
    expect(definition.steps[0].logic).toEqual(QUALIFICATION_STEPS[0]!.logic);
    expect(definition.steps[2].logic).toBeNull();
    expect(definition.steps[0].components.map((c: any) => c.key)).toEqual(['who', 'role']);
    expect(definition.steps[4].components[0].key).toBeNull();
  });

  it('GraphQL takes the same input and reads the logic back typed', async () => {
    const { body: result } = await graphql(
      ctx.app,
      /* GraphQL */ `
        mutation ($environmentId: ID!, $input: GenerateFormInput!) {
          generateForm(environmentId: $environmentId, input: $input) {
            form {
              hiddenFields
              steps {
                key
                completion
                invalid
                components { ... on Dropdown { key } ... on IdentityInfo { key } ... on Header { key } }
                logic {
                  next
                  rules {
                    condition {
                      __typename
                      ... on QuestionCondition { question op value }
                      ... on AnyCondition {
                        any {
                          __typename
                          ... on QuestionCondition { question field op value }
                          ... on HiddenFieldCondition { hidden op value }
                        }
                      }
                    }
                    action { goTo complete invalid }
                  }
                }
              }
            }
          }
        }
      `,
      { environmentId: tenant.environmentId, input: body(QUALIFICATION_STEPS, { hiddenFields: QUALIFICATION_HIDDEN_FIELDS }) },
      { 'x-api-key': tenant.apiKey },
    );
    expect(result.errors).toBeUndefined();
    const form = result.data.generateForm.form;
    expect(form.hiddenFields).toEqual(['utm_source', 'plan']);
    expect(form.steps.map((s: any) => s.key)).toEqual(['about', 'students', 'demo', 'booked', 'pricing']);
    expect(form.steps[1]).toMatchObject({ completion: false, invalid: true, logic: null });
    expect(form.steps[0].components).toEqual([{ key: 'who' }, { key: 'role' }]);
    expect(form.steps[0].logic).toEqual({
      next: 'pricing',
      rules: [
        { condition: { __typename: 'QuestionCondition', question: 'role', op: 'equals', value: 'Student' }, action: { goTo: 'students', complete: false, invalid: false } },
        {
          condition: {
            __typename: 'AnyCondition',
            any: [
              { __typename: 'QuestionCondition', question: 'who', field: 'numberOfEmployees', op: 'greaterThan', value: 200 },
              { __typename: 'HiddenFieldCondition', hidden: 'plan', op: 'equals', value: 'enterprise' },
            ],
          },
          action: { goTo: 'demo', complete: false, invalid: false },
        },
      ],
    });
  });

  it('a form without any logic is generated as before, its steps keyed step_<n>', async () => {
    const { status, body: created } = await generate(
      body([
        { name: 'A', components: [short('a')] },
        { name: 'B', components: [header()] },
      ]),
    );
    expect(status).toBe(200);
    const [stored] = await ctx.db.select().from(forms).where(eq(forms.id, created.result.form.id));
    expect(stored!.steps.map((step, index) => stepKey(step, index))).toEqual(['step_1', 'step_2']);
    expect(stored!.hiddenFields).toEqual([]);
  });
});

describe('refused, every problem at once with its path', () => {
  it('references, ops, fields, keys, final steps and hidden fields', async () => {
    const steps = [
      {
        name: 'First',
        key: 'first',
        components: [
          { type: 'IdentityInfo', key: 'who', content: { fields: [{ key: 'emailAddress', label: 'E-mail' }] } },
          { type: 'Dropdown', key: 'size', content: { options: ['S', 'M'] } },
          { type: 'Header', key: 'title', content: { title: 'Hi' } },
          { type: 'Disclaimer', key: 'terms', content: { text: 'Terms' } },
        ],
        logic: {
          rules: [
            { if: { question: 'nobody', op: 'answered' }, then: { goTo: 'first' } },
            { if: { question: 'size', op: 'contains', value: 'S' }, then: { goTo: 'ghost' } },
            { if: { question: 'who', field: 'city', op: 'equals', value: 'Oslo' }, then: { complete: true } },
            { if: { hidden: 'utm_medium', op: 'equals', value: 'ad' }, then: { invalid: true } },
            { if: { question: 'title', op: 'answered' }, then: { complete: true } },
            { if: { question: 'terms', op: 'equals', value: 'yes' }, then: { complete: true } },
            { if: { question: 'size', op: 'in', value: ['S', 'XL'] }, then: { complete: true } },
            { if: { question: 'later', op: 'answered' }, then: { complete: true } },
          ],
          next: 'first',
        },
      },
      { name: 'Second', key: 'first', components: [{ ...short('size') }] },
      { name: 'Third', key: 'step_4', components: [short('later')], logic: { rules: [], next: 'second_gone' } },
      { name: 'Done', completion: true, invalid: true, components: [short('asked')], logic: { rules: [] } },
    ];
    const { status, body: refused } = await generate(body(steps, { hiddenFields: ['utm_source', 'bad-name', 'utm_source'] }));
    expect(status).toBe(400);
    expect(refused.message).toBe('Invalid request body');
    const at = (path: (string | number)[]) => refused.errors.filter((e: any) => JSON.stringify(e.path) === JSON.stringify(path)).map((e: any) => e.message);
    const rule = (r: number, ...rest: (string | number)[]) => ['steps', 0, 'logic', 'rules', r, ...rest];
    expect(at(['hiddenFields', 1])).toEqual([expect.stringContaining('A hidden field name must start with a letter')]);
    expect(at(['hiddenFields', 2])).toEqual(['Hidden field "utm_source" is declared twice']);
    expect(at(rule(0, 'if', 'question'))).toEqual(['No component has the key "nobody"']);
    expect(at(rule(0, 'then', 'goTo'))).toEqual(['"first" is this step: logic only goes forward, to a later step']);
    expect(at(rule(1, 'if', 'op'))).toEqual([expect.stringContaining('"contains" can\'t test "size" (a single choice)')]);
    expect(at(rule(1, 'then', 'goTo'))).toEqual(['No step has the key "ghost"']);
    expect(at(rule(2, 'if', 'field'))).toEqual(['This IdentityInfo does not collect "city"; it collects: emailAddress']);
    expect(at(rule(3, 'if', 'hidden'))).toEqual(['"utm_medium" is not a declared hidden field (hiddenFields)']);
    expect(at(rule(4, 'if', 'op'))).toEqual(['A Header takes no answer: no condition can test it']);
    expect(at(rule(5, 'if', 'value'))).toEqual(['"terms" is true or false: compare with true or false']);
    expect(at(rule(6, 'if', 'value', 1))).toEqual(['"XL" is not one of the options of "size"']);
    expect(at(rule(7, 'if', 'question'))).toEqual(['"later" is on a later step: a step\'s rules test its own questions and earlier ones']);
    expect(at(['steps', 0, 'logic', 'next'])).toEqual(['"first" is this step: logic only goes forward, to a later step']);
    expect(at(['steps', 1, 'key'])).toEqual(['Step key "first" is already the key of step 1']);
    expect(at(['steps', 1, 'components', 0, 'key'])).toEqual(['Component key "size" is already used on step 1']);
    expect(at(['steps', 2, 'key'])).toEqual(['"step_4" is the default key of step 4, which has no key of its own: give one of the two steps another key']);
    expect(at(['steps', 2, 'logic', 'next'])).toEqual(['No step has the key "second_gone"']);
    expect(at(['steps', 3, 'invalid'])).toEqual(['A step is a completion step or an invalid step, not both']);
    expect(at(['steps', 3, 'logic'])).toEqual(['A completion step ends the response: it takes no logic']);
    expect(at(['steps', 3, 'components', 0])).toEqual(["A completion step ends the response: it can't ask questions (a ShortInput takes an answer)"]);
    // Nothing else, and nothing stored.
    expect(refused.errors).toHaveLength(20);
  });

  it('the shape of conditions and actions, with other problems in the same body', async () => {
    const deep = { not: { not: { not: { not: { not: { not: { question: 'a', op: 'answered' } } } } } } };
    const steps = [
      {
        name: 'A',
        key: 'a_step',
        components: [short('a'), { type: 'Scheduler', key: 'bad key!', content: {} }],
        logic: {
          rules: [
            { if: deep, then: { complete: true } },
            { if: { question: 'a', op: 'resembles' }, then: { goTo: 'b_step', complete: true } },
            { if: { question: 'a', op: 'greaterThan', value: '10' }, then: { invalid: false } },
            { if: { question: 'a', hidden: 'x', op: 'answered' }, then: { complete: true }, else: 1 },
            { if: { all: [] }, then: { complete: true } },
            { if: { question: 'a', op: 'answered', value: 1 }, then: { complete: true } },
          ],
          extra: true,
        },
      },
      { name: 'B', key: 'b_step', components: [header()] },
    ];
    const { status, body: refused } = await generate(body(steps));
    expect(status).toBe(400);
    const paths = refused.errors.map((e: any) => JSON.stringify(e.path));
    const rule = (r: number, ...rest: (string | number)[]) => JSON.stringify(['steps', 0, 'logic', 'rules', r, ...rest]);
    expect(paths).toEqual(
      expect.arrayContaining([
        JSON.stringify(['steps', 0, 'components', 1, 'key']),
        JSON.stringify(['steps', 0, 'components', 1, 'content']),
        JSON.stringify(['steps', 0, 'logic', 'extra']),
        rule(0, 'if', 'not', 'not', 'not', 'not', 'not', 'not'),
        rule(1, 'if', 'op'),
        rule(1, 'then'),
        rule(2, 'if', 'value'),
        rule(2, 'then', 'invalid'),
        rule(3, 'if'),
        rule(3, 'else'),
        rule(4, 'if', 'all'),
        rule(5, 'if', 'value'),
      ]),
    );
    // Five groups nest; the sixth is refused.
    expect(refused.errors).toContainEqual({
      message: 'Conditions nest at most 5 groups deep',
      path: ['steps', 0, 'logic', 'rules', 0, 'if', 'not', 'not', 'not', 'not', 'not', 'not'],
    });
    expect(refused.errors).toHaveLength(12);
  });

  it('GraphQL refuses the same way (BAD_USER_INPUT, the same paths)', async () => {
    const steps = [
      { name: 'A', components: [short('a')], logic: { rules: [{ if: { question: 'b', op: 'answered' }, then: { goTo: 'step_1' } }] } },
      { name: 'B', components: [short('b')] },
    ];
    const { body: result } = await graphql(
      ctx.app,
      'mutation ($environmentId: ID!, $input: GenerateFormInput!) { generateForm(environmentId: $environmentId, input: $input) { success } }',
      { environmentId: tenant.environmentId, input: body(steps) },
      { 'x-api-key': tenant.apiKey },
    );
    expect(result.errors![0].extensions.code).toBe('BAD_USER_INPUT');
    expect(result.errors![0].extensions.errors).toEqual([
      { message: '"step_1" is this step: logic only goes forward, to a later step', path: ['steps', 0, 'logic', 'rules', 0, 'then', 'goTo'] },
      { message: '"b" is on a later step: a step\'s rules test its own questions and earlier ones', path: ['steps', 0, 'logic', 'rules', 0, 'if', 'question'] },
    ]);
  });
});

describe("the cost of a form's rules", () => {
  /** A step whose `rules` rules each test `leaves` `in` leaves of `values` values (on step 1's question). */
  const costly = (rules: number, leaves: number, values: number) => [
    { name: 'One', components: [short('a')] },
    {
      name: 'Two',
      components: [short('b')],
      logic: {
        rules: Array.from({ length: rules }, () => ({
          if: {
            any: Array.from({ length: leaves }, (_, leaf) => ({
              question: leaf % 2 ? 'a' : 'b',
              op: leaf % 3 ? 'in' : 'notIn',
              value: Array.from({ length: values }, (_, i) => i % 10),
            })),
          },
          then: { complete: true },
        })),
      },
    },
  ];

  it('a form whose rules compare more than 10,000 values is refused with 400 at the condition that passes the limit; 10,000 are taken', async () => {
    // 20 rules × 20 leaves × 25 values = 10,000.
    expect((await generate(body(costly(20, 20, 25)))).status).toBe(200);
    // 20 rules × 45 leaves × 500 values: 450,000.
    const { status, body: refused } = await generate(body(costly(20, 45, 500)));
    expect([status, refused]).toEqual([
      400,
      {
        message: 'Invalid request body',
        errors: [
          {
            message:
              'A form\'s rules may compare at most 10,000 values in all (a condition counts 1, an "in" or "notIn" list one per value); these compare 450,000, and this condition passes the limit',
            path: ['steps', 1, 'logic', 'rules', 0, 'if', 'any', 20],
          },
        ],
      },
    ]);
    // Conditions without lists count one each: 20 rules × 20 leaves × 25 values and one more leaf.
    const steps = costly(20, 20, 25);
    (steps[1]!.logic!.rules[19]!.if.any as unknown[]).push({ question: 'a', op: 'answered' });
    const oneMore = await generate(body(steps));
    expect([oneMore.status, oneMore.body.errors?.map((e: any) => e.path)]).toEqual([400, [['steps', 1, 'logic', 'rules', 19, 'if', 'any', 20]]]);
  });

  it('an update is held to the same budget', async () => {
    const { body: created } = await generate(body(costly(1, 1, 10)));
    const id = created.result.form.id as string;
    const update = await ctx.app.request(`/api/v1/forms/${id}`, jsonRequest('PATCH', { steps: costly(20, 45, 500) }, { 'x-api-key': tenant.apiKey }));
    expect(update.status).toBe(400);
    expect((await update.json()).errors).toEqual([expect.objectContaining({ path: ['steps', 1, 'logic', 'rules', 0, 'if', 'any', 20] })]);
  });
});
