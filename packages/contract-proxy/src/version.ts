import { readFileSync } from 'node:fs';

/** This package's version, written into the HAR's `creator`. */
export const version = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
