import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: [
      // One Prism per REST contract and one set of test certificates for the whole run.
      './test/support/mocks-setup.ts',
      // Prints the per-contract summary line once every file has run.
      './test/support/summary-setup.ts',
    ],
  },
});
