/**
 * FileUploader with JavaScript, in Debian's chromium (playwright-core): a chosen image is uploaded at
 * once with a progress bar and a preview, the step then posts the upload's id, and the response holds
 * the file. A refused file shows the server's message at the field. Also under the page's CSP
 * (connect-src 'self', blob: images): a CSP violation would show up as a console error. On a German
 * form the script writes the page's words and the server's messages in German.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerType } from '@hono/node-server';
import { type Browser } from 'playwright-core';
import { launchChromium, serveForBrowser } from '../support/chromium.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import type { Form } from '../../src/forms/forms.service.ts';
import { appWith, createTenant, openTestDatabase } from '../support/helpers.ts';
import { PNG } from '../support/file-fixtures.ts';
import { answerIn, componentAt, makeForm, responsesOf } from '../support/public-helpers.ts';
import { onFileEnd } from '../support/cleanup.ts';

let db: Database;
let form: Form;
let germanForm: Form;
let server: ServerType;
let browser: Browser;
let base: string;

beforeAll(async () => {
  const handle = await openTestDatabase();
  const dataDir = await mkdtemp(join(tmpdir(), 'formloom-upload-browser-'));
  onFileEnd(async () => {
    await browser?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    await handle.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  db = handle.db;
  const tenant = await createTenant(db);
  form = await makeForm(db, tenant, [
    { name: 'Your photo', components: [{ type: 'FileUploader', content: { question: 'A photo of you', allowedTypes: ['png'], required: true } }] },
    { name: 'Done', components: [{ type: 'ShortInput', content: { question: 'Anything else?' } }] },
  ]);
  germanForm = await makeForm(
    db,
    tenant,
    [
      { name: 'Ihre Fotos', components: [{ type: 'FileUploader', content: { question: 'Fotos', allowedTypes: ['png'], multiple: true } }] },
      { name: 'Fertig', components: [{ type: 'ShortInput', content: { question: 'Sonst noch etwas?' } }] },
    ],
    'Fotos',
    { locale: 'de' },
  );
  const app = appWith(db, { dataDir, fontsCssUrl: undefined });
  ({ server, base } = await serveForBrowser(app));
  browser = await launchChromium();
});

describe('a respondent with JavaScript', () => {
  it('uploads a chosen image with progress and a preview, then sends the step with its id', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && !/status of 4\d\d/.test(message.text())) errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${base}/s/${form.id}`);
    const input = page.locator('input[type=file]');

    // A refused file: the server's message at the field, nothing kept.
    await input.setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('not a png at all') });
    await expect.poll(() => page.locator('[data-upload-status] .fl-error').textContent()).toContain('notes.png is not a valid .png file');

    // The input is a drop zone: a large dashed target, and the chosen file is listed with its size.
    const zone = await input.boundingBox();
    expect(zone!.height).toBeGreaterThanOrEqual(96);
    expect(await input.evaluate((element) => getComputedStyle(element).borderStyle)).toBe('dashed');
    await input.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
    await expect.poll(() => page.locator('[data-upload-status] .fl-files li').textContent()).toBe(`me.png (${PNG.byteLength} byte)`);
    await expect.poll(() => page.locator('[data-upload-status] .fl-note').last().textContent()).toBe('Uploaded.');
    expect(await page.locator('[data-upload-status] progress').last().getAttribute('value')).toBe('100');
    expect(await page.locator('[data-upload-status] img.fl-preview').getAttribute('src')).toMatch(/^blob:/);
    const id = await page.locator(`[data-upload-status] input[type=hidden]`).getAttribute('value');
    expect(id).toMatch(/^upl_/);
    // The file went up already: the step is sent without it.
    expect(await input.evaluate((element: HTMLInputElement) => element.files?.length ?? 0)).toBe(0);

    await Promise.all([page.waitForURL(/step=1/), page.click('button[type=submit]')]);
    const [row] = await responsesOf(db, form.id);
    expect(answerIn(row!, componentAt(form, 0, 0).id)).toMatchObject({ files: [{ id, name: 'me.png', contentType: 'image/png', size: PNG.byteLength }] });
    expect(errors).toEqual([]);
    await page.close();
  });

  it("writes the form's language: the server's messages, the progress bar's name, what went up", async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${base}/s/${germanForm.id}`);
    const input = page.locator('input[type=file]');
    await input.setInputFiles({ name: 'notiz.png', mimeType: 'image/png', buffer: Buffer.from('kein png') });
    await expect.poll(() => page.locator('[data-upload-status] .fl-error').textContent()).toBe('notiz.png ist keine gültige .png-Datei (erlaubt: png)');
    expect(await page.locator('[data-upload-status] progress').getAttribute('aria-label')).toBe('Fortschritt des Hochladens');

    await input.setInputFiles([
      { name: 'a.png', mimeType: 'image/png', buffer: PNG },
      { name: 'b.png', mimeType: 'image/png', buffer: PNG },
    ]);
    await expect.poll(() => page.locator('[data-upload-status] .fl-note').last().textContent()).toBe('2 Dateien hochgeladen.');
    expect(errors).toEqual([]);
    await page.close();
  });
});
