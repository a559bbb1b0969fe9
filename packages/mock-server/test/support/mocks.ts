import type { SharedPrism } from '@paykit/test-support';
import { inject } from 'vitest';
import type { RestContract } from '../../src/index.js';

/** The run's Prism on a REST contract (started once by test/support/mocks-setup.ts). */
export const sharedPrism = (contract: RestContract): SharedPrism => inject('prism')[contract]!;
