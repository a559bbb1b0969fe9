import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The set-up (copy, install, build, publish, eight installs, sixteen type checks) runs once, in beforeAll.
    hookTimeout: 20 * 60_000,
    testTimeout: 120_000,
  },
});
