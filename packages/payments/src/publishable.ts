// The browser-safe entry: the publishable operations only, nothing that needs Node.
export { createPublishableClient, type PublishableClient, type PublishableClientOptions } from './client/publishable-client.js';
export type { ClientOptions, RetryPolicy, Hook, RequestLog, ResponseLog, ErrorLog } from './client/config.js';
export type { ApiResult } from './client/api-result.js';
export type { Page } from './client/page.js';
export {
  PaymentsError,
  isPaymentsError,
  type AnyPaymentsError,
  type PaymentsErrorKind,
  type FieldError,
} from './errors/payments-error.js';
