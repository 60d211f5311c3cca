/**
 * Run as a child process by uploads.bombs.test.ts (`node --expose-gc --import tsx
 * test/upload-check-child.ts DIR`): checks every file in DIR, named `<n>-<upload name>`, as an upload
 * that may be of any type, and prints one JSON line per file: the check's answer (or what it threw), its wall and CPU
 * time, and how far the process's resident memory rose above where it stood before the check (the
 * kernel's high-water mark, reset before each check).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkFile, FILE_TYPE_NAMES } from '../src/uploads/file-types.ts';
import { FILES_OF_EVERY_TYPE } from './file-fixtures.ts';

const dir = process.argv[2]!;
const MAX_BYTES = 64 * 1024 * 1024;
const kilobytes = (field: 'VmRSS' | 'VmHWM') => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync('/proc/self/status', 'utf8'))![1]);
/** Resets VmHWM to the current RSS (Linux ≥ 4.0); false where the kernel does not allow it. */
function resetPeak(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

// Everything loaded and compiled before measuring: one check of each real file.
for (const files of Object.values(FILES_OF_EVERY_TYPE)) for (const file of files) await checkFile(file.name, file.bytes, FILE_TYPE_NAMES, MAX_BYTES);

for (const entry of readdirSync(dir).sort()) {
  const bytes = readFileSync(join(dir, entry));
  const name = entry.replace(/^\d+-/, '');
  (globalThis as { gc?: () => void }).gc?.();
  const peakReset = resetPeak();
  const before = kilobytes('VmRSS');
  const cpu = process.cpuUsage();
  const started = performance.now();
  let check: Awaited<ReturnType<typeof checkFile>> | { ok: false; threw: string };
  try {
    check = await checkFile(name, bytes, FILE_TYPE_NAMES, MAX_BYTES);
  } catch (error) {
    check = { ok: false, threw: String(error) };
  }
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  // Without the reset, the peak since the process started: an overestimate, never an underestimate.
  const peak = peakReset ? kilobytes('VmHWM') : process.resourceUsage().maxRSS;
  console.log(JSON.stringify({ entry, check, wallMs, cpuMs: (used.user + used.system) / 1000, growthBytes: (peak - before) * 1024, peakReset }));
}
