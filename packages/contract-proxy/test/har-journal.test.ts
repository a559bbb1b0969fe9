import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harHead, type HarEntry } from '../src/har.js';
import { HarJournal } from '../src/har-journal.js';

const head = harHead('http://upstream.test/rest/v1', '1.2.3');
const entry = (operation: string, text = ''): HarEntry =>
  ({ _paykitOperation: operation, request: { method: 'GET', url: `http://upstream.test/${operation}` }, response: { content: { text } } }) as unknown as HarEntry;

describe('a recording kept on disk as it grows', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'paykit-har-journal-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  const parsed = async (path: string) => JSON.parse(await readFile(path, 'utf8')) as { log: typeof head & { entries: HarEntry[] } };

  it('is a whole HAR after every entry, and an entry is in the file when its append resolves', async () => {
    const path = join(dir, 'growing.har');
    const journal = await HarJournal.create(path, head);
    expect(await parsed(path)).toEqual({ log: { ...head, entries: [] } });
    const entries = [entry('a'), entry('b', '{"x":"]}}\\n"}'), entry('c')];
    for (const [index, next] of entries.entries()) {
      await journal.append(next);
      expect((await parsed(path)).log.entries).toEqual(entries.slice(0, index + 1));
    }
    expect(await journal.close()).toBe(3);
    expect(await parsed(path)).toEqual({ log: { ...head, entries } });
  });

  it('writes entries appended at once in order, batched into fewer writes than entries', async () => {
    const path = join(dir, 'burst.har');
    const journal = await HarJournal.create(path, head);
    const entries = Array.from({ length: 50 }, (_, i) => entry(`op${i}`, 'x'.repeat(i * 97)));
    await Promise.all(entries.map((next) => journal.append(next)));
    expect(journal.entries).toBe(50);
    expect(await journal.close()).toBe(50);
    expect((await parsed(path)).log.entries).toEqual(entries);
  });

  it('empties a file left by an earlier session', async () => {
    const path = join(dir, 'reused.har');
    const first = await HarJournal.create(path, head);
    for (const name of ['a', 'b', 'c']) await first.append(entry(name, 'long '.repeat(200)));
    await first.close();
    const second = await HarJournal.create(path, head);
    await second.append(entry('d'));
    await second.close();
    expect((await parsed(path)).log.entries).toEqual([entry('d')]);
  });

  it('a file that cannot be opened fails at once, before any traffic', async () => {
    await expect(HarJournal.create(join(dir, 'no-such-folder', 'x.har'), head)).rejects.toThrow(/ENOENT/);
  });

  it('a write that fails rejects its append and every later one, and close reports it', async () => {
    const path = join(dir, 'failing.har');
    await writeFile(path, '');
    const journal = await HarJournal.create(path, head);
    // Closing the handle under the journal makes its next write fail the way a vanished disk would.
    await (journal as unknown as { file: { close(): Promise<void> } }).file.close();
    await expect(journal.append(entry('a'))).rejects.toThrow();
    await expect(journal.append(entry('b'))).rejects.toThrow();
    await expect(journal.close()).rejects.toThrow();
    await chmod(path, 0o644);
  });
});
