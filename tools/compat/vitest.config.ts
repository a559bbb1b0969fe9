import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    // The demonstration's set-up snapshots all three contracts through the CLI: as slow as a test on a busy machine.
    hookTimeout: 120_000,
  },
});
