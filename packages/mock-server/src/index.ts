export { startPrismMock, type PrismMockOptions, type RunningMock } from './prism.js';
export { mockSpecPath, type RestContract } from './specs.js';
export { services, type MockService, type StartedMock } from './services.js';
export * from './file-exchange/index.js';
export * from './payments-sandbox/index.js';
