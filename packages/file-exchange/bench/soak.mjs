// Soak: paykit-files download run again and again as cron would, killed with SIGKILL at random moments (alone or with
// its process group), a second run started now and then from another working folder, the temporary folder a small
// disk that a filler file fills part way for stretches of the soak. At the end, one run without kills drains the queue
// and the script checks that every queued file was handed to the processing command exactly once, with its name and
// its whole content, and that nothing is left behind. Not a test (it takes minutes): run it by hand,
//   pnpm --filter @paykit/file-exchange soak        (SOAK_KILLS=200 SOAK_FILES=240 by default; needs the build)
// The small disk is a tmpfs the script mounts (root); without root it soaks on the normal temporary folder and says so.
import { execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateTestCertificates, startFileExchangeMock } from '@paykit/mock-server';

const cli = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const kills = Number(process.env.SOAK_KILLS ?? 200);
const fileCount = Number(process.env.SOAK_FILES ?? 240);
const MiB = 1024 * 1024;
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const root = await mkdtemp(join(tmpdir(), 'paykit-soak-'));
const certificates = await generateTestCertificates(join(root, 'certs'));
const mock = await startFileExchangeMock({ certificates });
const [home, cron, manual, temporary] = ['home', 'cron', 'manual', 'tmp'].map((name) => join(root, name));
for (const folder of [home, cron, manual, temporary]) await mkdir(folder);
const smallDisk = process.getuid?.() === 0;
if (smallDisk) execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=24m,mode=0700', 'tmpfs', temporary]);

const expected = new Map();
for (let i = 0; i < fileCount; i++) {
  // Most files small; every tenth 6 to 10 MiB, which the disk cannot hold while the filler is there.
  const size = i % 10 === 9 ? (6 + (i % 5)) * MiB : 1024 + ((i * 7919) % (64 * 1024));
  const content = randomBytes(size);
  const name = `SOAK_${String(i).padStart(4, '0')}.bin`;
  expected.set(name, sha256(content));
  mock.store.enqueueDownload({ fileName: name, content });
}

const log = join(root, 'handled.log');
const handler = join(root, 'handler.sh');
// The command's last act is one append of its line: a completed handling is a line.
await writeFile(handler, `#!/bin/sh\nsum=$(sha256sum | cut -d' ' -f1)\nsleep 0.$(( $(od -An -N1 -tu1 /dev/urandom) % 3 ))\necho "$PAYKIT_FILE_NAME $sum" >> "${log}"\n`, { mode: 0o755 });
const env = {
  PATH: process.env.PATH,
  HOME: home,
  TMPDIR: temporary,
  PAYKIT_FILES_BASE_URL: mock.restUrl,
  PAYKIT_FILES_CERT_FILE: certificates.clientPfxPath,
  PAYKIT_FILES_CERT_PASSWORD: certificates.clientPfxPassword,
  PAYKIT_FILES_CA_FILE: certificates.caCertPath,
  PAYKIT_FILES_RETRY_INTERVAL: '0.05',
  PAYKIT_FILES_RETRY_FOR: '30',
};
const start = (cwd) => {
  const child = spawn(process.execPath, [cli, 'download', '--exec', handler, '--wait-lock', '120', '--quiet'], { env, cwd, detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = once(child, 'exit').then(([code, signal]) => ({ code, signal, stderr }));
  return { child, exited };
};
const kill = (run, group) => {
  if (run.child.exitCode !== null || run.child.signalCode !== null) return false;
  try {
    process.kill(group ? -run.child.pid : run.child.pid, 'SIGKILL');
    return true;
  } catch {
    return false;
  }
};

const filler = join(temporary, 'filler');
let fillerOn = false;
const figures = { kills: 0, runs: 0, secondRuns: 0, secondRunsRefused: 0, fillerStretches: 0, fullDiskFailures: 0 };
const started = performance.now();
while (figures.kills < kills && mock.store.pendingDownloads().length > 0) {
  // The disk fills part way for every other stretch of 25 kills: 18 of its 24 MiB taken, less room than a large file
  // needs.
  const fill = smallDisk && Math.floor(figures.kills / 25) % 2 === 1;
  if (fill !== fillerOn) {
    fillerOn = fill;
    if (fill) {
      await writeFile(filler, Buffer.alloc(18 * MiB)).catch(() => undefined);
      figures.fillerStretches++;
    } else await rm(filler, { force: true });
  }
  const runs = [start(cron)];
  if (Math.random() < 0.3) {
    runs.push(start(manual));
    figures.secondRuns++;
  }
  figures.runs += runs.length;
  await pause(50 + Math.random() * 1200);
  for (const [index, run] of runs.entries()) if (kill(run, (figures.kills + index) % 2 === 1)) figures.kills++;
  for (const run of runs) {
    const { code, stderr } = await run.exited;
    if (code === 75) figures.secondRunsRefused++;
    if (/ENOSPC|not enough space/.test(stderr)) figures.fullDiskFailures++;
  }
}
await rm(filler, { force: true });
// Drain: runs without kills until the queue is empty (a run waits for the commands killed runs left running).
let last;
for (let round = 0; round < 5 && mock.store.pendingDownloads().length > 0; round++) last = await start(cron).exited;
const seconds = (performance.now() - started) / 1000;

const lines = (await readFile(log, 'utf8')).trim().split('\n').map((line) => line.split(' '));
const counts = new Map();
for (const [name] of lines) counts.set(name, (counts.get(name) ?? 0) + 1);
const lost = [...expected.keys()].filter((name) => !counts.has(name));
const twice = [...counts].filter(([, count]) => count > 1).map(([name]) => name);
const corrupt = lines.filter(([name, sum]) => expected.get(name) !== sum).map(([name]) => name);
const left = (await readdir(temporary)).filter((name) => name.startsWith('~'));
const result = { ...figures, files: fileCount, smallDisk, seconds: Math.round(seconds), handled: lines.length, lost: lost.length, handledTwice: twice.length, corrupt: corrupt.length, stillQueued: mock.store.pendingDownloads().length, leftInTmp: left.length, lastRun: last?.code };
console.log(JSON.stringify(result, null, 2));

await mock.close();
if (smallDisk) execFileSync('umount', ['-l', temporary]);
await rm(root, { recursive: true, force: true });
if (lost.length || twice.length || corrupt.length || result.stillQueued || figures.kills < kills) {
  console.error(`soak FAILED: lost ${lost.slice(0, 5)}, twice ${twice.slice(0, 5)}, corrupt ${corrupt.slice(0, 5)}`);
  process.exit(1);
}
console.log(`soak passed: ${figures.kills} SIGKILLs, every one of ${fileCount} files handed over exactly once, whole, with its name`);
