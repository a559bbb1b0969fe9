/**
 * Options a webhook helper cannot work with safely: an empty or missing secret (anybody could sign a notification),
 * a tolerance that turns the timestamp check off... Thrown when the helper is set up or called, never because of a
 * notification. It never holds the secret.
 */
export class WebhookConfigurationError extends Error {
  override readonly name = 'WebhookConfigurationError';
  constructor(
    /** The option at fault, for example `secret` or `toleranceMs`. */
    readonly option: string,
    message: string,
  ) {
    super(message);
  }
}
