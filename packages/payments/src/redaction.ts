// `@paykit/payments/redaction`: the redaction the client applies to its hooks and errors, for tools that record
// traffic (the contract proxy's HAR), so that a recording hides exactly what the client's own errors hide.
export { maskCardNumbers, maskCardNumbersIn, redacted, redactHeaders, secretHeaderNames } from './errors/redaction.js';
