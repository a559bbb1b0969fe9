// Benchmark: upload and download of a large file (1 GiB by default) over client-certificate TLS on loopback, through
// the paykit-files CLI and through `curl --cert`, measured side by side in one run, with a third contender per row:
// the same transfer by a minimal node:https program (Node's own cost; for a pipe of known length also that program
// with a spool file, the least a resend needs, and that program reading the pipe into reused buffers as the CLI
// does), or for a pipe of unknown length the same job done with shell tools.
// Each contender runs as its own process under /usr/bin/time, which reports wall time and
// peak resident memory the same way for all.
//   pnpm --filter @paykit/file-exchange bench          (BENCH_SIZE_MIB=64 BENCH_ROUNDS=2 for a quick look;
//   BENCH_ONLY=pipe, or another word of the row labels, runs only the rows whose label contains it; a whole label,
//   BENCH_ONLY='upload | pipe' say, runs only that row)
import { execFile, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, open, rm, stat } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { generateTestCertificates } from '@paykit/mock-server';

const run = promisify(execFile);
const here = (name) => fileURLToPath(new URL(name, import.meta.url));
const cliPath = here('../dist/cli/main.js');
const sizeMiB = Number(process.env.BENCH_SIZE_MIB ?? 1024);
const rounds = Number(process.env.BENCH_ROUNDS ?? 4);
const MiB = 1024 * 1024;
const targets = { ratio: 1.3, peakMiB: 128 };
const only = process.env.BENCH_ONLY;
/** The rows, in the order they run. */
const labels = ['upload < file', 'upload | pipe', 'upload | pipe, no --size', 'download'];

async function writeRandomishFile(path, bytes) {
  // Incompressible-looking content without paying for 1 GiB of randomness: a random 1 MiB block, varied per MiB.
  const { randomBytes } = await import('node:crypto');
  const block = randomBytes(MiB);
  const out = createWriteStream(path);
  for (let written = 0; written < bytes; written += MiB) {
    block.writeUInt32LE(written / MiB, 0);
    if (!out.write(Buffer.from(block))) await new Promise((resolve) => out.once('drain', resolve));
  }
  await new Promise((resolve, reject) => out.end((error) => (error ? reject(error) : resolve())));
  // Flush it to disk now: otherwise its write-back competes with the first measured downloads for the disk.
  const handle = await open(path, 'r+');
  await handle.sync();
  await handle.close();
}

/** Runs a shell command line under /usr/bin/time; returns wall, user and system seconds and peak RSS in MiB. */
async function measure(commandLine, env) {
  // `exec` puts the measured program in the shell's place (with a pipe, the peak is the largest process's).
  const { stderr } = await run('/usr/bin/time', ['-f', 'BENCH %e %U %S %M', 'sh', '-c', commandLine], { env, maxBuffer: 16 * MiB });
  const match = /BENCH ([\d.]+) ([\d.]+) ([\d.]+) (\d+)/.exec(stderr);
  if (!match) throw new Error(`no measurement in: ${stderr}`);
  return { seconds: Number(match[1]), userSeconds: Number(match[2]), systemSeconds: Number(match[3]), peakMiB: Number(match[4]) / 1024 };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** What each contender is called in the printed lines. */
const names = { paykit: 'paykit-files', curl: 'curl', node: 'node:https alone', undici: 'undici alone', nodeSpooled: 'node:https + spool', nodeReused: 'node:https, reused buffers', nodeReusedSpooled: 'node:https, reused buffers + spool', curlSpooled: 'cat > file; curl -T file' };
/** BENCH_TRANSPORTS=undici adds the same transfers made with undici to the rows of a file and a download. */
const withUndici = (process.env.BENCH_TRANSPORTS ?? '').split(',').includes('undici');

/**
 * Runs the contenders `rounds` times, rotating who goes first, and prints medians, paired ratios and peak memory.
 * `paykit` and `curl` are always there; `node` (the same transfer by a minimal node:https program,
 * node-https-transfer.mjs) shows what Node itself costs beside curl, so a run separates that from what the CLI adds.
 */
async function compare(label, contenders, afterEach) {
  if (only !== undefined && label !== only && (labels.includes(only) || !label.includes(only))) return;
  const entrants = Object.keys(contenders);
  const results = Object.fromEntries(entrants.map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    // Rotate who goes first so that cache warmth and background load fall on all alike.
    const order = entrants.map((_, i) => entrants[(i + round) % entrants.length]);
    for (const name of order) {
      results[name].push(await contenders[name]());
      await afterEach?.(name);
      await sleep(1000); // let the previous run's sockets and file system work settle
    }
  }
  const summary = (name) => {
    const of = (field) => median(results[name].map((r) => r[field]));
    return { seconds: of('seconds'), userSeconds: of('userSeconds'), systemSeconds: of('systemSeconds'), peakMiB: Math.max(...results[name].map((r) => r.peakMiB)) };
  };
  // Each round's runs are neighbours in time, so their ratio cancels most of the machine's background load.
  const ratio = (a, b) => median(results[a].map((r, i) => r.seconds / results[b][i].seconds)).toFixed(2);
  const paykit = summary('paykit');
  const others = entrants.filter((name) => name !== 'paykit' && name !== 'curl');
  console.log(
    [
      label.padEnd(25),
      entrants.map((name) => `${names[name]} ${summary(name).seconds.toFixed(2)} s, peak ${summary(name).peakMiB.toFixed(1)} MiB`).join(' | '),
      `time ratio paykit-files/curl ${ratio('paykit', 'curl')}x (median of rounds; target <= ${targets.ratio}x)` +
        others.map((name) => `, ${names[name]}/curl ${ratio(name, 'curl')}x, paykit-files/${names[name]} ${ratio('paykit', name)}x`).join(''),
      `paykit-files peak memory ${paykit.peakMiB.toFixed(1)} MiB, highest of all rounds (target < ${targets.peakMiB} MiB)`,
      `all rounds ${entrants.map((name) => `${names[name]} ${results[name].map((r) => r.seconds.toFixed(2)).join('/')} s`).join(', ')}`,
      // CPU time shows where the time goes (system time is mostly the kernel copying into the page cache) and is
      // steadier than wall time when other work shares the cores.
      `cpu user/system ${entrants.map((name) => `${names[name]} ${summary(name).userSeconds.toFixed(2)}/${summary(name).systemSeconds.toFixed(2)} s`).join(', ')}`,
    ].join(' | '),
  );
}

const dir = await mkdtemp(join(tmpdir(), 'paykit-bench-'));
let server;
try {
  const certs = await generateTestCertificates(join(dir, 'certs'));
  const source = join(dir, 'source.bin');
  const inbox = join(dir, 'inbox');
  const ledger = join(dir, 'ledger.txt');
  const curlTarget = join(inbox, 'curl.bin');
  await writeRandomishFile(source, sizeMiB * MiB);

  const env = {
    PATH: process.env.PATH,
    BENCH_CA: certs.caCertPath,
    BENCH_SERVER_CERT: certs.serverCertPath,
    BENCH_SERVER_KEY: certs.serverKeyPath,
    BENCH_DOWNLOAD_FILE: source,
    BENCH_CLIENT_CERT: certs.clientCertPath,
    BENCH_CLIENT_KEY: certs.clientKeyPath,
  };
  server = spawn(process.execPath, [here('./transfer-server.mjs')], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve, reject) => {
    server.stdout.once('data', (chunk) => resolve(Number(String(chunk).trim())));
    server.once('exit', (code) => reject(new Error(`bench server exited (${code})`)));
  });
  const baseUrl = `https://127.0.0.1:${port}/services/messaging/rest`;
  const cliEnv = {
    PATH: process.env.PATH,
    PAYKIT_FILES_BASE_URL: baseUrl,
    PAYKIT_FILES_CERT_FILE: certs.clientPfxPath,
    PAYKIT_FILES_CERT_PASSWORD: certs.clientPfxPassword,
    PAYKIT_FILES_CA_FILE: certs.caCertPath,
    PAYKIT_FILES_LEDGER: ledger,
  };
  const cli = `exec ${JSON.stringify(process.execPath)} ${JSON.stringify(cliPath)}`;
  const curl = `curl --silent --show-error --fail --cert ${certs.clientCertPath} --key ${certs.clientKeyPath} --cacert ${certs.caCertPath}`;
  const uploadUrl = `${baseUrl}/uploadedFiles/BENCH_1GIB.bin`;
  const nodeAlone = `exec ${JSON.stringify(process.execPath)} ${JSON.stringify(here('./node-https-transfer.mjs'))}`;
  const nodeTarget = join(inbox, 'node.bin');
  const undiciAlone = `exec ${JSON.stringify(process.execPath)} ${JSON.stringify(here('./undici-transfer.mjs'))}`;
  const undiciTarget = join(inbox, 'undici.bin');
  const spoolCopy = join(dir, 'spooled-by-shell.bin');

  console.log(`transfer of ${sizeMiB} MiB over client-certificate TLS on loopback, ${rounds} round(s), median of each`);
  await compare('upload < file', {
    paykit: () => measure(`${cli} upload BENCH_1GIB.bin --quiet < ${source}`, cliEnv),
    // -T streams the file (as --data-binary @file would not: it reads the whole file into memory first).
    curl: () => measure(`exec ${curl} -X POST -H 'Content-Type: application/octet-stream' -T ${source} ${uploadUrl}`, env),
    node: () => measure(`${nodeAlone} upload-file ${source} ${uploadUrl}`, env),
    ...(withUndici ? { undici: () => measure(`${undiciAlone} upload-file ${source} ${uploadUrl}`, env) } : {}),
  });
  await compare('upload | pipe', {
    paykit: () => measure(`cat ${source} | ${cli} upload BENCH_1GIB.bin --quiet --size ${sizeMiB * MiB}`, cliEnv),
    curl: () => measure(`cat ${source} | ${curl} -X POST -H 'Content-Type: application/octet-stream' -H 'Content-Length: ${sizeMiB * MiB}' -H 'Transfer-Encoding:' -T - ${uploadUrl}`, env),
    // No spool: it could not resend after a failure, which the CLI must be able to do (the reference's retry rule).
    node: () => measure(`cat ${source} | ${nodeAlone} upload-stdin ${sizeMiB * MiB} ${uploadUrl}`, env),
    // The same plus the least a resend needs: each piece written to a spool file before it is sent.
    nodeSpooled: () => measure(`cat ${source} | ${nodeAlone} upload-stdin-spooled ${sizeMiB * MiB} ${uploadUrl}`, env),
    // No spool, but the pipe read into reused buffers as the CLI reads it: the best Node does with a pipe.
    nodeReused: () => measure(`cat ${source} | ${nodeAlone} upload-stdin-reused ${sizeMiB * MiB} ${uploadUrl}`, env),
    // Both: the floor of a Node client that reads the pipe as the CLI does and can resend it.
    nodeReusedSpooled: () => measure(`cat ${source} | ${nodeAlone} upload-stdin-reused-spooled ${sizeMiB * MiB} ${uploadUrl}`, env),
  });
  // Without --size the length is known only at the end of the input, and the service needs it before the first byte:
  // the CLI reads the pipe into its spool file first, then sends the file. curl is given the length, as above. The
  // third contender does the CLI's job with shell tools: copy the pipe to a file, then send the file (curl cannot
  // learn the length from a pipe itself: `--data-binary @-` reads it into memory and ran out of it at 1 GiB).
  await compare('upload | pipe, no --size', {
    paykit: () => measure(`cat ${source} | ${cli} upload BENCH_1GIB.bin --quiet --allow-unknown-size`, cliEnv),
    curl: () => measure(`cat ${source} | ${curl} -X POST -H 'Content-Type: application/octet-stream' -H 'Content-Length: ${sizeMiB * MiB}' -H 'Transfer-Encoding:' -T - ${uploadUrl}`, env),
    curlSpooled: () =>
      measure(`cat ${source} | cat > ${spoolCopy} && ${curl} -X POST -H 'Content-Type: application/octet-stream' -T ${spoolCopy} ${uploadUrl}; status=$?; rm -f ${spoolCopy}; exit $status`, env),
  });
  await compare(
    'download',
    {
      paykit: () => measure(`${cli} download --out ${inbox} --quiet`, cliEnv),
      curl: async () => {
        await mkdir(inbox, { recursive: true });
        return measure(`exec ${curl} -o ${curlTarget} ${baseUrl}/filesForDownload/BENCH_1GIB.bin`, env);
      },
      node: async () => {
        await mkdir(inbox, { recursive: true });
        return measure(`${nodeAlone} download ${baseUrl}/filesForDownload/BENCH_1GIB.bin ${nodeTarget}`, env);
      },
      ...(withUndici
        ? {
            undici: async () => {
              await mkdir(inbox, { recursive: true });
              return measure(`${undiciAlone} download ${baseUrl}/filesForDownload/BENCH_1GIB.bin ${undiciTarget}`, env);
            },
          }
        : {}),
    },
    async (name) => {
      const { size } = await stat({ curl: curlTarget, node: nodeTarget, undici: undiciTarget, paykit: join(inbox, 'BENCH_1GIB.bin') }[name]);
      if (size !== sizeMiB * MiB) throw new Error(`${name} downloaded ${size} bytes, expected ${sizeMiB * MiB}`);
      await rm(inbox, { recursive: true, force: true });
      await rm(ledger, { force: true });
    },
  );
} finally {
  server?.kill('SIGTERM');
  await rm(dir, { recursive: true, force: true });
}
