import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { boundariesConfig, hostsEntryConfig } from './eslint.boundaries.js';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'release/', 'test/e2e/screenshots/', '**/*.d.ts', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  boundariesConfig,
  hostsEntryConfig,
  {
    languageOptions: {
      globals: {
        console: 'readonly',
        process: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        queueMicrotask: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        fetch: 'readonly',
        structuredClone: 'readonly',
        performance: 'readonly',
        crypto: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  {
    // The renderer takes types only from the contract: its values are zod schemas the page has no
    // use for (main parses every input), and they would bring zod into the bundle.
    files: ['renderer/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)contract(/|$)',
              allowTypeImports: true,
              message:
                'The renderer imports contract types only (import type): values belong in domain/ or the renderer.',
            },
          ],
        },
      ],
    },
  },
);
