/**
 * A feedback form of every survey question type in a real browser: on a phone (390 × 844) and a desktop
 * (1280 × 800) the page never scrolls sideways (a Matrix scrolls in its own region), with a screenshot of
 * each in the system's temporary directory; with JavaScript off and on, a keyboard alone answers every
 * type (with JavaScript the Ranking is a list moved by its buttons, or by dragging), and axe finds nothing
 * either way. The page loads nothing but formloom's own files (the fonts too).
 */
import AxeBuilder from '@axe-core/playwright';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerType } from '@hono/node-server';
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import type { Form } from '../../src/forms/forms.service.ts';
import { toResponseObject } from '../../src/responses/model.ts';
import { onFileEnd } from '../support/cleanup.ts';
import { launchChromium, serveForBrowser, watchPageErrors } from '../support/chromium.ts';
import { createTenant, setupTestApp, testConfig } from '../support/helpers.ts';
import { answerIn, makeForm, responsesOf } from '../support/public-helpers.ts';

const SHOTS = join(tmpdir(), 'formloom-survey-shots');
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
let db: Database;
let form: Form;
let server: ServerType;
let browser: Browser;
let base: string;

beforeAll(async () => {
  let app;
  ({ db, app } = await setupTestApp());
  onFileEnd(async () => {
    await browser?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  });
  const tenant = await createTenant(db);
  form = await makeForm(
    db,
    tenant,
    [
      {
        name: 'Your feedback',
        components: [
          { type: 'Header', content: { title: 'How did we do?' } },
          {
            type: 'Rating',
            content: { question: 'Rate the onboarding', lowLabel: 'Poor', highLabel: 'Great', required: true },
          },
          { type: 'NPS', content: { question: 'How likely are you to recommend us?', required: true } },
          {
            type: 'OpinionScale',
            content: {
              question: 'The docs are clear',
              from: 0,
              to: 6,
              labels: { left: 'Disagree', center: 'Neutral', right: 'Agree' },
            },
          },
          {
            type: 'Matrix',
            content: {
              question: 'How do these matter to you?',
              rows: ['Speed', 'Price', 'Support', 'Integrations'],
              columns: ['Not at all', 'A little', 'Somewhat', 'A lot', 'Essential'],
            },
          },
          { type: 'Ranking', content: { question: 'Put these in order', options: ['Speed', 'Price', 'Support'] } },
          { type: 'Number', content: { question: 'Team size', unit: 'people', min: 1 } },
          { type: 'Date', content: { question: 'When did you start?', max: '2030-12-31' } },
        ],
      },
      { name: 'Thanks', components: [{ type: 'Header', content: { title: 'Thank you' } }] },
    ],
    'Feedback',
  );
  ({ server, base } = await serveForBrowser(app));
  browser = await launchChromium();
  mkdirSync(SHOTS, { recursive: true });
});

async function violations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  return result.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join('; ')}`);
}

/** What has the focus: its name, else its accessible label, else its role. */
const focusedName = (page: Page) =>
  page.evaluate(() => document.activeElement?.getAttribute('name') ?? document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.getAttribute('role') ?? '');
async function tabTo(page: Page, name: string) {
  for (let i = 0; i < 80 && (await focusedName(page)) !== name; i++) await page.keyboard.press('Tab');
  expect(await focusedName(page)).toBe(name);
}

/** Every question but the Ranking, by keyboard: 5 stars, NPS 8, opinion 1, two matrix rows, 12 people, 17 May 2024. */
async function answerByKeyboard(page: Page, fields: string[], ranking: () => Promise<void>) {
  const [, rating, nps, opinion, matrix, , number, date] = fields;
  await tabTo(page, rating!);
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
  await tabTo(page, nps!);
  for (let i = 0; i < 8; i++) await page.keyboard.press('ArrowRight');
  await tabTo(page, opinion!);
  await page.keyboard.press('ArrowRight');
  await tabTo(page, `${matrix}.0`);
  await page.keyboard.press('ArrowRight'); // Speed: A little
  await tabTo(page, `${matrix}.1`);
  await page.keyboard.press('Space'); // Price: Not at all
  await ranking();
  await tabTo(page, number!);
  await page.keyboard.type('12');
  await tabTo(page, date!);
  await page.keyboard.type('05172024');
  await page.keyboard.press('Enter');
  await page.waitForURL(/step=1$/);
}

async function storedAnswers() {
  // The newest response: the one the test just made.
  const rows = (await responsesOf(db, form.id)).sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
  const response = toResponseObject(rows[0]!, new Date(), testConfig().dropOffMs);
  return [1, 2, 3, 4, 5, 6, 7].map((index) => answerIn(response, form.steps[0]!.components[index]!.id));
}

describe('a feedback form', () => {
  for (const [device, width, height] of [
    ['phone', 390, 844],
    ['desktop', 1280, 800],
  ] as const) {
    it(`fits a ${device} (${width} × ${height}) without sideways scrolling`, { timeout: 60_000 }, async () => {
      const context = await browser.newContext({ viewport: { width, height } });
      const page = await context.newPage();
      const errors = watchPageErrors(page);
      await page.goto(`${base}/s/${form.id}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      // Eleven NPS buttons in one row, each a target of 24 px or more.
      const nps = await page
        .locator('.fl-t-NPS .fl-scale-option')
        .evaluateAll((labels) => labels.map((l) => l.getBoundingClientRect()).map((r) => [Math.round(r.top), r.width, r.height]));
      expect(new Set(nps.map(([top]) => top)).size).toBe(1);
      for (const [, w, h] of nps) expect(Math.min(w!, h!)).toBeGreaterThanOrEqual(24);
      await page.screenshot({ path: join(SHOTS, `feedback-${device}.png`), fullPage: true });
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it('is answered by keyboard alone with JavaScript off, one select per ranking position', { timeout: 60_000 }, async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1000, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${base}/s/${form.id}?new=1`);
    const fields = form.steps[0]!.components.map((c) => `c.${c.id}`);
    await answerByKeyboard(page, fields, async () => {
      for (const position of [1, 2, 3]) {
        await tabTo(page, `${fields[5]}.${position}`);
        for (let i = 0; i < position; i++) await page.keyboard.press('ArrowDown');
      }
    });
    expect(await storedAnswers()).toMatchObject([
      { value: 5 },
      { value: 8 },
      { value: 1 },
      { rows: { Speed: 'A little', Price: 'Not at all' } },
      { ranking: ['Speed', 'Price', 'Support'] },
      { value: 12 },
      { value: '2024-05-17' },
    ]);
    await context.close();
  });

  it('has no axe violations as the page is without its script', { timeout: 60_000 }, async () => {
    // axe runs as a script itself: here the page's own script is what stays away.
    const context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
    await context.route(/\/assets\/page\.[\w-]+\.js$/, (route) => route.abort());
    const page = await context.newPage();
    await page.goto(`${base}/s/${form.id}?new=1`);
    expect(await page.locator('.fl-rank-list').count()).toBe(0);
    expect(await violations(page)).toEqual([]);
    await context.close();
  });

  it('is answered by keyboard alone with JavaScript on: the Ranking is a list its buttons reorder, posting the same fields', { timeout: 60_000 }, async () => {
    const context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
    const outside: string[] = [];
    context.on('request', (request) => {
      if (!request.url().startsWith(base)) outside.push(request.url());
    });
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    await page.goto(`${base}/s/${form.id}?new=1`);
    await page.locator('.fl-rank-list').waitFor();
    // The selects are out of sight (still in the form).
    for (const row of await page.locator('.fl-rank').all()) expect(await row.isVisible()).toBe(false);
    expect(await violations(page)).toEqual([]);
    // The template's fonts come from formloom, and nothing else from anywhere.
    expect(
      await page.evaluate(async () => {
        await document.fonts.ready;
        return document.fonts.check('16px "Source Sans 3"');
      }),
    ).toBe(true);
    const fields = form.steps[0]!.components.map((c) => `c.${c.id}`);
    await answerByKeyboard(page, fields, async () => {
      // Support up twice: first; the focus stays with it (on "down" once "up" is spent).
      await tabTo(page, 'Move up: Support');
      await page.keyboard.press('Enter');
      await page.keyboard.press('Enter');
      expect(await focusedName(page)).toBe('Move down: Support');
      expect(await page.locator('.fl-rank-list .fl-rank-name').allTextContents()).toEqual(['Support', 'Speed', 'Price']);
      expect(await page.locator('.fl-ranking [aria-live]').textContent()).toBe('Support: Position 1');
    });
    expect(await storedAnswers()).toMatchObject([
      { value: 5 },
      { value: 8 },
      { value: 1 },
      { rows: { Speed: 'A little', Price: 'Not at all' } },
      { ranking: ['Support', 'Speed', 'Price'] },
      { value: 12 },
      { value: '2024-05-17' },
    ]);
    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
    await context.close();
  });

  it('reorders the Ranking by dragging', { timeout: 60_000 }, async () => {
    const context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${base}/s/${form.id}?new=1`);
    const items = page.locator('.fl-rank-list .fl-rank-item');
    await items.nth(2).dragTo(items.nth(0));
    expect(await page.locator('.fl-rank-list .fl-rank-name').allTextContents()).toEqual(['Support', 'Speed', 'Price']);
    const ranking = form.steps[0]!.components[5]!.id;
    expect(await page.evaluate((id) => [1, 2, 3].map((n) => (document.querySelector(`select[name="c.${id}.${n}"]`) as HTMLSelectElement).value), ranking)).toEqual([
      'Support',
      'Speed',
      'Price',
    ]);
    await context.close();
  });
});
