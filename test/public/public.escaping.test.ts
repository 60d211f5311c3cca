/**
 * Every text a public page renders from a form or from an answer is escaped: markup put in each one
 * comes out as text, never as a tag, and nothing breaks out of an attribute. Each text carries its own
 * tag, so the test also proves that the text really is on the page (escaped), not just absent.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import type { Form } from '../../src/forms/forms.service.ts';
import { createTenant, setupTestApp, type TestTenant } from '../support/helpers.ts';
import { componentAt, field, forgetAnswer, makeForm, Visitor, type App } from '../support/public-helpers.ts';

/** Markup that runs script if inserted raw, in text or in an attribute value. */
const evil = (tag: string) => `"><script>alert('${tag}')</script><img src=x onerror=alert("${tag}")>`;
/** What hono/html's escaping makes of a text. */
const escaped = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

let db: Database;
let app: App;
let tenant: TestTenant;
let form: Form;

const FORM_NAME = evil('form name');
const STEPS = [
  {
    name: evil('step 0 name'),
    components: [
      { type: 'Header', content: { title: evil('header title'), subheading: evil('header subheading') } },
      { type: 'ShortInput', content: { question: evil('short question'), placeholder: evil('short placeholder') } },
      { type: 'ShortInput', content: { placeholder: evil('unlabelled placeholder') } },
      {
        type: 'IdentityInfo',
        content: {
          fields: [
            { key: 'firstName', label: evil('identity label'), placeholder: evil('identity placeholder') },
            { key: 'workEmailAddress', label: evil('identity e-mail label'), placeholder: evil('identity e-mail placeholder') },
            { key: 'phoneNumber', label: evil('identity phone label'), placeholder: evil('identity phone placeholder'), includeDialCode: true },
          ],
        },
      },
      { type: 'Dropdown', content: { question: evil('dropdown question'), placeholder: evil('dropdown placeholder'), options: [evil('dropdown option'), 'Plain'] } },
      { type: 'Dropdown', content: { question: 'Hidden', hideQuestion: true, isMulti: true, options: [evil('multi dropdown option')] } },
      {
        type: 'MultipleOptionsQuestion',
        content: { question: evil('choice question'), subheading: evil('choice subheading'), choices: [evil('choice'), 'Plain'], allowOther: true },
      },
      {
        type: 'GraphicOptions',
        content: {
          question: evil('graphic question'),
          options: [{ label: evil('graphic label'), imageUrl: `https://img.example.com/a.png?q=${evil('graphic image')}` }, { label: 'Plain' }],
        },
      },
      { type: 'Disclaimer', content: { text: evil('disclaimer text'), checkboxLabel: evil('disclaimer box label'), required: true } },
      { type: 'NextButton', content: { label: evil('next button') } },
    ],
  },
  {
    name: evil('step 1 name'),
    components: [
      { type: 'LongInput', content: { question: evil('long question'), placeholder: evil('long placeholder') } },
      { type: 'EmailForm', content: { question: evil('email question'), placeholder: evil('email placeholder') } },
      { type: 'FileUploader', content: { question: evil('file question') } },
      { type: 'PasswordInput', content: { question: evil('password question'), placeholder: evil('password placeholder') } },
      { type: 'PasswordCreatorInput', content: { question: evil('creator question'), placeholder: evil('creator placeholder') } },
      { type: 'AiChatbot', content: { message: evil('chatbot message') } },
      { type: 'NextBackButtons', content: { nextLabel: evil('next label'), backLabel: evil('back label') } },
    ],
  },
  {
    name: evil('step 2 name'),
    components: [
      { type: 'CalendlyScreen', content: { url: 'https://calendly.com/acme/intro', message: evil('scheduler message') } },
      {
        type: 'DynamicScheduler',
        content: {
          message: evil('dynamic scheduler message'),
          defaultCalendar: { name: evil('default calendar name'), url: 'https://calendly.com/acme/a' },
          calendars: [{ name: evil('calendar name'), url: 'https://calendly.com/acme/b' }],
        },
      },
    ],
  },
];

beforeAll(async () => {
  ({ db, app } = await setupTestApp());
  tenant = await createTenant(db);
  form = await makeForm(db, tenant, STEPS, FORM_NAME);
});

const c = (step: number, index: number) => componentAt(form, step, index);

async function htmlOf(visitor: Visitor, path: string): Promise<string> {
  const response = await visitor.get(path);
  expect(response.status, path).toBe(200);
  return response.text();
}

/** Nothing of the markup survives as markup; the page's own script is its only one. */
function expectNoRawMarkup(page: string) {
  expect(page).not.toMatch(/<script>alert|<img src=x|"><script/);
  expect(page.match(/<script\b/g)).toHaveLength(1);
  expect(page.match(/<img\b/g) ?? []).toHaveLength((page.match(/<img [^>]*src="https:/g) ?? []).length);
}

function expectEscaped(page: string, tags: string[]) {
  for (const tag of tags) expect(page, tag).toContain(escaped(evil(tag)));
}

/** The fields of step 0 that pass validation: the required IdentityInfo fields and disclaimer. */
const validStep0 = () => ({
  [field(c(0, 3), 'firstName')]: 'Ada',
  [field(c(0, 3), 'workEmailAddress')]: 'ada@acme.io',
  [field(c(0, 3), 'phoneNumber')]: '20 7946 0958',
  [field(c(0, 8))]: 'on',
});

describe('markup in form texts', () => {
  it('step 0: header, questions, placeholders, IdentityInfo labels and placeholders, options, choices, graphic labels, disclaimer, button, step and form name', async () => {
    const page = await htmlOf(new Visitor(app), `/s/${form.id}`);
    expectNoRawMarkup(page);
    expectEscaped(page, [
      'form name',
      'step 0 name',
      'header title',
      'header subheading',
      'short question',
      'short placeholder',
      'unlabelled placeholder',
      'identity label',
      'identity placeholder',
      'identity e-mail label',
      'identity e-mail placeholder',
      'identity phone label',
      'identity phone placeholder',
      'dropdown question',
      'dropdown placeholder',
      'dropdown option',
      'multi dropdown option',
      'choice question',
      'choice subheading',
      'choice',
      'graphic question',
      'graphic label',
      'graphic image',
      'disclaimer text',
      'disclaimer box label',
      'next button',
    ]);
  });

  it('step 1: long, e-mail, file and password questions and placeholders, content-only text, next and back labels', async () => {
    const visitor = new Visitor(app);
    await visitor.get(`/s/${form.id}`);
    expect((await visitor.submit(form, 0, validStep0())).status).toBe(303);
    const page = await htmlOf(visitor, `/s/${form.id}?step=1`);
    expectNoRawMarkup(page);
    expectEscaped(page, [
      'step 1 name',
      'long question',
      'long placeholder',
      'email question',
      'email placeholder',
      'file question',
      'password question',
      'password placeholder',
      'creator question',
      'creator placeholder',
      'chatbot message',
      'next label',
      'back label',
    ]);
  });

  it('step 2: scheduler messages and calendar names; the thank-you page: the form name', async () => {
    const visitor = new Visitor(app);
    await visitor.get(`/s/${form.id}`);
    expect((await visitor.submit(form, 0, validStep0())).status).toBe(303);
    expect((await visitor.submit(form, 1, { [field(c(1, 0))]: 'Nothing more' })).status).toBe(303);
    const page = await htmlOf(visitor, `/s/${form.id}?step=2`);
    expectNoRawMarkup(page);
    expectEscaped(page, ['step 2 name', 'scheduler message', 'dynamic scheduler message', 'default calendar name', 'calendar name']);

    expect((await visitor.submit(form, 2, {})).headers.get('location')).toBe(`/s/${form.id}?done=1`);
    const thanks = await htmlOf(visitor, `/s/${form.id}?done=1`);
    expectNoRawMarkup(thanks);
    expectEscaped(thanks, ['form name']);
  });

  it('a notice about an earlier step names that step escaped', async () => {
    const visitor = new Visitor(app);
    await visitor.get(`/s/${form.id}`);
    expect((await visitor.submit(form, 0, validStep0())).status).toBe(303);
    expect((await visitor.submit(form, 1, { [field(c(1, 0))]: 'Nothing more' })).status).toBe(303);
    // The last step, with step 0's required disclaimer answer gone (as if added to the form since).
    await forgetAnswer(db, form.id, c(0, 8).id);
    const response = await visitor.submit(form, 2, {});
    expect(response.status).toBe(422);
    const page = await response.text();
    expectNoRawMarkup(page);
    expect(page).toContain(`Some required questions in “${escaped(evil('step 0 name'))}” are not answered yet.`);
  });
});

describe('markup in answers echoed back after a validation error', () => {
  it('text inputs, IdentityInfo values, an unknown option, "Other" text and booking details come back as text', async () => {
    const visitor = new Visitor(app);
    await visitor.get(`/s/${form.id}`);
    const step0 = await visitor.submit(form, 0, {
      [field(c(0, 1))]: evil('short answer'),
      [field(c(0, 3), 'firstName')]: evil('first name answer'),
      [field(c(0, 3), 'workEmailAddress')]: evil('e-mail answer'),
      [field(c(0, 3), 'phoneNumber')]: evil('phone answer'),
      [field(c(0, 4))]: evil('x'),
      [field(c(0, 6))]: ['__other__'],
      [field(c(0, 6), 'other')]: evil('other answer'),
      // The disclaimer left unticked: the step comes back.
    });
    expect(step0.status).toBe(422);
    const page0 = await step0.text();
    expectNoRawMarkup(page0);
    expectEscaped(page0, ['short answer', 'first name answer', 'e-mail answer', 'other answer']);
    // The dropdown's error message quotes the value sent.
    expect(page0).toContain(`${escaped('"')}${escaped(evil('x'))}${escaped('"')} is not one of the options`);

    expect((await visitor.submit(form, 0, validStep0())).status).toBe(303);
    const step1 = await visitor.submit(form, 1, {
      [field(c(1, 0))]: evil('long answer'),
      [field(c(1, 1))]: evil('newsletter answer'),
      [field(c(1, 2))]: evil('file answer'),
    });
    expect(step1.status).toBe(422);
    const page1 = await step1.text();
    expectNoRawMarkup(page1);
    expectEscaped(page1, ['long answer', 'newsletter answer', 'file answer']);

    expect((await visitor.submit(form, 1, { [field(c(1, 0))]: 'Nothing more' })).status).toBe(303);
    const step2 = await visitor.submit(form, 2, {
      [field(c(2, 0), 'eventScheduled')]: 'true',
      [field(c(2, 0), 'uri')]: `https://calendly.com/e/${evil('booking uri')}`,
      [field(c(2, 0), 'meetingTime')]: evil('meeting time'),
    });
    expect(step2.status).toBe(422);
    const page2 = await step2.text();
    expectNoRawMarkup(page2);
    expectEscaped(page2, ['booking uri', 'meeting time']);
  });
});
