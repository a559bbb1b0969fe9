// The published packages of the workspace with their versions, read from packages/*/package.json.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { paths } from './site-paths.mjs';

/** @returns {{ name: string, version: string, description: string }[]} */
export function publishedPackages(dir = paths.packages) {
  return readdirSync(dir)
    .filter((entry) => existsSync(join(dir, entry, 'package.json')))
    .map((entry) => JSON.parse(readFileSync(join(dir, entry, 'package.json'), 'utf8')))
    .filter((pkg) => !pkg.private)
    .map((pkg) => ({ name: pkg.name, version: pkg.version, description: pkg.description ?? '' }))
    .sort((a, b) => a.name.localeCompare(b.name));
}
