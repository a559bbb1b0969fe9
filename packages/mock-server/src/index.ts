// Our declarations use Node's types (streams, Buffer, http). This brings them into a merchant's program from the
// @types/node peer dependency, so that they need no `types` setting (and pnpm's layout hides it otherwise).
/// <reference types="node" preserve="true" />
export { startPrismMock, startPrismProxy, type PrismMockOptions, type PrismProxyOptions, type RunningMock } from './prism.js';
export { mockSpecPath, type RestContract } from './specs.js';
export { services, type MockService, type StartedMock } from './services.js';
// The stateful mocks are packages of their own; re-exported so that imports from @paykit/mock-server keep working.
export * from '@paykit/file-exchange-mock';
export * from '@paykit/payments-sandbox';
// The validating proxy and recorder (`paykit-mock proxy`, `paykit-mock replay`) is a package of its own too.
export * from '@paykit/contract-proxy';
