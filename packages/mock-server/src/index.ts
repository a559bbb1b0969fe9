export { startPrismMock, type PrismMockOptions, type RunningMock } from './prism.js';
export { mockSpecPath, type RestContract } from './specs.js';
export { services, type MockService } from './services.js';
