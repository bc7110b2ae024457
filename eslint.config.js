import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { boundariesConfig } from './eslint.boundaries.js';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'release/', 'test/e2e/screenshots/', '**/*.d.ts', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  boundariesConfig,
  {
    languageOptions: {
      globals: { console: 'readonly', process: 'readonly', Buffer: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', setImmediate: 'readonly', queueMicrotask: 'readonly', TextEncoder: 'readonly', TextDecoder: 'readonly', AbortController: 'readonly', AbortSignal: 'readonly', fetch: 'readonly', structuredClone: 'readonly', performance: 'readonly', crypto: 'readonly' },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
);
