import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The tests run the sources under Node: package.json's `imports` give Node's platform module (built into dist/),
  // whose source is this one. test/platform-builds.test.ts bundles both platforms from package.json.
  resolve: { alias: { '#platform': fileURLToPath(new URL('./src/platform/node.ts', import.meta.url)) } },
  test: {
    include: ['test/**/*.test.ts'],
    // vitest's default timeouts (5 s per test, 10 s per hook): a file that needs longer says why and sets its own.
    // The type tests (*.test-d.ts) run with the others: `vitest run` type-checks them with tsc.
    typecheck: {
      enabled: true,
      include: ['test/**/*.test-d.ts'],
      tsconfig: './tsconfig.test.json',
    },
  },
});
