import { keepable } from './sensitive.js';

/** One problem with a value, as the error body's field errors name it. */
export interface FieldProblem {
  fieldName: string;
  fieldValue: string;
  messages: string[];
}

/** Messages fit to show a payer, by status; the developer message says what exactly went wrong. */
const customerMessages: Record<number, string> = {
  400: 'The request could not be understood.',
  401: 'The request could not be authenticated.',
  403: 'This request is not allowed.',
  404: 'Nothing was found at this address.',
  405: 'This action is not supported here.',
  406: 'The response cannot be given in the format asked for.',
  409: 'Another request is changing the same thing. Please try again.',
  415: 'The request content is in a format that is not supported.',
  422: 'Some details are invalid. Please check them and try again.',
  429: 'Too many requests. Please wait a moment and try again.',
  500: 'Something went wrong. Please contact support.',
  501: 'This kind of request is not supported.',
  502: 'The payment network gave an invalid answer. Please check the result before trying again.',
  503: 'The service is temporarily unavailable. Please try again shortly.',
  504: 'The payment network did not answer in time. Please check the result before trying again.',
};

/**
 * A refusal, thrown by any step of the sandbox and answered with the reference's error body: `status` as text, the
 * method and URL of the request, a customer message, a developer message and, for invalid content, field errors.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    readonly developerMessage: string,
    readonly options: { errors?: FieldProblem[]; headers?: Record<string, string>; customerMessage?: string } = {},
  ) {
    super(developerMessage);
  }
}

/** A 422 naming one field. */
export function invalidField(fieldName: string, fieldValue: unknown, message: string): ApiError {
  return new ApiError(422, `The request content failed validation: ${fieldName} ${message}.`, {
    errors: [{ fieldName, fieldValue: fieldValue === undefined ? '' : String(fieldValue), messages: [message] }],
  });
}

/**
 * The error body the reference gives every refusal. Its field errors pass through the contract's marks (a
 * `fieldValue` is as sensitive as the field it names): whatever a handler put there, a card number is kept to its
 * last four digits and a security code is left out, in the answer, in an idempotency record and in every store.
 */
export function errorBody(error: ApiError, method: string, url: string): Record<string, unknown> {
  return {
    links: [],
    status: String(error.status),
    requestMethod: method,
    requestUrl: url,
    customerMessage: error.options.customerMessage ?? customerMessages[error.status] ?? 'The request failed.',
    developerMessage: error.developerMessage,
    ...(error.options.errors?.length ? { errors: keepable(error.options.errors) } : {}),
  };
}
