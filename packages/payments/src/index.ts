export type { components, operations, paths, webhooks } from './generated/openapi.js';
export { createSecretClient, type PaymentsClient, type PaymentsClientOptions } from './client/secret-client.js';
export { createPublishableClient, type PublishableClient, type PublishableClientOptions } from './client/publishable-client.js';
export { baseUrlVariable, type ClientOptions, type RetryPolicy, type Hook, type RequestLog, type ResponseLog, type ErrorLog } from './client/config.js';
export type { PreparedRequest, RequestCheck } from './client/core.js';
export type { ApiResult } from './client/api-result.js';
export type { Page } from './client/page.js';
export {
  PaymentsError,
  isPaymentsError,
  errorKindOfStatus,
  type AnyPaymentsError,
  type ErrorKindStatus,
  type PaymentsErrorKind,
  type FieldError,
  type ErrorBody,
} from './errors/payments-error.js';
export {
  recoverTransaction,
  settleTransaction,
  transactionOutcome,
  type RecoverOptions,
  type RecoveredTransaction,
  type UnknownOutcome,
  type SettleOptions,
  type SettledTransaction,
  type TransactionOutcome,
} from './transactions/settlement.js';
export {
  idempotencyKeyRule,
  publishableKeyOperations,
  secretKeyOperations,
  type IdempotencyKeyRule,
  type OperationSpec,
} from './generated/operations.js';
