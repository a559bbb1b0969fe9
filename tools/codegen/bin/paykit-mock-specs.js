#!/usr/bin/env node
// `paykit-mock-specs <contract ...>`: a mock package's build step (see scripts/mock-specs.mjs).
import { main } from '../scripts/mock-specs.mjs';

process.exitCode = await main(process.argv.slice(2));
