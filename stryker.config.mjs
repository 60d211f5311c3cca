// @ts-check
/**
 * Mutation testing of the security modules (`npm run mutate`, docs/development.md "Mutation testing").
 * scripts/mutate.ts runs Stryker once per module (MUTATE_MODULE), one mutant at a time, against the
 * test files the module lists in scripts/mutate-modules.ts (vitest.mutate.config.ts reads them).
 */
import { readFileSync } from 'node:fs';

/** @type {Record<string, { file: string; mutate?: string[]; tests: string[] }>} */
const MUTATE_MODULES = JSON.parse(readFileSync(new URL('./scripts/mutate-modules.json', import.meta.url), 'utf8'));

const name = process.env.MUTATE_MODULE ?? '';
const module = MUTATE_MODULES[name];
if (!module) throw new Error(`MUTATE_MODULE must be one of: ${Object.keys(MUTATE_MODULES).join(', ')}`);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'vitest.mutate.config.ts', related: false },
  mutate: module.mutate ?? [module.file],
  coverageAnalysis: 'perTest',
  concurrency: 1,
  tempDirName: '.stryker-tmp',
  ignorePatterns: ['dist', 'bench', 'docs', 'reports', '.data*', 'test/browser', 'test/process'],
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: `reports/mutation/${name}.html` },
  jsonReporter: { fileName: `reports/mutation/${name}.json` },
  thresholds: { high: 90, low: 85, break: 85 },
  timeoutMS: 10_000,
};
