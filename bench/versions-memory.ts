/**
 * What a form's versions cost the server (`npx tsx bench/versions-memory.ts`): starts the server as `npm start`
 * does (PGlite in a temporary data dir, every limit on), makes a form with a large definition (about 900 KB),
 * updates it until it has BENCH_VERSIONS versions (default 100), and prints:
 * - the time of an update that names an id no version of the form has (refused with 400), median of five, with
 *   one version to go;
 * - the server's peak resident memory (VmHWM) before and after one `versions(first: 100) { definition { json } }`
 *   query, with its status, its answer's size and its first error;
 * - whether one more update is taken (FORM_MAX_VERSIONS, 100 by default, refuses it).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { residentBytes } from '../test/support/process-memory.ts';
import { startServer } from '../test/support/server-process.ts';

const VERSIONS = Number(process.env.BENCH_VERSIONS ?? 100);
const MB = 1024 * 1024;

/** Two steps of Disclaimers with 10,000-character texts: about 900 KB of JSON. */
const bigSteps = (round: number) => [
  {
    name: `Terms ${round}`,
    components: Array.from({ length: 45 }, (_, i) => ({
      type: 'Disclaimer',
      content: { text: `${round}:${i} `.padEnd(10_000, 'x') },
    })),
  },
  {
    name: 'More terms',
    components: Array.from({ length: 45 }, (_, i) => ({
      type: 'Disclaimer',
      content: { text: `${i} `.padEnd(10_000, 'y') },
    })),
  },
];

const dataDir = mkdtempSync(join(tmpdir(), 'formloom-bench-versions-'));
const server = await startServer({ DATA_DIR: dataDir, API_RATE_LIMIT: '0' });
try {
  const { apiKey, environmentId, templateId } = server.demo!;
  const headers = { 'content-type': 'application/json', 'x-api-key': apiKey };
  const made = await fetch(`${server.url}/api/v1/environments/${environmentId}/forms/generate`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ sourceFormId: templateId, name: 'Big', steps: bigSteps(1) }),
  });
  const formId = ((await made.json()) as { result: { form: { id: string } } }).result.form.id;
  const patch = (body: unknown) => fetch(`${server.url}/api/v1/forms/${formId}`, { method: 'PATCH', headers, body: JSON.stringify(body) });
  let kept = 1;
  const update = async (round: number) => {
    const answer = await patch({ steps: bigSteps(round) });
    if (answer.status !== 200) console.log(`update to version ${round}: HTTP ${answer.status} ${(await answer.text()).slice(0, 200)}`);
    else await answer.body?.cancel();
    return answer.status === 200;
  };
  while (kept < VERSIONS - 1 && (await update(kept + 1))) kept++;

  // With one version to go: the update naming an id no version has.
  const median = (list: number[]) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
  const timed = async (steps: unknown[]) => {
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const start = performance.now();
      const refused = await patch({ steps });
      times.push(performance.now() - start);
      if (refused.status !== 400) console.log(`unknown id update: HTTP ${refused.status}`);
      await refused.body?.cancel();
    }
    return median(times);
  };
  const big = await timed([{ id: 'unknown', ...bigSteps(0)[0] }, bigSteps(0)[1]]);
  const small = await timed([
    { id: 'unknown', name: 'A', components: [{ type: 'Header', content: { title: 'x' } }] },
    { name: 'B', components: [{ type: 'Header', content: { title: 'y' } }] },
  ]);
  console.log(`update naming an unknown id at ${kept} versions: median ${big.toFixed(0)} ms (900 KB body), ${small.toFixed(0)} ms (small body)`);
  if (await update(kept + 1)) kept++;
  console.log(`form with ${kept} versions of ${(JSON.stringify(bigSteps(1)).length / 1024).toFixed(0)} KB steps`);

  const pid = server.child.pid!;
  const before = residentBytes('VmHWM', pid);
  const query = `query($id: ID!) { form(id: $id) { versions(first: 100) { edges { node { version definition { json } } } } } }`;
  const started = performance.now();
  const answer = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ query, variables: { id: formId } }),
  });
  const text = await answer.text();
  const ms = performance.now() - started;
  const firstError = (JSON.parse(text) as { errors?: { message: string }[] }).errors?.[0]?.message;
  const after = residentBytes('VmHWM', pid);
  console.log(
    `versions(first: 100): HTTP ${answer.status}, ${(text.length / MB).toFixed(1)} MB answer in ${ms.toFixed(0)} ms, peak RSS ${(before / MB).toFixed(0)} → ${(after / MB).toFixed(0)} MB` +
      (firstError ? ` (${firstError})` : ''),
  );
  console.log(`one more update: ${(await update(kept + 1)) ? 'accepted' : 'refused'}`);
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
