/**
 * No header injection, as a property: whatever a respondent's answers hold, in any field of any stored
 * component type (the headline, the key, every value, line breaks and `Bcc:` lines included), and
 * whatever a rule's subject recalls from them, the message nodemailer writes (the same MIME the SMTP
 * transport sends) has exactly the fixed headers, none of them carrying a respondent's text.
 */
import { fc, test } from '@fast-check/vitest';
import nodemailer from 'nodemailer';
import { describe, expect } from 'vitest';
import { STORED_COMPONENT_TYPES } from '../../src/components/catalogue.ts';
import type { ResponseAnswer } from '../../src/db/json-columns.ts';
import type { FormTexts } from '../../src/forms/translations.ts';
import { composeMessage } from '../../src/notifications/message.ts';
import { hostileString } from '../support/hostile-checks.ts';

const MARK = 'INJECTED';
/** Strings meant to become headers, each carrying MARK. */
const injection = fc.oneof(
  fc.constantFrom(
    `x\r\nBcc: ${MARK}@attacker.example`,
    `x\nSubject: ${MARK}`,
    `x\r\n\r\n${MARK}`,
    `x\rX-${MARK}: 1`,
    `=?utf-8?Q?${MARK}?=\r\nTo: ${MARK}@attacker.example`,
    `\u2028Reply-To: ${MARK}@attacker.example`,
  ),
  fc.tuple(hostileString, hostileString).map(([a, b]) => `${a.slice(0, 200)}\r\n${MARK}: ${b.slice(0, 200)}`),
);

/** Field names answers use (every module's stored fields), and any other name. */
const FIELDS = [
  'input',
  'email',
  'emailAddress',
  'workEmailAddress',
  'firstName',
  'lastName',
  'fullName',
  'companyName',
  'phoneNumber',
  'selected',
  'value',
  'otherText',
  'fileUrl',
  'uri',
  'date',
  'number',
  'address',
];
const answerValue: fc.Arbitrary<unknown> = fc.oneof(
  injection,
  fc.array(injection, { minLength: 1, maxLength: 3 }),
  fc.dictionary(fc.constantFrom(...FIELDS), injection, { maxKeys: 3 }),
);

const answer: fc.Arbitrary<ResponseAnswer> = fc
  .record({
    type: fc.constantFrom(...STORED_COMPONENT_TYPES),
    questionId: injection,
    key: fc.option(fc.oneof(injection, fc.constant('note')), { nil: undefined }),
    headline: injection,
    fields: fc.dictionary(fc.oneof(fc.constantFrom(...FIELDS), fc.string({ minLength: 1, maxLength: 12 })), answerValue, { minKeys: 1, maxKeys: 5 }),
  })
  .map(({ type, questionId, key, headline, fields }) => ({
    questionId,
    ...(key === undefined ? {} : { key }),
    response: { ...fields, componentShapeVersion: '2.0', type, headline },
  }));

/** A form whose components are the answers' (their ids, keys and types), their texts and options the answers' own. */
const formOf = (data: ResponseAnswer[]): FormTexts => ({
  name: 'Demo',
  locale: 'en',
  languages: null,
  texts: null,
  steps: [
    {
      id: 'step1',
      name: 'Step',
      components: data.map((answer) => ({
        id: answer.questionId,
        ...(answer.key === undefined ? {} : { key: answer.key }),
        type: answer.response.type,
        content: { question: answer.response.headline, options: Object.values(answer.response).filter((value) => typeof value === 'string'), message: answer.response.headline },
      })),
    },
  ],
});

const HEADERS = ['content-type', 'from', 'to', 'subject', 'message-id', 'date', 'mime-version', 'auto-submitted', 'x-auto-response-suppress'];
const writer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });

describe('header injection', () => {
  test.prop(
    [
      fc.array(answer, { minLength: 1, maxLength: 6 }),
      fc.constantFrom('team', 'respondent'),
      fc.constantFrom('response.finished', 'response.invalid'),
      fc.boolean(),
      fc.option(fc.constantFrom('Thanks, {{question.note}}', '{{question.contact.fullName | "friend"}}', '{{hidden.source}} {{variable.score}}'), { nil: undefined }),
      fc.boolean(),
    ],
    { numRuns: 150 },
  )('every answer field of every type stays out of the headers', async (data, kind, trigger, includeAnswers, subject, known) => {
    const options = composeMessage({
      deliveryId: 'ntf_property0000000000000',
      kind,
      trigger,
      to: 'ops@example.com',
      from: 'Forms <forms@example.com>',
      publicUrl: 'https://forms.example.com',
      form: { id: 'form1', name: 'Demo', locale: 'en' },
      response: { id: 'resp1', updatedAt: new Date(0), data, meta: { hiddenFields: { source: `x\r\nBcc: ${MARK}@attacker.example` } } },
      rule: { includeAnswers, subject, body: 'Thanks {{question.note}}' },
      // The form the answers were given to, its questions and options holding the answers' texts: the answers as the respondent saw them.
      shown: known ? { form: formOf(data), language: 'en', written: true } : undefined,
    });
    const { message } = (await writer.sendMail(options)) as { message: Buffer };
    const raw = message.toString('utf8');
    const head = raw.slice(0, raw.indexOf('\r\n\r\n'));
    expect(head).not.toContain(MARK);
    expect(head).not.toContain('attacker');
    // Each header on its line (continuation lines start with white space): exactly the fixed ones.
    const names = head
      .split('\r\n')
      .filter((line) => !/^[ \t]/.test(line))
      .map((line) => line.slice(0, line.indexOf(':')).toLowerCase());
    expect(names.sort()).toEqual([...HEADERS].sort());
  });
});

describe('the subject', () => {
  const subjectOf = (kind: 'team' | 'respondent', subject: string | undefined) =>
    composeMessage({
      deliveryId: 'ntf_subject00000000000000',
      kind,
      trigger: 'response.finished',
      to: 'ops@example.com',
      from: 'Forms <forms@example.com>',
      publicUrl: 'https://forms.example.com',
      form: { id: 'form1', name: 'Demo', locale: 'en' },
      response: { id: 'resp1', updatedAt: new Date(0), data: [], meta: {} },
      rule: { includeAnswers: false, subject },
    }).subject;

  test.each([
    ['team', undefined],
    ['team', '{{question.name}}'],
    ['respondent', ' {{hidden.source}} {{variable.score}} '],
  ] as const)('a %s subject %j that recalls to nothing is the default subject', (kind, subject) => {
    expect(subjectOf(kind, subject)).toBe(subjectOf('team', undefined));
    expect(String(subjectOf(kind, subject)).trim()).not.toBe('');
  });

  test('a subject with text keeps it, placeholders showing their fallbacks', () => {
    expect(subjectOf('respondent', 'Thanks, {{question.name | "friend"}}')).toBe('Thanks, friend');
  });
});
