import { defineConfig } from 'vitest/config';

// vitest's default timeouts (5 s a test, 10 s a hook): a unit test that hangs fails fast. The end-to-end files (a real
// PostgreSQL, killed processes) say so in their first lines and set their own. PostgreSQL is started once for the
// suite (test/support/postgres-global-setup.ts); each file that needs it makes databases of its own on it. The
// dashboard's browser tests share one Chromium and one packed payments client (test/dashboard/support/).
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/postgres-global-setup.ts', 'test/dashboard/support/browser-global-setup.ts'],
  },
});
