// The operations and tags of an OpenAPI contract, read from its split sources by the one reader of the contracts,
// so the browser test expects what the spec says rather than what Redoc happened to render.
import { readOpenApiContract } from '@paykit/contracts';

export interface SpecOperation {
  method: string;
  path: string;
  operationId: string;
  summary: string;
  tag: string;
}

export interface SpecSummary {
  title: string;
  version: string;
  operations: SpecOperation[];
}

export async function readSpecSummary(specFile: string): Promise<SpecSummary> {
  const { document, operations } = await readOpenApiContract(specFile);
  const info = document.info as Record<string, unknown>;
  return {
    title: String(info.title),
    version: String(info.version),
    operations: operations.map(({ method, path, operationId, operation }) => ({
      method,
      path,
      operationId,
      summary: String(operation.summary ?? ''),
      tag: String((operation.tags as string[] | undefined)?.[0] ?? ''),
    })),
  };
}
