/**
 * A real browser fills in a generated form: Debian's chromium, driven by playwright-core, against the
 * app served on a real socket. It leaves halfway (a partial response), comes back in a new tab with
 * the same cookies, resumes, and finishes. A stand-in calendar on another origin posts a Calendly
 * booking event, so the page's CSP frame-src and its booking script are exercised too.
 *
 * Saves `.scratch/screenshot-step1.png` (and the validation state, steps 2 and 3) for a look at the themed page.
 */
import { mkdirSync } from 'node:fs';
import type { ServerType } from '@hono/node-server';
import { type Browser, type Page } from 'playwright-core';
import { launchChromium, serveForBrowser, watchPageErrors } from '../support/chromium.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import type { Form } from '../../src/forms/forms.service.ts';
import { toResponseObject } from '../../src/responses/model.ts';
import { createTenant, setupTestApp, testConfig } from '../support/helpers.ts';
import { answerIn, componentAt, makeForm, responsesOf, type App } from '../support/public-helpers.ts';
import { onFileEnd } from '../support/cleanup.ts';
import { startCalendarStub } from '../support/calendar-stub.ts';

const SCREENSHOTS = new URL('../../.scratch/', import.meta.url).pathname;
let db: Database;
let app: App;
let form: Form;
let server: ServerType;
let browser: Browser;
let base: string;
let calendarOrigin: string;

beforeAll(async () => {
  ({ db, app } = await setupTestApp());
  // Registered after setupTestApp's database close, so it runs before it (afterAll hooks run in reverse).
  onFileEnd(async () => {
    await browser?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  });
  calendarOrigin = await startCalendarStub('https://api.calendly.com/scheduled_events/BROWSER');

  const tenant = await createTenant(db);
  form = await makeForm(
    db,
    tenant,
    [
      {
        name: 'About you',
        components: [
          { type: 'Header', content: { title: "Let's get to know you", subheading: 'Three quick steps.' } },
          {
            type: 'IdentityInfo',
            content: {
              fields: [
                { key: 'firstName', label: 'First name', placeholder: 'Ada' },
                { key: 'lastName', label: 'Last name', placeholder: 'Lovelace' },
                { key: 'workEmailAddress', label: 'Work e-mail', placeholder: 'ada@company.com', blockPersonalEmails: true },
                { key: 'phoneNumber', label: 'Phone', includeDialCode: true, defaultDialCodeCountry: 'GB', required: false },
                { key: 'companyName', label: 'Company', required: false },
                { key: 'numberOfEmployees', label: 'Employees', revealAfter: 'companyName' },
              ],
            },
          },
          { type: 'NextButton', content: { label: 'Continue' } },
        ],
      },
      {
        name: 'Your team',
        components: [
          { type: 'Dropdown', content: { question: 'How big is your team?', options: ['1-10', '11-50', '51-200', '200+'], placeholder: 'Choose a size' } },
          { type: 'MultipleOptionsQuestion', content: { question: 'What brings you here?', subheading: 'Pick one', choices: ['Sales', 'Support', 'Just curious'] } },
          { type: 'NextButton', content: { label: 'Next' } },
        ],
      },
      {
        name: 'Book a call',
        components: [
          { type: 'CalendlyScreen', content: { url: `${calendarOrigin}/acme/intro`, message: 'Pick a slot that suits you', prefillEmail: true } },
          { type: 'Disclaimer', content: { text: 'We use your details to arrange the call.', checkboxLabel: 'I agree', required: true } },
          { type: 'NextButton', content: { label: 'Finish' } },
        ],
      },
    ],
    'Browser form',
  );

  ({ server, base } = await serveForBrowser(app));
  browser = await launchChromium();
  mkdirSync(SCREENSHOTS, { recursive: true });
});

/**
 * Console errors, except the theme font service being unreachable (no network here) and the 422 of
 * the step shown again after a validation error.
 */
/** Page errors, but not the 422 of a step shown again with its errors (the browser logs that status). */
const watchErrors = (page: Page) => watchPageErrors(page, /status of 422/);

const responses = async () => (await responsesOf(db, form.id)).map((row) => toResponseObject(row, new Date(), testConfig().dropOffMs));

describe('a respondent in a browser', () => {
  it('fills in half the form, leaves, comes back, resumes and finishes', async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    const page = await context.newPage();
    const errors = watchErrors(page);

    // Step 1, themed.
    await page.goto(`${base}/s/${form.id}`);
    await expect.poll(() => page.title()).toBe('About you (step 1 of 3) – Browser form');
    await page.screenshot({ path: `${SCREENSHOTS}screenshot-step1.png`, fullPage: true });

    // revealAfter (script): Employees appears once Company is filled.
    expect(await page.getByLabel('Employees').isVisible()).toBe(false);
    await page.getByLabel('Company').fill('Analytical Engines Ltd');
    expect(await page.getByLabel('Employees').isVisible()).toBe(true);
    await page.getByLabel('Employees').fill('12');

    // A personal e-mail is refused by the server; the step comes back with the input kept.
    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Last name').fill('Lovelace');
    await page.getByLabel('Work e-mail').fill('ada@gmail.com');
    await page.getByLabel('Phone').fill('+49 30 1234567'); // the script moves +49 into the dial-code list
    await page.getByLabel('Phone').blur();
    expect(await page.getByLabel('Country dial code').inputValue()).toBe('DE');
    expect(await page.getByLabel('Phone').inputValue()).toBe('30 1234567');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.locator('p.fl-error', { hasText: 'Please use your work e-mail address' }).waitFor(); // the error summary repeats it as a link
    expect(await page.getByLabel('First name').inputValue()).toBe('Ada');
    await page.screenshot({ path: `${SCREENSHOTS}screenshot-step1-errors.png`, fullPage: true });

    await page.getByLabel('Work e-mail').fill('ada@engines.io');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${base}/s/${form.id}?step=1`);

    // Leave halfway: a partial response exists.
    await page.close();
    const [partial] = await responses();
    expect(partial).toMatchObject({ finished: false, status: 2, personAttributes: { ip: '127.0.0.1', visitedForm: 1, completedForm: 0 } });
    expect(answerIn(partial!, componentAt(form, 0, 1).id)).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      fullName: 'Ada Lovelace',
      workEmailAddress: 'ada@engines.io',
      phoneNumber: '+49 30 1234567',
      companyName: 'Analytical Engines Ltd',
      numberOfEmployees: '12',
    });

    // Come back later in a new tab (same cookies): the form continues at step 2.
    const again = await context.newPage();
    const moreErrors = watchErrors(again);
    await again.goto(`${base}/s/${form.id}`);
    await again.getByText('How big is your team?').waitFor();
    await again.getByLabel('How big is your team?').selectOption('11-50');
    await again.getByLabel('Support').check();
    await again.screenshot({ path: `${SCREENSHOTS}screenshot-step2.png`, fullPage: true });
    await again.getByRole('button', { name: 'Next' }).click();
    await again.waitForURL(`${base}/s/${form.id}?step=2`);

    // The calendar gets the e-mail from step 1; its booking event fills the step's booking fields.
    const frameSrc = await again.locator('iframe').getAttribute('src');
    expect(frameSrc).toBe(`${calendarOrigin}/acme/intro?email=ada%40engines.io&name=Ada+Lovelace&embed_domain=${encodeURIComponent(new URL(base).host)}&embed_type=Inline`);
    await again.getByText('Your meeting is booked.').waitFor();
    await again.getByLabel('I agree').check();
    await again.screenshot({ path: `${SCREENSHOTS}screenshot-step3.png`, fullPage: true });
    await again.getByRole('button', { name: 'Finish' }).click();
    await again.getByRole('heading', { name: 'Thank you!' }).waitFor();

    const all = await responses();
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ id: partial!.id, finished: true, status: 4, personAttributes: { visitedForm: 1, completedForm: 1 } });
    expect(answerIn(all[0]!, componentAt(form, 1, 0).id)).toMatchObject({ type: 'Dropdown', selected: '11-50' });
    expect(answerIn(all[0]!, componentAt(form, 1, 1).id)).toMatchObject({
      choices: [
        { key: 'Sales', value: false, index: 0 },
        { key: 'Support', value: true, index: 1 },
        { key: 'Just curious', value: false, index: 2 },
      ],
    });
    expect(answerIn(all[0]!, componentAt(form, 2, 0).id)).toMatchObject({ type: 'CalendlyScreen', eventScheduled: true, uri: 'https://api.calendly.com/scheduled_events/BROWSER' });
    expect(answerIn(all[0]!, componentAt(form, 2, 1).id)).toMatchObject({ type: 'Disclaimer', check: true });
    expect([...errors, ...moreErrors]).toEqual([]); // no CSP violations, no script errors
    await context.close();
  });
});
