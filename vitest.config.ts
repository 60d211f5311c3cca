import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

// One copy of graphql for the schema and yoga; otherwise yoga masks our GraphQLErrors.
const alias = { graphql: fileURLToPath(import.meta.resolve('graphql')) };

/**
 * One tier of the suite (docs/development.md, "Tests"). The projects don't extend the root config: the
 * root's globalSetup (one migrated database for the run) would then run again for each of them.
 */
function tier(name: string, include: string[], test: TestProjectInlineConfiguration['test'] = {}): TestProjectInlineConfiguration {
  return {
    resolve: { alias },
    test: {
      name,
      include,
      setupFiles: ['test/support/setup.ts'],
      pool: 'forks',
      testTimeout: 30_000,
      hookTimeout: 60_000,
      ...test,
    },
  };
}

export default defineConfig({
  resolve: { alias },
  test: {
    // Runs once for every project: the root project's global setup always runs, and the projects read
    // what it provides.
    globalSetup: ['test/support/global-setup.ts'],
    maxWorkers: 2,
    // Transformed modules kept in node_modules/.experimental-vitest-cache between runs (vitest --clearCache
    // empties it): every run transformed the same few hundred files again.
    experimental: { fsModuleCache: true },
    projects: [
      // `npm run test:fast`. Not isolated: a worker imports the app once and runs file after file in it
      // (each file still opens a database of its own), which halves the tier's time.
      tier('in-process', ['test/**/*.test.ts'], { exclude: [...configDefaults.exclude, 'test/process/**', 'test/browser/**'], isolate: false }),
      tier('process', ['test/process/**/*.test.ts']),
      tier('browser', ['test/browser/**/*.test.ts']),
    ],
  },
});
