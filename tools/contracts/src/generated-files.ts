import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** One file a code generator writes. */
export interface GeneratedFile {
  /** Path relative to the package folder it is written into. */
  path: string;
  content: string;
}

/** What a generator owns in one package: every file of `generatedDirs` is either in `files` or drift. */
export interface GeneratedFolders {
  /** The package folder (absolute). */
  packageDir: string;
  /** Folders, relative to `packageDir`, that hold generated files only. */
  generatedDirs: readonly string[];
  files: readonly GeneratedFile[];
}

/** What writing the generated files of one package changed on disk. */
export interface WriteSummary {
  written: number;
  unchanged: number;
  removed: number;
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/** The files of the generated folders that the generator does not produce (stale or hand-written). */
async function strayFiles({ packageDir, generatedDirs, files }: GeneratedFolders): Promise<string[]> {
  const expected = new Set(files.map((f) => join(packageDir, f.path)));
  const stray: string[] = [];
  for (const dir of generatedDirs) {
    for (const path of await listFiles(join(packageDir, dir))) if (!expected.has(path)) stray.push(path);
  }
  return stray;
}

/** Differences between what a generator produces and what is on disk, as readable lines (paths shown by `display`). */
export async function findDrift(folders: GeneratedFolders, display: (path: string) => string): Promise<string[]> {
  const problems: string[] = [];
  for (const file of folders.files) {
    const path = join(folders.packageDir, file.path);
    const actual = await readFile(path, 'utf8').catch(() => undefined);
    if (actual === undefined) problems.push(`missing: ${display(path)}`);
    else if (actual !== file.content) problems.push(`differs: ${display(path)}`);
  }
  for (const path of await strayFiles(folders)) problems.push(`not generated (stale or hand-written): ${display(path)}`);
  return problems;
}

/**
 * Brings the generated folders to what the generator produces. A file whose content is already right is not touched,
 * and a changed one is replaced by a rename, so a build or type check reading the folder at the same time never sees
 * a missing or half-written file.
 */
export async function writeGenerated(folders: GeneratedFolders): Promise<WriteSummary> {
  const summary: WriteSummary = { written: 0, unchanged: 0, removed: 0 };
  for (const path of await strayFiles(folders)) {
    await rm(path, { force: true });
    summary.removed++;
  }
  for (const file of folders.files) {
    const path = join(folders.packageDir, file.path);
    if ((await readFile(path, 'utf8').catch(() => undefined)) === file.content) {
      summary.unchanged++;
      continue;
    }
    await mkdir(dirname(path), { recursive: true });
    const temporary = `${path}.${process.pid}.tmp`;
    await writeFile(temporary, file.content);
    await rename(temporary, path);
    summary.written++;
  }
  return summary;
}
