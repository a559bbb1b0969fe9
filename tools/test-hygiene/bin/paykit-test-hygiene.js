#!/usr/bin/env node
// The check is TypeScript; tsx runs it without a build step, like the other tools of the repository.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli.js');
process.exitCode = await main(process.argv.slice(2));
