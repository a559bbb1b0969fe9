import { isRetriedStatus } from '@paykit/file-exchange/core';

/**
 * Every failure of the SOAP client is one of these classes, so that callers can tell a configuration problem (do not
 * retry, read the message) from a passing one (network, server fault). No message ever carries a password, a key or
 * file content.
 */
export abstract class FileExchangeSoapError extends Error {
  /** Whether the reference's retry rule (network error or HTTP 500) applies to this failure. */
  abstract readonly retryable: boolean;
}

export interface RequestProblem {
  /** Where in the request, e.g. `uploadFile.parameter[1].name`. */
  path: string;
  message: string;
}

/** The request breaks the contract (a required field is missing, a name has a forbidden character...): nothing was sent. */
export class InvalidRequestError extends FileExchangeSoapError {
  override readonly name = 'InvalidRequestError';
  readonly retryable = false;
  readonly problems: readonly RequestProblem[];

  constructor(operation: string, problems: RequestProblem[]) {
    super(`Invalid ${operation} request, nothing was sent: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`);
    this.problems = problems;
  }
}

/** HTTP 403: the service refused the client certificate (missing, foreign, expired) or the caller's IP address. */
export class SoapAccessDeniedError extends FileExchangeSoapError {
  override readonly name = 'SoapAccessDeniedError';
  readonly retryable = false;
  readonly status = 403;

  constructor(readonly operation: string, readonly url: string) {
    super(
      `${operation}: access refused (HTTP 403) by ${url}. Check that the client certificate is the one issued for this ` +
        'environment and that this machine\'s address is in the allowed IP list.',
    );
  }
}

/** The TLS handshake failed: the service rejected the certificate during the handshake, or the server's certificate is not trusted. */
export class SoapTlsError extends FileExchangeSoapError {
  override readonly name = 'SoapTlsError';
  readonly retryable = false;

  constructor(
    readonly operation: string,
    readonly url: string,
    /** `client-certificate-refused`: the server said no; `server-certificate-untrusted`: we said no. */
    readonly reason: 'client-certificate-refused' | 'server-certificate-untrusted',
    readonly code: string,
  ) {
    super(
      reason === 'client-certificate-refused'
        ? `${operation}: the server at ${url} refused the client certificate during the TLS handshake (${code}).`
        : `${operation}: the certificate of ${url} is not trusted (${code}); pass the service's CA with the \`ca\` option.`,
    );
  }
}

/** HTTP 500 with a SOAP 1.1 fault. */
export class SoapFaultError extends FileExchangeSoapError {
  override readonly name = 'SoapFaultError';
  readonly status: number;
  /** e.g. `soap:Server` or `soap:Client` as sent (prefix included). */
  readonly faultCode: string;
  readonly faultString: string;
  readonly faultActor?: string;
  /** Text content of the fault's `detail` element, if any. */
  readonly detail?: string;

  constructor(operation: string, status: number, fault: { faultCode: string; faultString: string; faultActor?: string; detail?: string }) {
    super(`${operation}: SOAP fault ${fault.faultCode}: ${fault.faultString}`);
    this.status = status;
    this.faultCode = fault.faultCode;
    this.faultString = fault.faultString;
    if (fault.faultActor !== undefined) this.faultActor = fault.faultActor;
    if (fault.detail !== undefined) this.detail = fault.detail;
  }

  /**
   * SOAP 1.1 `Client` faults say the message itself was wrong: sending it again cannot help. Every other fault
   * (`Server`, custom codes) is an HTTP 500 that the reference says to retry.
   */
  get retryable(): boolean {
    return !/(^|:)Client(\.|$)/.test(this.faultCode);
  }
}

/** An HTTP status the contract does not give (a proxy's 502, a 404 from a wrong base address...), or a 500 without a fault. */
export class SoapHttpError extends FileExchangeSoapError {
  override readonly name = 'SoapHttpError';
  readonly retryable: boolean;

  constructor(
    readonly operation: string,
    readonly url: string,
    readonly status: number,
    /** The start of the body, for diagnosis. */
    readonly bodyStart: string,
  ) {
    super(`${operation}: unexpected HTTP ${status} from ${url}${bodyStart ? `: ${bodyStart}` : ''}`);
    this.retryable = isRetriedStatus(status);
  }
}

/** The connection failed or broke before a complete response arrived. */
export class SoapNetworkError extends FileExchangeSoapError {
  override readonly name = 'SoapNetworkError';
  readonly retryable = true;

  constructor(readonly operation: string, readonly url: string, readonly code: string, options?: { cause?: unknown }) {
    super(`${operation}: network error talking to ${url} (${code})`, options);
  }
}

/** A complete response that does not follow the contract (not XML, wrong element, a required field missing). */
export class SoapResponseError extends FileExchangeSoapError {
  override readonly name = 'SoapResponseError';
  readonly retryable = false;

  constructor(readonly operation: string, detail: string) {
    super(`${operation}: the response does not follow the contract: ${detail}`);
  }
}

/** Retrying stopped: the window of the retry policy (the reference's by default) is over. The last failure is the cause. */
export class RetriesExhaustedError extends FileExchangeSoapError {
  override readonly name = 'RetriesExhaustedError';
  readonly retryable = false;

  constructor(readonly operation: string, readonly attempts: number, readonly elapsedMs: number, cause: FileExchangeSoapError) {
    super(
      `${operation}: gave up after ${attempts} attempts over ${Math.round(elapsedMs / 1000)} s; investigate by hand. Last error: ${cause.message}`,
      { cause },
    );
  }
}

/** downloadAll kept receiving only files it had already seen: the queue is not draining. */
export class DownloadNotDrainingError extends FileExchangeSoapError {
  override readonly name = 'DownloadNotDrainingError';
  readonly retryable = false;

  constructor(readonly queueID: string, readonly responses: number) {
    super(`downloadAll(${queueID}): ${responses} responses in a row held only files already received; the queue is not draining.`);
  }
}

/** The client's own options are wrong (base address, retry settings): raised by `create`, before any request. */
export class SoapClientOptionsError extends FileExchangeSoapError {
  override readonly name = 'SoapClientOptionsError';
  readonly retryable = false;
}
