import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One Prism per REST contract for the whole run.
    globalSetup: ['./test/support/mocks-setup.ts'],
  },
});
