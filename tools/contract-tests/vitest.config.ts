import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Prints the per-contract summary line once every file has run.
    globalSetup: ['./test/support/summary-setup.ts'],
  },
});
