// The one lint and format configuration: ESLint rules for TypeScript, with Prettier's formatting
// checked as a lint rule (`npm run lint`; `npm run format` rewrites). The dependency rules between
// the folders of src/ are dependency-cruiser's (.dependency-cruiser.mjs, `npm run lint:deps`).
import js from '@eslint/js';
import prettierRecommended from 'eslint-plugin-prettier/recommended';
import tseslint from 'typescript-eslint';

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
