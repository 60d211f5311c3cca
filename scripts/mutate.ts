/**
 * `npm run mutate [module…]`: Stryker over the security modules, one module at a time, one mutant at a
 * time (concurrency 1), each against its own test files (scripts/mutate-modules.json). Fails when a
 * module scores below 85 %. Reports: reports/mutation/<module>.html.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import modules from './mutate-modules.json' with { type: 'json' };

const MUTATE_MODULES: Record<string, { file: string; tests: string[] }> = modules;

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !(name in MUTATE_MODULES));
if (unknown.length > 0) {
  console.error(`Unknown module(s): ${unknown.join(', ')}; known: ${Object.keys(MUTATE_MODULES).join(', ')}`);
  process.exit(2);
}

interface MutantReport {
  files: Record<string, { mutants: { status: string }[] }>;
}

/** Stryker's score: killed and timed-out mutants over all valid ones (no coverage counts as survived). */
function score(name: string): number {
  const report = JSON.parse(readFileSync(`reports/mutation/${name}.json`, 'utf8')) as MutantReport;
  const statuses = Object.values(report.files).flatMap((file) => file.mutants.map((mutant) => mutant.status));
  const valid = statuses.filter((status) => !['CompileError', 'RuntimeError', 'Ignored'].includes(status));
  const detected = valid.filter((status) => status === 'Killed' || status === 'Timeout');
  return valid.length === 0 ? 100 : (100 * detected.length) / valid.length;
}

const results: { name: string; file: string; score: number | undefined }[] = [];
for (const name of wanted.length > 0 ? wanted : Object.keys(MUTATE_MODULES)) {
  const run = spawnSync('npx', ['stryker', 'run'], { stdio: 'inherit', env: { ...process.env, MUTATE_MODULE: name } });
  let measured: number | undefined;
  try {
    measured = score(name);
  } catch {
    measured = undefined;
  }
  results.push({
    name,
    file: MUTATE_MODULES[name]!.file,
    score: run.status === 0 || measured !== undefined ? measured : undefined,
  });
}
console.log('\nMutation scores (threshold 85 %):');
for (const { file, score: value } of results) console.log(`  ${file.padEnd(32)} ${value === undefined ? 'no result' : `${value.toFixed(1)} %`}`);
process.exit(results.every((result) => result.score !== undefined && result.score >= 85) ? 0 : 1);
