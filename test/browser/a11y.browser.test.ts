/**
 * Accessibility of the public pages, in a real browser (Debian's chromium via playwright-core):
 *
 * - axe-core (WCAG 2.0/2.1/2.2 A and AA rules) finds no violation on any step of a form holding
 *   every component type, in the default theme and in a dark template theme whose palette would fail
 *   AA contrast as given (the page adjusts the derived colours), including steps showing errors.
 * - A keyboard-only respondent (Tab, arrows, Space, Enter — no clicks, no `fill`) completes a
 *   multi-step form with every answerable type (a multi-select Dropdown's check boxes with Space); after
 *   a failed submit focus is on the first invalid field.
 *
 * Saves PNG screenshots to /tmp/a11y-shots/ (default theme, dark theme, a step with errors).
 */
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import AxeBuilder from '@axe-core/playwright';
import type { ServerType } from '@hono/node-server';
import { type Browser, type BrowserContext, type FileChooser, type Page } from 'playwright-core';
import { launchChromium, serveForBrowser } from '../support/chromium.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { STORED_COMPONENT_TYPES, isAnswerable } from '../../src/components/catalogue.ts';
import type { Database } from '../../src/db/client.ts';
import type { Form } from '../../src/forms/forms.service.ts';
import { DEFAULT_THEME, themeSchema } from '../../src/forms/theme.ts';
import { toResponseObject } from '../../src/responses/model.ts';
import { createTenant, setupTestApp, testConfig } from '../support/helpers.ts';
import { answerIn, responsesOf, makeForm, type App } from '../support/public-helpers.ts';
import { onFileEnd } from '../support/cleanup.ts';
import type { Theme } from '../../src/db/json-columns.ts';

const SHOTS = '/tmp/a11y-shots/';
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * A dark template whose palette fails AA as given: the primary colour is too dim for text on the
 * dark background (about 4:1) and white button text on the light primary is about 2.5:1.
 */
export const DARK_THEME: Theme = themeSchema.parse({
  fonts: { heading: 'Inter', body: 'Inter' },
  colors: { primary: '#6366f1', background: '#0f172a', text: '#e2e8f0', buttonText: '#ffffff' },
  background: { type: 'color', color: '#0f172a' },
  layout: { align: 'left', width: 'medium', showProgressBar: true },
  componentStyles: { ShortInput: { backgroundColor: '#1e293b', textColor: '#94a3b8', borderColor: '#334155', accentColor: '#6366f1' } },
});

let db: Database;
let app: App;
let server: ServerType;
let assets: Server;
let browser: Browser;
let base: string;
let assetOrigin: string;

/** A stand-in calendar (a keyboard-operable "Book" button that posts Calendly's booking event) and option images. */
const CALENDAR_PAGE = `<!doctype html><html lang="en"><title>Calendar</title><main><h1>Pick a time</h1>
<button type="button" id="book">Book 10:00</button></main><script>
document.getElementById('book').addEventListener('click', function () {
  window.parent.postMessage({ event: 'calendly.event_scheduled', payload: { event: { uri: 'https://api.calendly.com/scheduled_events/KEYBOARD' }, invitee: { uri: 'https://api.calendly.com/invitees/1' } } }, '*');
  this.textContent = 'Booked';
});
</script></html>`;
const IMAGE = `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"><rect width="40" height="30" fill="#94a3b8"/></svg>`;

const listen = (target: Server) => new Promise<AddressInfo>((resolve) => target.listen(0, '127.0.0.1', () => resolve(target.address() as AddressInfo)));

/** Every stored component type, over four steps. */
function everyTypeSteps(origin: string) {
  const calendar = `${origin}/calendar`;
  const schedulers = ['Scheduler', 'CalScreen', 'HubspotScreen', 'SavvyCalScreen', 'RevenueHeroScreen', 'ReclaimAIScreen', 'ClariScreen', 'ChiliCalScreen'];
  return [
    {
      name: 'About you',
      components: [
        { type: 'Header', content: { title: 'Tell us about yourself', subheading: 'Four short steps.' } },
        { type: 'ShortInput', content: { question: 'Your job title', placeholder: 'Engineer', required: true } },
        { type: 'LongInput', content: { question: 'What are you working on?', required: false } },
        { type: 'EmailForm', content: { question: 'Your e-mail', required: true } },
        {
          type: 'IdentityInfo',
          content: {
            fields: [
              { key: 'firstName', label: 'First name' },
              { key: 'lastName', label: 'Last name' },
              { key: 'phoneNumber', label: 'Phone', includeDialCode: true, defaultDialCodeCountry: 'GB', required: false },
              { key: 'companyName', label: 'Company', required: false },
            ],
          },
        },
        { type: 'NextButton', content: { label: 'Continue' } },
      ],
    },
    {
      name: 'Your preferences',
      components: [
        { type: 'Dropdown', content: { question: 'Team size', options: ['1-10', '11-50', '51+'], placeholder: 'Choose a size', required: true } },
        { type: 'Dropdown', content: { question: 'Regions', options: ['Europe', 'Americas', 'Asia'], isMulti: true } },
        { type: 'MultipleOptionsQuestion', content: { question: 'What brings you here?', subheading: 'Pick one', choices: ['Sales', 'Support', 'Just curious'], required: true } },
        { type: 'MultipleOptionsQuestion', content: { question: 'Which tools do you use?', choices: ['Email', 'Chat', 'Phone'], isMulti: true } },
        {
          type: 'GraphicOptions',
          content: {
            question: 'Pick a style',
            required: true,
            options: [
              { label: 'Modern', imageUrl: `${origin}/image.svg` },
              { label: 'Classic', imageUrl: `${origin}/image.svg` },
            ],
          },
        },
        { type: 'Disclaimer', content: { text: 'We store your answers to contact you.', checkboxLabel: 'I agree', required: true } },
        { type: 'NextBackButtons', content: { nextLabel: 'Next', backLabel: 'Back' } },
      ],
    },
    {
      name: 'Account',
      components: [
        { type: 'PasswordInput', content: { question: 'Access code' } },
        { type: 'PasswordCreatorInput', content: { question: 'Choose a password' } },
        { type: 'FileUploader', content: { question: 'Your CV', allowedTypes: ['pdf', 'txt'] } },
        { type: 'Recaptcha', content: { siteKey: 'site-key-recaptcha' } },
        { type: 'TurnstileWidget', content: { siteKey: 'site-key-turnstile' } },
        { type: 'AiChatbot', content: { greeting: 'Questions? Ask our assistant.' } },
        { type: 'Rating', content: { question: 'Rate this form', lowLabel: 'Poor', highLabel: 'Great' } },
        { type: 'NPS', content: { question: 'How likely are you to recommend us?' } },
        { type: 'OpinionScale', content: { question: 'The questions were clear', to: 4, labels: { left: 'Disagree', center: 'Neutral', right: 'Agree' } } },
        { type: 'Number', content: { question: 'Team budget', unit: 'k€', decimals: 1, min: 0 } },
        { type: 'Date', content: { question: 'Start date', min: '2026-01-01', max: '2027-12-31' } },
        { type: 'Matrix', content: { question: 'Rate these', rows: ['Speed', 'Price'], columns: ['Low', 'High'] } },
        { type: 'Ranking', content: { question: 'Order these', options: ['Alpha', 'Beta', 'Gamma'] } },
        { type: 'NextBackButtons', content: { nextLabel: 'Next', backLabel: 'Back' } },
      ],
    },
    {
      name: 'Book a call',
      components: [
        { type: 'CalendlyScreen', content: { url: calendar, message: 'Pick a slot that suits you' } },
        ...schedulers.map((type) => ({ type, content: { url: calendar } })),
        { type: 'DynamicScheduler', content: { defaultCalendar: { name: 'Sales', url: calendar }, calendars: [{ name: 'Support', url: `${calendar}?team=support` }] } },
        { type: 'NextButton', content: { label: 'Finish' } },
      ],
    },
  ];
}

async function formIn(theme: Theme, name: string): Promise<Form> {
  const tenant = await createTenant(db, { theme });
  return makeForm(db, tenant, everyTypeSteps(assetOrigin), name);
}

let defaultForm: Form;
let darkForm: Form;

beforeAll(async () => {
  ({ db, app } = await setupTestApp());
  onFileEnd(async () => {
    await browser?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    await new Promise((resolve) => (assets ? assets.close(resolve) : resolve(undefined)));
  });
  assets = createServer((req, res) => {
    if (req.url?.startsWith('/image.svg')) {
      res.writeHead(200, { 'content-type': 'image/svg+xml' });
      res.end(IMAGE);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(CALENDAR_PAGE);
  });
  assetOrigin = `http://127.0.0.1:${(await listen(assets)).port}`;
  defaultForm = await formIn(DEFAULT_THEME, 'Accessibility form');
  darkForm = await formIn(DARK_THEME, 'Dark form');

  ({ server, base } = await serveForBrowser(app));
  browser = await launchChromium();
  mkdirSync(SHOTS, { recursive: true });
});

/** A browser context that never reaches the internet (fonts, captcha providers): such requests fail at once. */
async function offlineContext(): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
  await context.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => route.abort('internetdisconnected'));
  return context;
}

async function violations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  return result.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => `${n.target.join(' ')} (${n.failureSummary?.replace(/\s+/g, ' ')})`).join('; ')}`);
}

/** Posts a step with nothing answered (no client-side validation), so the page comes back with errors. */
async function submitEmpty(page: Page, form: Form, step: number) {
  await page.evaluate(() => document.querySelectorAll('form').forEach((f) => (f.noValidate = true)));
  await Promise.all([page.waitForURL(`${base}/s/${form.id}?step=${step}`), page.locator('form button[type=submit]').last().press('Enter')]);
  await page.locator('.fl-error').first().waitFor();
}

describe('axe-core on every component type', () => {
  it('covers every stored type in the fixture', () => {
    const used = new Set(everyTypeSteps('http://x').flatMap((s) => s.components.map((c) => c.type)));
    expect(STORED_COMPONENT_TYPES.filter((type) => !used.has(type))).toEqual([]);
  });

  for (const [themeName, form] of [
    ['default', () => defaultForm],
    ['dark', () => darkForm],
  ] as const) {
    it(`finds no WCAG 2.2 A/AA violation in the ${themeName} theme, on every step and with errors`, { timeout: 120_000 }, async () => {
      const context = await offlineContext();
      const page = await context.newPage();
      const f = form();
      await page.goto(`${base}/s/${f.id}?new=1`);
      for (let step = 0; step < f.steps.length; step++) {
        if (step > 0) await page.goto(`${base}/s/${f.id}?step=${step}`);
        expect(await page.title()).toBe(`${f.steps[step]!.name} (step ${step + 1} of ${f.steps.length}) – ${f.name}`);
        expect(await page.locator('html').getAttribute('lang')).toBe('en');
        expect(await violations(page), `${themeName} step ${step}`).toEqual([]);
        if (step === 0) await page.screenshot({ path: `${SHOTS}${themeName}-step1.png`, fullPage: true });
        if (step <= 1) {
          await submitEmpty(page, f, step);
          expect(await page.title()).toMatch(/^Error: /);
          expect(await violations(page), `${themeName} step ${step} with errors`).toEqual([]);
          if (step === 1) await page.screenshot({ path: `${SHOTS}${themeName}-step2-errors.png`, fullPage: true });
          await answerStepDirectly(page, step);
        } else if (step === 2) {
          // A step with nothing answered records no progress: answer one question to move on.
          await page.getByLabel('Access code').fill('open sesame');
          await Promise.all([page.waitForURL(/step=3$/), page.getByRole('button', { name: 'Next' }).click()]);
        }
      }
      await context.close();
    });
  }
});

/** Moves past a step in the axe test (the keyboard test below is the one that answers by keyboard only). */
async function answerStepDirectly(page: Page, step: number) {
  if (step === 0) {
    await page.getByLabel('Your job title').fill('Engineer');
    await page.getByLabel('Your e-mail').fill('ada@engines.io');
    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Last name').fill('Lovelace');
    await Promise.all([page.waitForURL(/step=1$/), page.getByRole('button', { name: 'Continue' }).click()]);
  } else {
    await page.getByLabel('Team size').selectOption('11-50');
    await page.getByLabel('Support').check();
    await page.getByLabel('Modern').check();
    await page.getByLabel('I agree').check();
    await Promise.all([page.waitForURL(/step=2$/), page.getByRole('button', { name: 'Next' }).click()]);
  }
}

describe('a keyboard-only respondent', () => {
  it('fills and submits every answerable type with Tab, arrows, Space and Enter; a failed submit focuses the first invalid field', { timeout: 120_000 }, async () => {
    const context = await offlineContext();
    const page = await context.newPage();
    const form = defaultForm;
    const focused = () =>
      page.evaluate(
        () =>
          document.activeElement?.getAttribute('aria-label') ??
          (document.activeElement as HTMLInputElement | null)?.labels?.[0]?.textContent?.replace(' *', '').trim() ??
          document.activeElement?.textContent?.trim(),
      );
    /** Tabs forward until the focused control is the one labelled `name`. */
    const tabTo = async (name: string) => {
      for (let i = 0; i < 60; i++) {
        if ((await focused()) === name) return;
        await page.keyboard.press('Tab');
      }
      throw new Error(`Tab never reached ${name}`);
    };
    const type = (text: string) => page.keyboard.type(text);

    await page.goto(`${base}/s/${form.id}?new=1`);
    // Step 1: a failed submit (required fields empty, browser validation off) puts focus on the first invalid field.
    await page.evaluate(() => document.querySelectorAll('form').forEach((f) => (f.noValidate = true)));
    await tabTo('Continue');
    await Promise.all([page.waitForURL(/step=0$/), page.keyboard.press('Enter')]);
    expect(await focused()).toBe('Your job title');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-invalid'))).toBe('true');
    await page.screenshot({ path: `${SHOTS}keyboard-step1-errors.png`, fullPage: true });

    await type('Engineer');
    await tabTo('What are you working on?');
    await type('Accessible forms');
    await tabTo('Your e-mail');
    await type('ada@engines.io');
    await tabTo('First name');
    await type('Ada');
    await tabTo('Last name');
    await type('Lovelace');
    await tabTo('Phone');
    await type('20 7946 0000');
    await tabTo('Continue');
    await Promise.all([page.waitForURL(/step=1$/), page.keyboard.press('Enter')]);

    // Step 2: a select (arrows), a multi-select Dropdown's check boxes (Space), radios (arrows), checkboxes (Space), graphic options (arrows), the disclaimer (Space).
    await tabTo('Team size');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    // The multi-select Dropdown is a group of check boxes named by its question: no "hold Ctrl", no list box.
    expect(await page.locator('select[multiple]').count()).toBe(0);
    expect(await page.getByRole('group', { name: 'Regions' }).getByRole('checkbox').count()).toBe(3);
    await tabTo('Europe');
    await page.keyboard.press('Space');
    await tabTo('Asia');
    await page.keyboard.press('Space');
    await tabTo('Sales');
    await page.keyboard.press('ArrowDown'); // radios: the arrow moves to and checks "Support"
    await tabTo('Email');
    await page.keyboard.press('Space');
    await tabTo('Chat');
    await page.keyboard.press('Space');
    await tabTo('Modern');
    await page.keyboard.press('ArrowRight'); // checks "Classic"
    await tabTo('I agree');
    await page.keyboard.press('Space');
    await tabTo('Next');
    await Promise.all([page.waitForURL(/step=2$/), page.keyboard.press('Enter')]);

    // Step 3: passwords by typing, the file input opened with Space (the file chooser gets a file).
    await tabTo('Access code');
    await type('open sesame');
    await tabTo('Choose a password');
    await type('correct horse battery');
    await tabTo('Repeat the password');
    await type('correct horse battery');
    await tabTo('Your CV');
    // Space opens the file chooser. On a loaded machine the first press was once seen to open none
    // within 30 s (CI, load ~30): press it again, a few times at most, still by keyboard only.
    const openChooser = async (attempt = 1): Promise<FileChooser> => {
      try {
        const [opened] = await Promise.all([page.waitForEvent('filechooser', { timeout: 10_000 }), page.keyboard.press('Space')]);
        return opened;
      } catch (error) {
        if (attempt >= 3 || (await focused()) !== 'Your CV') throw error;
        return openChooser(attempt + 1);
      }
    };
    const chooser = await openChooser();
    await chooser.setFiles({ name: 'cv.txt', mimeType: 'text/plain', buffer: Buffer.from('Ada Lovelace, engineer\n') });
    await page
      .locator('[data-upload-id]')
      .first()
      .waitFor({ state: 'attached' })
      .catch(() => undefined);
    // The scales: radio groups, moved along with the arrows (stars named "4 of 5", buttons by their number).
    await tabTo('★1 of 5');
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    await tabTo('0');
    for (let i = 0; i < 9; i++) await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('1');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await tabTo('Team budget');
    await type('12,5');
    // The date input takes its parts typed in the browser's order (month, day, year in an en-US browser).
    await tabTo('Start date');
    await type('03022026');
    // The matrix: its scroll region, then one radio group per row (arrows move and check, Space checks).
    const role = () => page.evaluate(() => document.activeElement?.getAttribute('role'));
    for (let i = 0; i < 5 && (await role()) !== 'region'; i++) await page.keyboard.press('Tab');
    expect(await role()).toBe('region');
    await page.keyboard.press('Tab');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    // The ranking with its script: a list whose buttons move an option (Alpha down twice: last).
    await tabTo('Move down: Alpha');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await tabTo('Next');
    await Promise.all([page.waitForURL(/step=3$/), page.keyboard.press('Enter')]);

    // Step 4: Tab into the embedded calendar, book with Enter, then finish.
    const frame = page.frameLocator('iframe').first();
    await frame.locator('#book').waitFor();
    for (let i = 0; i < 10 && !(await frame.locator('#book').evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.getByText('Your meeting is booked.').first().waitFor();
    await tabTo('Finish');
    await Promise.all([page.waitForURL(/done=1$/), page.keyboard.press('Enter')]);
    await page.getByRole('heading', { name: 'Thank you!' }).waitFor();

    const rows = await responsesOf(db, form.id);
    const response = toResponseObject(
      rows.find((r) => r.finished)!,
      new Date(),
      testConfig().dropOffMs,
    );
    const at = (step: number, index: number) => answerIn(response, form.steps[step]!.components[index]!.id);
    expect(at(0, 1)).toMatchObject({ type: 'ShortInput', input: 'Engineer' });
    expect(at(0, 2)).toMatchObject({ type: 'LongInput', input: 'Accessible forms' });
    expect(at(0, 3)).toMatchObject({ type: 'EmailForm', emailAddress: 'ada@engines.io' });
    expect(at(0, 4)).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace' });
    expect(at(1, 0)).toMatchObject({ type: 'Dropdown', selected: '11-50' }); // past the placeholder, two options down
    expect(at(1, 1)).toMatchObject({ type: 'Dropdown', selected: ['Europe', 'Asia'] }); // two check boxes ticked with Space
    expect(at(1, 2)).toMatchObject({ choices: expect.arrayContaining([{ key: 'Support', value: true, index: 1 }]) });
    expect(at(1, 3)).toMatchObject({
      choices: expect.arrayContaining([
        { key: 'Email', value: true, index: 0 },
        { key: 'Chat', value: true, index: 1 },
      ]),
    });
    expect(at(1, 4)).toMatchObject({ type: 'GraphicOptions', value: 'Classic' });
    expect(at(1, 5)).toMatchObject({ type: 'Disclaimer', check: true });
    expect(at(2, 0)).toMatchObject({ type: 'PasswordInput' });
    expect(at(2, 1)).toMatchObject({ type: 'PasswordCreatorInput' });
    expect(at(2, 2)).toMatchObject({ type: 'FileUploader' });
    expect([at(2, 6), at(2, 7), at(2, 8)]).toMatchObject([
      { type: 'Rating', value: 4 },
      { type: 'NPS', value: 9 },
      { type: 'OpinionScale', value: 3 },
    ]);
    expect([at(2, 9), at(2, 10)]).toMatchObject([
      { type: 'Number', value: 12.5 },
      { type: 'Date', value: '2026-03-02' },
    ]);
    expect([at(2, 11), at(2, 12)]).toMatchObject([
      { type: 'Matrix', rows: { Speed: 'High', Price: 'Low' } },
      { type: 'Ranking', ranking: ['Beta', 'Gamma', 'Alpha'] },
    ]);
    expect(at(3, 0)).toMatchObject({ eventScheduled: true, uri: 'https://api.calendly.com/scheduled_events/KEYBOARD' });
    const answered = STORED_COMPONENT_TYPES.filter(isAnswerable);
    const covered = new Set(form.steps.flatMap((s) => s.components.map((c) => c.type)));
    expect(answered.filter((t) => !covered.has(t))).toEqual([]);
    await context.close();
  });
});
