/**
 * Event-loop stall of long whitespace runs (`npx tsx bench/whitespace-stall.ts`): starts the server as `npm start`
 * does (node flags from package.json, PGlite in a temporary data dir, every limit on), sends the 60 KB JSON
 * LongInput answer and 120 KB multipart page fields, and prints the slowest `/healthz` answer during each.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../test/support/server-process.ts';
import { measureWhitespaceStalls } from '../test/support/whitespace-stall.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'formloom-bench-whitespace-'));
const server = await startServer({ DATA_DIR: dataDir });
try {
  for (const result of await measureWhitespaceStalls(server.url, server.demo!)) {
    console.log(`${result.what}: HTTP ${result.status}, slowest /healthz ${result.slowestHealthMs} ms`);
  }
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
