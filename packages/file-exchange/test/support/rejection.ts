import { expect } from 'vitest';
import type { FileExchangeError } from '../../src/index.js';

/** What `call` rejects with (the tests then check its class); the test fails if it resolves. */
export const rejectionOf = (call: Promise<unknown>): Promise<FileExchangeError> =>
  call.then(
    () => expect.fail('the call was to fail'),
    (error: unknown) => error as FileExchangeError,
  );
