import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    exclude: ['node_modules', 'dist', 'test/e2e/**'],
    // Tests start real servers, ptys, child processes and browsers, three files at once on a shared
    // 2-core machine: a guard against a hang, not a measure (a designer test once took over 60 s).
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    globalSetup: ['test/fixtures/test-run.ts'],
    // Most of a test's time is spent waiting on paced simulated wires, child processes and a
    // browser, not on the CPU: three files at once on two cores take the suite from about 25
    // minutes (vitest's default here is one worker) to well under 20. Tests share no fixed port,
    // directory or database (each file makes its own), so they may run side by side.
    maxWorkers: 3,
    passWithNoTests: true,
  },
});
