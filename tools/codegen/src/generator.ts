import type { OpenApiDocument } from '@paykit/contracts';

/** One file a generator writes. */
export interface GeneratedFile {
  /** Path relative to the output's package folder. */
  path: string;
  content: string;
}

/** Makes files from the bundled contract; `specPath` (relative to the repo root) goes into their header. */
export type Generator = (input: { document: OpenApiDocument; specPath: string }) => GeneratedFile[] | Promise<GeneratedFile[]>;
