// The third contender of the transfer benchmark: the same transfer done by the smallest Node program that can do it
// on node:https (no spool, no ledger, no checks, no retries). It shows what Node's own TLS and HTTP stack costs on
// the machine, so that each run separates that cost from what the CLI adds to it.
//   node node-https-transfer.mjs upload-file PATH URL | upload-stdin LENGTH URL | upload-stdin-spooled LENGTH URL
//                                | upload-stdin-reused LENGTH URL | upload-stdin-reused-spooled LENGTH URL
//                                | download URL PATH
// Certificates come from BENCH_CLIENT_CERT, BENCH_CLIENT_KEY and BENCH_CA (PEM, as curl is given them).
import { closeSync, mkdtempSync, openSync, read, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:https';
import { Socket } from 'node:net';
import { pipeline } from 'node:stream/promises';

const [mode, first, second] = process.argv.slice(2);
const tls = {
  cert: readFileSync(process.env.BENCH_CLIENT_CERT),
  key: readFileSync(process.env.BENCH_CLIENT_KEY),
  ca: readFileSync(process.env.BENCH_CA),
};

function checkStatus(status, wanted) {
  if (status !== wanted) {
    console.error(`answered ${status}, expected ${wanted}`);
    process.exitCode = 1;
  }
}

function upload(url, length, ...body) {
  return new Promise((resolve, reject) => {
    let answered = false;
    const outgoing = request(new URL(url), { ...tls, method: 'POST', headers: { 'content-type': 'application/octet-stream', 'content-length': String(length) } }, (response) => {
      checkStatus(response.statusCode, 202);
      response.resume();
      response.once('end', () => {
        answered = true;
        resolve();
      });
    });
    // The answer is the transfer's end: the server answers once it has every byte, and on a loaded machine that can
    // come before the request's own 'finish', which pipeline() then reports as a premature close.
    pipeline(...body, outgoing).catch((error) => (answered ? undefined : reject(error)));
  });
}

if (mode === 'upload-file') {
  // 1 MiB reads into two buffers used again once the socket took them, as the CLI does for a file: a fresh buffer
  // per read (fs.createReadStream) costs page faults and a cold cache, and made this program about 1.5x slower.
  const { size } = statSync(first);
  const fd = openSync(first, 'r');
  const outgoing = request(new URL(second), { ...tls, method: 'POST', headers: { 'content-type': 'application/octet-stream', 'content-length': String(size) } }, (response) => {
    checkStatus(response.statusCode, 202);
    response.resume();
  });
  const free = Array.from({ length: 2 }, () => Buffer.allocUnsafeSlow(1 << 20));
  const waiting = [];
  for (let offset = 0; offset < size; ) {
    while (free.length === 0) await new Promise((resolve) => waiting.push(resolve));
    const buffer = free.pop();
    const bytesRead = await new Promise((resolve, reject) => read(fd, buffer, 0, Math.min(buffer.length, size - offset), offset, (error, n) => (error ? reject(error) : resolve(n))));
    offset += bytesRead;
    outgoing.write(bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead), () => {
      free.push(buffer);
      waiting.shift()?.();
    });
  }
  outgoing.end();
  closeSync(fd);
} else if (mode === 'upload-stdin') {
  await upload(second, Number(first), process.stdin);
} else if (mode === 'upload-stdin-spooled') {
  // The least a client must add to upload-stdin to resend a pipe (the reference's retry rule): each piece written to
  // a spool file (synchronously, into the page cache) before it is sent. No read-back, no retries: the floor, not a
  // client.
  const spoolDir = mkdtempSync(join(tmpdir(), 'node-https-spool-'));
  const fd = openSync(join(spoolDir, 'content'), 'w+', 0o600);
  let position = 0;
  const spooled = async function* (source) {
    for await (const chunk of source) {
      for (let offset = 0; offset < chunk.length; ) offset += writeSync(fd, chunk, offset, chunk.length - offset, position + offset);
      position += chunk.length;
      yield chunk;
    }
  };
  try {
    await upload(second, Number(first), process.stdin, spooled);
  } finally {
    closeSync(fd);
    rmSync(spoolDir, { recursive: true, force: true });
  }
} else if (mode === 'upload-stdin-reused' || mode === 'upload-stdin-reused-spooled') {
  // upload-stdin reading the pipe as the CLI does: through net.Socket's onread into 64 KiB buffers used again once
  // the socket took them (process.stdin allocates one per read). Without a spool: the best Node does with a pipe;
  // with one (each piece written to it before it is sent, as upload-stdin-spooled does): the floor of a client
  // that can resend a pipe.
  const spoolDir = mode === 'upload-stdin-reused-spooled' ? mkdtempSync(join(tmpdir(), 'node-https-spool-')) : undefined;
  const spoolFd = spoolDir === undefined ? undefined : openSync(join(spoolDir, 'content'), 'w+', 0o600);
  let position = 0;
  const outgoing = request(new URL(second), { ...tls, method: 'POST', headers: { 'content-type': 'application/octet-stream', 'content-length': first } }, (response) => {
    checkStatus(response.statusCode, 202);
    response.resume();
  });
  const free = [];
  let inFlight = 0;
  let waiting = false; // onread's `return false` stops reading without marking the socket paused
  const input = new Socket({
    fd: 0,
    readable: true,
    writable: false,
    onread: {
      buffer: () => free.pop() ?? Buffer.allocUnsafeSlow(64 * 1024),
      callback: (bytesRead, buffer) => {
        if (spoolFd !== undefined) {
          for (let offset = 0; offset < bytesRead; ) offset += writeSync(spoolFd, buffer, offset, bytesRead - offset, position + offset);
          position += bytesRead;
        }
        inFlight += bytesRead;
        outgoing.write(Buffer.from(buffer.buffer, 0, bytesRead), () => {
          inFlight -= bytesRead;
          free.push(buffer);
          if (inFlight < 4 << 20 && waiting) {
            waiting = false;
            input.resume();
          }
        });
        waiting = inFlight >= 4 << 20;
        return !waiting;
      },
    },
  });
  input.once('end', () => outgoing.end());
  outgoing.once('close', () => {
    if (spoolFd !== undefined) closeSync(spoolFd);
    if (spoolDir !== undefined) rmSync(spoolDir, { recursive: true, force: true });
  });
} else if (mode === 'download') {
  const fd = openSync(second, 'w', 0o600);
  request(new URL(first), tls, (response) => {
    checkStatus(response.statusCode, 200);
    response.on('data', (chunk) => {
      for (let offset = 0; offset < chunk.length; ) offset += writeSync(fd, chunk, offset);
    });
    response.on('end', () => closeSync(fd));
  }).end();
} else {
  throw new Error(`unknown mode ${mode}`);
}
