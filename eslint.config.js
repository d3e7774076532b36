// The one lint and format configuration: ESLint rules for TypeScript, with Prettier's formatting
// checked as a lint rule (`npm run lint`; `npm run format` rewrites).
import js from '@eslint/js';
import prettierRecommended from 'eslint-plugin-prettier/recommended';
import tseslint from 'typescript-eslint';

// The folders of src/ from the bottom layer up (docs/architecture.md, Source layout): a folder
// imports only from folders before it, so dependencies point one way and no cycle can form.
const LAYERS = [
  'types',
  'util',
  'domain',
  'security',
  'config',
  'net',
  'store',
  'blob',
  'artifacts',
  'browser',
  'crawler',
  'observability',
  'search',
  'worker',
  'service',
  'webhooks',
  'scheduler',
  'api',
  'client',
  'widget',
  'server',
  'cli',
];

const layerRules = LAYERS.slice(0, -1).map((folder, index) => {
  const above = LAYERS.slice(index + 1);
  return {
    files: [`src/${folder}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(\\.\\./)+(${above.join('|')})/`,
              message: `src/${folder} is below ${above.join(', ')} in the layers of docs/architecture.md: pass what it needs in, or move the shared piece down.`,
            },
          ],
        },
      ],
    },
  };
});

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
    files: ['**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  ...layerRules,
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
