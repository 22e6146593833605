// One lint configuration for the whole workspace; typed rules need the TypeScript project service.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const nodeOnly = [
  'node:*',
  'fs',
  'fs/*',
  'path',
  'os',
  'crypto',
  'child_process',
  'http',
  'https',
  'net',
  'stream',
  'zlib',
  'url',
  'worker_threads',
  'process',
  'express',
  'better-sqlite3',
  'pg',
  'kysely',
];

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/node_modules/**', '**/.turbo/**', '**/generated/**', 'coverage/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
  {
    // The core runs in browsers too: no Node built-ins, no I/O libraries.
    files: ['packages/core/src/**/*.ts', 'packages/browser/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: nodeOnly, message: 'packages/core is pure: pass I/O in.' }] },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'process', message: 'packages/core is pure: pass configuration in.' },
        { name: 'Buffer', message: 'Use Uint8Array in packages/core.' },
      ],
    },
  },
  {
    // A server service knows no HTTP (docs/architecture.md): plain inputs in, results or a code
    // of its interface's problems.ts out; its routes read requests and write answers.
    files: ['apps/server/src/*/service/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['express', 'express/*', 'express-*', '**/http/*', '**/http/**'],
              message: 'A service knows no HTTP: refuse with a code of ../problems.js.',
            },
            {
              group: ['**/routes/*', '**/openapi/*', '**/auth/*'],
              message: 'A service is called by routes, never the other way round.',
            },
          ],
        },
      ],
    },
  },
);
