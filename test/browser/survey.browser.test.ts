/**
 * A feedback form of every survey question type in a real browser: on a phone (390 × 844) and a desktop
 * (1280 × 800) the page never scrolls sideways (a Matrix scrolls in its own region), with a screenshot of
 * each in the system's temporary directory; with JavaScript off, a keyboard alone answers every type.
 */
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerType } from '@hono/node-server';
import type { Browser } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import type { Form } from '../../src/forms/forms.service.ts';
import { toResponseObject } from '../../src/responses/model.ts';
import { onFileEnd } from '../support/cleanup.ts';
import { launchChromium, serveForBrowser, watchPageErrors } from '../support/chromium.ts';
import { createTenant, setupTestApp, testConfig } from '../support/helpers.ts';
import { answerIn, makeForm, responsesOf } from '../support/public-helpers.ts';

const SHOTS = join(tmpdir(), 'formloom-survey-shots');
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
          { type: 'Rating', content: { question: 'Rate the onboarding', lowLabel: 'Poor', highLabel: 'Great', required: true } },
          { type: 'NPS', content: { question: 'How likely are you to recommend us?', required: true } },
          { type: 'OpinionScale', content: { question: 'The docs are clear', from: 0, to: 6, labels: { left: 'Disagree', center: 'Neutral', right: 'Agree' } } },
          { type: 'Matrix', content: { question: 'How do these matter to you?', rows: ['Speed', 'Price', 'Support', 'Integrations'], columns: ['Not at all', 'A little', 'Somewhat', 'A lot', 'Essential'] } },
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
      const nps = await page.locator('.fl-t-NPS .fl-scale-option').evaluateAll((labels) => labels.map((l) => l.getBoundingClientRect()).map((r) => [Math.round(r.top), r.width, r.height]));
      expect(new Set(nps.map(([top]) => top)).size).toBe(1);
      for (const [, w, h] of nps) expect(Math.min(w!, h!)).toBeGreaterThanOrEqual(24);
      await page.screenshot({ path: join(SHOTS, `feedback-${device}.png`), fullPage: true });
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it('is answered by keyboard alone with JavaScript off', { timeout: 60_000 }, async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1000, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${base}/s/${form.id}?new=1`);
    const focusedName = () => page.evaluate(() => document.activeElement?.getAttribute('name') ?? document.activeElement?.getAttribute('role') ?? '');
    const tabToName = async (name: string) => {
      for (let i = 0; i < 80 && (await focusedName()) !== name; i++) await page.keyboard.press('Tab');
      expect(await focusedName()).toBe(name);
    };
    const [, rating, nps, opinion, matrix, ranking, number, date] = form.steps[0]!.components.map((c) => `c.${c.id}`);
    await tabToName(rating!);
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight'); // 5 stars
    await tabToName(nps!);
    for (let i = 0; i < 8; i++) await page.keyboard.press('ArrowRight'); // 8
    await tabToName(opinion!);
    await page.keyboard.press('ArrowRight'); // 1
    await tabToName(`${matrix}.0`);
    await page.keyboard.press('ArrowRight'); // Speed: A little
    await tabToName(`${matrix}.1`);
    await page.keyboard.press('Space'); // Price: Not at all
    for (const position of [1, 2, 3]) {
      await tabToName(`${ranking}.${position}`);
      for (let i = 0; i < position; i++) await page.keyboard.press('ArrowDown');
    }
    await tabToName(number!);
    await page.keyboard.type('12');
    await tabToName(date!);
    await page.keyboard.type('05172024');
    await page.keyboard.press('Enter');
    await page.waitForURL(/step=1$/);
    const rows = await responsesOf(db, form.id);
    const response = toResponseObject(rows[0]!, new Date(), testConfig().dropOffMs);
    const at = (index: number) => answerIn(response, form.steps[0]!.components[index]!.id);
    expect([1, 2, 3, 4, 5, 6, 7].map(at)).toMatchObject([
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
});
