/**
 * The qualification form of docs/logic.md in a real browser (Debian's chromium via playwright-core,
 * the app on a real socket): the server routes each respondent, the back link follows the path, a
 * completion step and an invalid step are the final screens, and hidden fields come from the URL. One
 * respondent has JavaScript turned off: the routing needs none.
 */
import type { ServerType } from '@hono/node-server';
import { type Browser, type Page } from 'playwright-core';
import { launchChromium, serveForBrowser, watchPageErrors } from '../support/chromium.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import type { Form } from '../../src/forms/forms.service.ts';
import { createTenant, setupTestApp } from '../support/helpers.ts';
import { QUALIFICATION_HIDDEN_FIELDS, QUALIFICATION_STEPS } from '../support/logic-fixtures.ts';
import { makeForm, responsesOf, type App } from '../support/public-helpers.ts';
import { onFileEnd } from '../support/cleanup.ts';
import { startCalendarStub } from '../support/calendar-stub.ts';

let db: Database;
let app: App;
let form: Form;
let server: ServerType;
let browser: Browser;
let base: string;

beforeAll(async () => {
  ({ db, app } = await setupTestApp({ publicRateLimitPerMinute: 0 }));
  onFileEnd(async () => {
    await browser?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  });
  const calendarOrigin = await startCalendarStub('https://api.calendly.com/scheduled_events/LOGIC');
  // The fixture's form, its calendar served here.
  const steps = structuredClone(QUALIFICATION_STEPS);
  steps[2]!.components[0]!.content = { url: `${calendarOrigin}/acme/demo`, message: 'Pick a time' };
  const tenant = await createTenant(db);
  form = await makeForm(db, tenant, steps, 'Qualify', { hiddenFields: QUALIFICATION_HIDDEN_FIELDS });

  ({ server, base } = await serveForBrowser(app));
  browser = await launchChromium();
});

const stepUrl = (key: string) => `${base}/s/${form.id}?step=${form.steps.findIndex((s) => s.key === key)}`;
const responseOf = async (email: string) => (await responsesOf(db, form.id)).find((row) => row.data.some((a) => a.response.emailAddress === email))!;

async function aboutYou(page: Page, { email, employees, role }: { email: string; employees: string; role: string }) {
  await page.getByLabel('Work e-mail').fill(email);
  await page.getByLabel('Company').fill('Acme');
  await page.getByLabel('Employees').fill(employees);
  await page.getByLabel('Your role?').selectOption(role);
  await page.getByRole('button', { name: 'Next' }).click();
}

describe('the qualification form in a browser', () => {
  it('a visitor from an enterprise link is sent to the demo, books it, and sees the completion step', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    await page.goto(`${base}/s/${form.id}?utm_source=ad&plan=enterprise&ref=newsletter`);
    await aboutYou(page, { email: 'cto@bigcorp.io', employees: '3', role: 'Founder' });
    await page.waitForURL(stepUrl('demo'));
    await page.getByText('Your meeting is booked.').waitFor();
    await page.getByLabel('What should we prepare?').fill('A tour');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'See you soon' }).waitFor();
    expect(await page.locator('main.fl-final-completed').count()).toBe(1);
    const row = await responseOf('cto@bigcorp.io');
    expect(row).toMatchObject({ finished: true, meta: { path: ['about', 'demo', 'booked'], hiddenFields: { utm_source: 'ad', plan: 'enterprise' } } });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('without JavaScript, a student is turned away at the invalid step', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${base}/s/${form.id}`);
    // No script: every field is shown (Employees is not hidden until Company is filled).
    await aboutYou(page, { email: 'kid@school.edu', employees: '1', role: 'Student' });
    await page.waitForURL(`${base}/s/${form.id}?done=1`);
    await page.getByText('This offer is for companies.').waitFor();
    expect(await page.locator('main.fl-final-invalid').count()).toBe(1);
    expect(await responseOf('kid@school.edu')).toMatchObject({ finished: false, meta: { invalid: true, path: ['about', 'students'] } });
    await context.close();
  });

  it('the back link follows the path; changing the first step reroutes, and a step off the path is not shown', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    await page.goto(`${base}/s/${form.id}`);
    await aboutYou(page, { email: 'ana@tiny.io', employees: '12', role: 'Engineer' });
    await page.waitForURL(stepUrl('pricing'));
    await page.getByLabel('Starter').check();
    // The demo step is not on this path: asking for it lands on the current step.
    await page.goto(stepUrl('demo'));
    await page.waitForURL(stepUrl('pricing'));
    await page.getByRole('link', { name: /Back/ }).click();
    await page.waitForURL(`${base}/s/${form.id}?step=0`);
    expect(await page.getByLabel('Employees').inputValue()).toBe('12');
    await page.getByLabel('Employees').fill('800');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL(stepUrl('demo'));
    expect(await responseOf('ana@tiny.io')).toMatchObject({ finished: false, meta: { path: ['about'] } });
    expect(errors).toEqual([]);
    await context.close();
  });
});
