import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // vitest's default timeouts (5 s per test, 10 s per hook): a file that needs longer says why and sets its own.
    // The type tests (*.test-d.ts) run with the others: `vitest run` type-checks them with tsc.
    typecheck: {
      enabled: true,
      include: ['test/**/*.test-d.ts'],
      tsconfig: './tsconfig.json',
    },
  },
});
