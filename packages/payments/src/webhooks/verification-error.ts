/** Why a notification was refused. */
export type WebhookFailure =
  | 'missing-signature'
  | 'malformed-signature'
  | 'timestamp-outside-tolerance'
  | 'signature-mismatch'
  | 'parsed-body'
  | 'malformed-body'
  | 'unknown-event-type';

/** The only error the webhook helpers throw for a notification they refuse. It never holds the secret. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  constructor(
    readonly reason: WebhookFailure,
    message: string,
  ) {
    super(message);
  }
}
