import type { TestCertificates } from '@paykit/file-exchange-mock';
import type { SharedPrism } from './shared-prism.js';
// The augmentation below needs vitest's module in the program first.
import type {} from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The suite's test CA, server and client certificates (read them with `inject('certificates')`). */
    certificates: TestCertificates;
    /** A second, unrelated set: another CA, for a client that trusts the wrong one. */
    otherCertificates: TestCertificates;
    /** The run's Prism on each REST contract, by contract name (see `startSharedPrisms`). */
    prism: Record<string, SharedPrism>;
  }
}
