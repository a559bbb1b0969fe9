import type { Generator } from '../contracts.ts';
import { paymentsOperationsGenerator } from './payments-operations.ts';
import { paymentsValidationGenerator } from './payments-validation.ts';
import { paymentsWebhooksGenerator } from './payments-webhooks.ts';

/** Everything the @paykit/payments runtime reads from the spec: operation tables, request checks, webhook events. */
export const paymentsClientGenerators: Generator[] = [
  paymentsOperationsGenerator,
  paymentsValidationGenerator,
  paymentsWebhooksGenerator,
];
