import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import modules from './scripts/mutate-modules.json' with { type: 'json' };

const MUTATE_MODULES: Record<string, { file: string; tests: string[] }> = modules;

/**
 * The vitest run Stryker drives (stryker.config.mjs): the test files of one module (MUTATE_MODULE),
 * fast-check's seed fixed (test/support/fixed-seed.ts) so property tests keep their names
 * between Stryker's first run and its runs per mutant.
 */
const module = MUTATE_MODULES[process.env.MUTATE_MODULE ?? ''];
if (!module) throw new Error('MUTATE_MODULE must name a module of scripts/mutate-modules.json');

export default defineConfig({
  resolve: { alias: { graphql: fileURLToPath(import.meta.resolve('graphql')) } },
  test: {
    include: module.tests,
    // The database tests among them (the path walk's property test) need the suite's global setup.
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/setup.ts', 'test/support/fixed-seed.ts'],
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 1,
    testTimeout: 30_000,
  },
});
