/**
 * The read-only results page in a real browser (Debian's chromium via playwright-core): at a phone's
 * and a desktop's width, in the default theme, in a dark theme whose palette would fail AA as given and in
 * Arabic (right to left, `dir="rtl"`), axe-core (WCAG 2.0/2.1/2.2 A and AA) finds no violation; nothing overflows the phone's width; the
 * page raises no CSP violation or script error; every chart is an image named by its title with a
 * table beside it. The 404 page of a revoked link is checked too. Screenshots go to /tmp/results-shots/.
 */
import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { ServerType } from '@hono/node-server';
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import type { Theme } from '../../src/db/json-columns.ts';
import { DEFAULT_THEME, themeSchema } from '../../src/forms/theme.ts';
import { launchChromium, serveForBrowser, watchPageErrors } from '../support/chromium.ts';
import { onFileEnd } from '../support/cleanup.ts';
import { createTenant, jsonRequest, setupTestApp } from '../support/helpers.ts';
import { componentAt, makeForm, type App } from '../support/public-helpers.ts';

const SHOTS = '/tmp/results-shots/';
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const WIDTHS = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 900 } };

/** Dim primary on a dark background: text and marks in it would fail AA as given. */
const DARK: Theme = themeSchema.parse({
  colors: { primary: '#4338ca', background: '#0f172a', text: '#64748b', buttonText: '#ffffff' },
  background: { type: 'color', color: '#0f172a' },
});

let db: Database;
let app: App;
let server: ServerType;
let base: string;
let browser: Browser;

/** A form with every kind of chart, answered by a few respondents, and a link to its results (free text included). */
async function resultsOf(theme: Theme, name: string, locale: string): Promise<string> {
  const tenant = await createTenant(db, { theme });
  const form = await makeForm(
    db,
    tenant,
    [
      {
        name: 'Plan',
        components: [
          {
            type: 'MultipleOptionsQuestion',
            content: { question: 'Which plan?', choices: ['Free', 'Team', 'Enterprise with a rather long name'] },
          },
        ],
      },
      {
        name: 'Opinion',
        components: [
          { type: 'NPS', content: { question: 'How likely are you to recommend us?' } },
          {
            type: 'Matrix',
            content: { question: 'Rate these', rows: ['Speed', 'Price', 'Support'], columns: ['Low', 'Mid', 'High'] },
          },
          { type: 'Ranking', content: { question: 'Order these', choices: ['Speed', 'Price', 'Support'] } },
          { type: 'Number', content: { question: 'How many seats?' } },
          { type: 'LongInput', content: { question: 'Anything else?' } },
        ],
      },
    ],
    name,
    { locale },
  );
  const id = (step: number, index: number) => componentAt(form, step, index).id;
  for (let i = 0; i < 12; i++) await app.request(`/s/${form.id}/views`, jsonRequest('POST', {}));
  for (let i = 0; i < 8; i++) {
    const answers: Record<string, unknown> = {
      [id(0, 0)]: [['Free', 'Team', 'Enterprise with a rather long name'][i % 3]],
    };
    if (i % 4 !== 3) {
      Object.assign(answers, {
        [id(1, 0)]: (i * 3) % 11,
        [id(1, 1)]: { Speed: 'High', Price: ['Low', 'Mid'][i % 2], Support: 'Mid' },
        [id(1, 2)]: i % 2 ? ['Price', 'Speed', 'Support'] : ['Support', 'Price', 'Speed'],
        [id(1, 3)]: 5 + i * 7,
        [id(1, 4)]: `Note number ${i}: keep going`,
      });
    }
    await app.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers, finished: i % 4 !== 3 }));
  }
  const made = await app.request(`/api/v1/forms/${form.id}/share-links`, jsonRequest('POST', { includeTextAnswers: true }, { 'x-api-key': tenant.apiKey }));
  return ((await made.json()) as { url: string }).url;
}

async function violations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  return result.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join('; ')}`);
}

let pages: { name: string; url: string }[];

beforeAll(async () => {
  ({ db, app } = await setupTestApp());
  onFileEnd(async () => {
    await browser?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  });
  pages = [
    { name: 'default', url: await resultsOf(DEFAULT_THEME, 'Results in the default theme', 'en') },
    { name: 'dark', url: await resultsOf(DARK, 'Ergebnisse im dunklen Thema', 'de') },
    // Right to left: Arabic's words, figures and layout.
    { name: 'arabic', url: await resultsOf(DEFAULT_THEME, 'نتائج الاستطلاع', 'ar') },
  ];
  ({ server, base } = await serveForBrowser(app));
  browser = await launchChromium();
  mkdirSync(SHOTS, { recursive: true });
});

describe('the results page in chromium', () => {
  for (const [widthName, viewport] of Object.entries(WIDTHS)) {
    it(`is axe clean, fits and loads nothing it may not, at ${widthName} width in both themes and right to left`, async () => {
      for (const { name, url } of pages) {
        const context = await browser.newContext({ viewport });
        const page = await context.newPage();
        const errors = watchPageErrors(page);
        const response = await page.goto(`${base}${url}`);
        expect(response?.status()).toBe(200);
        expect(await page.getAttribute('html', 'dir'), name).toBe(name === 'arabic' ? 'rtl' : 'ltr');
        expect(await violations(page), `${name} at ${widthName}`).toEqual([]);
        // Anything reaching past the viewport's right edge (or, right to left, its left edge), by tag and text.
        const overflowing = await page.evaluate(() =>
          [...document.querySelectorAll('body *')]
            .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 0.5 || element.getBoundingClientRect().left < -0.5)
            .map((element) => `${element.tagName} ${(element.textContent ?? '').slice(0, 40)}`),
        );
        expect(overflowing, `${name} at ${widthName} overflows`).toEqual([]);
        // A bar chart's label sits before its bar in reading order: at its left, or right to left at its right.
        const bar = await page.evaluate(() => {
          const label = document.querySelector('svg[role="img"] text[text-anchor="end"] + rect')!.previousElementSibling!;
          const [text, rect] = [label.getBoundingClientRect(), label.nextElementSibling!.getBoundingClientRect()];
          return { labelLeft: text.left, labelRight: text.right, barLeft: rect.left, barRight: rect.right };
        });
        if (name === 'arabic') expect(bar.labelLeft, `${name} at ${widthName}: label right of its bar`).toBeGreaterThanOrEqual(bar.barRight - 1);
        else expect(bar.labelRight, `${name} at ${widthName}: label left of its bar`).toBeLessThanOrEqual(bar.barLeft + 1);
        const charts = await page.locator('svg[role="img"]').count();
        expect(charts).toBeGreaterThanOrEqual(8);
        expect(await page.locator('table').count()).toBeGreaterThanOrEqual(charts);
        expect(await page.getByRole('img', { name: /How likely are you to recommend us\?/ }).count()).toBeGreaterThanOrEqual(1);
        await page.screenshot({ path: `${SHOTS}results-${name}-${widthName}.png`, fullPage: true });
        await page.screenshot({ path: `${SHOTS}results-${name}-${widthName}-first-screen.png` });
        expect(errors).toEqual([]);
        await context.close();
      }
    }, 120_000);
  }

  it('an unknown or revoked link is a 404 page that is axe clean too', async () => {
    const context = await browser.newContext({ viewport: WIDTHS.phone });
    const page = await context.newPage();
    const response = await page.goto(`${base}/r/${'x'.repeat(43)}`);
    expect(response?.status()).toBe(404);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Results not found');
    expect(await violations(page)).toEqual([]);
    await context.close();
  });
});
