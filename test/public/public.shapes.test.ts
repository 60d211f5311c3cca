/**
 * Every component type's answer validation and stored response shape (responses/shapes.ts), as the
 * page and the public API both use it. Components go through the generate schema first, so they
 * are exactly what a generated form stores.
 */
import { describe, expect, it } from 'vitest';
import { generateFormInputSchema } from '../../src/forms/components.ts';
import { buildResponse, isAnswerable, isEmail, isPersonalEmail, verifyPassword } from '../../src/responses/shapes.ts';
import type { StoredComponent } from '../../src/db/json-columns.ts';

function component(type: string, content: Record<string, unknown> = {}): StoredComponent {
  const parsed = generateFormInputSchema.parse({
    sourceFormId: 'template',
    name: 'Shapes',
    steps: [
      { name: 'One', components: [{ type, content }] },
      { name: 'Two', components: [{ type: 'Header', content: {} }] },
    ],
  });
  return { id: 'q1', ...parsed.steps[0]!.components[0]! };
}

async function ok(c: StoredComponent, answer: unknown) {
  const result = await buildResponse(c, answer);
  if (!result.ok) throw new Error(`expected a valid answer, got ${JSON.stringify(result.errors)}`);
  return result.response;
}
async function problems(c: StoredComponent, answer: unknown) {
  const result = await buildResponse(c, answer);
  if (result.ok) throw new Error(`expected errors, got ${JSON.stringify(result.response)}`);
  return result.errors;
}

describe('text inputs', () => {
  it('ShortInput stores the trimmed text as `input` with type, componentShapeVersion and headline', async () => {
    expect(await ok(component('ShortInput', { question: 'Your role?' }), '  CTO  ')).toEqual({
      type: 'ShortInput',
      componentShapeVersion: '2.0',
      headline: 'Your role?',
      input: 'CTO',
    });
  });

  it('LongInput keeps line breaks', async () => {
    expect(await ok(component('LongInput', { question: 'Tell us' }), 'line 1\nline 2\n')).toMatchObject({ type: 'LongInput', input: 'line 1\nline 2' });
  });

  it('rejects over-long text: 1000 characters by default for ShortInput, 10000 for LongInput, or the content maxLength', async () => {
    expect(await problems(component('ShortInput'), 'x'.repeat(1001))).toEqual([{ message: 'Must be at most 1000 characters', path: [] }]);
    await ok(component('ShortInput'), 'x'.repeat(1000));
    expect(await problems(component('LongInput'), 'x'.repeat(10_001))).toHaveLength(1);
    expect(await problems(component('ShortInput', { maxLength: 5 }), 'abcdef')).toEqual([{ message: 'Must be at most 5 characters', path: [] }]);
  });

  it('an empty answer is "no answer" unless the question is required', async () => {
    expect(await ok(component('ShortInput'), '   ')).toBeNull();
    expect(await ok(component('ShortInput'), null)).toBeNull();
    expect(await problems(component('ShortInput', { required: true }), '')).toEqual([{ message: 'This question requires an answer', path: [] }]);
  });

  it('rejects a non-string answer', async () => {
    expect(await problems(component('ShortInput'), 42)).toEqual([{ message: 'Must be a string', path: [] }]);
  });

  it('EmailForm stores `emailAddress` and rejects what is not an e-mail, or a personal domain when blocked', async () => {
    expect(await ok(component('EmailForm', { question: 'E-mail?' }), 'Ada@Acme.io')).toMatchObject({ type: 'EmailForm', headline: 'E-mail?', emailAddress: 'Ada@Acme.io' });
    expect(await problems(component('EmailForm'), 'not-an-email')).toEqual([{ message: 'Enter a valid e-mail address', path: [] }]);
    expect(await ok(component('EmailForm'), 'ada@gmail.com')).toMatchObject({ emailAddress: 'ada@gmail.com' });
    expect(await problems(component('EmailForm', { blockPersonalEmails: true }), 'ada@gmail.com')).toEqual([{ message: 'Please use your work e-mail address', path: [] }]);
  });

  it('FileUploader stores an http(s) `fileUrl` only', async () => {
    expect(await ok(component('FileUploader', { question: 'CV' }), 'https://files.example.com/cv.pdf')).toMatchObject({
      type: 'FileUploader',
      fileUrl: 'https://files.example.com/cv.pdf',
    });
    expect(await problems(component('FileUploader'), 'javascript:alert(1)')).toHaveLength(1);
  });
});

describe('passwords', () => {
  it('PasswordInput stores only an scrypt hash that verifies, never the clear text', async () => {
    const response = await ok(component('PasswordInput', { question: 'Password' }), 'correct horse');
    expect(response).toMatchObject({ type: 'PasswordInput', componentShapeVersion: '2.0', headline: 'Password' });
    const stored = String(response!.input);
    expect(stored).toMatch(/^scrypt\$/);
    expect(JSON.stringify(response)).not.toContain('correct horse');
    expect(await verifyPassword('correct horse', stored)).toBe(true);
    expect(await verifyPassword('wrong', stored)).toBe(false);
  });

  it('PasswordCreatorInput wants 8 characters and a matching confirmation', async () => {
    const c = component('PasswordCreatorInput');
    expect(await problems(c, 'short')).toEqual([{ message: 'Must be at least 8 characters', path: [] }]);
    expect(await problems(c, { password: 'long enough', confirmation: 'different' })).toEqual([{ message: 'The passwords do not match', path: ['confirmation'] }]);
    const response = await ok(c, { password: 'long enough', confirmation: 'long enough' });
    expect(await verifyPassword('long enough', String(response!.input))).toBe(true);
  });
});

describe('IdentityInfo', () => {
  const identity = (fields: Record<string, unknown>[]) => component('IdentityInfo', { fields });

  it('stores the collected keys, computes fullName, and uses the labels as headline', async () => {
    const c = identity([
      { key: 'firstName', label: 'First name' },
      { key: 'lastName', label: 'Last name' },
      { key: 'emailAddress', label: 'E-mail' },
      { key: 'companyName', label: 'Company' },
    ]);
    expect(await ok(c, { firstName: 'Ada', lastName: 'Lovelace', emailAddress: 'ada@acme.io', companyName: 'Acme' })).toEqual({
      type: 'IdentityInfo',
      componentShapeVersion: '2.0',
      headline: 'First name, Last name, E-mail, Company',
      firstName: 'Ada',
      lastName: 'Lovelace',
      emailAddress: 'ada@acme.io',
      companyName: 'Acme',
      fullName: 'Ada Lovelace',
    });
  });

  it('requires every field unless it says required: false, reporting each at its key', async () => {
    const c = identity([
      { key: 'firstName', label: 'First name' },
      { key: 'title', label: 'Title', required: false },
      { key: 'emailAddress', label: 'E-mail' },
    ]);
    expect(await problems(c, { title: 'CEO' })).toEqual([
      { message: 'First name is required', path: ['firstName'] },
      { message: 'E-mail is required', path: ['emailAddress'] },
    ]);
    expect(await ok(c, { firstName: 'Ada', emailAddress: 'a@acme.io' })).not.toHaveProperty('title');
  });

  it('validates e-mails, blocks personal domains where asked, phone numbers, websites and lengths', async () => {
    const c = identity([
      { key: 'workEmailAddress', label: 'Work e-mail', blockPersonalEmails: true },
      { key: 'phoneNumber', label: 'Phone' },
      { key: 'websiteUrl', label: 'Website' },
      { key: 'city', label: 'City' },
    ]);
    expect(await problems(c, { workEmailAddress: 'ada@yahoo.co.uk', phoneNumber: 'call me', websiteUrl: 'not a site', city: 'x'.repeat(301) })).toEqual([
      { message: 'Please use your work e-mail address', path: ['workEmailAddress'] },
      { message: 'Enter a valid phone number', path: ['phoneNumber'] },
      { message: 'Enter a valid website address', path: ['websiteUrl'] },
      { message: 'Must be at most 300 characters', path: ['city'] },
    ]);
    expect(await problems(c, { workEmailAddress: 'ada@', phoneNumber: '+1 555 0100', websiteUrl: 'acme.com', city: 'Paris' })).toEqual([
      { message: 'Enter a valid e-mail address', path: ['workEmailAddress'] },
    ]);
    expect(await ok(c, { workEmailAddress: 'ada@acme.io', phoneNumber: '+44 20 7946 0000', websiteUrl: 'https://acme.com', city: 'Paris' })).toMatchObject({
      workEmailAddress: 'ada@acme.io',
      phoneNumber: '+44 20 7946 0000',
    });
  });

  it('ignores a field revealed after another one that is empty, and requires it once that one is filled', async () => {
    const c = identity([
      { key: 'companyName', label: 'Company', required: false },
      { key: 'numberOfEmployees', label: 'Employees', revealAfter: 'companyName' },
    ]);
    expect(await ok(c, { numberOfEmployees: '50' })).toBeNull();
    expect(await problems(c, { companyName: 'Acme' })).toEqual([{ message: 'Employees is required', path: ['numberOfEmployees'] }]);
    expect(await ok(c, { companyName: 'Acme', numberOfEmployees: '50' })).toMatchObject({ companyName: 'Acme', numberOfEmployees: '50' });
  });

  it('rejects keys that are not fields of the question and non-object answers', async () => {
    const c = identity([{ key: 'firstName', label: 'First name' }]);
    expect(await problems(c, { firstName: 'Ada', password: 'x' })).toEqual([{ message: '"password" is not a field of this question', path: ['password'] }]);
    expect(await problems(c, 'Ada')).toEqual([{ message: 'Must be an object keyed by field key', path: [] }]);
  });
});

describe('choices', () => {
  it('Dropdown stores `selected` as a string; a value outside the options is rejected', async () => {
    const c = component('Dropdown', { question: 'Size?', choices: ['S', 'M', 'L'] });
    expect(await ok(c, 'M')).toEqual({ type: 'Dropdown', componentShapeVersion: '2.0', headline: 'Size?', selected: 'M' });
    expect(await problems(c, 'XL')).toEqual([{ message: '"XL" is not one of the options', path: [] }]);
    expect(await problems(c, ['S', 'M'])).toEqual([{ message: 'Choose one option', path: [] }]);
  });

  it('Dropdown with isMulti stores an array in option order', async () => {
    const c = component('Dropdown', { options: ['S', 'M', 'L'], isMulti: true });
    expect(await ok(c, ['L', 'S'])).toMatchObject({ selected: ['S', 'L'] });
    expect(await ok(c, [])).toBeNull();
  });

  it('MultipleOptionsQuestion stores every choice as {key, value, index} and selectedOther', async () => {
    const c = component('MultipleOptionsQuestion', { question: 'Channels?', options: ['Email', 'Phone', 'Chat'], isMulti: true });
    expect(await ok(c, ['Email', 'Chat'])).toEqual({
      type: 'MultipleOptionsQuestion',
      componentShapeVersion: '2.0',
      headline: 'Channels?',
      choices: [
        { key: 'Email', value: true, index: 0 },
        { key: 'Phone', value: false, index: 1 },
        { key: 'Chat', value: true, index: 2 },
      ],
      selectedOther: false,
    });
    expect(await problems(c, ['Fax'])).toEqual([{ message: '"Fax" is not one of the choices', path: [] }]);
  });

  it('MultipleOptionsQuestion takes one answer unless isMulti, and "Other" only with allowOther', async () => {
    const single = component('MultipleOptionsQuestion', { choices: ['A', 'B'] });
    expect(await problems(single, ['A', 'B'])).toEqual([{ message: 'Choose one answer', path: [] }]);
    expect(await problems(single, { selected: [], other: 'C' })).toEqual([{ message: 'This question has no "Other" choice', path: ['other'] }]);
    const withOther = component('MultipleOptionsQuestion', { choices: ['A', 'B'], allowOther: true });
    expect(await ok(withOther, { selected: [], other: 'C' })).toMatchObject({
      selectedOther: true,
      other: 'C',
      choices: [
        { key: 'A', value: false, index: 0 },
        { key: 'B', value: false, index: 1 },
      ],
    });
    expect(await problems(withOther, { selected: [], other: '  ' })).toEqual([{ message: 'Tell us what "Other" means for you', path: ['other'] }]);
  });

  it('more values than options is one problem, not one per value (a body full of values stays cheap)', async () => {
    const many = Array.from({ length: 5_000 }, (_, i) => `value ${i}`);
    const dropdown = component('Dropdown', { options: ['S', 'M', 'L'], isMulti: true });
    expect(await problems(dropdown, many)).toEqual([{ message: 'Choose at most 3 options', path: [] }]);
    expect(await problems(component('Dropdown', { options: ['S', 'M'] }), many)).toEqual([{ message: 'Choose one option', path: [] }]);
    const choices = component('MultipleOptionsQuestion', { choices: ['A', 'B'], isMulti: true });
    expect(await problems(choices, { selected: many })).toEqual([{ message: 'Choose at most 2 choices', path: ['selected'] }]);
    expect(await problems(component('MultipleOptionsQuestion', { choices: ['A', 'B'] }), many)).toEqual([{ message: 'Choose one answer', path: [] }]);
  });

  it('GraphicOptions stores {index, value} from an index or a value', async () => {
    const c = component('GraphicOptions', {
      question: 'Style?',
      options: [
        { label: 'Modern', value: 'modern', imageUrl: 'https://img.example.com/m.png' },
        { label: 'Classic', imageUrl: 'https://img.example.com/c.png' },
      ],
    });
    expect(await ok(c, 1)).toEqual({ type: 'GraphicOptions', componentShapeVersion: '2.0', headline: 'Style?', index: 1, value: 'Classic' });
    expect(await ok(c, 'modern')).toMatchObject({ index: 0, value: 'modern' });
    expect(await problems(c, 5)).toEqual([{ message: 'Not one of the options', path: [] }]);
  });
});

describe('schedulers and disclaimers', () => {
  it('scheduler types store eventScheduled and the booking details', async () => {
    for (const type of ['Scheduler', 'CalendlyScreen', 'CalScreen']) {
      const c = component(type, { url: 'https://calendly.com/acme/intro', message: 'Pick a time' });
      expect(await ok(c, false)).toEqual({ type, componentShapeVersion: '2.0', headline: 'Pick a time', eventScheduled: false });
    }
    const c = component('CalendlyScreen', { url: 'https://calendly.com/acme/intro' });
    const booking = {
      eventScheduled: true,
      uri: 'https://api.calendly.com/scheduled_events/ABC',
      meetingTime: '2030-01-02T10:00:00Z',
      meetingEndTime: '2030-01-02T10:30:00+00:00',
      ownerEmails: ['owner@acme.io'],
      guestEmails: ['ada@client.io'],
    };
    expect(await ok(c, booking)).toEqual({ type: 'CalendlyScreen', componentShapeVersion: '2.0', headline: 'Book a meeting', ...booking });
  });

  it('scheduler booking details are checked: http(s) uri, ISO 8601 times, e-mails', async () => {
    const c = component('Scheduler', { url: 'https://cal.com/acme' });
    const errors = await problems(c, { eventScheduled: true, uri: 'javascript:alert(1)', meetingTime: 'tomorrow', guestEmails: ['nope'] });
    expect(errors.map((e) => e.path)).toEqual([['uri'], ['meetingTime'], ['guestEmails', 0]]);
  });

  it('Disclaimer stores `check`, and a required one must be ticked', async () => {
    expect(await ok(component('Disclaimer', { text: 'I accept the terms' }), true)).toEqual({
      type: 'Disclaimer',
      componentShapeVersion: '2.0',
      headline: 'I accept the terms',
      check: true,
    });
    expect(await ok(component('Disclaimer'), false)).toMatchObject({ check: false });
    expect(await problems(component('Disclaimer', { required: true }), false)).toEqual([{ message: 'Please tick the box to continue', path: [] }]);
  });
});

describe('components without answers', () => {
  it('Header, NextButton, NextBackButtons, Recaptcha, TurnstileWidget and AiChatbot record nothing', async () => {
    for (const type of ['Header', 'NextButton', 'NextBackButtons', 'Recaptcha', 'TurnstileWidget', 'AiChatbot']) {
      expect(isAnswerable(type)).toBe(false);
      expect(await problems(component(type), 'anything')).toEqual([{ message: `A ${type} component takes no answer`, path: [] }]);
    }
  });
});

describe('e-mail rules', () => {
  it('knows e-mail addresses and personal domains', () => {
    expect(['a@b.co', 'first.last+tag@sub.example.org'].every(isEmail)).toBe(true);
    expect(['a@b', 'a b@c.de', '@c.de', 'a@@c.de', 'a@c..de'].some(isEmail)).toBe(false);
    for (const email of [
      'x@gmail.com',
      'x@yahoo.com',
      'x@hotmail.com',
      'x@outlook.com',
      'x@icloud.com',
      'x@aol.com',
      'x@proton.me',
      'x@gmx.de',
      'x@gmx.net',
      'x@yahoo.co.uk',
      'X@GMAIL.COM',
    ]) {
      expect(isPersonalEmail(email), email).toBe(true);
    }
    for (const email of ['x@acme.io', 'x@gmail-partners.com', 'x@mail.gmx-consulting.de']) expect(isPersonalEmail(email), email).toBe(false);
  });
});
