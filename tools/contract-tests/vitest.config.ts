import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: [
      // One set of test certificates and one Prism per REST contract for the whole run.
      '@paykit/test-support/global-certificates',
      './test/support/mocks-setup.ts',
      // Prints the per-contract summary line once every file has run.
      './test/support/summary-setup.ts',
    ],
  },
});
