// `pnpm bench`: every benchmark in one run, one after the other (they would disturb each other in parallel).
await import('./loopback-request.mjs');
await import('./stubbed-overhead.mjs');
await import('./bundle-size.mjs');
