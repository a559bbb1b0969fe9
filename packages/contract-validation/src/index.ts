// The one validator of the REST contracts, in process: requests and answers checked per operation against schemas
// compiled from the specs at generation time (src/generated/<contract>/, by @paykit/codegen). Internal: published
// packages bundle it (tools/bundle-internal); no published declaration may name it.
import { ContractValidator } from './contract-validator.js';
import { fileExchangeContract } from './generated/file-exchange/contract.js';
import { paymentsContract } from './generated/payments/contract.js';
// The payments sandbox's control contract: the sandbox checks its control requests (and its tests the answers) with it.
export { paymentsSandboxControlContract } from './generated/payments-sandbox-control/contract.js';

export { ContractValidator, declaredAnswer, successMediaTypes, type AnswerMessage, type HeaderValues, type RequestMessage } from './contract-validator.js';
export type { MatchedOperation } from './operation-matcher.js';
export type { ContractTable, MediaEntry, OperationEntry, ParameterEntry, ResponseEntry, RuleEntry, SchemaEntry, SecuritySchemeEntry, WebhookEntry } from './operation-table.js';
export { locationOf, type Problem, type Side } from './problems.js';
export type { SchemaError, SchemaValidator } from './schema-validator.js';
export { acceptAdmits, isJsonMediaType, mediaTypeCovers, mediaTypeOf } from './media-types.js';
export { fileExchangeContract, paymentsContract };

/** The REST contracts the validator knows, by their registry name. */
export const contracts = { payments: paymentsContract, 'file-exchange': fileExchangeContract } as const;
export type ContractName = keyof typeof contracts;

const validators = new Map<ContractName, ContractValidator>();

/** The validator of a contract, made once per process (it holds no state between messages). */
export function contractValidator(name: ContractName): ContractValidator {
  let validator = validators.get(name);
  if (!validator) {
    const table = contracts[name];
    if (!table) throw new Error(`no REST contract named ${JSON.stringify(name)}; known: ${Object.keys(contracts).join(', ')}`);
    validator = new ContractValidator(table);
    validators.set(name, validator);
  }
  return validator;
}
