// The regular-expression check CI runs on every file (npm run lint:regexp): no expression that can backtrack
// or move super-linearly, since client text meets many of them. No type information needed, so it is fast.
// eslint.config.js holds the whole rule set (npm run lint).
import regexp from 'eslint-plugin-regexp';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', '.data/', '.ci/', 'src/graphql/generated/', 'drizzle/'] },
  {
    files: ['**/*.ts', '**/*.mjs', '**/*.js'],
    languageOptions: { parser: tseslint.parser },
    // typescript-eslint's plugin is loaded (no rule of it on) so that disable comments naming its rules resolve.
    plugins: { regexp, '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'off' },
    rules: {
      'regexp/no-super-linear-backtracking': 'error',
      'regexp/no-super-linear-move': 'error',
    },
  },
);
