/**
 * Hostile page form posts (`POST /s/:formId`, urlencoded and multipart): NUL characters, bytes that
 * are not UTF-8 (UTF-8-encoded surrogates included) in field values and names, files, a field sent
 * twice, huge values, bodies that are not form posts. Each is a 4xx HTML page (the step again with a
 * message at the field, or a message page), never a 500, and nothing is stored.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import type { Form } from '../../src/forms/forms.service.ts';
import { createTenant, setupTestApp, testConfig } from '../support/helpers.ts';
import { componentAt, field, makeForm, responsesOf, Visitor, type App } from '../support/public-helpers.ts';

let db: Database;
let app: App;
let form: Form;

beforeAll(async () => {
  ({ db, app } = await setupTestApp({ publicRateLimitPerMinute: 1_000_000 }));
  const tenant = await createTenant(db);
  form = await makeForm(db, tenant, [
    {
      name: 'About you',
      components: [
        { type: 'ShortInput', content: { question: 'Role?' } },
        { type: 'IdentityInfo', content: { fields: [{ key: 'firstName', label: 'First name', required: false }] } },
        { type: 'Dropdown', content: { question: 'Teams?', options: ['Sales', 'Support'], isMulti: true } },
      ],
    },
    { name: 'More', components: [{ type: 'ShortInput', content: { question: 'Anything else?' } }] },
  ]);
});

const role = () => componentAt(form, 0, 0);
const identity = () => componentAt(form, 0, 1);
const teams = () => componentAt(form, 0, 2);
const stepPath = () => `/s/${form.id}?step=0`;

/** Posts `body` as a fresh visitor (who has seen the page) and expects an HTML 4xx; nothing may be stored. */
async function post(body: BodyInit, contentType: string | undefined): Promise<{ status: number; page: string }> {
  const visitor = new Visitor(app);
  await visitor.get(`/s/${form.id}`);
  const before = (await responsesOf(db, form.id)).length;
  const response = await visitor.request(stepPath(), { method: 'POST', headers: contentType ? { 'content-type': contentType } : {}, body });
  const page = await response.text();
  expect(response.headers.get('content-type')).toMatch(/^text\/html/);
  expect((await responsesOf(db, form.id)).length).toBe(before);
  return { status: response.status, page };
}
const urlencoded = (body: string) => post(body, 'application/x-www-form-urlencoded');

const BOUNDARY = 'formloom-test-boundary';
type Part = { name: string | Uint8Array; value: string | Uint8Array; filename?: string };
/** A multipart body built byte by byte, so names and values can carry any bytes. */
function multipart(parts: Part[]): Uint8Array<ArrayBuffer> {
  const bytes = (v: string | Uint8Array) => (typeof v === 'string' ? new TextEncoder().encode(v) : v);
  const chunks: Uint8Array[] = [];
  for (const part of parts) {
    chunks.push(bytes(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="`), bytes(part.name));
    chunks.push(bytes(`"${part.filename ? `; filename="${part.filename}"\r\nContent-Type: application/octet-stream` : ''}\r\n\r\n`));
    chunks.push(bytes(part.value), bytes('\r\n'));
  }
  chunks.push(bytes(`--${BOUNDARY}--\r\n`));
  return new Uint8Array(Buffer.concat(chunks));
}
const postMultipart = (parts: Part[]) => post(multipart(parts), `multipart/form-data; boundary=${BOUNDARY}`);

/** The step page again, with `message` at the component's field. */
function expectFieldError(result: { status: number; page: string }, componentId: string, message: RegExp) {
  expect(result.status).toBe(400);
  const error = new RegExp(`<p class="fl-error" id="f-${componentId}-error">([^<]*)</p>`).exec(result.page);
  expect(error?.[1]).toMatch(message);
  expect(result.page).toContain(`action="${stepPath()}"`);
}
function expectMessagePage(result: { status: number; page: string }, status = 400) {
  expect(result.status).toBe(status);
  expect(result.page).toContain('<main class="fl-page fl-center"><h1>');
  expect(result.page).not.toContain('<form');
}

const NUL_MESSAGE = /cannot be stored/;
const UTF8_MESSAGE = /not valid UTF-8/;

describe('urlencoded', () => {
  it('a NUL in a field value is a 400 at that field (text input and IdentityInfo part)', async () => {
    expectFieldError(await urlencoded(`${field(role())}=CEO%00`), role().id, NUL_MESSAGE);
    expectFieldError(await urlencoded(`${field(identity(), 'firstName')}=%00Ada`), identity().id, NUL_MESSAGE);
    expectFieldError(await urlencoded(`${field(teams())}=Sales&${field(teams())}=%00`), teams().id, NUL_MESSAGE);
  });

  it('a UTF-8-encoded surrogate or a byte that is not UTF-8 in a value is a 400 at that field', async () => {
    expectFieldError(await urlencoded(`${field(role())}=%ED%A0%80`), role().id, UTF8_MESSAGE);
    expectFieldError(await urlencoded(`${field(role())}=%ED%B0%80x`), role().id, UTF8_MESSAGE);
    expectFieldError(await urlencoded(`${field(role())}=caf%E9`), role().id, UTF8_MESSAGE);
  });

  it('a NUL, a surrogate or a non-UTF-8 byte in a field name, or anywhere in an unknown field, is a 400 message page', async () => {
    expectMessagePage(await urlencoded(`${field(role())}%00=CEO`));
    expectMessagePage(await urlencoded(`${field(role())}%ED%A0%80=CEO`));
    expectMessagePage(await urlencoded(`c.%FF=CEO`));
    expectMessagePage(await urlencoded(`${field(role())}=CEO&tracking=%00`));
    expectMessagePage(await urlencoded(`${field(role())}=CEO&tracking=%ED%A0%80`));
  });

  it('a single-valued field sent twice is a 400 at that field; a multi-select sends several values', async () => {
    expectFieldError(await urlencoded(`${field(role())}=CEO&${field(role())}=CTO`), role().id, /sent more than once/);
    expectFieldError(await urlencoded(`${field(identity(), 'firstName')}=Ada&${field(identity(), 'firstName')}=Bob`), identity().id, /sent more than once/);
  });

  it('a huge value is refused at the field (422) or, past PUBLIC_MAX_BODY_BYTES, as too large (413)', async () => {
    const result = await urlencoded(`${field(role())}=${'x'.repeat(50_000)}`);
    expect(result.status).toBe(422);
    expect(result.page).toContain(`<p class="fl-error" id="f-${role().id}-error">Must be at most 1000 characters</p>`);
    expectMessagePage(await urlencoded(`${field(role())}=${'x'.repeat(testConfig().publicMaxBodyBytes + 1)}`), 413);
  });
});

describe('multipart', () => {
  it('a NUL in a value is a 400 at that field', async () => {
    expectFieldError(await postMultipart([{ name: field(role()), value: 'C\u0000EO' }]), role().id, NUL_MESSAGE);
  });

  it('bytes that are not UTF-8 (an encoded surrogate) in a value or a name are a 400 message page', async () => {
    const surrogate = Uint8Array.of(0xed, 0xa0, 0x80);
    expectMessagePage(await postMultipart([{ name: field(role()), value: surrogate }]));
    expectMessagePage(await postMultipart([{ name: Buffer.concat([Buffer.from(field(role())), surrogate]), value: 'CEO' }]));
  });

  it('a NUL in a field name is a 400 message page', async () => {
    expectMessagePage(await postMultipart([{ name: `${field(role())}\u0000`, value: 'CEO' }]));
  });

  it('a file where text is expected is a 400 at that field', async () => {
    expectFieldError(await postMultipart([{ name: field(role()), value: 'CEO', filename: 'cv.txt' }]), role().id, /text, not a file/);
  });

  it('a single-valued field sent twice is a 400 at that field', async () => {
    const result = await postMultipart([
      { name: field(role()), value: 'CEO' },
      { name: field(role()), value: 'CTO' },
    ]);
    expectFieldError(result, role().id, /sent more than once/);
  });

  it('on a step without file inputs, a multipart body over the public body limit is a 413 message page', async () => {
    // 120 KB of text: the route lets multipart through with the upload limit, the step holds it to the text limit.
    const result = await postMultipart([{ name: field(role()), value: `a${' '.repeat(120_000)}b` }]);
    expectMessagePage(result, 413);
    expect(result.page).toContain('Too much data');
  });

  it('a body that does not match its boundary is a 400 message page', async () => {
    expectMessagePage(await post(`--other\r\nContent-Disposition: form-data; name="x"\r\n\r\ny\r\n`, `multipart/form-data; boundary=${BOUNDARY}`));
  });
});

describe('not a form post', () => {
  it('JSON, plain text or no content type is a 415 message page', async () => {
    expectMessagePage(await post(JSON.stringify({ [field(role())]: 'CEO' }), 'application/json'), 415);
    expectMessagePage(await post(`${field(role())}=CEO`, 'text/plain'), 415);
    expectMessagePage(await post(`${field(role())}=CEO`, undefined), 415);
  });
});

describe('the same post without the hostile part', () => {
  it('is stored (so the cases above were refused for what they carried)', async () => {
    const visitor = new Visitor(app);
    await visitor.get(`/s/${form.id}`);
    const multi = await visitor.request(stepPath(), {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      body: multipart([
        { name: field(role()), value: 'CEO' },
        { name: field(teams()), value: 'Sales' },
        { name: field(teams()), value: 'Support' },
      ]),
    });
    expect(multi.status).toBe(303);
    const rows = await responsesOf(db, form.id);
    expect(rows).toHaveLength(1); // and none from the posts above
    expect(rows[0]!.data.map((a) => a.response.input ?? a.response.selected)).toEqual(['CEO', ['Sales', 'Support']]);
  });
});
