import type { GeneratedFile, OpenApiDocument } from '@paykit/contracts';

export type { GeneratedFile };

/** Makes files from the bundled contract; `specPath` (relative to the repo root) goes into their header. */
export type Generator = (input: { document: OpenApiDocument; specPath: string }) => GeneratedFile[] | Promise<GeneratedFile[]>;
