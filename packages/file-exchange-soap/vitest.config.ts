import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// vitest's default timeouts (5 s a test, 10 s a hook): a file that needs longer says why in its first lines.
export default defineConfig({
  resolve: {
    // @paykit/file-exchange/core is no entry point of that package: in the workspace it is its build's
    // dist/core/index.js, which shares its chunk (so its classes) with the main entry the tests import (tsconfig.json
    // `paths` says the same to TypeScript and to the tsx children); the published bundle inlines it from source.
    alias: [{ find: /^@paykit\/file-exchange\/core$/, replacement: fileURLToPath(new URL('../file-exchange/dist/core/index.js', import.meta.url)) }],
  },
  test: {
    include: ['test/**/*.test.ts'],
    // Test certificates are made once per run (RSA keys take a second or more on a loaded machine), not per file.
    globalSetup: ['@paykit/test-support/global-certificates'],
  },
});
