import { readPaymentsRules } from '@paykit/contracts';
import type { Generator } from '../generator.js';
import { rulesModule } from './rules-module.js';

/**
 * The payments rules (retries, idempotency, limits) as a module of the package at `path`; `eachValue` for a client
 * whose browser bundle is budgeted (see rulesModule).
 */
export const paymentsRulesGenerator =
  (path: string, options?: { eachValue?: boolean }): Generator =>
  ({ document, specPath }) => [{ path, content: rulesModule(specPath, readPaymentsRules(document), options) }];
