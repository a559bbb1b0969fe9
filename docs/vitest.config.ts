import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Browser pages and the TypeScript compiler are slow on a shared 2-core machine.
    testTimeout: 180_000,
    hookTimeout: 120_000,
  },
});
