// The suite's certificates are made by the global setup `@paykit/test-support/global-certificates` (name it in a
// package's vitest.config.ts) and read with vitest's `inject`: this declares their type to the package's tests.
import './provided-context.js';

export { startConnectProxy, type ConnectProxy, type ConnectProxyOptions } from './connect-proxy.js';
export { startMockFixture, type MockFixture } from './mock-fixture.js';
export { resizeSmallDisk, smallDiskAvailable, smallDiskNote, withSmallDisk } from './small-disk.js';
