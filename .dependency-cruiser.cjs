/**
 * The module graph's rules (docs/architecture.md, "Layout"), checked by `npm run deps:check` and
 * test/architecture.test.ts. Type-only imports count: a cycle or a boundary crossed only by a type is
 * still one.
 */
/** The domain modules and the layers above them: what db/ must never import. */
const ABOVE_DB = '^src/(audit|auth|components|environments|events|forms|graphql|idempotency|leads|limits|privacy|public|responses|rest|uploads)/';

module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment: 'No import cycles, type imports included.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'services-no-graphql-or-http',
      comment: 'Services (*.service.ts) hold logic, queries and shared argument checks: no GraphQL, hono or REST code.',
      severity: 'error',
      from: { path: '\\.service\\.ts$' },
      to: {
        path: [
          '^src/graphql/',
          '\\.graphql\\.ts$',
          '^src/rest/',
          '^src/public/',
          '^src/http\\.ts$',
          'node_modules/(hono|@hono/[^/]+|graphql|graphql-yoga|@pothos/[^/]+)/',
        ],
      },
    },
    {
      name: 'db-below-the-domains',
      comment: 'db/ holds the tables and the database handle; it imports no domain module.',
      severity: 'error',
      from: { path: '^src/db/' },
      to: { path: ABOVE_DB },
    },
    {
      name: 'rest-not-db',
      comment: 'The REST adapters run operations and services; they never touch db/.',
      severity: 'error',
      from: { path: '^src/rest/' },
      to: { path: '^src/db/' },
    },
    {
      name: 'components-and-limits-not-public',
      comment: 'The component modules and the edge checks import nothing from the public pages.',
      severity: 'error',
      from: { path: '^src/(components|limits)/' },
      to: { path: '^src/public/' },
    },
    {
      name: 'only-the-app-mounts-rest',
      comment: 'rest/ is imported by the app alone (and by itself).',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/app\\.ts$', '^src/rest/'] },
      to: { path: '^src/rest/' },
    },
    {
      name: 'only-the-app-mounts-public',
      comment: 'public/ is imported by the app alone (and by itself).',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/app\\.ts$', '^src/public/'] },
      to: { path: '^src/public/' },
    },
  ],
  options: {
    // Type-only imports are dependencies too.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    // Tests beside their module are not part of the module graph.
    exclude: { path: '\\.test\\.ts$' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
