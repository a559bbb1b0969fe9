import { defineConfig } from 'vitest/config';

// vitest's default timeouts for every file: a file that needs longer (a browser, the compiler, a real Prism or
// processes) says so in its first lines (`// end-to-end: <reason>`) and sets its own.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One served site and one Chromium for the whole suite; the browser files connect to it.
    globalSetup: ['./test/support/global-setup.ts'],
  },
});
