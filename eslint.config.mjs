import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import lit from 'eslint-plugin-lit';
import wc from 'eslint-plugin-wc';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'storybook-static/',
      'public/',
      '.bench/',
      'custom-elements.json',
      'openapi.json',
      'src/localize/generated/',
      'test/fixtures/',
      'docs/.vitepress/cache/',
      'docs/.vitepress/dist/',
      'docs/public/mockServiceWorker.js',
      'docs/public/live/',
    ],
  },
  {
    // Scripts, configs and Node tests: plain JavaScript on Node, checked without type information.
    files: ['**/*.mjs'],
    extends: [js.configs.recommended],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  {
    files: ['**/*.ts'],
    extends: [...tseslint.configs.strictTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      // Lit decorators declare fields the base class reads; `!` on querySelector results in tests is deliberate.
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unnecessary-type-parameters': 'off',
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
      // `const { dropped, ...kept } = value` is how a field is left out.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
    },
  },
  {
    files: ['src/**/*.ts'],
    extends: [lit.configs['flat/recommended'], wc.configs['flat/recommended']],
  },
  {
    // The server stays in small files, each about one thing (issue 37).
    files: ['server/src/**/*.ts'],
    rules: { 'max-lines': ['error', { max: 300 }] },
  },
  {
    files: ['**/*.test.ts', 'test/**/*.ts'],
    rules: {
      // chai's `expect(x).to.be.true`-style members and async mocha callbacks.
      '@typescript-eslint/no-unused-expressions': 'off',
      '@typescript-eslint/no-floating-promises': 'off',
    },
  },
  {
    // Server tests read JSON answers as a client does (untyped) and assert on what they read.
    files: ['server/test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
);
