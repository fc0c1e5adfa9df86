// The peers (bench/page-load.ts) are apps of their own: their build output and installs are not linted,
// and their sources are browser modules. ESLint uses the config nearest to each file, so this one, not
// the root's, applies under bench/peers/.
import js from '@eslint/js';
import globals from 'globals';

export default [
  { ignores: ['*/dist/**', '*/node_modules/**'] },
  js.configs.recommended,
  {
    files: ['**/*.{js,mjs,jsx}'],
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      parserOptions: { ecmaFeatures: { jsx: true } },
      globals: { ...globals.browser, ...globals.node },
    },
  },
];
