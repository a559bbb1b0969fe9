import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { cliRunner } from './support/cli-runner.js';
import { startMock, type MockFixture } from './support/mock.js';

// end-to-end: killed processes. Cron-style: paykit-files download started again and again (a node process each),
// killed with SIGKILL at random moments, either alone or with its whole process group (processing commands run in
// groups of their own and live on). Whatever the moment: no file is lost, no processing command reads a file that is
// not complete, and none sees its file deleted under it. The moments are events of the run chosen at random (its
// start, a processing command under way, a file done, its work folder made), not delays: on a loaded machine a delay
// lands in whatever phase the run happens to be in.
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

const lineCount = (path: string) => readFile(path, 'utf8').then((text) => text.split('\n').length - 1, () => 0);
/** The moments a run is killed at: each an event of the run, read from its log, its command's log or its folder. */
const moments: Array<{ what: string; reached: (stderr: string, commandsBefore: number) => Promise<boolean> }> = [
  { what: 'after its start line (listing)', reached: async (stderr) => stderr.includes('started') },
  { what: 'once its work folder exists (a download)', reached: async () => (await readdir(dir)).some((name) => name.startsWith('~paykit-download-')) },
  { what: 'with a processing command under way', reached: async (_, before) => (await lineCount(join(dir, 'started.log'))) > before },
  { what: 'once a file is done (between files)', reached: async (stderr) => stderr.includes('processed and deleted') },
];
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

// Reads its standard input, pauses (so that kills land while it runs), reads its file again by path, and logs what it
// saw: a truncated input or a file deleted under it shows as a checksum that is not the file's. When the CLI that
// started it was killed (alone or with its group: the command's group is its own; its pid is in the name of the file's
// folder, ~paykit-download-<pid>-…), it goes on
// only once the next run is under way (waiting for the lock, or done with a file: the test marks it in NEXT_RUN_SEEN)
// or over: a run that removed the file of a command still running would show (with a 0.3 s pause alone, the next
// node process was rarely up in time, and such a defect went unseen). Its 20 s bound only ends a failed test.
const handler = `#!/bin/sh
echo "$PAYKIT_FILE_NAME" >> "$STARTED_LOG"
first=$(sha256sum | cut -d' ' -f1)
sleep 0.3
cli=$(basename "$(dirname "$PAYKIT_FILE_PATH")" | cut -d- -f3)
if ! kill -0 "$cli" 2>/dev/null; then
  n=0
  while [ ! -e "$NEXT_RUN_SEEN/$cli" ] && [ $n -lt 400 ]; do sleep 0.05; n=$((n+1)); done
fi
again=$(sha256sum < "$PAYKIT_FILE_PATH" | cut -d' ' -f1)
echo "$PAYKIT_FILE_NAME $PAYKIT_FILE_SIZE $PAYKIT_FILE_SHA256 $first \${again:-missing}" >> "$HANDLED_LOG"
`;

it(`loses nothing over ${rounds} runs killed at random (${files} files)`, { timeout: 120_000 }, async () => {
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
  const args = ['download', '--exec', script, '--wait-lock', '120'];
  const startedLog = join(dir, 'started.log');
  const nextRunSeen = join(dir, 'next-run-seen');
  await mkdir(nextRunSeen);
  const env = environment({ TMPDIR: dir, HANDLED_LOG: log, STARTED_LOG: startedLog, NEXT_RUN_SEEN: nextRunSeen });
  /**
   * Starts a run; when the one before was killed (its processing command may live on), tells that command once this
   * run is under way: waiting for the lock, done with a file, or over.
   */
  let killedBefore: number | undefined;
  const startRun = (options: Parameters<typeof start>[1]) => {
    const run = start(args, options);
    if (killedBefore !== undefined) {
      const seen = join(nextRunSeen, String(killedBefore));
      const mark = () => void writeFile(seen, '').catch(() => undefined);
      run.child.stderr!.on('data', () => /waiting up to|processed and deleted|file\(s\) done/.test(run.stderr()) && mark());
      run.child.once('exit', mark);
    }
    killedBefore = undefined;
    return run;
  };
  const killedAt: string[] = [];

  const kills: string[] = [];
  const killed: Array<Promise<unknown>> = [];
  for (let round = 0; round < rounds; round += 1) {
    // Its own process group, so that the group can be killed without the test.
    const commandsBefore = await lineCount(startedLog);
    const run = startRun({ env, spawn: { detached: true } });
    const moment = moments[Math.floor(Math.random() * moments.length)]!;
    // The run may end before the moment comes (the queue drained): then there is nothing to kill.
    await vi.waitUntil(async () => run.child.exitCode !== null || (await moment.reached(run.stderr(), commandsBefore)), { timeout: 60_000, interval: 20 });
    killedAt.push(moment.what);
    const group = round % 2 === 1;
    kills.push(group ? 'group' : 'alone');
    try {
      process.kill(group ? -run.child.pid! : run.child.pid!, 'SIGKILL');
      killedBefore = run.child.pid;
    } catch {
      // It had finished already.
    }
    // Its exit, not its output's end: a processing command that lives on (the CLI was killed alone) holds the standard
    // error it inherited, and the next run must start while that command still runs.
    if (run.child.exitCode === null && run.child.signalCode === null) await once(run.child, 'exit');
    killed.push(run.result);
  }
  const last = startRun({ env });
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
  expect(killedAt).toHaveLength(rounds);
});
