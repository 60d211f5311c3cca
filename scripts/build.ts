/**
 * `npm run build` (run by `npm install` as `prepare`, and by `npm start` as `prestart` when stale):
 *
 * - dist/main.js and dist/pglite-worker.js: the server and the embedded database's worker thread,
 *   bundled from src/ by esbuild (npm packages stay external). `npm start` runs dist/main.js with plain
 *   Node: no TypeScript transpiler at run time, one file to load instead of ~150.
 * - dist/pglite-template/: an empty PGlite data dir with every migration applied; a new data dir starts
 *   as a copy of it instead of running initdb and the migrations (src/db/client.ts).
 *
 * `npm start` runs scripts/build-if-stale.mjs first, which runs this only when dist/ is older than an input.
 */
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(ROOT, 'dist');
const STAMP = join(DIST, '.build-stamp');
const TEMPLATE = 'pglite-template';

/** The newest modification time among the build's inputs. */
function newestInput(): number {
  let newest = 0;
  const visit = (path: string) => {
    const stat = statSync(path);
    if (stat.isDirectory()) for (const entry of readdirSync(path)) visit(join(path, entry));
    else newest = Math.max(newest, stat.mtimeMs);
  };
  // Keep in step with INPUTS in scripts/build-if-stale.mjs.
  for (const input of ['src', 'drizzle', 'package-lock.json', 'scripts/build.ts']) visit(join(ROOT, input));
  return newest;
}

async function bundle(): Promise<void> {
  const { build } = await import('esbuild');
  await build({
    entryPoints: { main: join(ROOT, 'src/main.ts'), 'pglite-worker': join(ROOT, 'src/db/pglite-worker.ts') },
    outdir: DIST,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
}

/** An empty data dir, migrated and cleanly closed: new data dirs start as a copy of it. */
async function buildTemplate(): Promise<void> {
  const { openDatabase } = await import('../src/db/client.ts');
  const partial = join(DIST, `${TEMPLATE}.partial`);
  rmSync(partial, { recursive: true, force: true });
  const handle = await openDatabase({ dataDir: partial, pgliteThread: 'inline' });
  try {
    await handle.migrate();
  } finally {
    await handle.close();
  }
  rmSync(join(DIST, TEMPLATE), { recursive: true, force: true });
  renameSync(partial, join(DIST, TEMPLATE));
}

async function main() {
  const started = performance.now();
  const inputsAt = newestInput();
  rmSync(STAMP, { force: true });
  mkdirSync(DIST, { recursive: true });
  await bundle();
  await buildTemplate();
  writeFileSync(STAMP, String(inputsAt));
  process.stderr.write(`formloom built into dist/ in ${Math.round(performance.now() - started)} ms\n`);
}

await main();
