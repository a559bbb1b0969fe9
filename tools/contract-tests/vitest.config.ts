import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Prints the per-contract summary line once every file has run.
    globalSetup: ['./test/support/summary-setup.ts'],
  },
});
