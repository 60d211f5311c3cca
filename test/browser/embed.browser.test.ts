/**
 * Embedding in a real browser (Debian's chromium via playwright-core): formloom listens on 127.0.0.1, a
 * customer's page is served from another site, 127.0.0.2, and loads `/embed.js`.
 *
 * - Inline: the frame loads with the hidden fields of its attribute and of the host page's query, is
 *   filled inside the frame without any cookie (cross-site frames get none), and the host receives
 *   `formloom:ready`, `formloom:step`, `formloom:resize` and `formloom:completed` with the response's id.
 * - Popup: a modal dialog; focus moves into the form, Tab and Shift+Tab stay inside the dialog, Escape
 *   (pressed inside the frame) closes it and focus returns to the button; filled and completed. In
 *   Arabic (`data-formloom-lang="ar"`) the frame and the dialog run right to left, its close button at the left.
 * - With `embedOrigins` naming another site, the browser refuses the frame and nothing shows.
 * - axe finds no WCAG A/AA violation on the host page with the embedded form.
 *
 * Saves screenshots of the inline embed and of the popup to formloom-embed-screenshots/ in the system's
 * temporary directory (override with EMBED_SCREENSHOTS), outside the repository.
 */
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import AxeBuilder from '@axe-core/playwright';
import type { ServerType } from '@hono/node-server';
import { type Browser, type Page } from 'playwright-core';
import { launchChromium, serveForBrowser, watchPageErrors } from '../support/chromium.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Database } from '../../src/db/client.ts';
import { forms } from '../../src/db/schema.ts';
import type { Form } from '../../src/forms/forms.service.ts';
import { createTenant, jsonRequest, setupTestApp, type TestTenant } from '../support/helpers.ts';
import { componentAt, makeForm, responsesOf, type App } from '../support/public-helpers.ts';
import { onFileEnd } from '../support/cleanup.ts';

const SCREENSHOTS = process.env.EMBED_SCREENSHOTS ?? join(tmpdir(), 'formloom-embed-screenshots/');
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

let db: Database;
let app: App;
let tenant: TestTenant;
let inlineForm: Form;
let popupForm: Form;
let arabicForm: Form;
let server: ServerType;
let hostServer: Server;
let browser: Browser;
let base: string;
let hostOrigin: string;

interface HostEvent {
  type: string;
  target: string;
  detail: Record<string, unknown>;
}

/** The customer's page: an inline embed in a card, a popup button, and a log of the embed's events. */
function hostPage(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Acme Analytics – Talk to us</title>
<style>
  body { margin: 0; font-family: system-ui, sans-serif; background: #eef2f7; color: #0f172a; }
  header { background: #0f172a; color: #fff; padding: 16px 32px; font-weight: 700; }
  main { max-width: 760px; margin: 24px auto 48px; padding: 0 16px; }
  .card { background: #fff; border-radius: 14px; box-shadow: 0 8px 24px rgba(15, 23, 42, 0.08); overflow: hidden; }
  #open { font: inherit; font-weight: 600; padding: 10px 18px; border-radius: 8px; border: 0; background: #1d4ed8; color: #fff; cursor: pointer; }
</style>
</head>
<body>
<header>Acme Analytics</header>
<main>
<h1>Talk to our team</h1>
<p>Tell us a little about your team and we will be in touch within a day.</p>
<div class="card"><div id="inline" data-formloom-form="${inlineForm.id}" data-formloom-hidden="plan=pro,utm_source=site" data-formloom-title="Contact form"></div></div>
<h2>Prefer a quick survey?</h2>
<p><button id="open" type="button" data-formloom-popup="${popupForm.id}" data-formloom-title="Kurze Umfrage">Open the survey</button> <a href="#top" id="after">Back to top</a></p>
<p><button id="open-ar" type="button" lang="ar" data-formloom-popup="${arabicForm.id}" data-formloom-lang="ar" data-formloom-title="استطلاع قصير">استطلاع قصير</button></p>
</main>
<script>
  window.events = [];
  ['ready', 'step', 'completed', 'invalid', 'resize'].forEach(function (type) {
    document.addEventListener('formloom:' + type, function (event) {
      window.events.push({ type: type, target: event.target.id || event.target.tagName, detail: event.detail });
    });
  });
</script>
<script src="${base}/embed.js" async></script>
</body>
</html>`;
}

const listen = (target: Server, host: string) => new Promise<AddressInfo>((resolve) => target.listen(0, host, () => resolve(target.address() as AddressInfo)));

beforeAll(async () => {
  ({ db, app } = await setupTestApp());
  onFileEnd(async () => {
    await browser?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    await new Promise((resolve) => (hostServer ? hostServer.close(resolve) : resolve(undefined)));
  });
  tenant = await createTenant(db);
  inlineForm = await makeForm(
    db,
    tenant,
    [
      {
        name: 'About you',
        components: [
          { type: 'ShortInput', content: { question: 'Your name', placeholder: 'Ada Lovelace', required: true } },
          { type: 'EmailForm', content: { question: 'Work e-mail', required: true } },
        ],
      },
      {
        name: 'Your team',
        components: [
          { type: 'Dropdown', content: { question: 'Where does your team work?', options: ['Europe', 'Americas', 'Asia'], isMulti: true } },
          { type: 'NextButton', content: { label: 'Send' } },
        ],
      },
    ],
    'Contact us',
  );
  popupForm = await makeForm(
    db,
    tenant,
    [
      {
        name: 'Zufriedenheit',
        components: [{ type: 'MultipleOptionsQuestion', content: { question: 'Wie zufrieden sind Sie?', choices: ['Sehr', 'Etwas', 'Gar nicht'], required: true } }],
      },
      { name: 'Anmerkungen', components: [{ type: 'LongInput', content: { question: 'Was können wir besser machen?' } }] },
    ],
    'Kurze Umfrage',
  );
  // The popup's form speaks German (its own words: buttons, the thank-you screen).
  await db.update(forms).set({ locale: 'de' }).where(eq(forms.id, popupForm.id));
  arabicForm = await makeForm(
    db,
    tenant,
    [
      { name: 'رأيك', components: [{ type: 'ShortInput', content: { question: 'ما رأيك؟' } }] },
      { name: 'ملاحظات', components: [{ type: 'LongInput', content: { question: 'هل من شيء آخر؟' } }] },
    ],
    'استطلاع قصير',
    { locale: 'ar' },
  );

  ({ server, base } = await serveForBrowser(app));
  hostServer = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(hostPage());
  });
  hostOrigin = `http://127.0.0.2:${(await listen(hostServer, '127.0.0.2')).port}`;
  browser = await launchChromium();
  mkdirSync(SCREENSHOTS, { recursive: true });
});

const setEmbedOrigins = async (embedOrigins: string[] | null) => {
  const response = await app.request(`/api/v1/environments/${tenant.environmentId}/settings`, jsonRequest('PATCH', { embedOrigins }, { 'x-api-key': tenant.apiKey }));
  expect(response.status).toBe(200);
};

const events = (page: Page) => page.evaluate(() => (window as unknown as { events: HostEvent[] }).events);
const waitForEvent = (page: Page, type: string, match: Record<string, unknown> = {}) =>
  page.waitForFunction(
    ([wanted, fields]) => (window as unknown as { events: HostEvent[] }).events.some((e) => e.type === wanted && Object.entries(fields).every(([k, v]) => e.detail[k] === v)),
    [type, match] as const,
  );

describe('a form embedded in another site', () => {
  it('inline: loads with hidden fields, is filled without cookies, and reports ready, step, resize and completed', async () => {
    await setEmbedOrigins([hostOrigin]);
    const context = await browser.newContext({ viewport: { width: 1100, height: 1000 } });
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    // The host page's own query: a campaign parameter (forwarded), one the attribute overrides, and page parameters (not forwarded).
    await page.goto(`${hostOrigin}/?utm_campaign=spring&plan=free&step=1&fl-token=forged`);
    await waitForEvent(page, 'ready');
    await waitForEvent(page, 'step', { stepKey: 'step_1', index: 0 });

    const iframe = page.locator('#inline iframe');
    expect(await iframe.getAttribute('title')).toBe('Contact form');
    const src = new URL((await iframe.getAttribute('src'))!);
    expect(`${src.origin}${src.pathname}`).toBe(`${base}/s/${inlineForm.id}`);
    expect(Object.fromEntries(src.searchParams)).toEqual({ utm_campaign: 'spring', plan: 'pro', utm_source: 'site', embed: '1', 'fl-origin': hostOrigin });

    // Resized to its content: the frame is as high as the form, without a scroll bar of its own.
    await page.waitForFunction(() => (window as unknown as { events: HostEvent[] }).events.some((e) => e.type === 'resize'));
    expect(await iframe.evaluate((el: HTMLIFrameElement) => el.getBoundingClientRect().height)).toBeGreaterThan(200);
    const frame = page.frameLocator('#inline iframe');
    const scroll = await frame.locator('html').evaluate((html) => ({ scroll: html.scrollHeight, client: html.clientHeight }));
    expect(scroll.scroll).toBeLessThanOrEqual(scroll.client + 1);

    await frame.getByLabel('Your name').fill('Ada Lovelace');
    await frame.getByLabel('Work e-mail').fill('ada@engines.io');
    await page.screenshot({ path: `${SCREENSHOTS}embed-inline.png`, fullPage: true });
    await frame.getByRole('button', { name: 'Next' }).click();
    await waitForEvent(page, 'step', { stepKey: 'step_2', index: 1 });
    await frame.getByLabel('Europe').check();
    await frame.getByLabel('Asia').check();
    await page.screenshot({ path: `${SCREENSHOTS}embed-inline-step2.png`, fullPage: true });
    await frame.getByRole('button', { name: 'Send' }).click();
    await waitForEvent(page, 'completed');

    const [response] = (await responsesOf(db, inlineForm.id)).filter((row) => row.finished);
    expect(response).toBeDefined();
    const completed = (await events(page)).filter((e) => e.type === 'completed');
    expect(completed).toEqual([{ type: 'completed', target: 'inline', detail: { formId: inlineForm.id, responseId: response!.id } }]);
    expect((await events(page)).filter((e) => e.type === 'ready')).toHaveLength(1);
    expect(response!.data.find((a) => a.questionId === componentAt(inlineForm, 1, 0).id)?.response).toMatchObject({ selected: ['Europe', 'Asia'] });
    await frame.getByRole('heading', { name: 'Thank you!' }).waitFor();
    // Nothing was kept in cookies by formloom's origin: the session travelled in the frame's links and posts.
    expect(await context.cookies(base)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('popup: a modal dialog that keeps focus, closes on Escape, returns focus, and completes', async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    await page.goto(hostOrigin);
    await waitForEvent(page, 'ready'); // the inline form
    const button = page.getByRole('button', { name: 'Open the survey' });
    await button.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Kurze Umfrage' });
    await dialog.waitFor();
    await page.waitForFunction(() => (window as unknown as { events: HostEvent[] }).events.some((e) => e.type === 'ready' && e.target === 'open'));
    const popupFrame = page.frameLocator('dialog iframe');
    // Focus went into the form: its first control.
    await expect
      .poll(() =>
        popupFrame
          .locator('input')
          .first()
          .evaluate((el) => el === document.activeElement),
      )
      .toBe(true);
    await page.screenshot({ path: `${SCREENSHOTS}embed-popup.png` });

    // Tab and Shift+Tab never leave the dialog (the frame's controls, then the close button, and around).
    // Focus crosses into and out of the frame (another site, another renderer) asynchronously: between
    // the two, the host's activeElement is briefly the body, so each press is checked once focus settled.
    // Focus that escaped would not come back without another press.
    const inDialog = () => page.evaluate(() => !!document.activeElement && !!document.querySelector('dialog')?.contains(document.activeElement));
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab');
      await expect.poll(inDialog, { message: `after Tab ${i + 1}`, timeout: 2_000 }).toBe(true);
    }
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Shift+Tab');
      await expect.poll(inDialog, { message: `after Shift+Tab ${i + 1}`, timeout: 2_000 }).toBe(true);
    }
    // Escape inside the frame closes the dialog, and focus is back on the button.
    await popupFrame.locator('input').first().focus();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('open');

    // Open again (keyboard), answer both steps, receive formloom:completed on the button.
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await popupFrame.getByLabel('Sehr').check();
    await popupFrame.getByRole('button', { name: 'Weiter' }).click();
    await popupFrame.getByLabel('Was können wir besser machen?').fill('Mehr Integrationen.');
    await page.screenshot({ path: `${SCREENSHOTS}embed-popup-step2.png` });
    await popupFrame.getByRole('button', { name: 'Absenden' }).click();
    await page.waitForFunction(() => (window as unknown as { events: HostEvent[] }).events.some((e) => e.type === 'completed' && e.target === 'open'));
    const [response] = (await responsesOf(db, popupForm.id)).filter((row) => row.finished);
    const completed = (await events(page)).filter((e) => e.type === 'completed' && e.target === 'open');
    expect(completed.map((e) => e.detail)).toEqual([{ formId: popupForm.id, responseId: response!.id }]);
    await popupFrame.getByRole('heading', { name: 'Vielen Dank!' }).waitFor();
    // The close button closes it too.
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('popup in Arabic (data-formloom-lang): the form and the dialog right to left, the close button at the left and named in Arabic, axe clean', async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    await page.goto(hostOrigin);
    await page.locator('#open-ar').click();
    const dialog = page.getByRole('dialog', { name: 'استطلاع قصير' });
    await dialog.waitFor();
    await page.waitForFunction(() => (window as unknown as { events: HostEvent[] }).events.some((e) => e.type === 'ready' && e.target === 'open-ar'));
    expect(new URL((await dialog.locator('iframe').getAttribute('src'))!).searchParams.get('lang')).toBe('ar');
    const frame = page.frameLocator('dialog iframe');
    expect(await frame.locator('html').getAttribute('dir')).toBe('rtl');
    const panel = (await dialog.locator('iframe').locator('..').boundingBox())!;
    // The close button is named in the popup's language.
    const close = (await dialog.getByRole('button', { name: 'إغلاق' }).boundingBox())!;
    expect(close.x - panel.x).toBeLessThan(panel.width / 4);
    const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    await page.screenshot({ path: `${SCREENSHOTS}embed-popup-ar.png` });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('axe finds no WCAG A/AA violation on the host page with the embedded form', async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    const page = await context.newPage();
    await page.goto(hostOrigin);
    await waitForEvent(page, 'ready');
    const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    await context.close();
  });

  it('a site not on embedOrigins sees nothing load: the browser refuses the frame', async () => {
    await setEmbedOrigins(['https://elsewhere.example']);
    const context = await browser.newContext();
    const page = await context.newPage();
    const refusals: string[] = [];
    page.on('console', (message) => {
      if (/frame-ancestors/.test(message.text())) refusals.push(message.text());
    });
    const framed = page.waitForResponse((response) => response.url().startsWith(`${base}/s/${inlineForm.id}`));
    await page.goto(hostOrigin);
    const answer = await framed;
    // formloom answered, with a policy that leaves this site out; the browser then refuses to show it.
    expect(answer.headers()['content-security-policy']).toMatch(/frame-ancestors 'self' https:\/\/elsewhere\.example$/);
    await expect.poll(() => refusals.length).toBeGreaterThan(0);
    expect(refusals[0]).toContain(base);
    expect(await page.locator('#inline iframe').evaluate((el: HTMLElement) => getComputedStyle(el).visibility)).toBe('hidden');
    expect((await events(page)).filter((e) => e.type === 'ready')).toEqual([]);
    // No frame holds the form.
    for (const frame of page.frames())
      expect(
        await frame
          .locator('form')
          .count()
          .catch(() => 0),
      ).toBe(0);
    await context.close();
    await setEmbedOrigins(null);
  });
});
