/**
 * Recall placeholders (docs/logic.md, Recall): refused at save with their paths (an unknown reference, a
 * question on the same or a later step, a malformed placeholder), substituted from the respondent's own
 * values with the caller's escaping, fallbacks when there is no value.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { placeholdersOf, recall, recallValues } from '../../src/forms/recall.ts';
import type { StoredComponent } from '../../src/db/json-columns.ts';
import type { FormTexts } from '../../src/forms/translations.ts';
import { recallLookup } from '../../src/responses/recall-values.ts';
import { appWith, createTenant, setupIsolatedTestApp, type TestContext, type TestTenant } from '../support/helpers.ts';
import { generateThroughApi } from '../support/public-helpers.ts';

let ctx: TestContext;
let app: TestContext['app'];
let tenant: TestTenant;

beforeAll(async () => {
  ctx = await setupIsolatedTestApp();
  app = appWith(ctx.db, { publicRateLimitPerMinute: 0 });
  tenant = await createTenant(ctx.db);
});

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

describe('placeholders', () => {
  it('are found with their references and fallbacks; a stray {{ is malformed', () => {
    expect(placeholdersOf('Hi {{question.first}} and {{ question.who.emailAddress | "you" }}, {{hidden.plan}} {{variable.score}}').found.map((p) => [p.ref, p.fallback])).toEqual([
      ['question.first', ''],
      ['question.who.emailAddress', 'you'],
      ['hidden.plan', ''],
      ['variable.score', ''],
    ]);
    expect(placeholdersOf('plain text').malformed).toBe(false);
    for (const bad of ['{{question}}', '{{answer.first}}', '{{question.first', '{{question.first | there}}', '{{question.1st}}'])
      expect(placeholdersOf(bad).malformed, bad).toBe(true);
  });

  it("take the respondent's values, escaped by the caller, the fallback when unanswered", () => {
    const lookup = recallLookup({
      data: [
        { questionId: 'q1', key: 'first', response: { type: 'ShortInput', input: '<script>alert(1)</script>' } },
        { questionId: 'q2', key: 'who', response: { type: 'IdentityInfo', emailAddress: 'ada@example.com' } },
      ],
      meta: { hiddenFields: { plan: 'pro' }, variables: { score: 7.5 } },
    });
    const text = 'Thanks, {{question.first}} ({{question.who.emailAddress}}), {{hidden.plan}} {{variable.score}} {{question.last | "there"}}{{hidden.utm}}';
    expect(recall(text, lookup, escapeHtml)).toBe('Thanks, &#60;script&#62;alert(1)&#60;/script&#62; (ada@example.com), pro 7.5 there');
    expect(recallValues([text], lookup)).toEqual({
      'question.first': '<script>alert(1)</script>',
      'question.who.emailAddress': 'ada@example.com',
      'hidden.plan': 'pro',
      'variable.score': '7.5',
      'question.last': 'there',
      'hidden.utm': '',
    });
  });

  it("write numbers, days and times in the respondent's language on the page and in e-mails, and raw in the JSON API", () => {
    const component = (key: string, type: string, content: Record<string, unknown> = {}) => ({ id: key, key, type, content }) as StoredComponent;
    const form = {
      name: 'Order',
      locale: 'en',
      languages: { default: 'en', others: ['de'] },
      texts: null,
      steps: [
        {
          id: 's1',
          name: 'Order',
          components: [
            component('seats', 'Number', { question: 'Seats?', decimals: 1 }),
            component('start', 'Date', { question: 'Start?' }),
            component('call', 'CalendlyScreen', { dataUrl: 'https://calendly.com/acme' }),
          ],
        },
      ],
    } as FormTexts;
    const response = {
      data: [
        { questionId: 'seats', key: 'seats', response: { type: 'Number', value: 1234.5 } },
        { questionId: 'start', key: 'start', response: { type: 'Date', value: '2026-03-05' } },
        { questionId: 'call', key: 'call', response: { type: 'CalendlyScreen', eventScheduled: true, meetingTime: '2026-03-05T09:00:00.000Z' } },
      ],
      meta: { variables: { score: 7.5 } },
    };
    const text = '{{question.seats}} / {{question.start}} / {{question.call}} / {{variable.score}}';
    expect(recall(text, recallLookup(response, { form, language: 'de', written: true }))).toBe('1.234,5 / 5. März 2026 / 5. März 2026 um 09:00 UTC / 7,5');
    expect(recall(text, recallLookup(response, { form, language: 'de' }))).toBe('1234.5 / 2026-03-05 / 2026-03-05T09:00:00.000Z / 7.5');
  });
});

describe('refused at save, with the path', () => {
  const steps = (second: Record<string, unknown>) => [
    { name: 'Name', components: [{ type: 'ShortInput', key: 'first', content: { question: 'First name?' } }] },
    { name: 'Step two', components: [{ type: 'ShortInput', key: 'next', content: { question: 'Q' } }], ...second },
  ];
  const cases: [string, unknown[], Record<string, unknown>, (string | number)[]][] = [
    ['an unknown question', steps({ name: 'Hi {{question.nobody}}' }), {}, ['steps', 1, 'name']],
    [
      'a question of the same step',
      steps({ components: [{ type: 'ShortInput', key: 'next', content: { question: 'Again {{question.next}}?' } }] }),
      {},
      ['steps', 1, 'components', 0, 'content', 'question'],
    ],
    ['a question of a later step', [{ name: 'Hi {{question.next}}', components: [{ type: 'Header', content: { title: 'x' } }] }, ...steps({}).slice(1)], {}, ['steps', 0, 'name']],
    ['an undeclared hidden field', steps({ name: 'From {{hidden.ref}}' }), {}, ['steps', 1, 'name']],
    ['an undeclared variable', steps({ name: 'Score {{variable.score}}' }), {}, ['steps', 1, 'name']],
    ['a field on a question without fields', steps({ name: '{{question.first.last}}' }), {}, ['steps', 1, 'name']],
    ['a malformed placeholder', steps({ components: [{ type: 'Header', content: { title: 'Hi {{question.first' } }] }), {}, ['steps', 1, 'components', 0, 'content', 'title']],
  ];
  it.each(cases)('%s', async (_what, body, more, path) => {
    const { status, body: refused } = await generateThroughApi(app, ctx.db, tenant, 'Recall', body, more);
    expect(status).toBe(400);
    expect(refused.errors.map((e: any) => JSON.stringify(e.path))).toContain(JSON.stringify(path));
  });

  it('takes known references to earlier questions, hidden fields and variables', async () => {
    const body = steps({ name: 'Hi {{question.first | "there"}} from {{hidden.plan}}, {{variable.score}}' });
    const { status, body: made } = await generateThroughApi(app, ctx.db, tenant, 'Recall', body, {
      hiddenFields: ['plan'],
      variables: [{ name: 'score', type: 'number' }],
    });
    expect(status, JSON.stringify(made)).toBe(200);
  });
});
