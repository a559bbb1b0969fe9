// What global setups provide (the suite's certificates, made by `@paykit/test-support/global-certificates` named in a
// package's vitest.config.ts; the shared Prisms) is read with vitest's `inject`: this declares its type to the tests.
import './provided-context.js';

export { startConnectProxy, type ConnectProxy, type ConnectProxyOptions } from './connect-proxy.js';
export { clientTls, startMockFixture, type MockFixture } from './mock-fixture.js';
export { startSharedPrisms, type SharedPrism } from './shared-prism.js';
export { resizeSmallDisk, smallDiskAvailable, smallDiskNote, withSmallDisk } from './small-disk.js';
