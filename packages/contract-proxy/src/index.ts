// Our declarations use Node's types (http, https, Buffer). This brings them into a merchant's program from the
// @types/node peer dependency.
/// <reference types="node" preserve="true" />
export { startContractProxy, type ContractProxy, type ContractProxyOptions, type RunningValidator, type ValidatorStarter } from './proxy.js';
export { ruleNames, formatViolation, type Violation, type Side } from './violation.js';
export { prismViolations } from './prism-violations.js';
export { RequestRules, keyOf, type ReceivedRequest, type RequestRulesOptions } from './request-rules.js';
export { matchOperation, type MatchedOperation, type KeyType } from './operations.js';
export { ReportCollector, renderHtml, renderText, type ProxyReport } from './report.js';
export { HarRecorder, redactedBody, redactedHarHeaders, type Har, type HarEntry, type HarHeader } from './har.js';
export { replayHar, cardForReplay, type ReplayOptions, type ReplayResult, type ReplayedEntry } from './replay.js';
export { runProxyCommand, runReplayCommand, proxyHelp, replayHelp, type ProxyCommandOptions } from './cli.js';
export type { UpstreamTls } from './http-exchange.js';
