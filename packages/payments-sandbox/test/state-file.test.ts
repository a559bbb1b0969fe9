import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, watch } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startPaymentsSandbox } from '../src/index.js';
import { parseState } from '../src/state/persistence.js';
import { basic } from './support.js';

const keys = { secret: 'sk_state_test', publishable: 'pk_state_test' };

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'paykit-sandbox-state-'));
  file = join(dir, 'state.json');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const processScript = fileURLToPath(new URL('./support/sandbox-process.mjs', import.meta.url));

/** The built sandbox with `stateFile: file` as a real process, and its base address once it listens. */
async function startProcess() {
  const child = spawn(process.execPath, [processScript, file, keys.secret, keys.publishable], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /payments-sandbox ready: (\S+)/.exec(output);
      if (ready) resolve(ready[1]!);
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', () => reject(new Error(`the sandbox process exited early:\n${output}`)));
  });
  return { child, url, exited };
}

const headers = { authorization: basic(keys.secret), accept: 'application/json', 'content-type': 'application/json' };
// A long name makes each write of the state take a while, so that the kill can land in the middle of one.
const filler = 'x'.repeat(10_000);

describe('payments sandbox: --state FILE', () => {
  it('survives SIGKILL in the middle of a write: the file is whole, and every acknowledged change is in it', async () => {
    const acknowledged: string[] = [];
    let killedMidWrite = 0;
    for (let round = 1; round <= 3; round++) {
      const { child, url, exited } = await startProcess();
      let stop = false;
      let armed = false;
      // Kill -9 the moment the sandbox starts writing a new version of the state.
      const watcher = watch(dir, (_event, name) => {
        // The event of the temporary file's creation: the write has just begun.
        if (armed && name?.endsWith('.tmp') && !stop && existsSync(join(dir, name))) {
          stop = true;
          child.kill('SIGKILL');
        }
      });
      const writer = async (worker: number) => {
        for (let n = 0; !stop; n++) {
          const response = await fetch(`${url}/customers`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ customerNumber: `R${round}-W${worker}-${n}`, customerName: filler }),
          }).catch(() => undefined);
          if (response?.status === 201) acknowledged.push(((await response.json()) as { customerId: string }).customerId);
          if (acknowledged.length >= 25 * round) armed = true;
        }
      };
      await Promise.all([1, 2, 3, 4].map(writer));
      await exited;
      watcher.close();
      expect(child.signalCode).toBe('SIGKILL');
      if (readdirSync(dir).some((name) => name.endsWith('.tmp'))) killedMidWrite += 1;

      const saved = parseState(readFileSync(file, 'utf8'), file);
      const missing = acknowledged.filter((id) => !saved.customers.has(id));
      expect(missing, `round ${round}: acknowledged customers missing from the file`).toEqual([]);
    }
    console.log(`state file: 3 SIGKILLs, ${killedMidWrite} of them in the middle of a write; ${acknowledged.length} acknowledged customers, none lost`);
    expect(killedMidWrite, 'rounds in which the kill cut a write short').toBeGreaterThan(0);

    const { child, url, exited } = await startProcess();
    try {
      expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
      for (const id of acknowledged) expect((await fetch(`${url}/customers/${id}`, { headers })).status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  }, 120_000); // four starts of a real process and three crash rounds, each flushing its writes to disk

  it('keeps the clock, scheduled work, subscriptions and idempotency records across a restart', async () => {
    const settings = { aliasRegistrationDelayMs: 60_000 };
    const first = await startPaymentsSandbox({ stateFile: file, keys: { secret: [keys.secret] }, settings });
    await first.control.advanceClock({ ms: 3_600_000 });
    await first.control.createWebhookSubscription({ url: 'http://127.0.0.1:9/hooks', secret: 'whsec', eventTypes: ['alias.payment.received'] });
    const created = await fetch(`${first.url}/aliases`, {
      method: 'POST',
      headers: { ...headers, 'Idempotency-Key': 'alias-1' },
      body: JSON.stringify({ aliasAddress: 'kept@pay.example.com', type: 'STATIC', supplierBusinessCode: 'TEST_BUSINESS' }),
    });
    const alias = (await created.json()) as { id: string; status: string };
    expect(alias.status).toBe('PENDING');
    await first.close();
    expect(existsSync(file)).toBe(true);

    const second = await startPaymentsSandbox({ stateFile: file, keys: { secret: [keys.secret] }, settings });
    try {
      expect((await second.control.getClock()).offsetMs).toBeGreaterThanOrEqual(3_600_000);
      expect(await second.control.listWebhookSubscriptions()).toHaveLength(1);
      const replay = await fetch(`${second.url}/aliases`, {
        method: 'POST',
        headers: { ...headers, 'Idempotency-Key': 'alias-1' },
        body: JSON.stringify({ aliasAddress: 'other@pay.example.com', type: 'STATIC', supplierBusinessCode: 'TEST_BUSINESS' }),
      });
      expect(((await replay.json()) as { id: string }).id).toBe(alias.id);
      await second.control.advanceClock({ ms: 60_000 });
      const after = await fetch(`${second.url}/aliases/${alias.id}`, { headers });
      expect(((await after.json()) as { status: string }).status).toBe('REGISTERED');
    } finally {
      await second.close();
    }
  });

  it('refuses to start from a file that is not a sandbox state', async () => {
    const { writeFile } = await import('node:fs/promises');
    await writeFile(file, '{"customers": []}');
    await expect(startPaymentsSandbox({ stateFile: file })).rejects.toThrow(/not a version 1 sandbox state file/);
  });
});
