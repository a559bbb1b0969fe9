import type { GeneratedFile } from '@paykit/contracts';

export type { GeneratedFile };

/** What the generator writes into one package. */
export interface Output {
  /** Package folder, relative to the repository root (or to `--out`). */
  packageDir: string;
  /** Folders owned entirely by this output: any file in them that the generator does not write is drift. */
  generatedDirs: string[];
  files: GeneratedFile[];
}
