import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The fixtures break the rules on purpose: they are read by the tests, never run.
    exclude: ['test/fixtures/**'],
  },
});
