/**
 * Upload bombs against a running server: `npm start`'s bundle on a fresh PGlite data dir, a form with a
 * FileUploader (docx, pdf), then, posted anonymously one at a time, the 1 MB docx whose
 * [Content_Types].xml inflates to 1 GiB, the 2.9 KB gzip of it, and a real docx. For each: the answer's
 * status and wall time, the server's RSS before, at peak (sampled every 25 ms) and after, and the
 * slowest of the `/healthz` requests sent every 50 ms meanwhile. Each file goes to a fresh server, so
 * one file's memory does not hide the next one's.
 * Run: npx tsx bench/upload-bombs.ts
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { FILES_OF_EVERY_TYPE } from '../test/support/file-fixtures.ts';
import { residentBytes } from '../test/support/process-memory.ts';
import { startServer } from '../test/support/server-process.ts';
import { bombs } from '../test/support/upload-bombs.ts';

const root = new URL('..', import.meta.url).pathname;
const MiB = 1024 * 1024;
execFileSync('npm', ['run', '-s', 'prestart'], { cwd: root, stdio: 'inherit' });

const all = bombs();
const files = [
  { label: 'docx bomb', name: 'cv.docx', bytes: all.find((bomb) => bomb.what.startsWith('a docx whose [Content_Types].xml'))!.bytes },
  { label: 'gzip of it', name: 'cv.docx', bytes: all.find((bomb) => bomb.what === 'a gzip of the docx bomb')!.bytes },
  { label: 'real docx', name: 'cv.docx', bytes: FILES_OF_EVERY_TYPE.docx![0]!.bytes },
];

async function measure(file: (typeof files)[number]) {
  const dataDir = mkdtempSync(join(tmpdir(), 'formloom-bench-bombs-'));
  const server = await startServer({ DATA_DIR: dataDir }, 'bundle');
  try {
    const { environmentId, templateId, apiKey } = server.demo!;
    const generated = await fetch(`${server.url}/api/v1/environments/${environmentId}/forms/generate`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({
        sourceFormId: templateId,
        name: 'Applications',
        steps: [
          { name: 'CV', components: [{ type: 'FileUploader', content: { question: 'Your CV', allowedTypes: ['docx', 'pdf'] } }] },
          { name: 'More', components: [{ type: 'ShortInput', content: { question: 'Anything else?' } }] },
        ],
      }),
    });
    const formId = ((await generated.json()) as { result: { form: { id: string } } }).result.form.id;
    const definition = (await (await fetch(`${server.url}/s/${formId}/definition`)).json()) as { steps: { components: { id: string }[] }[] };
    const componentId = definition.steps[0]!.components[0]!.id;
    const post = (name: string, bytes: Uint8Array) => {
      const body = new FormData();
      body.append('componentId', componentId);
      body.append('file', new File([new Uint8Array(bytes)], name));
      return fetch(`${server.url}/s/${formId}/uploads`, { method: 'POST', body });
    };
    // The checking code loaded (a small PDF), then a moment to settle.
    await (await post('warm.pdf', Buffer.from('%PDF-1.4\n%%EOF\n'))).text();
    await new Promise((resolve) => setTimeout(resolve, 2000));

    const rss = () => residentBytes('VmRSS', server.child.pid);
    const before = rss();
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rss())), 25);
    let slowestHealth = 0;
    const done = new AbortController();
    const probe = (async () => {
      while (!done.signal.aborted) {
        const started = performance.now();
        await fetch(`${server.url}/healthz`);
        slowestHealth = Math.max(slowestHealth, performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    const started = performance.now();
    const response = await post(file.name, file.bytes);
    await response.text();
    const wallMs = performance.now() - started;
    done.abort();
    await probe;
    clearInterval(sampler);
    return { status: response.status, wallMs, before, peak, after: rss(), slowestHealth };
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(
  `load average ${loadavg()
    .map((load) => load.toFixed(1))
    .join(' ')}`,
);
console.log('| file | size | status | wall | RSS before → peak → after | slowest /healthz |');
console.log('|---|---|---|---|---|---|');
for (const file of files) {
  const { status, wallMs, before, peak, after, slowestHealth } = await measure(file);
  const mb = (bytes: number) => `${Math.round(bytes / MiB)} MB`;
  console.log(`| ${file.label} | ${file.bytes.length} B | ${status} | ${Math.round(wallMs)} ms | ${mb(before)} → ${mb(peak)} → ${mb(after)} | ${Math.round(slowestHealth)} ms |`);
}
