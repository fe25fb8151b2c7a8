// ESLint's configuration for the web pages (crates/boardlab/web: plain ES modules run by the browser) and the
// browser tests (e2e/tests: run by node). `npm run lint` here; .ci/run runs it.
import js from '@eslint/js';
import globals from 'globals';

const rules = {
  'no-unused-vars': ['error', { args: 'none', caughtErrors: 'none' }],
  eqeqeq: ['error', 'always'],
  'no-var': 'error',
  'prefer-const': 'error',
};

export default [
  // Paths are relative to crates/boardlab, where `npm run lint` runs eslint with this file as its config.
  { ignores: ['e2e/node_modules/**'] },
  { ...js.configs.recommended, files: ['web/**/*.js', 'e2e/**/*.js'] },
  {
    files: ['web/**/*.js'],
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: globals.browser },
    rules,
  },
  {
    files: ['e2e/**/*.js'],
    // The tests run in node; the functions they hand to the page run in the browser.
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: { ...globals.node, ...globals.browser } },
    rules,
  },
];
