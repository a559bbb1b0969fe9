import {
  AccessRefusedError,
  ClientOptionsError,
  FileExchangeError,
  ProtocolError,
  TlsHandshakeError,
  TransientFailureError,
  UnexpectedResponseError,
  type FileExchangeOperation,
} from '@paykit/file-exchange';
import type { SoapFault } from './codec/read-response.js';

// One hierarchy for both clients: the errors of every condition the REST client meets too (access refused, TLS,
// proxy, network, retries exhausted, abort, protocol) are @paykit/file-exchange's classes (the very ones: this
// package's bundle imports them from there); only the SOAP contract's own are here.
export {
  AbortedError,
  AccessRefusedError,
  ClientOptionsError,
  FileExchangeError,
  InvalidFileNameError,
  LocalFileError,
  ProtocolError,
  ProxyRefusedError,
  RetriesExhaustedError,
  TlsHandshakeError,
  TransientFailureError,
  UnexpectedResponseError,
  type FileExchangeOperation,
} from '@paykit/file-exchange';

export interface RequestProblem {
  /** Where in the request, e.g. `uploadFile.parameter[1].name`. */
  path: string;
  message: string;
}

/** The request breaks the contract (a required field is missing, a name has a forbidden character...): nothing was sent. */
export class InvalidRequestError extends FileExchangeError {
  override name = 'InvalidRequestError';
  readonly problems: readonly RequestProblem[];

  constructor(operation: FileExchangeOperation, problems: RequestProblem[]) {
    super(`Invalid ${operation} request, nothing was sent: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`, { operation });
    this.problems = problems;
  }
}

/** Whether a fault code is SOAP 1.1's `Client` (the message itself was wrong), prefix and sub-codes aside. */
export function isClientFault(faultCode: string): boolean {
  return /(^|:)Client(\.|$)/.test(faultCode);
}

/**
 * HTTP 500 with a SOAP 1.1 fault. The reference says to retry every 500; a `Client` fault, though, says the message
 * itself was wrong, so by OUR choice it is final unless the retry option `soapClientFaults: 'retry'` is set.
 */
export class SoapFaultError extends FileExchangeError {
  override name = 'SoapFaultError';
  /** e.g. `soap:Server` or `soap:Client` as sent (prefix included). */
  readonly faultCode: string;
  readonly faultString: string;
  readonly faultActor?: string;
  /** Text content of the fault's `detail` element, if any. */
  readonly detail?: string;

  constructor(operation: FileExchangeOperation, status: number, fault: SoapFault, retryClientFaults = false) {
    super(`${operation}: SOAP fault ${fault.faultCode}: ${fault.faultString}`, {
      operation,
      status,
      retryable: retryClientFaults || !isClientFault(fault.faultCode),
    });
    this.faultCode = fault.faultCode;
    this.faultString = fault.faultString;
    if (fault.faultActor !== undefined) this.faultActor = fault.faultActor;
    if (fault.detail !== undefined) this.detail = fault.detail;
  }
}

/** downloadAll kept receiving only files it had already seen: the queue is not draining. */
export class DownloadNotDrainingError extends FileExchangeError {
  override name = 'DownloadNotDrainingError';
  readonly queueID: string;
  readonly responses: number;

  constructor(queueID: string, responses: number) {
    super(`downloadAll(${queueID}): ${responses} responses in a row held only files already received; the queue is not draining.`, { operation: 'downloadAll' });
    this.queueID = queueID;
    this.responses = responses;
  }
}

// The former SOAP-only names, kept so that existing imports and `instanceof` checks still compile and work.
/** @deprecated Use FileExchangeError (shared with the REST client). */
export const FileExchangeSoapError = FileExchangeError;
/** @deprecated Use FileExchangeError (shared with the REST client). */
export type FileExchangeSoapError = FileExchangeError;
/** @deprecated Use AccessRefusedError (shared with the REST client). */
export const SoapAccessDeniedError = AccessRefusedError;
/** @deprecated Use AccessRefusedError (shared with the REST client). */
export type SoapAccessDeniedError = AccessRefusedError;
/** @deprecated Use TlsHandshakeError (shared with the REST client). */
export const SoapTlsError = TlsHandshakeError;
/** @deprecated Use TlsHandshakeError (shared with the REST client). */
export type SoapTlsError = TlsHandshakeError;
/** @deprecated Use TransientFailureError (shared with the REST client): a network error, or a 500 without a fault. */
export const SoapNetworkError = TransientFailureError;
/** @deprecated Use TransientFailureError (shared with the REST client): a network error, or a 500 without a fault. */
export type SoapNetworkError = TransientFailureError;
/** @deprecated Use UnexpectedResponseError (a status the contract does not give); a 500 without a fault is a TransientFailureError. */
export const SoapHttpError = UnexpectedResponseError;
/** @deprecated Use UnexpectedResponseError (a status the contract does not give); a 500 without a fault is a TransientFailureError. */
export type SoapHttpError = UnexpectedResponseError;
/** @deprecated Use ProtocolError (shared with the REST client). */
export const SoapResponseError = ProtocolError;
/** @deprecated Use ProtocolError (shared with the REST client). */
export type SoapResponseError = ProtocolError;
/** @deprecated Use ClientOptionsError (shared with the REST client). */
export const SoapClientOptionsError = ClientOptionsError;
/** @deprecated Use ClientOptionsError (shared with the REST client). */
export type SoapClientOptionsError = ClientOptionsError;
