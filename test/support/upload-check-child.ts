/**
 * Run as a child process by uploads.bombs.test.ts (`node --expose-gc --import tsx
 * test/support/upload-check-child.ts DIR`): checks every file in DIR, named `<n>-<upload name>`, as an upload
 * that may be of any type, and prints one JSON line per file: the check's answer (or what it threw), its
 * wall and CPU time, and how far the process's resident memory rose above where it stood before the
 * check (the kernel's high-water mark, reset before each check).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkFile, FILE_TYPE_NAMES } from '../../src/uploads/file-types.ts';
import { FILES_OF_EVERY_TYPE } from './file-fixtures.ts';
import { measure } from './process-memory.ts';

const dir = process.argv[2]!;
const MAX_BYTES = 64 * 1024 * 1024;

// Everything loaded and compiled before measuring: one check of each real file.
for (const files of Object.values(FILES_OF_EVERY_TYPE)) for (const file of files) await checkFile(file.name, file.bytes, FILE_TYPE_NAMES, MAX_BYTES);

for (const entry of readdirSync(dir).sort()) {
  const bytes = readFileSync(join(dir, entry));
  const name = entry.replace(/^\d+-/, '');
  (globalThis as { gc?: () => void }).gc?.();
  const { value: check, ...cost } = await measure(async () => {
    try {
      return await checkFile(name, bytes, FILE_TYPE_NAMES, MAX_BYTES);
    } catch (error) {
      return { ok: false, threw: String(error) };
    }
  });
  console.log(JSON.stringify({ entry, check, ...cost }));
}
