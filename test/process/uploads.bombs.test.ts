/**
 * Decompression bombs and hostile archives through a FileUploader (README "File uploads"): checking any
 * upload costs bounded memory and time whatever its bytes, bombs (zip, docx, xlsx, odt, gzip, nested,
 * 65,535 entries, lying directories) are refused with the field's 400/422 and a path and nothing is
 * stored, and real small files of every allowed type still pass.
 * - in-process: the checks' answers, one limit at a time;
 * - in a child process: memory (the kernel's high-water mark) and CPU time of checking each bomb, next to
 *   real files;
 * - through the public API and page (both databases), and against a running server (`src/main.ts` on
 *   PGlite): the bomb is a 400, nothing is stored, and `/healthz` answers promptly meanwhile.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploads } from '../../src/db/schema.ts';
import type { Database } from '../../src/db/client.ts';
import type { Form } from '../../src/forms/forms.service.ts';
import { checkFile, FILE_TYPE_NAMES, KNOWN_FILE_TYPES } from '../../src/uploads/file-types.ts';
import { MAX_ZIP_ENTRIES } from '../../src/uploads/archives.ts';
import { FILES_OF_EVERY_TYPE, JAR, zip, type ZipEntry } from '../support/file-fixtures.ts';
import { bombs, deflatedZeros, gzipOf } from '../support/upload-bombs.ts';
import { appWith, createTenant, openTestDatabase, testConfig } from '../support/helpers.ts';
import { componentAt, field, makeForm, Visitor, type App } from '../support/public-helpers.ts';
import { onFileEnd } from '../support/cleanup.ts';
import { killLeftovers, startServer, type ServerProcess } from '../support/server-process.ts';
import { residentBytes } from '../support/process-memory.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MiB = 1024 * 1024;
const ANY = FILE_TYPE_NAMES;
const check = (name: string, bytes: Uint8Array) => checkFile(name, bytes, ANY, 64 * MiB);
const ALL_BOMBS = bombs();
const docxBomb = ALL_BOMBS.find((bomb) => bomb.what.startsWith('a docx whose [Content_Types].xml'))!.bytes;
const gzipBomb = ALL_BOMBS.find((bomb) => bomb.what === 'a gzip of the docx bomb')!.bytes;
const tempDirs: string[] = [];
afterAll(() => {
  killLeftovers();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'formloom-bombs-'));
  tempDirs.push(dir);
  return dir;
};

describe('checking files', () => {
  it('passes real small files of every allowed type as that type, and as no type their content is not', async () => {
    expect(Object.keys(FILES_OF_EVERY_TYPE).sort()).toEqual([...FILE_TYPE_NAMES].sort());
    for (const [type, files] of Object.entries(FILES_OF_EVERY_TYPE)) {
      for (const file of files) {
        expect(await check(file.name, file.bytes), file.name).toEqual({ ok: true, contentType: KNOWN_FILE_TYPES[type]!.contentType });
        for (const other of FILE_TYPE_NAMES.filter((name) => String(KNOWN_FILE_TYPES[name]!.detected) !== String(KNOWN_FILE_TYPES[type]!.detected))) {
          const renamed = await check(`${file.name}.${other}`, file.bytes);
          expect(renamed, `${file.name} as .${other}`).toEqual({ ok: false, message: expect.stringContaining(`is not a valid .${other} file`) });
        }
      }
    }
    // As file-type tells them: a Java archive is no plain zip.
    expect(await check('classes.zip', JAR)).toEqual({ ok: false, message: expect.stringContaining('classes.zip is not a valid .zip file') });
  });

  it('refuses every bomb and hostile archive, under every name it is sent with', async () => {
    for (const bomb of ALL_BOMBS) {
      for (const name of bomb.names) {
        const result = await check(name, bomb.bytes);
        expect(result, `${bomb.what} as ${name}`).toEqual({
          ok: false,
          message: expect.stringMatching(new RegExp(`^${name.replace('.', '\\.')} (cannot be accepted|is not a valid)`)),
        });
      }
    }
  });

  const stored = (name: string, bytes: Uint8Array): ZipEntry => ({ name, data: bytes, stored: true });
  const nest = (levels: number, inner: Buffer): Buffer => (levels === 0 ? inner : nest(levels - 1, zip([stored(`level${levels}.zip`, inner)])));

  it(`takes ${MAX_ZIP_ENTRIES} entries and refuses one more`, async () => {
    const entries = (count: number) => zip(Array.from({ length: count }, (_, index) => ({ name: `${index}`, stored: true })));
    expect(await check('many.zip', entries(MAX_ZIP_ENTRIES))).toEqual({ ok: true, contentType: 'application/zip' });
    expect(await check('many.zip', entries(MAX_ZIP_ENTRIES + 1))).toEqual({ ok: false, message: 'many.zip cannot be accepted: it holds more than 10000 files' });
  });

  it('takes contents up to 100 times the upload (and 1 MB whatever its size), and refuses more', async () => {
    const zeros = (mebibytes: number) => zip([{ name: 'zeros.bin', deflated: deflatedZeros(mebibytes) }]);
    expect(await check('one.zip', zeros(1))).toEqual({ ok: true, contentType: 'application/zip' });
    expect(await check('two.zip', zeros(2))).toEqual({ ok: false, message: 'two.zip cannot be accepted: its contents would expand to more than 100 times its size' });
    // 100 KB of random bytes (which do not compress) and 9 MiB of zeros: 93 times the archive's size.
    const diluted = zip([stored('noise.bin', randomBytes(100 * 1024)), { name: 'zeros.bin', deflated: deflatedZeros(9) }]);
    expect(await check('diluted.zip', diluted)).toEqual({ ok: true, contentType: 'application/zip' });
    const more = zip([stored('noise.bin', randomBytes(80 * 1024)), { name: 'zeros.bin', deflated: deflatedZeros(9) }]);
    expect((await check('more.zip', more)).ok).toBe(false);
  });

  it('looks into archives inside the archive: their contents count, 3 levels and 8 MB of them at most', async () => {
    const docx = FILES_OF_EVERY_TYPE.docx![0]!.bytes;
    const xlsx = FILES_OF_EVERY_TYPE.xlsx![0]!.bytes;
    expect(await check('office.zip', zip([{ name: 'a.docx', data: docx }, stored('b.xlsx', xlsx), { name: 'c.txt.gz', data: gzipSync('hello') }]))).toEqual({
      ok: true,
      contentType: 'application/zip',
    });
    const tiny = zip([{ name: 'a.txt', data: 'a' }]);
    expect(await check('deep.zip', nest(2, tiny))).toEqual({ ok: true, contentType: 'application/zip' });
    expect(await check('deeper.zip', nest(3, tiny))).toEqual({ ok: false, message: 'deeper.zip cannot be accepted: it holds archives nested more than 3 deep' });
    expect(await check('gz.zip', zip([stored('zeros.gz', gzipOf(deflatedZeros(1024)))]))).toEqual({
      ok: false,
      message: 'gz.zip cannot be accepted: its contents would expand to more than 100 times its size',
    });
    const large = zip([stored('large.zip', zip([stored('noise.bin', randomBytes(9 * MiB))]))]);
    expect(await check('large.zip', large)).toEqual({ ok: false, message: 'large.zip cannot be accepted: the archives inside it hold more than 8 MB, too much to check' });
  });

  it('refuses archives whose records disagree, overlap, point outside, or name unsafe paths', async () => {
    const text: ZipEntry = { name: 'a.txt', data: 'hello' };
    const damaged = 'cannot be accepted: its zip structure is damaged or inconsistent';
    const cases: [string, Buffer, string][] = [
      ['the directory says stored, the local header deflated', zip([{ ...text, central: { method: 0, compressedSize: 5, size: 5 } }]), damaged],
      ['the directory and the local header disagree on sizes', zip([{ ...text, central: { size: 6 } }]), damaged],
      ['two records share one entry', zip([text], { centralCopies: 2 }), damaged],
      ['a record points past the end', zip([{ ...text, central: { offset: 1_000_000 } }]), damaged],
      ['the end record claims more entries', zip([text], { claimedEntryCount: 2 }), damaged],
      ['an entry is not deflate data', zip([{ name: 'a.txt', deflated: { bytes: Buffer.from([0xff, 0xff, 0xff]), size: 3, crc: 0 } }]), damaged],
      ['an absolute path', zip([{ ...text, name: '/etc/passwd' }]), 'cannot be accepted: it holds a file with an absolute or ".." path'],
      ['a ".." path', zip([{ ...text, name: 'a/../../b' }]), 'cannot be accepted: it holds a file with an absolute or ".." path'],
    ];
    for (const [what, bytes, message] of cases) expect(await check('x.zip', bytes), what).toEqual({ ok: false, message: `x.zip ${message}` });
    // The same archive, told truthfully, is fine.
    expect(await check('x.zip', zip([text]))).toEqual({ ok: true, contentType: 'application/zip' });
  });
});

interface ChildResult {
  entry: string;
  check: { ok: boolean; message?: string; threw?: string };
  wallMs: number;
  cpuMs: number;
  growthBytes: number;
  peakReset: boolean;
}

describe('measured in a child process', () => {
  it('checks each bomb, next to real files, within 32 MB above idle and 1 s of CPU', { timeout: 180_000 }, async () => {
    const dir = tempDir();
    let n = 0;
    const write = (name: string, bytes: Uint8Array) => writeFileSync(join(dir, `${String(n++).padStart(3, '0')}-${name}`), bytes);
    for (const bomb of ALL_BOMBS) for (const name of bomb.names) write(name, bomb.bytes);
    for (const files of Object.values(FILES_OF_EVERY_TYPE)) for (const file of files) write(file.name, file.bytes);
    const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', 'test/support/upload-check-child.ts', dir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    // Bounded: checking these took minutes and gigabytes before; now it takes a second or two.
    const killer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    const [code] = (await once(child, 'close')) as [number | null];
    clearTimeout(killer);
    expect(code, stderr).toBe(0);
    const results = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as ChildResult);
    expect(results.map((result) => result.entry)).toEqual(readdirSync(dir).sort());
    const bombCount = ALL_BOMBS.reduce((sum, bomb) => sum + bomb.names.length, 0);
    for (const [index, result] of results.entries()) {
      const label = `${result.entry}: ${JSON.stringify(result)}`;
      expect(result.check.threw, label).toBeUndefined();
      expect(result.check.ok, label).toBe(index >= bombCount);
      expect(result.growthBytes, label).toBeLessThanOrEqual(32 * MiB);
      expect(result.cpuMs, label).toBeLessThanOrEqual(1000);
    }
  });
});

describe('through the public API and page', () => {
  let db: Database;
  let app: App;
  let form: Form;
  let dataDir: string;
  beforeAll(async () => {
    const handle = await openTestDatabase();
    onFileEnd(() => handle.close());
    db = handle.db;
    dataDir = tempDir();
    app = appWith(db, { dataDir, uploads: { ...testConfig().uploads, maxBodyBytes: 8 * MiB } });
    const tenant = await createTenant(db);
    form = await makeForm(db, tenant, [
      { name: 'Files', components: [{ type: 'FileUploader', content: { question: 'Your CV', allowedTypes: ['docx', 'zip', 'pdf'] } }] },
      { name: 'More', components: [{ type: 'ShortInput', content: { question: 'Anything else?' } }] },
    ]);
  });
  const uploader = () => componentAt(form, 0, 0);
  const rowCount = async () => (await db.select().from(uploads).where(eq(uploads.formId, form.id))).length;
  const storedFiles = () => {
    try {
      return readdirSync(join(dataDir, 'uploads', form.id));
    } catch {
      return [];
    }
  };

  it('answers a bomb posted anonymously to the API with 400 and its path, storing nothing', async () => {
    for (const [name, bytes, message] of [
      ['cv.docx', docxBomb, 'cv.docx cannot be accepted: its contents would expand to more than 100 times its size'],
      ['cv.docx', gzipBomb, 'cv.docx is not a valid .docx file (accepted: docx, zip, pdf)'],
      ['cv.pdf', gzipBomb, 'cv.pdf is not a valid .pdf file (accepted: docx, zip, pdf)'],
    ] as const) {
      const body = new FormData();
      body.append('componentId', uploader().id);
      body.append('file', new File([new Uint8Array(bytes)], name));
      const response = await app.request(`/s/${form.id}/uploads`, { method: 'POST', body });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ message: 'Invalid request body', errors: [{ message, path: ['file', 0] }] });
    }
    expect(await rowCount()).toBe(0);
    expect(storedFiles()).toEqual([]);
    // A real docx is taken by the same field.
    const body = new FormData();
    body.append('componentId', uploader().id);
    body.append('file', new File([new Uint8Array(FILES_OF_EVERY_TYPE.docx![0]!.bytes)], 'cv.docx'));
    expect((await app.request(`/s/${form.id}/uploads`, { method: 'POST', body })).status).toBe(201);
    expect(await rowCount()).toBe(1);
  });

  it("shows a bomb posted with the page's step at its field (422), storing nothing", async () => {
    const before = await rowCount();
    const visitor = new Visitor(app);
    await visitor.get(`/s/${form.id}`);
    const body = new FormData();
    body.append(field(uploader()), new File([new Uint8Array(docxBomb)], 'cv.docx'));
    const response = await visitor.request(`/s/${form.id}?step=0`, { method: 'POST', body });
    expect(response.status).toBe(422);
    const html = await response.text();
    expect(html).toContain(`id="f-${uploader().id}-error"`);
    expect(html).toContain('cv.docx cannot be accepted: its contents would expand to more than 100 times its size');
    expect(await rowCount()).toBe(before);
  });
});

describe('a running server', () => {
  let server: ServerProcess;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = tempDir();
    // PGlite in the server's own process: its memory is the whole story.
    server = await startServer({ DATA_DIR: dataDir });
  });
  afterAll(() => server?.stop());

  const serverRss = () => residentBytes('VmRSS', server.child.pid);

  it('refuses the 1 MB docx bomb and its 2 KB gzip with 400, stores nothing, and /healthz answers promptly meanwhile', async () => {
    const demo = server.demo!;
    const generated = await fetch(`${server.url}/api/v1/environments/${demo.environmentId}/forms/generate`, {
      method: 'POST',
      headers: { 'x-api-key': demo.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({
        sourceFormId: demo.templateId,
        name: 'Applications',
        steps: [
          { name: 'CV', components: [{ type: 'FileUploader', content: { question: 'Your CV', allowedTypes: ['docx', 'pdf'] } }] },
          { name: 'More', components: [{ type: 'ShortInput', content: { question: 'Anything else?' } }] },
        ],
      }),
    });
    expect(generated.status).toBe(200);
    const formId = ((await generated.json()) as { result: { form: { id: string } } }).result.form.id;
    const definition = (await (await fetch(`${server.url}/s/${formId}/definition`)).json()) as { steps: { components: { id: string }[] }[] };
    const componentId = definition.steps[0]!.components[0]!.id;

    // The server has served an upload before (a real Word file, stored): the code and buffers any first
    // upload brings in are not the bombs' doing, and a server under attack has usually served uploads.
    const post = async (name: string, bytes: Uint8Array) => {
      const body = new FormData();
      body.append('componentId', componentId);
      body.append('file', new File([new Uint8Array(bytes)], name));
      const response = await fetch(`${server.url}/s/${formId}/uploads`, { method: 'POST', body });
      return { status: response.status, body: (await response.json()) as { errors: { path: unknown[] }[] } };
    };
    expect((await post('cv.docx', FILES_OF_EVERY_TYPE.docx![0]!.bytes)).status).toBe(201);
    const storedFiles = () => readdirSync(join(dataDir, 'uploads'), { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length;
    expect(storedFiles()).toBe(1);

    const rssBefore = serverRss();
    let peakRss = rssBefore;
    const healthLatencies: number[] = [];
    let uploading = true;
    const probe = (async () => {
      while (uploading) {
        const started = performance.now();
        const health = await fetch(`${server.url}/healthz`);
        expect(health.status).toBe(200);
        healthLatencies.push(performance.now() - started);
        peakRss = Math.max(peakRss, serverRss());
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const answers = [];
    for (const [name, bytes] of [
      ['cv.docx', docxBomb],
      ['cv.docx', gzipBomb],
      ['cv.pdf', gzipBomb],
      ['cv.docx', docxBomb],
    ] as const)
      answers.push(await post(name, bytes));
    uploading = false;
    await probe;
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(answer.body.errors[0]!.path).toEqual(['file', 0]);
    }
    expect(storedFiles()).toBe(1);
    expect(healthLatencies.length).toBeGreaterThan(0);
    console.info(
      `[bombs on a running server] RSS ${Math.round(rssBefore / MiB)} MiB before, peak + ${Math.round((peakRss - rssBefore) / MiB)} MiB; slowest /healthz ${Math.round(Math.max(...healthLatencies))} ms`,
    );
    // Generous for a loaded machine: before, /healthz stalled for 31 s and the server grew by 3 GB.
    expect(Math.max(...healthLatencies)).toBeLessThan(1000);
    // The whole server's growth: the inflation this guards against was 3 GB. Each check's own memory is held to
    // 32 MiB above, in a child process; here the request handling around it comes on top, which on Node 24 was
    // seen at +10 to +149 MiB (its heap grows before it collects; +7 to +26 MiB on Node 20).
    expect(peakRss - rssBefore).toBeLessThan(256 * MiB);
  });
});
