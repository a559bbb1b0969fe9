// Writes code samples as TypeScript modules and type-checks them with the workspace's compiler, reporting each
// error at its line in the guide rather than in the extracted file.
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { sampleFileName, type CodeSample } from '../../scripts/code-samples.mjs';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

// Each sample becomes its own module (so names do not collide and top-level await works): the header is one line.
const header = (sample: CodeSample) => `// Extracted from guides/${sample.guide} (code starts at line ${sample.line}). Do not edit.\n`;

export function writeSamples(samples: CodeSample[], dir: string): Map<string, CodeSample> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const byFile = new Map<string, CodeSample>();
  for (const sample of samples) {
    const file = join(dir, sampleFileName(sample));
    writeFileSync(file, `${header(sample)}${sample.code}\nexport {};\n`);
    byFile.set(file, sample);
  }
  return byFile;
}

/** Runs `tsc --noEmit -p project` and returns its errors with guide positions (empty when the samples compile). */
export async function typeCheck(project: string, byFile: Map<string, CodeSample>, cwd: string): Promise<string[]> {
  try {
    await promisify(execFile)(process.execPath, [tsc, '--noEmit', '--pretty', 'false', '-p', project], { cwd });
    return [];
  } catch (error) {
    const output = String((error as { stdout?: string }).stdout ?? error);
    return output
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => {
        const match = /^(.+?)\((\d+),(\d+)\): (.*)$/.exec(line);
        const sample = match && [...byFile].find(([file]) => relative(cwd, file) === match[1] || file === match[1])?.[1];
        if (!match || !sample) return line;
        return `guides/${sample.guide}:${sample.line + Number(match[2]) - 2}:${match[3]} ${match[4]}`;
      });
  }
}
