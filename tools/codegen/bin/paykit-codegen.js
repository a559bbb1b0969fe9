#!/usr/bin/env node
// The generators are TypeScript; tsx runs them without a build step so that `pnpm generate` works on a fresh clone.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli.js');
process.exitCode = await main(process.argv.slice(2));
