// `npm start`'s prestart: runs the build (scripts/build.ts) only when dist/ is missing or older than an
// input. Plain JavaScript on purpose: when nothing changed, this check is all `npm start` pays (no tsx).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(ROOT, 'dist');
// Keep in step with INPUTS and OUTPUTS in scripts/build.ts.
const INPUTS = ['src', 'drizzle', 'package-lock.json', 'scripts/build.ts'];
const OUTPUTS = ['main.js', 'pglite-worker.js', 'pglite-template/PG_VERSION'];

function newestInput() {
  let newest = 0;
  const visit = (path) => {
    const stat = statSync(path);
    if (stat.isDirectory()) for (const entry of readdirSync(path)) visit(join(path, entry));
    else newest = Math.max(newest, stat.mtimeMs);
  };
  for (const input of INPUTS) visit(join(ROOT, input));
  return newest;
}

const stamp = join(DIST, '.build-stamp');
const fresh = existsSync(stamp) && OUTPUTS.every((file) => existsSync(join(DIST, file))) && Number(readFileSync(stamp, 'utf8')) >= newestInput();
if (!fresh) {
  const build = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/build.ts')], { cwd: ROOT, stdio: 'inherit' });
  process.exit(build.status ?? 1);
}
