import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { cliRunner } from './support/cli-runner.js';
import { startMock, type MockFixture } from './support/mock.js';

// Cron-style: paykit-files download started again and again, killed with SIGKILL at random moments, either alone or
// with its whole process group (processing commands run in groups of their own and live on). Whatever the moment:
// no file is lost, no processing command reads a file that is not complete, and none sees its file deleted under it.
vi.setConfig({ hookTimeout: 180_000 });
let fx: MockFixture;
let dir: string;
const { environment, start } = cliRunner(
  () => fx,
  () => dir,
);
beforeAll(async () => {
  fx = await startMock();
  dir = await mkdtemp(join(tmpdir(), 'paykit-files-sigkill-'));
});
afterAll(async () => {
  await fx?.close();
  await rm(dir, { recursive: true, force: true });
});

const files = 30;
const rounds = 10;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

// Reads its standard input, pauses (so that kills land while it runs), reads its file again by path, and logs what it
// saw: a truncated input or a file deleted under it shows as a checksum that is not the file's. When the CLI that
// started it was killed alone (its pid is in the name of the file's folder, ~paykit-download-<pid>-…), it stays 3 s
// more, so that the next run is certainly under way meanwhile: a run that removed the file of a command still running
// would show (with a 0.3 s pause alone, the next node process was rarely up in time, and such a defect went unseen).
const handler = `#!/bin/sh
first=$(sha256sum | cut -d' ' -f1)
sleep 0.3
cli=$(basename "$(dirname "$PAYKIT_FILE_PATH")" | cut -d- -f3)
kill -0 "$cli" 2>/dev/null || sleep 3
again=$(sha256sum < "$PAYKIT_FILE_PATH" | cut -d' ' -f1)
echo "$PAYKIT_FILE_NAME $PAYKIT_FILE_SIZE $PAYKIT_FILE_SHA256 $first \${again:-missing}" >> "$HANDLED_LOG"
`;

it(`loses nothing over ${rounds} runs killed at random (${files} files)`, { timeout: 240_000 }, async () => {
  const expected = new Map<string, Buffer>();
  for (let i = 0; i < files; i += 1) {
    const name = `LOOP_${String(i).padStart(2, '0')}.bin`;
    const content = randomBytes(64 * 1024 + i * 997);
    expected.set(name, content);
    fx.mock.store.enqueueDownload({ fileName: name, content });
  }
  const script = join(dir, 'handler.sh');
  await writeFile(script, handler, { mode: 0o755 });
  const log = join(dir, 'handled.log');
  const env = environment({ TMPDIR: dir, HANDLED_LOG: log, PAYKIT_FILES_RETRY_FOR: '5' });
  const args = ['download', '--exec', script, '--wait-lock', '120'];

  const kills: string[] = [];
  const killed: Array<Promise<unknown>> = [];
  for (let round = 0; round < rounds; round += 1) {
    // Its own process group, so that the group can be killed without the test.
    const run = start(args, { env, spawn: { detached: true } });
    await vi.waitUntil(() => run.stderr().includes('started'), { timeout: 60_000, interval: 20 });
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 1500));
    const group = round % 2 === 1;
    kills.push(group ? 'group' : 'alone');
    try {
      process.kill(group ? -run.child.pid! : run.child.pid!, 'SIGKILL');
    } catch {
      // It had finished already.
    }
    // Its exit, not its output's end: a processing command that lives on (the CLI was killed alone) holds the standard
    // error it inherited, and the next run must start while that command still runs.
    if (run.child.exitCode === null && run.child.signalCode === null) await once(run.child, 'exit');
    killed.push(run.result);
  }
  const last = start(args, { env });
  const result = await last.result;
  expect(result.code, result.stderr).toBe(0);
  await Promise.all(killed);

  // 0 lost: every file was processed from its complete content, and the queue is empty.
  expect(fx.mock.store.pendingDownloads()).toEqual([]);
  const lines = (await readFile(log, 'utf8')).trim().split('\n').map((line) => line.split(' '));
  expect(new Set(lines.map(([name]) => name))).toEqual(new Set(expected.keys()));
  for (const [name, size, announced, first, again] of lines) {
    const content = expected.get(name!)!;
    const whole = { size: String(content.length), announced: sha256(content), first: sha256(content), again: sha256(content) };
    // 0 handled from a truncated input; 0 deleted under a running processing command.
    expect({ name, size, announced, first, again }).toEqual({ name, ...whole });
  }
  // Nothing left behind by the killed runs.
  expect((await readdir(dir)).filter((name) => name.startsWith('~'))).toEqual([]);
  expect(kills).toContain('group');
  expect(kills).toContain('alone');
});
