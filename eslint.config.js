// Lint with import boundaries (docs/architecture.md, Layers): ui → machines → api/domain → generated, no cycles.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const restricted = (patterns) => ['error', { patterns }];

// Each folder under src/ui/screens is one feature; what two features share lives in src/ui/components or
// src/ui/hooks (docs/architecture.md).
const screenFeatures = readdirSync(new URL('./src/ui/screens', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'src/generated/**',
      'coverage/**',
      '.data/**',
      'test-results/**',
      '.scratch/**',
      'playwright-report/**',
      'screenshots/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { parserOptions: { ecmaVersion: 2023, sourceType: 'module' } },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [importX.createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] })],
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'separate-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-self-import': 'error',
    },
  },
  {
    files: ['**/*.{js,mjs}'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Views render machine state; they never call the API or touch generated clients.
    files: ['src/ui/**/*.{ts,tsx}', 'src/app/main.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': restricted([
        {
          group: ['**/api', '**/api/*', '**/generated', '**/generated/*'],
          message: 'Views may not import src/api or src/generated: read machines with useSelector and send events.',
        },
      ]),
    },
  },
  {
    // Code loaded on demand goes through src/ui/components/lazy-with-timeout.tsx: every chunk has the
    // timeout of docs/product.md (Errors) and a failure shows an error with a retry.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}', 'src/test-support/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.name='lazy'], CallExpression[callee.property.name='lazy']",
          message:
            'Use lazyPart (a part of a screen) or lazyWithTimeout (a screen) from src/ui/components/lazy-with-timeout.tsx.',
        },
        {
          selector:
            'ImportExpression:not(CallExpression[callee.name=/^(lazyPart|lazyWithTimeout|importWithTimeout|guardedLazy)$/] ImportExpression)',
          message:
            'Load a chunk through lazyPart, lazyWithTimeout or importWithTimeout (src/ui/components/lazy-with-timeout.tsx): a bare import() has no timeout and no retry.',
        },
      ],
    },
  },
  {
    // Machines are framework-free: all I/O in actors that receive clients through input.
    files: ['src/machines/**/*.ts'],
    rules: {
      'no-restricted-imports': restricted([
        {
          group: ['react', 'react-dom', 'react-dom/*', '@xstate/react', 'react-i18next', 'wouter', 'wouter/*'],
          message: 'Machines may not import React.',
        },
        { group: ['**/ui', '**/ui/*'], message: 'Machines may not import views.' },
      ]),
    },
  },
  {
    // Pure domain: no I/O layers above or beside it.
    files: ['src/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': restricted([
        {
          group: ['**/api', '**/api/*', '**/machines', '**/machines/*', '**/ui', '**/ui/*', 'react', 'xstate'],
          message: 'src/domain holds pure functions only.',
        },
      ]),
    },
  },
  {
    files: ['src/api/**/*.ts'],
    rules: {
      'no-restricted-imports': restricted([
        {
          group: ['**/machines', '**/machines/*', '**/ui', '**/ui/*', 'react', 'xstate'],
          message: 'src/api sits below machines and views.',
        },
      ]),
    },
  },
  {
    // Feature folders and the server/browser line, by resolved path rather than by import text.
    files: ['**/*.{ts,tsx}'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...screenFeatures.map((feature) => ({
              target: `./src/ui/screens/${feature}`,
              from: './src/ui/screens',
              except: [`./${feature}`],
              message:
                'A screen may not import another screen: move what both use to src/ui/components or src/ui/hooks.',
            })),
            {
              target: './server',
              from: ['./src/ui', './src/machines', './src/api', './src/app'],
              message: 'The server may import only src/domain, src/generated and src/i18n from the browser side.',
            },
            {
              target: ['./src/ui', './src/machines', './src/api', './src/domain'],
              from: './server',
              message: 'Browser code may not import the server.',
            },
          ],
        },
      ],
    },
  },
);
