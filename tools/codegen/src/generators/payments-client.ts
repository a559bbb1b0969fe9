import type { Generator } from '../generator.js';
import { paymentsOperationsGenerator } from './payments-operations.js';
import { paymentsSensitiveFieldsGenerator } from './payments-sensitive-fields.js';
import { paymentsValidationGenerator } from './payments-validation.js';
import { paymentsWebhooksGenerator } from './payments-webhooks.js';

/**
 * Everything the @paykit/payments runtime reads from the spec: operation tables, request checks, webhook events, the
 * sensitive fields its errors mask.
 */
export const paymentsClientGenerators: Generator[] = [
  paymentsOperationsGenerator,
  paymentsValidationGenerator,
  paymentsWebhooksGenerator,
  paymentsSensitiveFieldsGenerator,
];
