import { readdir, readFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { expect } from 'vitest';
import type { CliResult, CliOptions } from './cli-runner.js';
import type { MockFixture } from './mock.js';

/**
 * The failure's report names where what standard input gave is kept, and the command that sends it; that command,
 * run as printed against the service, uploads exactly the content, after which the folder is the operator's to remove.
 */
export async function expectKeptAndSendable(
  context: { fx: MockFixture; dir: string; cli: (args: string[], options?: CliOptions) => Promise<CliResult> },
  stderr: string,
  name: string,
  content: Buffer,
): Promise<void> {
  const { fx, dir, cli } = context;
  const said = /kept in (\S+)\. Send it with: paykit-files upload (\S+) < (\S+), then remove its folder: rm -r (\S+)\n/.exec(stderr);
  expect(said, stderr).not.toBeNull();
  const [, path, sentName, sentPath, folder] = said!;
  expect([sentName, sentPath, folder]).toEqual([name, path, dirname(path!)]);
  expect(dirname(folder!)).toBe(dir);
  expect((await readFile(path!)).equals(content)).toBe(true);
  // Only the kept folder is left of the run: no temporary file, no lock.
  expect((await readdir(dir)).filter((entry) => entry.startsWith('~') || entry.startsWith('paykit-unsent-'))).toEqual([basename(folder!)]);
  const resent = await cli(['upload', name], { stdinFile: path! });
  expect(resent.code, resent.stderr).toBe(0);
  expect(fx.mock.store.uploads().filter((upload) => upload.fileName === name).map((upload) => upload.content.equals(content))).toEqual([true]);
}
