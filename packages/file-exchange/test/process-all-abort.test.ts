import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AbortedError, type FileExchangeClient, type ProcessAllOptions, type ProcessedFileLedger, type ReceivedFile } from '../src/index.js';
import { startMock, type MockFixture } from './support/mock.js';

// processAll's signal, at each phase of a run: the run ends with AbortedError (operation processAll, the reason as
// cause), nothing is lost, a file whose handler succeeded is recorded, and the private work folder is removed.

let fx: MockFixture;
let client: FileExchangeClient;
let dir: string;

beforeAll(async () => {
  fx = await startMock();
  client = await fx.client();
});
afterAll(async () => {
  await fx?.close();
});
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'paykit-process-abort-'));
  for (const fileName of ['A.csv', 'B.csv']) fx.mock.store.enqueueDownload({ fileName, content: Buffer.from(`content of ${fileName}`) });
});
afterEach(async () => {
  for (const name of fx.mock.store.pendingDownloads()) await client.delete(name);
  await rm(dir, { recursive: true, force: true });
});

function memoryLedger(): ProcessedFileLedger & { names: Set<string> } {
  const names = new Set<string>();
  return { names, has: async (name) => names.has(name), record: async (name) => void names.add(name) };
}

interface Row {
  phase: string;
  /** Sets the run up to abort `controller` at its phase. */
  arrange: (controller: AbortController) => { handler?: (file: ReceivedFile) => Promise<void>; options?: Partial<ProcessAllOptions> };
  handled: string[];
  recorded: string[];
  stillListed: string[];
}

const reason = new Error('operator stop');
const rows: Row[] = [
  { phase: 'before it starts', arrange: (c) => (c.abort(reason), {}), handled: [], recorded: [], stillListed: ['A.csv', 'B.csv'] },
  {
    phase: 'in a handler that stops on the signal',
    arrange: (c) => ({
      handler: async (file) => {
        c.abort(reason);
        file.signal.throwIfAborted();
      },
    }),
    handled: ['A.csv'],
    recorded: [],
    stillListed: ['A.csv', 'B.csv'],
  },
  {
    phase: 'in a handler that finishes anyway',
    arrange: (c) => ({ handler: async () => c.abort(reason) }),
    handled: ['A.csv'],
    // Handled is recorded; its delete is left to the next run (it sees A.csv in the ledger).
    recorded: ['A.csv'],
    stillListed: ['A.csv', 'B.csv'],
  },
  {
    phase: 'between two files',
    arrange: (c) => ({ options: { onFile: () => c.abort(reason) } }),
    handled: ['A.csv'],
    recorded: ['A.csv'],
    stillListed: ['B.csv'],
  },
  {
    phase: 'during a download',
    arrange: (c) => ({ options: { onProgress: () => c.abort(reason) } }),
    handled: [],
    recorded: [],
    stillListed: ['A.csv', 'B.csv'],
  },
];

describe('processAll with a signal', () => {
  it.each(rows)('aborted $phase: AbortedError, nothing lost, the work folder removed', async (row) => {
    const controller = new AbortController();
    const ledger = memoryLedger();
    const handled: string[] = [];
    const arranged = row.arrange(controller);
    const error = await client
      .processAll(
        async (file) => {
          handled.push(file.name);
          await arranged.handler?.(file);
        },
        { ledger, workDir: dir, signal: controller.signal, ...arranged.options },
      )
      .then(() => new Error('no error'), (thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(AbortedError);
    expect(error).toMatchObject({ operation: 'processAll', cause: reason });
    expect({ handled, recorded: [...ledger.names], stillListed: fx.mock.store.pendingDownloads().sort() }).toEqual({
      handled: row.handled,
      recorded: row.recorded,
      stillListed: row.stillListed,
    });
    expect(await readdir(dir)).toEqual([]);
  });
});
