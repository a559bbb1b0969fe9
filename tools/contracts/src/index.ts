export * from './registry.js';
export { repoRoot, fromRoot } from './repo.js';
export { basePath, type OpenApiDocument } from './openapi/document.js';
export { bundleOpenApi, BundleError } from './openapi/bundle.js';
export { durationMs } from './rules/duration.js';
export { readRules, rulesExtension, RulesError, type FieldKind, type Rule, type Rules, type RuleShape, type RuleShapes } from './rules/read-rules.js';
export { paymentsRuleShapes, readPaymentsRules, type PaymentsRules } from './rules/payments-rules.js';
export { fileExchangeRuleShapes, readFileExchangeRules, readFileNamePattern, type FileExchangeRules } from './rules/file-exchange-rules.js';
export * from './state-machines.js';
