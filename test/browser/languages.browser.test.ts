/**
 * A multilingual form in a real browser (Debian's chromium via playwright-core): German and Arabic at a
 * phone's and a desktop's width, axe-core (WCAG 2.x A and AA) clean on each, the Arabic page laid out
 * right to left (the progress bar fills from the right, the question's label starts at the right, the back
 * link and the submit button swap sides, the error summary reads right to left), and the language
 * switcher taking the respondent to another language without JavaScript.
 *
 * Saves PNG screenshots to /tmp/language-shots/.
 */
import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { ServerType } from '@hono/node-server';
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Form } from '../../src/forms/forms.service.ts';
import { launchChromium, serveForBrowser, watchPageErrors } from '../support/chromium.ts';
import { onFileEnd } from '../support/cleanup.ts';
import { createTenant, setupTestApp } from '../support/helpers.ts';
import { generateThroughApi } from '../support/public-helpers.ts';
import type { RenderContext } from '../../src/components/markup.ts';
import { schedulers } from '../../src/components/schedulers.ts';
import type { StoredComponent } from '../../src/db/json-columns.ts';
import { CLIENT_SCRIPT } from '../../src/public/client-script.ts';

const SHOTS = '/tmp/language-shots/';
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const WIDTHS = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 900 } };

let browser: Browser;
let server: ServerType;
let base: string;
let form: Form;

beforeAll(async () => {
  const { db, app } = await setupTestApp({ publicRateLimitPerMinute: 0, apiRateLimitPerMinute: 0 });
  const tenant = await createTenant(db);
  const steps = [
    {
      name: { en: 'About you', de: 'Über Sie', ar: 'عنك' },
      components: [
        { type: 'Header', content: { title: { en: 'Join the beta', de: 'Machen Sie bei der Beta mit', ar: 'انضم إلى النسخة التجريبية' } } },
        { type: 'ShortInput', content: { question: { en: 'Your name', de: 'Ihr Name', ar: 'اسمك' }, required: true } },
        {
          type: 'MultipleOptionsQuestion',
          content: {
            question: { en: 'Team size', de: 'Teamgröße', ar: 'حجم الفريق' },
            choices: [
              { en: 'Small', de: 'Klein', ar: 'صغير' },
              { en: 'Large', de: 'Groß', ar: 'كبير' },
            ],
          },
        },
        { type: 'Disclaimer', content: { text: { en: 'We keep your data safe.', de: 'Wir schützen Ihre Daten.', ar: 'نحافظ على بياناتك.' }, required: true } },
      ],
    },
    {
      name: { en: 'Details', de: 'Details', ar: 'التفاصيل' },
      components: [{ type: 'LongInput', content: { question: { en: 'Anything else?', de: 'Sonst noch etwas?', ar: 'هل من شيء آخر؟' } } }],
    },
  ];
  const generated = await generateThroughApi(app, db, tenant, 'unused', steps, {
    name: { en: 'Beta', de: 'Beta', ar: 'تجريبي' },
    languages: { default: 'en', others: ['de', 'ar'] },
  });
  form = generated.form;
  ({ server, base } = await serveForBrowser(app));
  browser = await launchChromium();
  onFileEnd(async () => {
    await browser.close();
    await new Promise((resolve) => server.close(resolve));
  });
  mkdirSync(SHOTS, { recursive: true });
});

async function open(language: string, size: keyof typeof WIDTHS): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: WIDTHS[size] });
  await context.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => route.abort('internetdisconnected'));
  const page = await context.newPage();
  // The step posted empty comes back as a 422 page, which the browser logs.
  const errors = watchPageErrors(page, /status of 422/);
  await page.goto(`${base}/s/${form.id}?lang=${language}`);
  return { page, errors };
}

async function violations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  return result.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join('; ')}`);
}

/** Posts the first step with nothing answered (no client-side checks), so the page shows its error summary. */
async function submitEmpty(page: Page) {
  await page.evaluate(() => document.querySelectorAll('form').forEach((f) => (f.noValidate = true)));
  await Promise.all([page.waitForLoadState('load'), page.locator('form button[type=submit]').last().click()]);
  await page.locator('.fl-alert').first().waitFor();
}

describe('German and Arabic at a phone and a desktop width', () => {
  for (const language of ['de', 'ar'] as const) {
    for (const size of ['phone', 'desktop'] as const) {
      it(`${language} on a ${size}: the language's texts and direction, axe clean, with errors too`, async () => {
        const { page, errors } = await open(language, size);
        expect(await page.getAttribute('html', 'lang')).toBe(language);
        expect(await page.getAttribute('html', 'dir')).toBe(language === 'ar' ? 'rtl' : 'ltr');
        await expect(page.locator('h1, h2').first().textContent()).resolves.toContain(language === 'ar' ? 'انضم' : 'Beta');
        expect(await violations(page)).toEqual([]);
        await page.screenshot({ path: `${SHOTS}${language}-${size}.png`, fullPage: true });
        await submitEmpty(page);
        expect(await violations(page)).toEqual([]);
        await page.screenshot({ path: `${SHOTS}${language}-${size}-errors.png`, fullPage: true });
        expect(errors).toEqual([]);
        await page.context().close();
      });
    }
  }
});

describe('right to left', () => {
  it('lays the Arabic page out from the right: labels, choices, the check box, buttons and the error summary', async () => {
    const { page } = await open('ar', 'desktop');
    const box = async (selector: string) => (await page.locator(selector).first().boundingBox())!;
    const form = await box('form');
    // The question's label starts at the form's right edge, a choice's radio sits at its right.
    const label = await box('label.fl-label, .fl-label');
    expect(form.x + form.width - (label.x + label.width)).toBeLessThan(form.width / 4);
    const choice = await box('.fl-choice');
    const radio = await box('.fl-choice input');
    expect(radio.x).toBeGreaterThan(choice.x + choice.width / 2);
    const check = await box('.fl-check input');
    const checkRow = await box('.fl-check');
    expect(check.x).toBeGreaterThan(checkRow.x + checkRow.width / 2);
    await submitEmpty(page);
    const alert = await page
      .locator('.fl-alert')
      .first()
      .evaluate((el) => getComputedStyle(el).direction);
    expect(alert).toBe('rtl');
    await page.context().close();
  });

  it('takes the respondent to another language with the switcher, without JavaScript', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: WIDTHS.phone });
    const page = await context.newPage();
    await page.goto(`${base}/s/${form.id}?lang=ar`);
    const nav = page.getByRole('navigation', { name: 'اللغة' });
    await nav.getByRole('link', { name: 'Deutsch' }).click();
    await page.waitForLoadState('load');
    expect(await page.getAttribute('html', 'lang')).toBe('de');
    expect(await page.getAttribute('html', 'dir')).toBe('ltr');
    await expect(page.getByText('Ihr Name').first().isVisible()).resolves.toBe(true);
    await context.close();
  });
});

describe("a booked meeting's time", () => {
  it("is written in the page's language and the respondent's time zone when the calendar reports it", async () => {
    const context = await browser.newContext({ timezoneId: 'Europe/Berlin' });
    // The calendar: a page that reports a HubSpot booking of 2026-03-01 14:30 UTC for half an hour.
    await context.route('https://calendar.example/**', (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><title>Kalender</title><script>window.parent.postMessage({ meetingBookSucceeded: true, meetingsPayload: { bookingResponse: { event: { dateTime: ${Date.UTC(2026, 2, 1, 14, 30)}, duration: 1800000 } } } }, '*');</script>`,
      }),
    );
    const scheduler: StoredComponent = { id: 'ALL.C0.0', type: 'HubspotScreen', content: { dataUrl: 'https://calendar.example/acme', calendarType: 'Hubspot' } };
    const ctx = { form: { locale: 'de' }, values: new Map(), errors: new Map(), notices: [], prefill: {}, host: '127.0.0.1' } as unknown as RenderContext;
    const page = await context.newPage();
    await page.setContent(
      `<!doctype html><html lang="de"><body><form>${(await schedulers.render!(scheduler, ctx)).toString()}</form><script>${CLIENT_SCRIPT}</script></body></html>`,
    );
    // (No stylesheet here: the note is visible from the start; the booking changes its text.)
    const note = page.locator('[data-booked]');
    await expect.poll(() => note.textContent()).toMatch(/^Ihr Termin ist gebucht: 1\. März 2026 um 15:30 \S+\.$/);
    expect(await note.getAttribute('class')).toBe('fl-note');
    expect(await page.locator('input[data-booking="meetingTime"]').inputValue()).toBe('2026-03-01T14:30:00.000Z');
    await context.close();
  });
});
