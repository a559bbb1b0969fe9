// Our declarations use Node's types (http, https, Buffer). This brings them into a merchant's program from the
// @types/node peer dependency.
/// <reference types="node" preserve="true" />
export { startContractProxy, type ContractProxy, type ContractProxyOptions, type ProxyContract } from './proxy.js';
export { ruleNames, formatViolation, type Violation, type Side } from './violation.js';
export { renderText, type ProxyReport, type ReportContext, type ViolationGroup, type ExchangeSummary, type UncalledOperation, type Outcome } from './report.js';
export { renderHtml } from './report-html.js';
export type { Har, HarEntry, HarHeader } from './har.js';
export type { KeyType, KeyUse } from './key-use.js';
export type { MaskHint, Masked } from './mask-hint.js';
export { replayHar, cardForReplay, type ReplayOptions, type ReplayResult, type ReplayedEntry } from './replay.js';
export { runProxyCommand, runReplayCommand, proxyHelp, replayHelp, type ProxyCommandOptions, type ReplayCommandOptions } from './cli.js';
export type { UpstreamTls } from './http-exchange.js';
