import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Every case starts the Redocly CLI (about a second each on a shared 2-core machine).
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
