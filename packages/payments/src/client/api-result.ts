/** What every successful method call resolves to. */
export interface ApiResult<T> {
  data: T;
  status: number;
  headers: Headers;
  /** The `Idempotency-Key` sent with a POST (the same on every retry). */
  idempotencyKey: string | undefined;
  /** How many times the request was sent. */
  attempts: number;
}
