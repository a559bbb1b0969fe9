import type { components } from '../generated/openapi.js';
// The rules' values by name, each a constant of its own: a bundle inlines the numbers and booleans.
import { idempotencyKeyLifetimeMs, mustNotResendStatuses, mustQueryStateStatuses, retryStatuses } from '../generated/rules.js';
import { maskCardNumbers, maskCardNumbersIn, redactHeaders } from './redaction.js';

export type FieldError = components['schemas']['FieldError'];
export type ErrorBody = components['schemas']['Error'];

/**
 * What went wrong, one kind per way a caller reacts: `configuration` refuses a client option when the client is made,
 * `input` a call before anything is sent; the HTTP kinds follow the status; `network`, `timeout` and `aborted` mean no
 * answer arrived, `proxyRefused` that the caller's proxy would not pass the request on; `protocol`, that the answers
 * make no sense.
 */
export interface ErrorKindStatus {
  /** A client option that cannot work (its name in `option`): NaN, Infinity, a negative number, an empty key... */
  configuration: undefined;
  input: undefined;
  validation: 422;
  authentication: 401;
  permission: 403;
  notFound: 404;
  conflict: 409;
  rateLimit: 429;
  /** Any 5xx. */
  server: number;
  /** Any other 3xx or 4xx: malformed request (400), method (405), media type (406, 415)... */
  request: number;
  network: undefined;
  timeout: undefined;
  aborted: undefined;
  /** The proxy's status: 407 (its credentials are missing or wrong) or 403 (it refuses the tunnel). Never resent. */
  proxyRefused: 407 | 403;
  /** The answers break the API's rules: a list whose `next` link leads back to a page already read. */
  protocol: undefined;
}
export type PaymentsErrorKind = keyof ErrorKindStatus;

const kindByStatus: Readonly<Record<number, PaymentsErrorKind>> = {
  401: 'authentication',
  403: 'permission',
  404: 'notFound',
  // The service never answers 407: only a proxy in between does (one that forwards plain HTTP rather than tunnelling).
  407: 'proxyRefused',
  409: 'conflict',
  422: 'validation',
  429: 'rateLimit',
};

/** Whether one of the spec's status rules (its `statuses`) names this status (no status: none does). */
function ruleCovers(statuses: readonly (number | undefined)[], status: number | undefined): boolean {
  return statuses.includes(status);
}

export function errorKindOfStatus(status: number): PaymentsErrorKind {
  return kindByStatus[status] ?? (status >= 500 ? 'server' : 'request');
}

export interface PaymentsErrorDetails<K extends PaymentsErrorKind> {
  kind: K;
  message: string;
  status?: ErrorKindStatus[K];
  method?: string;
  url?: string;
  body?: unknown;
  fieldErrors?: FieldError[];
  idempotencyKey?: string;
  attempts?: number;
  location?: string;
  option?: string;
  /** The answer's headers; kept with the credential headers (`set-cookie`...) redacted. */
  headers?: Headers | Record<string, string> | undefined;
  receiptNumber?: string | undefined;
  /**
   * The request may have been carried out without its answer reaching the client (a lost answer, a deadline): the
   * outcome is unknown. Otherwise it follows from `status` (the spec's `mustQueryState` rule).
   */
  mustQueryState?: boolean;
  /** When the call that sent `idempotencyKey` began (ms since the epoch): the start of the key's lifetime at most. */
  sentAt?: number;
  /** Kept from an earlier error of the same key, when this one copies it. */
  resendUntil?: string | undefined;
  cause?: unknown;
}

/**
 * The one error the client throws. `kind` tells the cases apart (narrow on it after `isPaymentsError`); every field
 * comes from the request or the service's answer, and the API key is never among them. It carries what the reference
 * asks merchants to give support (method, URL, date and time, response body) and the answer's headers, in `toJSON`
 * too; digit runs as long as a card number are masked wherever the service echoes them.
 */
export class PaymentsError<K extends PaymentsErrorKind = PaymentsErrorKind> extends Error {
  override readonly name = 'PaymentsError';
  // Declared, not defined: the constructor assigns every field (a field definition would only add bytes to bundles).
  declare readonly kind: K;
  declare readonly status: ErrorKindStatus[K];
  /** Method and URL of the request that failed (absent for `input` errors raised before building one). */
  declare readonly method: string | undefined;
  declare readonly url: string | undefined;
  /** From the service's error body. `customerMessage` is fit to show to the paying customer. */
  declare readonly customerMessage: string | undefined;
  declare readonly developerMessage: string | undefined;
  /** Per-field problems: from the service on 422, or from the client's own checks on `input`. */
  declare readonly fieldErrors: readonly FieldError[];
  /** The `Idempotency-Key` that was sent (on every attempt), to resend the same request safely. */
  declare readonly idempotencyKey: string | undefined;
  /** How many times the request was sent. */
  declare readonly attempts: number;
  /** The parsed error body (or its text when it was not JSON). */
  declare readonly body: unknown;
  /** For a redirect (3xx, never followed): the address the service points to, from its `Location` header. */
  declare readonly location: string | undefined;
  /** For `configuration`: the client option at fault, such as `retry.maxRetries` (its value is never echoed). */
  declare readonly option: string | undefined;
  /** The answer's headers (the service's `Date` among them), credentials redacted; absent when no answer came. */
  declare readonly headers: Readonly<Record<string, string>> | undefined;
  /** When the client raised the error (ISO 8601, UTC): the date and time support asks for. */
  declare readonly occurredAt: string;
  /**
   * The transaction the call created, when it got that far (`settleTransaction`): the payment may be taken, so look
   * it up by this receipt number (and `idempotencyKey`) rather than pay again.
   */
  declare readonly receiptNumber: string | undefined;
  /**
   * The outcome is unknown: the service may have carried the request out (a payment taken) without the answer
   * reaching the client (no answer, or one after the deadline), or the spec's `mustQueryState` rule says so of its
   * status (500, 502, 504). Do not take the payment again before you know: resend it with `idempotencyKey` before
   * `resendUntil` (`recoverTransaction` does), or look the resource up.
   */
  declare readonly mustQueryState: boolean;
  /**
   * Until when (ISO 8601) a resend with `idempotencyKey` gets the original outcome from the service, when the outcome
   * is unknown because no answer came: the key's lifetime counted from the start of the call that sent it.
   */
  declare readonly resendUntil: string | undefined;

  constructor(details: PaymentsErrorDetails<K>) {
    const { idempotencyKey, sentAt } = details;
    // An outcome that became unknown here (a copy of an error, made with its fields, has no `sentAt`: it said so).
    const unknown = details.mustQueryState && sentAt !== undefined;
    const advice = details.status === undefined && unknown ? unknownOutcome(idempotencyKey) : '';
    super(maskCardNumbers(details.message + advice), details.cause === undefined ? undefined : { cause: details.cause });
    // The body is whatever the service sent: every field is read as the type it is declared with, or left out. Card
    // numbers it echoes (a 422's `fieldValue`) are masked before anything reads it.
    const body = maskCardNumbersIn(details.body);
    const errorBody = fieldsOf(body);
    this.kind = details.kind;
    this.status = details.status as ErrorKindStatus[K];
    this.method = details.method;
    this.url = details.url && maskCardNumbers(details.url);
    this.customerMessage = text(errorBody.customerMessage);
    this.developerMessage = text(errorBody.developerMessage);
    this.fieldErrors = maskCardNumbersIn(details.fieldErrors) ?? fieldErrorsOf(errorBody.errors);
    this.idempotencyKey = idempotencyKey;
    this.attempts = details.attempts ?? 0;
    this.body = body;
    this.location = details.location;
    this.option = details.option;
    this.headers = details.headers && redactHeaders(details.headers);
    this.occurredAt = new Date().toISOString();
    this.receiptNumber = details.receiptNumber;
    this.mustQueryState = details.mustQueryState || ruleCovers(mustQueryStateStatuses, details.status);
    this.resendUntil = unknown && idempotencyKey ? new Date(sentAt! + idempotencyKeyLifetimeMs).toISOString() : details.resendUntil;
  }

  /** Every field above (they are the error's own enumerable properties) and the message; never the cause. */
  toJSON() {
    return { ...this, message: this.message };
  }
}

/** The properties of a parsed body, or none when it is not an object (text, an array, null...). */
function fieldsOf(body: unknown): Record<string, unknown> {
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * The `errors` of an error body as FieldErrors, whatever was sent: items that are not objects are dropped, and of the
 * others the known fields of another type (a number or boolean `fieldValue` is kept as text) and messages that are
 * not strings. Any other property is kept as it came: the service may add some within v1.
 */
function fieldErrorsOf(errors: unknown): FieldError[] {
  return Array.isArray(errors)
    ? errors
        .filter((item) => item?.constructor === Object)
        .map(({ fieldName, fieldValue, messages, ...fieldError }: Record<string, unknown>) => ({
          ...fieldError,
          ...(typeof fieldName === 'string' && { fieldName }),
          ...(['string', 'number', 'boolean'].includes(typeof fieldValue) && { fieldValue: String(fieldValue) }),
          ...(Array.isArray(messages) && { messages: messages.filter((message) => typeof message === 'string') }),
        }))
    : [];
}

/** A PaymentsError of any kind, as a union that narrows on `kind` (and so on `status`). */
export type AnyPaymentsError = { [K in PaymentsErrorKind]: PaymentsError<K> }[PaymentsErrorKind];

/**
 * Whether `value` is a PaymentsError: of this copy of the package, of another one installed beside it (another class,
 * the same name and kind), or the JSON of one (`toJSON()`, which `structuredClone` and `postMessage` keep whole; they
 * keep only the message and stack of an Error itself).
 */
export function isPaymentsError(value: unknown): value is AnyPaymentsError {
  return value instanceof PaymentsError || ((value as PaymentsError | null)?.name === 'PaymentsError' && typeof (value as PaymentsError).kind === 'string');
}

/** What to do about an outcome that is unknown; `idempotencyKey` when a resend with it gets the original outcome. */
function unknownOutcome(idempotencyKey: string | undefined): string {
  return ` The outcome is unknown: do not take the payment again before you know; query the resource for its state${
    idempotencyKey ? `, or resend with the same Idempotency-Key (${idempotencyKey}) within ${idempotencyKeyLifetimeMs / 3_600_000} h` : ''
  }.`;
}

/**
 * Advice the reference's client rules give per status (from the spec), added to the message so that logs carry it,
 * and for an answer after an attempt whose answer was lost (`unknown`), what to do about its outcome.
 */
function adviceFor(status: number, headers: Headers | undefined, unknown: boolean | undefined, idempotencyKey: string | undefined): string {
  // Quoted only when it has the form of a Retry-After (seconds or an HTTP date): the value is the service's.
  const retryAfter = headers?.get('retry-after');
  const advice = ruleCovers(mustNotResendStatuses, status)
    ? ' Do not resend: part of the work may have been done.'
    : ruleCovers(retryStatuses, status)
      ? ` Retries were exhausted; resend${retryAfter && /^[\w ,:-]{1,40}$/.test(retryAfter) ? ` after Retry-After: ${retryAfter},` : ' later'} with the same Idempotency-Key.`
      : '';
  return unknown || ruleCovers(mustQueryStateStatuses, status) ? advice + unknownOutcome(unknown ? idempotencyKey : undefined) : advice;
}

/** Where a redirect (3xx) points: its `Location`, resolved against the request's address. */
function redirectLocation(status: number, headers: Headers | undefined, url: string): string | undefined {
  const location = status > 299 && status < 400 ? headers?.get('location') : undefined;
  if (!location) return undefined;
  try {
    return new URL(location, url).href;
  } catch {
    return location;
  }
}

export function errorFromResponse(input: {
  /** Else the status's (a success that is not the operation's answer is a `protocol` error). */
  kind?: PaymentsErrorKind;
  status: number;
  method: string;
  url: string;
  body: unknown;
  /** The answer's headers (a redirect's `Location`, a `Retry-After`). */
  headers?: Headers | undefined;
  idempotencyKey: string | undefined;
  attempts: number;
  /** An earlier attempt may have been carried out (a 429 or 503 says nothing of it). */
  unknown?: boolean | undefined;
  sentAt?: number;
}): AnyPaymentsError {
  const { status, url } = input;
  const kind = input.kind ?? errorKindOfStatus(status);
  const errorBody = fieldsOf(input.body);
  const detail = text(errorBody.developerMessage) ?? text(errorBody.customerMessage);
  const location = redirectLocation(status, input.headers, url);
  // The client follows no redirect, so that a request and its key only go to the configured address.
  const advice = location ? ` Not followed: the resource has moved to ${location}.` : adviceFor(status, input.headers, input.unknown, input.idempotencyKey);
  const message = `${input.method} ${url} failed with HTTP ${status} (${kind})` + (detail ? `: ${detail}` : '.') + advice;
  // The constructor reads the fields it knows (the input's `unknown` is `mustQueryState` here).
  const details = { ...input, kind, message, location, mustQueryState: input.unknown };
  return new PaymentsError(details as PaymentsErrorDetails<typeof kind>) as AnyPaymentsError;
}

/** `must` completes "<option> must ...": the value is never echoed (it may be a key passed in the wrong option). */
export function configurationError(option: string, must: string): PaymentsError<'configuration'> {
  return new PaymentsError({ kind: 'configuration', message: `${option} must ${must}.`, option });
}

export function inputError(message: string, fieldErrors?: FieldError[]): PaymentsError<'input'> {
  return new PaymentsError({ kind: 'input', message, fieldErrors });
}
