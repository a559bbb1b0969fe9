import { defineConfig } from 'vitest/config';

// vitest's default timeouts: the unit tests answer in seconds. test/release.test.ts, end to end, sets its own.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
  },
});
