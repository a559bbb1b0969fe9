import type { components } from '../generated/openapi.js';
import { rules } from '../generated/rules.js';

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

/** Whether one of the spec's status rules names this status. */
function ruleCovers(rule: { readonly statuses: readonly number[] }, status: number | undefined): boolean {
  return status !== undefined && rule.statuses.includes(status);
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
  cause?: unknown;
}

/**
 * The one error the client throws. `kind` tells the cases apart (narrow on it after `isPaymentsError`); every field
 * comes from the request or the service's error body, and the API key is never among them.
 */
export class PaymentsError<K extends PaymentsErrorKind = PaymentsErrorKind> extends Error {
  override readonly name = 'PaymentsError';
  readonly kind: K;
  readonly status: ErrorKindStatus[K];
  /** Method and URL of the request that failed (absent for `input` errors raised before building one). */
  readonly method: string | undefined;
  readonly url: string | undefined;
  /** From the service's error body. `customerMessage` is fit to show to the paying customer. */
  readonly customerMessage: string | undefined;
  readonly developerMessage: string | undefined;
  /** Per-field problems: from the service on 422, or from the client's own checks on `input`. */
  readonly fieldErrors: readonly FieldError[];
  /** The `Idempotency-Key` that was sent (on every attempt), to resend the same request safely. */
  readonly idempotencyKey: string | undefined;
  /** How many times the request was sent. */
  readonly attempts: number;
  /** The parsed error body (or its text when it was not JSON). */
  readonly body: unknown;
  /** For a redirect (3xx, never followed): the address the service points to, from its `Location` header. */
  readonly location: string | undefined;
  /** For `configuration`: the client option at fault, such as `retry.maxRetries` (its value is never echoed). */
  readonly option: string | undefined;

  constructor(details: PaymentsErrorDetails<K>) {
    super(details.message, details.cause === undefined ? undefined : { cause: details.cause });
    // The body is whatever the service sent: every field is read as the type it is declared with, or left out.
    const errorBody = fieldsOf(details.body);
    this.kind = details.kind;
    this.status = details.status as ErrorKindStatus[K];
    this.method = details.method;
    this.url = details.url;
    this.customerMessage = text(errorBody.customerMessage);
    this.developerMessage = text(errorBody.developerMessage);
    this.fieldErrors = details.fieldErrors ?? fieldErrorsOf(errorBody.errors);
    this.idempotencyKey = details.idempotencyKey;
    this.attempts = details.attempts ?? 0;
    this.body = details.body;
    this.location = details.location;
    this.option = details.option;
  }

  /** The outcome is unknown (the spec's `mustQueryState` rule: 500, 502, 504): look at the resource before resending. */
  get mustQueryState(): boolean {
    return ruleCovers(rules.mustQueryState, this.status);
  }

  toJSON() {
    return {
      name: this.name,
      kind: this.kind,
      message: this.message,
      status: this.status,
      method: this.method,
      url: this.url,
      customerMessage: this.customerMessage,
      developerMessage: this.developerMessage,
      fieldErrors: this.fieldErrors,
      idempotencyKey: this.idempotencyKey,
      attempts: this.attempts,
      location: this.location,
    };
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
 * not strings. A well-formed item is kept as it came, with any property the service may add within v1.
 */
function fieldErrorsOf(errors: unknown): FieldError[] {
  if (!Array.isArray(errors)) return [];
  const fieldErrors: FieldError[] = [];
  for (const item of errors) {
    if (!item || typeof item !== 'object' || Array.isArray(item)) continue;
    const { fieldName, fieldValue, messages, ...added } = item as Record<string, unknown>;
    const wellFormed =
      (fieldName === undefined || typeof fieldName === 'string') &&
      (fieldValue === undefined || typeof fieldValue === 'string') &&
      (messages === undefined || (Array.isArray(messages) && messages.every((message) => typeof message === 'string')));
    if (wellFormed) {
      fieldErrors.push(item as FieldError);
      continue;
    }
    const fieldError: FieldError = added;
    if (typeof fieldName === 'string') fieldError.fieldName = fieldName;
    if (typeof fieldValue === 'string') fieldError.fieldValue = fieldValue;
    else if (typeof fieldValue === 'number' || typeof fieldValue === 'boolean') fieldError.fieldValue = String(fieldValue);
    if (Array.isArray(messages)) fieldError.messages = messages.filter((message): message is string => typeof message === 'string');
    fieldErrors.push(fieldError);
  }
  return fieldErrors;
}

/** A PaymentsError of any kind, as a union that narrows on `kind` (and so on `status`). */
export type AnyPaymentsError = { [K in PaymentsErrorKind]: PaymentsError<K> }[PaymentsErrorKind];

export function isPaymentsError(value: unknown): value is AnyPaymentsError {
  return value instanceof PaymentsError;
}

/** Advice the reference's client rules give per status (from the spec), added to the message so that logs carry it. */
function adviceFor(status: number, headers: Headers | undefined): string {
  const query = ruleCovers(rules.mustQueryState, status);
  if (ruleCovers(rules.mustNotResend, status)) {
    return ` Do not resend: part of the work may have been done${query ? '; query the resource for its state.' : '.'}`;
  }
  if (query) return ' The outcome is unknown: query the resource for its state before resending.';
  if (!ruleCovers(rules.retry, status)) return '';
  // Quoted only when it has the form of a Retry-After (seconds or an HTTP date): the value is the service's.
  const retryAfter = headers?.get('retry-after');
  return retryAfter && /^[\w ,:-]{1,40}$/.test(retryAfter)
    ? ` Resend after Retry-After: ${retryAfter}, with the same Idempotency-Key.`
    : ' Retries were exhausted; resend later with the same Idempotency-Key.';
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
  status: number;
  method: string;
  url: string;
  body: unknown;
  /** The answer's headers (a redirect's `Location`, a `Retry-After`). */
  headers?: Headers | undefined;
  idempotencyKey: string | undefined;
  attempts: number;
}): AnyPaymentsError {
  const kind = errorKindOfStatus(input.status);
  const errorBody = fieldsOf(input.body);
  const detail = text(errorBody.developerMessage) ?? text(errorBody.customerMessage);
  const location = redirectLocation(input.status, input.headers, input.url);
  // The client follows no redirect, so that a request and its key only go to the configured address.
  const advice = location ? ` Not followed: the resource has moved to ${location}.` : adviceFor(input.status, input.headers);
  const message = `${input.method} ${input.url} failed with HTTP ${input.status} (${kind})` + (detail ? `: ${detail}` : '.') + advice;
  const { status, method, url, body, idempotencyKey, attempts } = input;
  const details = { kind, message, status, method, url, body, idempotencyKey, attempts, location };
  return new PaymentsError(details as PaymentsErrorDetails<typeof kind>) as AnyPaymentsError;
}

export function configurationError(option: string, message: string): PaymentsError<'configuration'> {
  return new PaymentsError({ kind: 'configuration', message, option });
}

export function inputError(message: string, fieldErrors?: FieldError[]): PaymentsError<'input'> {
  return new PaymentsError({ kind: 'input', message, fieldErrors });
}
