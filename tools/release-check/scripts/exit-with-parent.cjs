// Preloaded (node --require) into the registry the release test starts: the registry exits when its standard input
// closes, which happens when the test process ends for any reason, killed included. A registry started `detached`
// (so that the test can stop its whole process group) would otherwise outlive a test run that was killed.
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
