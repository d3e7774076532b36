// The one lint and format configuration: ESLint rules for TypeScript, with Prettier's formatting
// checked as a lint rule (`npm run lint`; `npm run format` rewrites). The dependency rules between
// the folders of src/ are dependency-cruiser's (.dependency-cruiser.mjs, `npm run lint:deps`).
import js from '@eslint/js';
import prettierRecommended from 'eslint-plugin-prettier/recommended';
import tseslint from 'typescript-eslint';

/** node:test's functions: a test or hook left unawaited is the runner's to wait for. */
const NODE_TEST_CALLS = ['test', 'describe', 'it', 'before', 'after', 'beforeEach', 'afterEach', 'suite'];

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/ban-ts-comment': 'error',
      'no-control-regex': 'off',
    },
  },
  {
    // The stores answer asynchronously (PostgreSQL or SQLite behind one interface): a promise
    // left unawaited loses its failure or its order, which the types alone do not catch.
    files: ['src/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    ignores: ['src/client/**', 'src/widget/**', 'src/console/**'],
    languageOptions: { parserOptions: { project: './tsconfig.json' } },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: NODE_TEST_CALLS }] },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      // A promise returned from a try block skips its catch and finally unless awaited.
      '@typescript-eslint/return-await': ['error', 'in-try-catch'],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  prettierRecommended,
  {
    rules: {
      'prettier/prettier': [
        'error',
        { singleQuote: true, semi: true, printWidth: 110, trailingComma: 'all' },
      ],
    },
  },
);
