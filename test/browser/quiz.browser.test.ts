/**
 * A scored quiz with recall in a real browser (Debian's chromium via playwright-core, the app on a real
 * socket): the respondent's name is recalled into the next step ("Thanks, Ada"), the chosen options'
 * scores add up to a variable whose value picks the completion step ("Full marks" or the score), and once
 * the form's limit of finished responses is reached a newcomer gets the closed screen with its message.
 */
import type { ServerType } from '@hono/node-server';
import { type Browser, type Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import { generateForm, type Form } from '../../src/forms/forms.service.ts';
import { generateFormInputSchema } from '../../src/forms/components.ts';
import { onFileEnd } from '../support/cleanup.ts';
import { launchChromium, serveForBrowser, watchPageErrors } from '../support/chromium.ts';
import { createTenant, setupTestApp } from '../support/helpers.ts';
import { responsesOf, type App } from '../support/public-helpers.ts';

let db: Database;
let app: App;
let form: Form;
let server: ServerType;
let browser: Browser;
let base: string;

const addScore = (key: string) => ({ calculate: { variable: 'score', op: 'add', value: { scoreOf: key } } });
const STEPS = [
  { name: 'Welcome', key: 'welcome', components: [{ type: 'ShortInput', key: 'name', content: { question: 'Your name?', required: true } }] },
  {
    name: 'Thanks, {{question.name}}',
    key: 'quiz',
    components: [
      { type: 'Header', content: { title: 'Thanks, {{question.name}}!', subheading: 'Two questions, 5 points each.' } },
      { type: 'Dropdown', key: 'capital', content: { question: 'Capital of France?', options: ['Lyon', 'Paris'], optionScores: { Paris: 5 } } },
      { type: 'Dropdown', key: 'river', content: { question: 'River through Paris?', options: ['Rhine', 'Seine'], optionScores: { Seine: 5 } } },
    ],
    logic: {
      rules: [
        { if: { question: 'capital', op: 'answered' }, then: addScore('capital') },
        { if: { question: 'river', op: 'answered' }, then: addScore('river') },
        { if: { variable: 'score', op: 'greaterOrEqual', value: 10 }, then: { goTo: 'perfect' } },
      ],
      next: 'partial',
    },
  },
  { name: 'Perfect', key: 'perfect', completion: true, components: [{ type: 'Header', content: { title: 'Full marks, {{question.name}}: {{variable.score}} of 10' } }] },
  { name: 'Partial', key: 'partial', completion: true, components: [{ type: 'Header', content: { title: 'You scored {{variable.score}} of 10, {{question.name}}' } }] },
];

beforeAll(async () => {
  ({ db, app } = await setupTestApp({ publicRateLimitPerMinute: 0 }));
  onFileEnd(async () => {
    await browser?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  });
  const tenant = await createTenant(db);
  form = await generateForm(
    db,
    tenant.environmentId,
    generateFormInputSchema.parse({
      sourceFormId: tenant.templateId,
      name: 'Paris quiz',
      steps: STEPS,
      variables: [{ name: 'score', type: 'number' }],
      limits: { maxResponses: 2, closedMessage: 'The quiz is full: thanks for your interest.' },
    }),
  );
  ({ server, base } = await serveForBrowser(app));
  browser = await launchChromium();
});

/** Answers the quiz as `name` and returns the final screen's page. */
async function takeQuiz(page: Page, name: string, answers: { capital: string; river: string }) {
  await page.goto(`${base}/s/${form.id}`);
  await page.getByLabel('Your name?').fill(name);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('heading', { name: `Thanks, ${name}!` }).waitFor();
  await page.getByLabel('Capital of France?').selectOption(answers.capital);
  await page.getByLabel('River through Paris?').selectOption(answers.river);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.waitForURL(`${base}/s/${form.id}?done=1`);
}

describe('a scored quiz in a browser', () => {
  it('recalls the name, routes on the score, and closes once its limit is reached', async () => {
    const context = await browser.newContext();
    const ada = await context.newPage();
    const errors = watchPageErrors(ada);
    await takeQuiz(ada, 'Ada', { capital: 'Paris', river: 'Seine' });
    await ada.getByRole('heading', { name: 'Full marks, Ada: 10 of 10' }).waitFor();
    expect(await ada.locator('main.fl-final-completed').count()).toBe(1);
    expect(errors).toEqual([]);
    await context.close();

    // Another respondent, with a score of 5: the other completion step, with their own name only.
    const other = await browser.newContext();
    const bob = await other.newPage();
    await takeQuiz(bob, '<b>Bob</b>', { capital: 'Paris', river: 'Rhine' });
    await bob.getByRole('heading', { name: 'You scored 5 of 10, <b>Bob</b>' }).waitFor();
    expect(await bob.content()).not.toContain('Ada');
    expect(await bob.locator('main b').count()).toBe(0);
    await other.close();

    const rows = await responsesOf(db, form.id);
    expect(rows.map((row) => [row.finished, row.meta.path, row.meta.variables]).sort()).toEqual([
      [true, ['welcome', 'quiz', 'partial'], { score: 5 }],
      [true, ['welcome', 'quiz', 'perfect'], { score: 10 }],
    ]);

    // The limit is reached: a newcomer gets the closed screen.
    const late = await browser.newContext();
    const carol = await late.newPage();
    const response = await carol.goto(`${base}/s/${form.id}`);
    expect(response?.status()).toBe(410);
    await carol.getByText('The quiz is full: thanks for your interest.').waitFor();
    expect(await carol.getByLabel('Your name?').count()).toBe(0);
    await late.close();
  }, 60_000);
});
