import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The set-up (copy, install, build, publish, npm and pnpm installs and their type checks, one Yarn install per
    // package and flavour) runs once, in beforeAll.
    hookTimeout: 75 * 60_000,
    testTimeout: 120_000,
  },
});
