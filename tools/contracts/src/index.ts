export * from './registry.js';
export { repoRoot, fromRoot } from './repo.js';
export { basePath, HTTP_METHODS, isHttpMethod, isNode, type DocumentNode, type HttpMethod, type OpenApiDocument } from './openapi/document.js';
export { deref, escapePointer, inlineRefs, nodeAt, OpenApiReferenceError, pointerTo, resolvePointer, resolveRef, type Resolved } from './openapi/refs.js';
export * from './openapi/read-contract.js';
export { bundleOpenApi, BundleError } from './openapi/bundle.js';
export { durationMs } from './rules/duration.js';
export { readRules, rulesExtension, RulesError, type FieldKind, type Rule, type Rules, type RuleShape, type RuleShapes } from './rules/read-rules.js';
export { paymentsRuleShapes, readPaymentsRules, type PaymentsRules } from './rules/payments-rules.js';
export { fileExchangeRuleShapes, readFileExchangeRules, readFileNamePattern, type FileExchangeRules } from './rules/file-exchange-rules.js';
export type * from './soap/model.js';
export { readSoapContract } from './soap/read-contract.js';
export { addressPath, elementsOf, findComplexType, findElement, findSimpleType, isBuiltIn, soapBasePath, type GroupElement } from './soap/lookup.js';
export { ContractError, parseXml, WSDL_NS, WSDL_SOAP11_NS, WSDL_SOAP12_NS, XSD_NS, type XmlNode } from './soap/xml.js';
export * from './state-machines.js';
export * from './flows.js';
export { findDrift, writeGenerated, type GeneratedFile, type GeneratedFolders, type WriteSummary } from './generated-files.js';
export {
  isSensitiveKind,
  PAYKIT_XSD_NS,
  readMarkValue,
  SENSITIVE_KINDS,
  sensitiveExtension,
  sensitiveFromExtension,
  SensitiveMarksError,
  type MarkState,
  type SensitiveKind,
} from './sensitive/kinds.js';
export { PARAMETER_LOCATIONS, readSensitiveMarks, type ParameterLocation, type SensitiveBody, type SensitiveMarks, type SensitiveScheme } from './sensitive/openapi-marks.js';
export { readSoapSensitiveMarks } from './sensitive/soap-marks.js';
export { sensitiveModule, sensitiveTableName, type SensitiveTableSource } from './sensitive/module.js';
