import { defineConfig } from 'vitest/config';

// vitest's default timeouts (5 s a test, 10 s a hook): a file that needs longer says why in its first lines.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Test certificates are made once per run (RSA keys take a second or more on a loaded machine), not per file.
    globalSetup: ['@paykit/test-support/global-certificates'],
  },
});
