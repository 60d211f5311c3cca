// ESLint over the whole tree (npm run lint): typescript-eslint's type-aware rules and eslint-plugin-regexp.
// Prettier owns the layout (.prettierrc.json): eslint-config-prettier, last, switches off every rule that
// would disagree with it. A rule switched off or relaxed here says why.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier/flat';
import globals from 'globals';
import regexp from 'eslint-plugin-regexp';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['node_modules/', 'dist/', '.data/', '.ci/', 'coverage/', 'reports/', '.stryker-tmp/', '.bench/', '.scratch/', 'src/graphql/generated/', 'drizzle/'],
  },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  regexp.configs['flat/recommended'],
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // The rules the team relies on: promises are awaited or handed on deliberately, conditions mean something.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unnecessary-condition': 'error',
      // Client text meets these expressions: no backtracking beyond linear time, anywhere.
      'regexp/no-super-linear-backtracking': 'error',
      'regexp/no-super-linear-move': 'error',
      // A leading underscore marks a value left out on purpose (a destructured field dropped from a copy).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    // Tests and benches read HTTP and GraphQL answers as parsed JSON (any) and assert on them: the assertions
    // are their type check, so the no-unsafe-* family and explicit any would only add casts.
    files: ['test/**', 'bench/**'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // A test's shared handles (a browser, a server, a database) are declared non-null and assigned in
    // beforeAll; the cleanup must still guard them, since a failed setup leaves them unset. Test doubles
    // implement async interfaces (a job, a provider) with bodies that need no await. Promise.all over
    // app.request's answers (Hono types them Response | Promise<Response>) is deliberate.
    files: ['test/**'],
    rules: {
      '@typescript-eslint/await-thenable': 'off',
      '@typescript-eslint/no-unnecessary-condition': 'off',
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // Plain JavaScript files (bin/, examples/, scripts' .mjs) are not in the TypeScript project.
    files: ['**/*.{js,mjs,cjs}'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { ...globals.node } },
  },
  prettier,
);
