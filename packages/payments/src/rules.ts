// `@paykit/payments/rules`: the reference's rules (limits, lifetimes, retry waits) as the spec's `x-paykit-rules` give
// them, for tools that enforce or check them (the sandbox, the contract proxy). A subpath of its own, so that the
// client's entry does not carry the whole table.
export { rules } from './generated/rules.js';
