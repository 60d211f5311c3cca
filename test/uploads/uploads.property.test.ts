/**
 * Property-based, hostile upload bytes: arbitrary bytes, and arbitrary mutations of real files (zip,
 * gzip, Office, OpenDocument, images, the generated bombs), under every allowed extension.
 * - Checking a file never throws, takes bounded time (well under a second of CPU) and bounded memory
 *   (the kernel's high-water mark, reset before each check, at most 32 MB above where it stood), and
 *   either passes the file as the type its extension names or refuses it with a message naming it.
 * - Posted to the public upload API: 201 with that type, or 400 with the file's path, and a refused
 *   upload stores nothing.
 * Runs per property are bounded (HOSTILE_RUNS, default 40; the in-process check runs 5 times as many).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { fc, test } from '@fast-check/vitest';
import { count, eq } from 'drizzle-orm';
import { HOSTILE_RUNS } from '../support/hostile-checks.ts';
import { beforeAll, describe, expect } from 'vitest';
import { uploads } from '../../src/db/schema.ts';
import { checkFile, FILE_TYPE_NAMES, KNOWN_FILE_TYPES } from '../../src/uploads/file-types.ts';
import { FILES_OF_EVERY_TYPE, zip } from '../support/file-fixtures.ts';
import { bombs, deflatedZeros } from '../support/upload-bombs.ts';
import type { Database } from '../../src/db/client.ts';
import { appWith, createTenant, openTestDatabase, testConfig, type TestContext } from '../support/helpers.ts';
import { onFileEnd } from '../support/cleanup.ts';
import { measure } from '../support/process-memory.ts';
import { componentAt, makeForm } from '../support/public-helpers.ts';

const MiB = 1024 * 1024;

/** Real files and bombs to mutate. */
const SEEDS: Buffer[] = [
  ...Object.values(FILES_OF_EVERY_TYPE).flatMap((files) => files.map((file) => file.bytes)),
  gzipSync(FILES_OF_EVERY_TYPE.docx![0]!.bytes),
  zip([
    { name: 'inner.zip', data: FILES_OF_EVERY_TYPE.zip![0]!.bytes },
    { name: 'zeros.bin', deflated: deflatedZeros(1) },
  ]),
  ...bombs()
    .filter((bomb) => bomb.bytes.length < 2 * MiB)
    .map((bomb) => bomb.bytes),
];

/** One change to a file: a byte, a 32-bit field (sizes, offsets, counts), a cut, an insertion, a deletion, a copied range. */
const position = fc.record({ at: fc.nat(), fromEnd: fc.boolean() });
const mutation = fc.oneof(
  fc.record({ kind: fc.constant('byte' as const), where: position, value: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ kind: fc.constant('u32' as const), where: position, value: fc.constantFrom(0, 1, 22, 0xffff, 0x7fffffff, 0xffffffff, 2 ** 30) }),
  fc.record({ kind: fc.constant('cut' as const), where: position }),
  fc.record({ kind: fc.constant('insert' as const), where: position, bytes: fc.uint8Array({ minLength: 1, maxLength: 64 }) }),
  fc.record({ kind: fc.constant('delete' as const), where: position, length: fc.integer({ min: 1, max: 64 }) }),
  fc.record({ kind: fc.constant('copy' as const), where: position, from: fc.nat(), length: fc.integer({ min: 1, max: 4096 }) }),
);
type Mutation = typeof mutation extends fc.Arbitrary<infer T> ? T : never;

/** Where a mutation applies: anywhere, or (as often) within the last 2 KB, where a zip's directory lies. */
const offsetIn = (bytes: Buffer, { at, fromEnd }: { at: number; fromEnd: boolean }) =>
  bytes.length === 0 ? 0 : fromEnd ? bytes.length - 1 - (at % Math.min(bytes.length, 2048)) : at % bytes.length;

function mutate(seed: Buffer, mutations: readonly Mutation[]): Buffer {
  let bytes = Buffer.from(seed);
  for (const change of mutations) {
    const at = offsetIn(bytes, change.where);
    if (change.kind === 'byte' && bytes.length > 0) bytes[at] = change.value;
    else if (change.kind === 'u32' && at + 4 <= bytes.length) bytes.writeUInt32LE(change.value >>> 0, at);
    else if (change.kind === 'cut') bytes = bytes.subarray(0, at);
    else if (change.kind === 'insert') bytes = Buffer.concat([bytes.subarray(0, at), change.bytes, bytes.subarray(at)]);
    else if (change.kind === 'delete') bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + change.length)]);
    else if (change.kind === 'copy' && bytes.length > 0) {
      const from = change.from % bytes.length;
      bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(from, from + change.length), bytes.subarray(at)]);
    }
  }
  return bytes;
}

const hostileBytes = fc.oneof(
  fc.uint8Array({ maxLength: 4096 }).map((bytes) => Buffer.from(bytes)),
  fc.tuple(fc.constantFrom(...SEEDS), fc.array(mutation, { minLength: 1, maxLength: 6 })).map(([seed, mutations]) => mutate(seed, mutations)),
);
const extension = fc.constantFrom(...FILE_TYPE_NAMES);

describe('checking hostile bytes', () => {
  test.prop([hostileBytes, extension], { numRuns: HOSTILE_RUNS * 5, endOnFailure: true })(
    'never throws, stays within bounded time and memory, and passes the declared type or refuses with a message',
    async (bytes, type) => {
      const name = `upload.${type}`;
      const { value: result, cpuMs, growthBytes } = await measure(() => checkFile(name, bytes, FILE_TYPE_NAMES, 64 * MiB));
      expect(cpuMs).toBeLessThan(1000);
      expect(growthBytes).toBeLessThanOrEqual(32 * MiB);
      if (result.ok) expect(result.contentType).toBe(KNOWN_FILE_TYPES[type]!.contentType);
      else expect(result.message).toMatch(new RegExp(`^upload\\.${type} (is |cannot )`));
    },
  );
});

describe('posting hostile bytes', () => {
  let db: Database;
  let app: TestContext['app'];
  let formId: string;
  let componentId: string;
  beforeAll(async () => {
    const handle = await openTestDatabase();
    onFileEnd(() => handle.close());
    db = handle.db;
    app = appWith(db, {
      publicRateLimitPerMinute: 0,
      dataDir: mkdtempSync(join(tmpdir(), 'formloom-upload-property-')),
      uploads: { ...testConfig().uploads, maxBodyBytes: 8 * MiB },
    });
    const tenant = await createTenant(db);
    const form = await makeForm(db, tenant, [
      { name: 'Files', components: [{ type: 'FileUploader', content: { question: 'Anything', allowedTypes: FILE_TYPE_NAMES } }] },
      { name: 'More', components: [{ type: 'ShortInput', content: { question: 'Anything else?' } }] },
    ]);
    formId = form.id;
    componentId = componentAt(form, 0, 0).id;
  });
  const rows = async () => (await db.select({ n: count() }).from(uploads).where(eq(uploads.formId, formId)))[0]!.n;

  test.prop([hostileBytes, extension], { numRuns: HOSTILE_RUNS, endOnFailure: true })('answers 201 with the type, or 400 with the path and nothing stored', async (bytes, type) => {
    const before = await rows();
    const body = new FormData();
    body.append('componentId', componentId);
    body.append('file', new File([new Uint8Array(bytes)], `upload.${type}`));
    const response = await app.request(`/s/${formId}/uploads`, { method: 'POST', body });
    const answer = (await response.json()) as { files?: { contentType: string }[]; errors?: { message: string; path: unknown[] }[] };
    if (response.status === 201) {
      expect(answer.files![0]!.contentType).toBe(KNOWN_FILE_TYPES[type]!.contentType);
    } else {
      expect(response.status).toBe(400);
      expect(answer.errors).toEqual([{ message: expect.stringMatching(new RegExp(`^upload\\.${type}`)), path: ['file', 0] }]);
      expect(await rows()).toBe(before);
    }
  });
});
