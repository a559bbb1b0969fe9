import type { RestContract, TestCertificates } from '@paykit/mock-server';
import { inject } from 'vitest';
import type { SharedPrism } from './mocks-setup.js';

/** The run's Prism on a REST contract (started once by test/support/mocks-setup.ts). */
export const sharedPrism = (contract: RestContract): SharedPrism => inject('prism')[contract];

/** The run's test certificates: a CA, a server certificate, a client certificate and a foreign one. */
export const sharedCertificates = (): TestCertificates => inject('certificates');
