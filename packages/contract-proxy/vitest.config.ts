import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One payments sandbox for the whole suite (files create their own data in it; none resets it).
    globalSetup: ['./test/support/sandbox-setup.ts'],
  },
});
