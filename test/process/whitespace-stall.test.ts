/**
 * Long whitespace runs against a running server (`src/main.ts` on PGlite, every limit on): the 60 KB JSON
 * LongInput answer and 120 KB multipart page fields are refused (400 naming the answer, 413 over the text limit)
 * and the event loop keeps answering `/healthz` meanwhile. Before linear normalisation they stalled it
 * 3 s and 12 s; the bound here is generous for a loaded machine (the lint keeps the regex class out).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { killLeftovers, startServer, type ServerProcess } from '../support/server-process.ts';
import { measureWhitespaceStalls } from '../support/whitespace-stall.ts';

let server: ServerProcess;
let dataDir: string;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'formloom-whitespace-'));
  server = await startServer({ DATA_DIR: dataDir });
});
afterAll(async () => {
  await server?.stop();
  killLeftovers();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('long whitespace runs on a running server', () => {
  it('are refused and /healthz keeps answering meanwhile', async () => {
    const results = await measureWhitespaceStalls(server.url, server.demo!);
    console.info(`[whitespace runs] ${results.map((r) => `${r.what}: ${r.status}, slowest /healthz ${r.slowestHealthMs} ms`).join('; ')}`);
    expect(results.map((r) => r.status)).toEqual([400, 413, 413]);
    for (const result of results) expect(result.slowestHealthMs, result.what).toBeLessThan(1_500);
  }, 120_000);
});
