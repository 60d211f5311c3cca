/**
 * FileUploader files (docs/public-pages.md, "File uploads"): the public upload endpoint and answers by upload id,
 * the page's multipart post without JavaScript, content checks by magic bytes, size and count limits
 * (nothing stored when refused), serving files only with an API key of the environment or a valid,
 * unexpired signature (as attachments, nosniff), and removing files with their responses.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import { responses, uploads } from '../../src/db/schema.ts';
import type { Form } from '../../src/forms/forms.service.ts';
import { signedFileUrl } from '../../src/uploads/file-urls.ts';
import { folderStorage } from '../../src/uploads/storage.ts';
import { sweepUnattachedUploads, UNATTACHED_TTL_MS } from '../../src/uploads/uploads.service.ts';
import { ADMIN_TOKEN, createTenant, graphql, jsonRequest, setupIsolatedTestApp, testConfig, type TestTenant } from '../support/helpers.ts';
import { answerIn, componentAt, field, makeForm, responsesOf, Visitor, type App } from '../support/public-helpers.ts';
import { PDF, PNG } from '../support/file-fixtures.ts';
import { onFileEnd } from '../support/cleanup.ts';
import { deriveSecret } from '../../src/auth/secrets.ts';

let db: Database;
let app: App;
let tenant: TestTenant;
let other: TestTenant;
let form: Form;
let dataDir: string;
const UPLOAD_LIMIT = 200_000;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'formloom-uploads-'));
  onFileEnd(() => rm(dataDir, { recursive: true, force: true }));
  // Its own database: the sweep test below runs the sweep an hour ahead, which on a shared PostgreSQL
  // database would remove the unattached uploads other files are about to answer with.
  ({ db, app } = await setupIsolatedTestApp({ dataDir, uploads: { ...testConfig().uploads, maxBodyBytes: UPLOAD_LIMIT } }));
  tenant = await createTenant(db);
  other = await createTenant(db);
  form = await makeForm(db, tenant, [
    {
      name: 'Files',
      components: [
        { type: 'FileUploader', content: { question: 'Your CV', required: true } },
        { type: 'FileUploader', content: { question: 'Photos', allowedTypes: ['png', '.JPG'], maxSize: 1_000, multiple: true, maxFiles: 2 } },
      ],
    },
    { name: 'More', components: [{ type: 'ShortInput', content: { question: 'Anything else?' } }] },
  ]);
});

const cv = () => componentAt(form, 0, 0);
const photos = () => componentAt(form, 0, 1);

function uploadBody(componentId: string, files: { name: string; bytes: Uint8Array<ArrayBuffer>; type?: string }[]): FormData {
  const body = new FormData();
  body.append('componentId', componentId);
  for (const file of files) body.append('file', new File([file.bytes], file.name, { type: file.type ?? 'application/octet-stream' }));
  return body;
}
const upload = (componentId: string, files: { name: string; bytes: Uint8Array<ArrayBuffer>; type?: string }[], target = form) =>
  app.request(`/s/${target.id}/uploads`, { method: 'POST', body: uploadBody(componentId, files) });

async function uploadedId(componentId: string, name: string, bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const response = await upload(componentId, [{ name, bytes }]);
  expect(response.status).toBe(201);
  const body = (await response.json()) as { files: { id: string }[] };
  return body.files[0]!.id;
}

const rowCount = async () => (await db.select().from(uploads).where(eq(uploads.formId, form.id))).length;
const storedFiles = async () => {
  try {
    return (await readdir(join(dataDir, 'uploads', form.id))).filter((name) => !name.endsWith('.partial'));
  } catch {
    return [];
  }
};
const download = (url: string, headers: Record<string, string> = {}) => app.request(url, { headers });

describe('the JSON API', () => {
  it('uploads a file, answers with its id, and stores the file as the answer', async () => {
    const response = await upload(cv().id, [{ name: 'cv.pdf', bytes: PDF, type: 'text/html' }]);
    expect(response.status).toBe(201);
    const { files } = (await response.json()) as { files: { id: string; name: string; size: number; contentType: string }[] };
    // The served type follows the content, not what the client claimed.
    expect(files).toEqual([{ id: expect.stringMatching(/^upl_/), name: 'cv.pdf', size: PDF.byteLength, contentType: 'application/pdf' }]);

    const started = await app.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers: { [cv().id]: files[0]!.id } }));
    expect(started.status).toBe(201);
    const { id } = (await started.json()) as { id: string };
    const row = (await responsesOf(db, form.id)).find((r) => r.id === id)!;
    expect(answerIn(row, cv().id)).toMatchObject({
      type: 'FileUploader',
      fileUrl: `/api/v1/files/${files[0]!.id}`,
      files: [{ id: files[0]!.id, name: 'cv.pdf', size: PDF.byteLength, contentType: 'application/pdf', url: `/api/v1/files/${files[0]!.id}` }],
    });
    const [attached] = await db.select().from(uploads).where(eq(uploads.id, files[0]!.id));
    expect(attached!.responseId).toBe(id);
  });

  it('takes several files where the component is multiple, up to maxFiles', async () => {
    const two = await upload(photos().id, [
      { name: 'a.png', bytes: PNG },
      { name: 'b.jpg.png', bytes: PNG },
    ]);
    expect(two.status).toBe(201);
    const ids = ((await two.json()) as { files: { id: string }[] }).files.map((f) => f.id);
    const started = await app.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers: { [cv().id]: await uploadedId(cv().id, 'x.pdf', PDF), [photos().id]: ids } }));
    expect(started.status).toBe(201);
    const { id } = (await started.json()) as { id: string };
    const answer = answerIn(
      (await responsesOf(db, form.id)).find((r) => r.id === id)!,
      photos().id,
    )!;
    expect((answer.files as { id: string }[]).map((f) => f.id)).toEqual(ids);

    const before = await rowCount();
    const three = await upload(
      photos().id,
      [1, 2, 3].map((n) => ({ name: `${n}.png`, bytes: PNG })),
    );
    expect(three.status).toBe(400);
    expect(await three.json()).toEqual({ message: 'Invalid request body', errors: [{ message: 'Upload at most 2 files', path: ['file'] }] });
    expect(await rowCount()).toBe(before);
  });

  it('refuses disallowed, disguised and oversized files with a path, and stores none of the request', async () => {
    const before = await rowCount();
    const filesBefore = (await storedFiles()).length;
    const cases: [string, { name: string; bytes: Uint8Array<ArrayBuffer> }[], string, (string | number)[]][] = [
      ['an HTML file', [{ name: 'page.html', bytes: Buffer.from('<script>alert(1)</script>') }], 'page.html: this type of file is not accepted', ['file', 0]],
      [
        'HTML named .png',
        [
          { name: 'a.png', bytes: PNG },
          { name: 'evil.png', bytes: Buffer.from('<html><script>alert(1)</script></html>') },
        ],
        'evil.png is not a valid .png file',
        ['file', 1],
      ],
      ['a PDF named .png', [{ name: 'doc.png', bytes: PDF }], 'doc.png is not a valid .png file', ['file', 0]],
      ['too large for maxSize', [{ name: 'big.png', bytes: Buffer.concat([PNG, Buffer.alloc(2_000)]) }], 'big.png is too large (at most 1000 bytes)', ['file', 0]],
    ];
    for (const [what, files, message, path] of cases) {
      const response = await upload(photos().id, files);
      expect(response.status, what).toBe(400);
      const body = (await response.json()) as { errors: { message: string; path: unknown[] }[] };
      expect(body.errors[0]!.message, what).toContain(message);
      expect(body.errors[0]!.path, what).toEqual(path);
    }
    expect(await rowCount()).toBe(before);
    expect((await storedFiles()).length).toBe(filesBefore);
  });

  it('answers a body over UPLOAD_MAX_BODY_BYTES with 413, and a non-multipart upload with 415', async () => {
    const big = await upload(cv().id, [{ name: 'huge.pdf', bytes: Buffer.concat([PDF, Buffer.alloc(UPLOAD_LIMIT)]) }]);
    expect(big.status).toBe(413);
    const json = await app.request(`/s/${form.id}/uploads`, jsonRequest('POST', { componentId: cv().id }));
    expect(json.status).toBe(415);
  });

  it('refuses an unknown component, and answers that are not uploads of that question', async () => {
    const wrong = await upload('nope', [{ name: 'a.pdf', bytes: PDF }]);
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { errors: unknown[] }).errors).toEqual([{ message: 'No FileUploader with this id in the form', path: ['componentId'] }]);

    const photoId = await uploadedId(photos().id, 'p.png', PNG);
    for (const answer of ['upl_doesnotexist', photoId, { id: photoId, name: 'x' }]) {
      const response = await app.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers: { [cv().id]: answer } }));
      expect(response.status).toBe(400);
      expect(((await response.json()) as { errors: { path: unknown[] }[] }).errors[0]!.path).toEqual(['answers', cv().id]);
    }
  });

  it('replays an idempotent start that answered with an upload (the retry names the same, now attached, file)', async () => {
    const id = await uploadedId(cv().id, 'retry.pdf', PDF);
    const key = { 'idempotency-key': crypto.randomUUID() };
    const first = await app.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers: { [cv().id]: id } }, key));
    expect(first.status).toBe(201);
    const retry = await app.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers: { [cv().id]: id } }, key));
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(((await retry.json()) as { id: string }).id).toBe(((await first.json()) as { id: string }).id);
  });

  it("does not let one response take another's file", async () => {
    const id = await uploadedId(cv().id, 'mine.pdf', PDF);
    expect((await app.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers: { [cv().id]: id } }))).status).toBe(201);
    const thief = await app.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers: { [cv().id]: id } }));
    expect(thief.status).toBe(400);
  });
});

describe('serving files', () => {
  let fileId: string;
  beforeAll(async () => {
    fileId = await uploadedId(cv().id, 'report "final".pdf', PDF);
    await app.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers: { [cv().id]: fileId } }));
  });

  it("sends the file to the environment's API key as an attachment, never inline", async () => {
    const response = await download(`/api/v1/files/${fileId}`, { 'x-api-key': tenant.apiKey });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="report _final_.pdf"; filename*=UTF-8''report%20%22final%22.pdf`);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toContain('sandbox');
    expect(Buffer.from(await response.arrayBuffer()).equals(PDF)).toBe(true);
  });

  it("answers another environment's key like an unknown file, and no key with 401", async () => {
    const foreign = await download(`/api/v1/files/${fileId}`, { 'x-api-key': other.apiKey });
    const unknown = await download(`/api/v1/files/upl_unknown`, { 'x-api-key': tenant.apiKey });
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toEqual(await unknown.json());
    expect((await download(`/api/v1/files/${fileId}`)).status).toBe(401);
  });

  it('sends the file on a signed URL from GraphQL without a key, until it expires; a wrong signature is 403', async () => {
    const { body } = await graphql(
      app,
      `query($id: ID!) { formResponses(formId: $id, filter: { returnPartials: true }, first: 100) { edges { node { data { response answer { ... on FileUploaderAnswer { fileUrl } } } } } } }`,
      { id: form.id },
      { 'x-api-key': tenant.apiKey },
    );
    const urls: string[] = body.data.formResponses.edges.flatMap((edge: any) =>
      edge.node.data.filter((d: any) => d.answer?.fileUrl?.includes(fileId)).map((d: any) => d.answer.fileUrl),
    );
    expect(urls[0]).toMatch(new RegExp(`^/api/v1/files/${fileId}\\?expires=\\d+&signature=[A-Za-z0-9_-]+$`));
    const signed = await download(urls[0]!);
    expect(signed.status).toBe(200);
    expect(Buffer.from(await signed.arrayBuffer()).equals(PDF)).toBe(true);

    // Another first character of the signature (a fixed 'A' would leave one signature in 64 untouched).
    const tampered = await download(urls[0]!.replace(/signature=(.)/, (_, first: string) => `signature=${first === 'A' ? 'B' : 'A'}`));
    expect(tampered.status).toBe(403);
    expect(await tampered.json()).toEqual({ message: 'Invalid file signature' });
    const secret = deriveSecret(ADMIN_TOKEN, 'file-urls');
    const expired = await download(signedFileUrl(secret, fileId, 60, Date.now() - 120_000));
    expect(expired.status).toBe(403);
    expect(await expired.json()).toEqual({ message: 'This file link has expired' });
    // A signature is for one file only.
    const otherId = await uploadedId(cv().id, 'other.pdf', PDF);
    const query = new URL(urls[0]!, 'http://x').search;
    expect((await download(`/api/v1/files/${otherId}${query}`)).status).toBe(403);
  });
});

describe('the page', () => {
  const multipart = (visitor: Visitor, step: number, parts: [string, string | File][]) => {
    const body = new FormData();
    for (const [name, value] of parts) body.append(name, value);
    return visitor.request(`/s/${form.id}?step=${step}`, { method: 'POST', body });
  };

  it('offers a real file input in a multipart form, with the accepted types', async () => {
    const html = await (await new Visitor(app).get(`/s/${form.id}`)).text();
    expect(html).toContain('enctype="multipart/form-data"');
    expect(html).toMatch(new RegExp(`<input type="file" id="f-${cv().id}" name="c\\.${cv().id}"[^>]* required`));
    expect(html).toMatch(new RegExp(`name="c\\.${photos().id}" class="fl-input fl-file" accept="\\.png,\\.jpg" multiple`));
  });

  it('stores a file posted with the step without JavaScript, and shows it when the step is revisited', async () => {
    const visitor = new Visitor(app);
    await visitor.get(`/s/${form.id}`);
    const posted = await multipart(visitor, 0, [
      [field(cv()), new File([PDF], 'letter.pdf', { type: 'application/pdf' })],
      [field(photos()), new File([PNG], 'me.png', { type: 'image/png' })],
    ]);
    expect(posted.status).toBe(303);
    expect(posted.headers.get('location')).toBe(`/s/${form.id}?step=1`);
    const rows = await responsesOf(db, form.id);
    const row = rows.find((r) => JSON.stringify(r.data).includes('letter.pdf'))!;
    expect(answerIn(row, cv().id)).toMatchObject({ files: [{ name: 'letter.pdf', contentType: 'application/pdf' }] });
    expect(answerIn(row, photos().id)).toMatchObject({ files: [{ name: 'me.png', contentType: 'image/png' }] });

    const again = await (await visitor.get(`/s/${form.id}?step=0`)).text();
    expect(again).toContain('letter.pdf');
    // Kept by id when the step is sent again without new files; the input is no longer required.
    expect(again).not.toMatch(new RegExp(`name="c\\.${cv().id}"[^>]* required`));
    const resent = await multipart(visitor, 0, []);
    expect(resent.status).toBe(303);
    const kept = (await responsesOf(db, form.id)).find((r) => r.id === row.id)!;
    expect(answerIn(kept, cv().id)).toMatchObject({ files: [{ name: 'letter.pdf' }] });
  });

  it("shows a refused file's message at its field (422) and stores nothing", async () => {
    const visitor = new Visitor(app);
    await visitor.get(`/s/${form.id}`);
    const before = await rowCount();
    const response = await multipart(visitor, 0, [[field(cv()), new File(['<html></html>'], 'cv.html', { type: 'text/html' })]]);
    expect(response.status).toBe(422);
    const html = await response.text();
    expect(html).toContain(`id="f-${cv().id}-error"`);
    expect(html).toContain('cv.html: this type of file is not accepted');
    expect(await rowCount()).toBe(before);
  });
});

describe('removing files', () => {
  const startWithFile = async (name: string) => {
    const id = await uploadedId(cv().id, name, PDF);
    const started = await app.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers: { [cv().id]: id } }));
    expect(started.status).toBe(201);
    const { id: responseId } = (await started.json()) as { id: string };
    expect(await storedFiles()).toContain(id);
    return { id, responseId };
  };
  const gone = async (uploadId: string) => {
    expect(await storedFiles()).not.toContain(uploadId);
    expect(await db.select().from(uploads).where(eq(uploads.id, uploadId))).toEqual([]);
    expect((await download(`/api/v1/files/${uploadId}`, { 'x-api-key': tenant.apiKey })).status).toBe(404);
  };

  it("deleting a response removes its files at once; another environment's key removes nothing", async () => {
    const { id, responseId } = await startWithFile('gone.pdf');
    const refused = await app.request(`/api/v1/responses/${responseId}`, { method: 'DELETE', headers: { 'x-api-key': other.apiKey } });
    expect(refused.status).toBe(404);
    expect(await storedFiles()).toContain(id);
    const deleted = await app.request(`/api/v1/responses/${responseId}`, { method: 'DELETE', headers: { 'x-api-key': tenant.apiKey } });
    expect(deleted.status).toBe(200);
    await gone(id);
  });

  it('erasing a person removes the files of every response they gave', async () => {
    const first = await startWithFile('mine.pdf');
    const second = await startWithFile('mine-too.pdf');
    const keep = await startWithFile('someone-else.pdf');
    const rows = await responsesOf(db, form.id);
    const leadOf = (responseId: string) => rows.find((row) => row.id === responseId)!.leadId;
    // Both responses belong to one lead (the second is re-attributed to the first one's lead).
    await db
      .update(responses)
      .set({ leadId: leadOf(first.responseId) })
      .where(eq(responses.id, second.responseId));
    const erased = await app.request(`/api/v1/leads/${leadOf(first.responseId)}`, { method: 'DELETE', headers: { 'x-api-key': tenant.apiKey } });
    expect(erased.status).toBe(200);
    await gone(first.id);
    await gone(second.id);
    expect(await storedFiles()).toContain(keep.id);
  });

  it('an update that clears the file answer detaches the upload, for the sweep', async () => {
    const id = await uploadedId(photos().id, 'cleared.png', PNG);
    const started = await app.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers: { [photos().id]: [id] } }));
    const { id: responseId, resumeToken } = (await started.json()) as { id: string; resumeToken: string };
    const attachedTo = async () => (await db.select({ responseId: uploads.responseId }).from(uploads).where(eq(uploads.id, id)))[0]?.responseId;
    expect(await attachedTo()).toBe(responseId);
    const cleared = await app.request(
      `/s/${form.id}/responses/${responseId}`,
      jsonRequest('PATCH', { answers: { [photos().id]: null } }, { authorization: `Bearer ${resumeToken}` }),
    );
    expect(cleared.status).toBe(200);
    expect(await attachedTo()).toBeNull();
  });

  it('the sweep removes old unattached uploads, and leaves attached ones', async () => {
    const storage = folderStorage(join(dataDir, 'uploads'));
    const unused = await uploadedId(cv().id, 'unused.pdf', PDF);
    expect(await sweepUnattachedUploads(db, storage)).toBe(0);
    const later = new Date(Date.now() + UNATTACHED_TTL_MS + 60_000);
    expect(await sweepUnattachedUploads(db, storage, later)).toBeGreaterThanOrEqual(1);
    expect(await storedFiles()).not.toContain(unused);
    // Attached files stay.
    const attached = (await db.select().from(uploads).where(eq(uploads.formId, form.id))).filter((row) => row.responseId !== null);
    expect(attached.length).toBeGreaterThan(0);
  });
});
