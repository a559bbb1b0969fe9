import type { Generator } from '../generator.js';
import { paymentsOperationsGenerator } from './payments-operations.js';
import { paymentsValidationGenerator } from './payments-validation.js';
import { paymentsWebhooksGenerator } from './payments-webhooks.js';

/** Everything the @paykit/payments runtime reads from the spec: operation tables, request checks, webhook events. */
export const paymentsClientGenerators: Generator[] = [
  paymentsOperationsGenerator,
  paymentsValidationGenerator,
  paymentsWebhooksGenerator,
];
