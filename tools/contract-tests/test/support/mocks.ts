import type { RestContract, TestCertificates } from '@paykit/mock-server';
import type { SharedPrism } from '@paykit/test-support';
import { inject } from 'vitest';

/** The run's Prism on a REST contract (started once by test/support/mocks-setup.ts). */
export const sharedPrism = (contract: RestContract): SharedPrism => inject('prism')[contract]!;

/** The run's test certificates (made once by @paykit/test-support/global-certificates): a CA, a server certificate, a client certificate. */
export const sharedCertificates = (): TestCertificates => inject('certificates');
