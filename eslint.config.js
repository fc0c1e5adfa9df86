// Lint with import boundaries (docs/architecture.md, Layers): ui → machines → api/domain → generated, no cycles;
// the server's floors import only downward (docs/architecture.md, The server's floors).
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

// The server's floors (docs/architecture.md, The server's floors), lowest first. Every folder of
// server/src is named in exactly one list; a new folder is covered by naming it in one.
const serverBase = ['base'];
const serverAccess = ['access'];
const serverDb = ['db'];
// Resources, in the order they may import each other: each imports only those named before it, so no two
// resource folders import each other.
const serverResources = [
  'audit',
  'mail',
  'auth',
  'bulk',
  'tenants',
  'users',
  'support',
  'roles',
  'departments',
  'instances',
  'webhooks',
  'undo',
  'reports',
  'health',
  'views',
  'attention',
];
// Adapters, and the root files (app.ts, main.ts, services.ts…) with them.
const serverAdapters = ['rest', 'graphql', 'plugins', 'tooling', 'demo-activity'];
// Tests only: no production file imports them.
const serverTests = ['test-support', 'parity', 'security', 'concurrency', 'reliability'];
const serverTestFiles = ['server/src/**/*.test.ts', 'server/src/**/*.reliability.ts'];

const serverFolders = [serverBase, serverAccess, serverDb, serverResources, serverAdapters, serverTests].flat();
for (const folder of new Set(serverFolders)) {
  if (serverFolders.indexOf(folder) !== serverFolders.lastIndexOf(folder))
    throw new Error(`server/src/${folder} is on two floors: name it in one server list in eslint.config.js.`);
}
const holdsTypeScript = (dir) =>
  readdirSync(dir, { withFileTypes: true }).some((entry) =>
    entry.isDirectory() ? holdsTypeScript(new URL(`${entry.name}/`, dir)) : entry.name.endsWith('.ts'),
  );
for (const entry of readdirSync(new URL('./server/src', import.meta.url), { withFileTypes: true })) {
  if (entry.isDirectory() && !serverFolders.includes(entry.name)) {
    if (holdsTypeScript(new URL(`./server/src/${entry.name}/`, import.meta.url)))
      throw new Error(
        `server/src/${entry.name} is on no floor: name it in one of the server lists in eslint.config.js.`,
      );
  }
}

const serverDir = (folder) => `./server/src/${folder}`;
const serverGlobs = (folders) => folders.map((folder) => `./server/src/${folder}/**`);
const adapterGlobs = [...serverGlobs(serverAdapters), './server/src/*.ts'];

const serverFloorZones = [
  {
    target: serverBase.map(serverDir),
    from: serverGlobs([...serverAccess, ...serverDb, ...serverResources]).concat(adapterGlobs),
    message: 'Floor 1 (server/src/base) imports nothing of the server above it: move what it needs down into base.',
  },
  {
    target: serverAccess.map(serverDir),
    from: serverGlobs([...serverDb, ...serverResources]).concat(adapterGlobs),
    message:
      'Floor 2: server/src/access imports only base (no database, no resource, no adapter): move what it needs down, or take it as an argument.',
  },
  {
    target: serverDb.map(serverDir),
    from: serverGlobs([...serverAccess, ...serverResources]).concat(adapterGlobs),
    message: 'Floor 2: server/src/db imports only base: move what it needs down into base.',
  },
  {
    target: serverResources.map(serverDir),
    from: adapterGlobs,
    message:
      'Floor 3 (resources) may not import floor 4 (rest, graphql, plugins, tooling, demo-activity, the root files): adapters call services, never the reverse.',
  },
  ...serverResources.slice(0, -1).map((resource, index) => ({
    target: serverDir(resource),
    from: serverGlobs(serverResources.slice(index + 1)),
    message:
      'A resource imports only the resources named before it in serverResources (eslint.config.js), so no two import each other: move what both need down a floor, or into the resource that owns it.',
  })),
  {
    target: './server/src',
    from: [...serverGlobs(serverTests), ...serverTestFiles.map((glob) => `./${glob}`)],
    message:
      'Production code never imports test support (server/src/test-support, parity, security, concurrency, reliability, *.test.ts).',
  },
];

// Zones every file obeys. A later block that sets the rule again replaces its zones, so it repeats these.
const sharedZones = [
  ...screenFeatures.map((feature) => ({
    target: `./src/ui/screens/${feature}`,
    from: './src/ui/screens',
    except: [`./${feature}`],
    message: 'A screen may not import another screen: move what both use to src/ui/components or src/ui/hooks.',
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
];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'packages/*/dist/**',
      'packages/*/contracts/**',
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
    rules: { 'import-x/no-restricted-paths': ['error', { zones: sharedZones }] },
  },
  {
    // The server's floors bind its production files; tests sit beside them and may import any floor.
    files: ['server/src/**/*.ts'],
    ignores: [...serverGlobs(serverTests).map((glob) => glob.slice(2)), ...serverTestFiles],
    rules: { 'import-x/no-restricted-paths': ['error', { zones: [...sharedZones, ...serverFloorZones] }] },
  },
);
