import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The README's fault model is a promise with a proof per cell: a cell that names a test nobody wrote, or an entry
// point a fault class says nothing about, is a hole in it. The test names are read as the README writes them,
// `file › title › title`, each title the start of a title in that file (a table row's label for `$label`, say).

const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');
const testDir = new URL('./', import.meta.url);
const repoRoot = new URL('../../../', import.meta.url);
const entryPoints = ['M', 'R', 'S', 'O', 'L', 'V', 'W'];

interface Cell {
  fault: string;
  entries: string[];
  proof: string;
}

function faultTable(): Cell[] {
  const start = readme.indexOf('| Fault | Entry | Outcome | Proved by |');
  if (start < 0) throw new Error('the README has no fault table');
  const lines = readme.slice(start, readme.indexOf('\n\n', start)).split('\n').slice(2);
  let fault = '';
  return lines.map((line) => {
    const cells = line.trim().slice(1, -1).split(' | ').map((cell) => cell.trim());
    fault = cells[0] || fault;
    return { fault, entries: cells[1]!.match(/\b[MRSOLVW]\b/g) ?? [], proof: cells.at(-1)! };
  });
}

/** Every `file › title › title` (or `› title`, of the file named before it in the cell) of a cell. */
function references(cell: Cell) {
  let file: string | undefined;
  const found: { fault: string; file: string; test: string; titles: string[] }[] = [];
  for (const [, quoted] of cell.proof.matchAll(/`([^`]+)`/g)) {
    const [head, ...titles] = quoted!.split('›').map((part) => part.trim());
    if (head) file = head;
    if (file && /\.test(-d)?\.ts$/.test(file)) found.push({ fault: cell.fault, file, test: titles.join(' › '), titles });
  }
  return found;
}

const table = faultTable();

describe('the README fault table', () => {
  it('has a row for every fault class the fault model names', () => {
    expect(table.length).toBeGreaterThan(30);
  });

  it.each([...new Set(table.map((cell) => cell.fault))])('"%s" says what happens at every entry point', (fault) => {
    const covered = new Set(table.filter((cell) => cell.fault === fault).flatMap((cell) => cell.entries));
    expect(entryPoints.filter((entry) => !covered.has(entry))).toEqual([]);
  });

  it.each(table.flatMap(references))('$fault: $file › $test is a test there', ({ file, titles }) => {
    const path = new URL(file, file.startsWith('tools/') ? repoRoot : testDir);
    expect(existsSync(path), `${file} exists`).toBe(true);
    const source = readFileSync(path, 'utf8');
    for (const title of titles) expect(["'", '"', '`'].some((quote) => source.includes(quote + title)), title).toBe(true);
  });
});
