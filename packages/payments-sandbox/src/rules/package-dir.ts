import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The sandbox package's folder (where its package.json is), from a module's own file: the same answer whether the
 * module runs from src/ (tests) or bundled anywhere under dist/ (the build inlines modules into dist/index.js and
 * dist/chunks/), so the files the build puts in dist/ (the spec, the dashboard) are found from either.
 */
export function packageDir(moduleFile: string): string {
  for (let dir = dirname(moduleFile); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${moduleFile}`);
  }
}
