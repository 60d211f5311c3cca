/**
 * Variables, recall, limits and quotas on the respondent's page (without JavaScript) and in the JSON API's
 * answers: a scored quiz whose completion step shows the score, a name recalled into the next step's
 * question (escaped, never another respondent's), `recall` in POST/PATCH answers, and the closed screen
 * (410, the form's closedMessage) for a full form, one past its closing, and a finish that lost the last place.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Form } from '../../src/forms/forms.service.ts';
import { appWith, createTenant, jsonRequest, setupIsolatedTestApp, type TestContext, type TestTenant } from '../support/helpers.ts';
import { field, generateThroughApi, Visitor } from '../support/public-helpers.ts';

let ctx: TestContext;
let app: TestContext['app'];
let tenant: TestTenant;

beforeAll(async () => {
  ctx = await setupIsolatedTestApp();
  app = appWith(ctx.db, { publicRateLimitPerMinute: 0 });
  tenant = await createTenant(ctx.db);
});

const byKey = (form: Form, key: string) => form.steps.flatMap((s) => s.components).find((c) => c.key === key)!;

/** Follows the page's redirect and returns the HTML it lands on. */
async function follow(visitor: Visitor, response: Response) {
  expect(response.status, await response.clone().text()).toBe(303);
  const page = await visitor.get(response.headers.get('location')!);
  return { status: page.status, html: await page.text() };
}

const QUIZ = [
  {
    name: 'Question',
    components: [
      {
        type: 'Dropdown',
        key: 'france',
        content: { question: 'Capital of France?', options: ['Paris', 'Lyon'], optionScores: { Paris: 10 } },
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
    name: 'Done',
    completion: true,
    components: [{ type: 'Header', content: { title: 'You scored {{variable.score}} of 10' } }],
  },
];

const NAMED = [
  { name: 'Name', components: [{ type: 'ShortInput', key: 'first', content: { question: 'Your first name?' } }] },
  {
    name: 'Hello {{question.first | "there"}}',
    components: [{ type: 'ShortInput', key: 'role', content: { question: 'What do you do, {{question.first}}?' } }],
  },
];

describe('the page', () => {
  it('shows the score on the completion step', async () => {
    const { form, status, body } = await generateThroughApi(app, ctx.db, tenant, 'Quiz', QUIZ, {
      variables: [{ name: 'score', type: 'number' }],
    });
    expect(status, JSON.stringify(body)).toBe(200);
    const visitor = new Visitor(app);
    await visitor.get(`/s/${form.id}`);
    const done = await follow(visitor, await visitor.submit(form, 0, { [field(byKey(form, 'france'))]: 'Paris' }));
    expect(done.html).toContain('You scored 10 of 10');
  });

  it("recalls the respondent's own name into the next step, escaped, and never into another respondent's page", async () => {
    const { form, status, body } = await generateThroughApi(app, ctx.db, tenant, 'Named', NAMED);
    expect(status, JSON.stringify(body)).toBe(200);
    const ada = new Visitor(app);
    await ada.get(`/s/${form.id}`);
    const next = await follow(ada, await ada.submit(form, 0, { [field(byKey(form, 'first'))]: '<script>alert(1)</script>Ada' }));
    expect(next.html).toContain('What do you do, &lt;script&gt;alert(1)&lt;/script&gt;Ada?');
    expect(next.html).toContain('Hello &lt;script&gt;alert(1)&lt;/script&gt;Ada');
    expect(next.html).not.toContain('<script>alert(1)');
    // Another visitor on the same step sees the fallback, not Ada's name.
    const bob = new Visitor(app);
    await bob.get(`/s/${form.id}`);
    const empty = await follow(bob, await bob.submit(form, 0, { [field(byKey(form, 'first'))]: '' }));
    expect(empty.html).toContain('Hello there');
    expect(empty.html).not.toContain('Ada');
  });

  it('shows the closed screen with the closedMessage when the form is full, and when a finish lost the last place', async () => {
    const steps = [
      { name: 'One', components: [{ type: 'ShortInput', key: 'a', content: { question: 'A?' } }] },
      { name: 'Two', components: [{ type: 'ShortInput', key: 'b', content: { question: 'B?' } }] },
    ];
    const { form } = await generateThroughApi(app, ctx.db, tenant, 'One seat', steps, {
      limits: { maxResponses: 1, closedMessage: 'All seats are taken' },
    });
    const late = new Visitor(app);
    await late.get(`/s/${form.id}`);
    await late.submit(form, 0, { [field(byKey(form, 'a'))]: 'late' });
    const first = new Visitor(app);
    await first.get(`/s/${form.id}`);
    await first.submit(form, 0, { [field(byKey(form, 'a'))]: 'first' });
    // The finish that took the last place gets its own final screen, not the closed one.
    const own = await follow(first, await first.submit(form, 1, { [field(byKey(form, 'b'))]: 'x' }));
    expect(own.status).toBe(200);
    expect(own.html).not.toContain('All seats are taken');
    // Full: the late respondent's finish gets the closed screen; a newcomer too.
    const refused = await late.submit(form, 1, { [field(byKey(form, 'b'))]: 'x' });
    expect(refused.status).toBe(410);
    expect(await refused.text()).toContain('All seats are taken');
    const newcomer = await new Visitor(app).get(`/s/${form.id}`);
    expect(newcomer.status).toBe(410);
    expect(await newcomer.text()).toContain('All seats are taken');
    // Without an ended response of its own, ?done=1 leads to the closed screen too.
    const guess = await new Visitor(app).get(`/s/${form.id}?done=1`);
    const landed = guess.status === 303 ? await new Visitor(app).get(guess.headers.get('location')!) : guess;
    expect(landed.status).toBe(410);
  });

  it('shows the closed screen past closesAt', async () => {
    const { form } = await generateThroughApi(app, ctx.db, tenant, 'Closed by date', NAMED, {
      limits: { closesAt: '2020-01-01T00:00:00Z' },
    });
    const page = await new Visitor(app).get(`/s/${form.id}`);
    expect(page.status).toBe(410);
    expect(await page.text()).toContain('This form is no longer accepting responses.');
  });
});

describe('recalling a choice', () => {
  const CHOICES = [
    {
      name: 'Pick',
      components: [
        {
          type: 'Dropdown',
          key: 'size',
          content: {
            question: 'Size?',
            options: [
              { en: 'Small', de: 'Klein' },
              { en: 'Large', de: 'Groß' },
            ],
          },
        },
        {
          type: 'GraphicOptions',
          key: 'pic',
          content: {
            question: 'Picture?',
            options: [
              { label: { en: 'Big picture', de: 'Großes Bild' }, value: 'big' },
              { label: 'Tiny', value: 'tiny' },
            ],
          },
        },
      ],
    },
    { name: 'Next', components: [{ type: 'ShortInput', key: 'why', content: { question: 'You chose {{question.size}} and {{question.pic}}: why?' } }] },
  ];

  it('shows the option text the respondent saw, in their language, on the page and in the JSON API', async () => {
    const { form, status, body } = await generateThroughApi(app, ctx.db, tenant, 'Choices', CHOICES, { languages: { default: 'en', others: ['de'] } });
    expect(status, JSON.stringify(body)).toBe(200);
    const pick = (size: string) => ({ [field(byKey(form, 'size'))]: size, [field(byKey(form, 'pic'))]: '0' });
    const german = new Visitor(app, { 'accept-language': 'de' });
    await german.get(`/s/${form.id}`);
    expect((await follow(german, await german.submit(form, 0, pick('Klein')))).html).toContain('You chose Klein and Großes Bild: why?');
    const english = new Visitor(app);
    await english.get(`/s/${form.id}`);
    expect((await follow(english, await english.submit(form, 0, pick('Small')))).html).toContain('You chose Small and Big picture: why?');

    const answers = { [byKey(form, 'size').id]: 'Klein', [byKey(form, 'pic').id]: 0 };
    const started = await app.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers, language: 'de' }));
    expect(await started.json()).toMatchObject({ recall: { 'question.size': 'Klein', 'question.pic': 'Großes Bild' } });
  });
});

describe('the JSON API', () => {
  it('keeps the placeholders in the definition and answers with the values for the next step', async () => {
    const { form } = await generateThroughApi(app, ctx.db, tenant, 'Named API', NAMED);
    const definition: any = await (await app.request(`/s/${form.id}/definition`)).json();
    expect(definition.steps[1].name).toBe('Hello {{question.first | "there"}}');
    const started = await app.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers: { [byKey(form, 'first').id]: 'Ada' } }));
    expect(await started.json()).toMatchObject({ nextStep: 'step_2', recall: { 'question.first': 'Ada' } });

    const quiz = (
      await generateThroughApi(app, ctx.db, tenant, 'Quiz API', QUIZ, {
        variables: [{ name: 'score', type: 'number' }],
      })
    ).form;
    const finished = await app.request(`/s/${quiz.id}/responses`, jsonRequest('POST', { answers: { [byKey(quiz, 'france').id]: 'Lyon' } }));
    expect(await finished.json()).toMatchObject({ finished: true, recall: { 'variable.score': '0' } });
  });
});
