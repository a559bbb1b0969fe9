import { contractValidator, mediaTypeOf as contractMediaTypeOf, type ContractName, type HeaderValues, type Problem } from '@paykit/contract-validation';

/** What came back on the wire, before any client read it. */
export interface WireResponse {
  status: number;
  headers: Headers;
  /** The raw body text ('' when empty). */
  text: string;
}

export interface WireRequest {
  method: string;
  url: string;
  headers: Headers;
  text: string;
}

/** `application/json; charset=utf-8` -> `application/json`, from a `Headers` value (null when absent). */
export const mediaTypeOf = (contentType: string | null): string | undefined => contractMediaTypeOf(contentType ?? undefined);

const headerValues = (headers: Headers): HeaderValues => Object.fromEntries(headers);
const described = (problems: readonly Problem[]) => problems.map((problem) => `${problem.location}: ${problem.message} (${problem.rule} at ${problem.source})`);

/**
 * The contract tests' reading of an exchange on the wire, by the one validator of the contracts
 * (`@paykit/contract-validation`, the proxy's and the sandbox's): each problem as one line, empty when the message
 * keeps the contract. This file only turns a fetch `Request`/`Response` copy into the validator's message.
 */
export class WireCheck {
  private readonly validator;

  constructor(contract: ContractName) {
    this.validator = contractValidator(contract);
  }

  /** Problems of a request sent for `operationId`: it reaches that operation, its parameters, credentials and body. */
  request(operationId: string, wire: WireRequest): string[] {
    const url = new URL(wire.url);
    const { basePath } = this.validator.contract;
    if (!url.pathname.startsWith(basePath)) return [`${url.pathname} is not under the contract's base path ${basePath}`];
    const matched = this.validator.match(wire.method, url.pathname.slice(basePath.length));
    if (matched?.operation.id !== operationId) return [`${wire.method} ${url.pathname} reaches ${matched?.operation.id ?? 'no operation'}, not ${operationId}`];
    return described(this.validator.checkRequest(matched, { headers: headerValues(wire.headers), query: url.searchParams, body: wire.text }));
  }

  /** Problems of an answer to `operationId`: its status is declared, its headers, media type and body. */
  answer(operationId: string, wire: WireResponse): string[] {
    return described(this.validator.checkAnswer(this.validator.operation(operationId), { status: wire.status, headers: headerValues(wire.headers), body: wire.text }));
  }
}
