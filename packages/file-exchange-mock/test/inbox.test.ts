import { appendFile, mkdir, mkdtemp, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { DownloadInbox, type InboxEvent } from '../src/inbox.js';
import { FileExchangeState } from '../src/store.js';

// The inbox is driven by calling scan() directly: no timers, each scan is one step of the rule.
describe('the download inbox folder', () => {
  let dir: string;
  let state: FileExchangeState;
  let events: InboxEvent[];
  let inbox: DownloadInbox;

  beforeEach(async () => {
    dir = join(await mkdtemp(join(tmpdir(), 'paykit-inbox-')), 'inbox');
    state = new FileExchangeState({ maxDownloadAttempts: 50, maxListEntries: 1000 });
    events = [];
    inbox = await DownloadInbox.open(dir, state, (event) => events.push(event));
  });
  afterEach(async () => {
    await inbox.stop();
    await rm(join(dir, '..'), { recursive: true, force: true });
  });

  const contentOf = (name: string) => {
    const outcome = state.download(name);
    return outcome.kind === 'found' ? outcome.file.content.read().toString() : outcome.kind;
  };

  test('creates the folder with queued/ and refused/', async () => {
    expect((await readdir(dir)).sort()).toEqual(['queued', 'refused']);
  });

  test('a file is queued under its name at the second scan that finds it unchanged, and moved to queued/', async () => {
    await writeFile(join(dir, 'REPORT_20260101_001.csv'), 'a;b\n');
    await inbox.scan();
    expect(state.pendingDownloads()).toEqual([]);
    await inbox.scan();
    expect(state.pendingDownloads()).toEqual(['REPORT_20260101_001.csv']);
    expect(contentOf('REPORT_20260101_001.csv')).toBe('a;b\n');
    expect(await readdir(dir)).not.toContain('REPORT_20260101_001.csv');
    expect(await readdir(join(dir, 'queued'))).toEqual(['REPORT_20260101_001.csv']);
    expect(events).toEqual([{ kind: 'queued', fileName: 'REPORT_20260101_001.csv', path: join(dir, 'queued', 'REPORT_20260101_001.csv') }]);
  });

  test('a file still growing between scans waits until it stops changing', async () => {
    const path = join(dir, 'growing.bin');
    await writeFile(path, 'part one,');
    await inbox.scan();
    await appendFile(path, 'part two');
    await inbox.scan();
    expect(state.pendingDownloads()).toEqual([]);
    await inbox.scan();
    expect(contentOf('growing.bin')).toBe('part one,part two');
  });

  test('an empty file is queued like any other', async () => {
    await writeFile(join(dir, 'empty.txt'), '');
    await inbox.scan();
    await inbox.scan();
    expect(contentOf('empty.txt')).toBe('');
  });

  test('a name the service refuses is not queued and moves to refused/, with the reason', async () => {
    await writeFile(join(dir, 'my report.csv'), 'x');
    await inbox.scan();
    await inbox.scan();
    expect(state.pendingDownloads()).toEqual([]);
    expect(await readdir(join(dir, 'refused'))).toEqual(['my report.csv']);
    expect(events).toEqual([expect.objectContaining({ kind: 'refused', fileName: 'my report.csv', reason: expect.stringContaining('letters, digits') })]);
  });

  test('names starting with a dot and sub-folders are left alone; renaming a dot file into place queues it', async () => {
    await writeFile(join(dir, '.incoming.csv'), 'being written');
    await mkdir(join(dir, 'folder_name'));
    await inbox.scan();
    await inbox.scan();
    expect(state.pendingDownloads()).toEqual([]);
    expect((await readdir(dir)).sort()).toEqual(['.incoming.csv', 'folder_name', 'queued', 'refused']);

    await rename(join(dir, '.incoming.csv'), join(dir, 'incoming.csv'));
    await inbox.scan();
    await inbox.scan();
    expect(contentOf('incoming.csv')).toBe('being written');
  });

  test('a file dropped again under a queued name replaces it in the queue', async () => {
    await writeFile(join(dir, 'daily.csv'), 'first');
    await inbox.scan();
    await inbox.scan();
    await writeFile(join(dir, 'daily.csv'), 'second');
    await inbox.scan();
    await inbox.scan();
    expect(state.pendingDownloads()).toEqual(['daily.csv']);
    expect(contentOf('daily.csv')).toBe('second');
  });

  test('once stopped, a scan takes nothing', async () => {
    await writeFile(join(dir, 'late.txt'), 'x');
    await inbox.scan();
    await inbox.stop();
    await inbox.scan();
    expect(state.pendingDownloads()).toEqual([]);
    expect(await readdir(dir)).toContain('late.txt');
  });

  test('a folder that disappears is reported, not thrown', async () => {
    await rm(dir, { recursive: true });
    await inbox.scan();
    expect(events).toEqual([expect.objectContaining({ kind: 'error', message: expect.stringContaining('ENOENT') })]);
  });
});
