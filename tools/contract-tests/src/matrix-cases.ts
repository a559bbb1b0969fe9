import type { OpenApiDocument } from '@paykit/contracts';
import { exampleRequests, type ExampleRequest } from './example-request.js';
import { listOperations, type OperationInfo } from './openapi-document.js';

/** One row of the matrix: an operation, one of its example requests, and one answer asked of the mock. */
export interface MatrixCase {
  name: string;
  operation: OperationInfo;
  request: ExampleRequest;
  status: number;
  /** The media type asked for with `Accept` (undefined when the answer has no body). */
  mediaType: string | undefined;
  /** The response example asked for with `Prefer: example=`, when the answer has named examples. */
  example: string | undefined;
  /** The value of the `Prefer` header that makes Prism answer this case. */
  prefer: string;
}

export interface MatrixOptions {
  /** Also ask for every declared error status (the client must turn each into its typed error). */
  includeErrors: boolean;
}

/**
 * Every case of a contract, computed from the spec: each operation times each request example times each declared
 * status, media type and named response example. Nothing here names an operation, so a new operation in the spec
 * becomes new rows.
 */
export function matrixCases(document: OpenApiDocument, options: MatrixOptions): MatrixCase[] {
  const cases: MatrixCase[] = [];
  for (const operation of listOperations(document)) {
    // Error cases are asked with the Accept the client sends by default: its first success media type. An error body
    // in another media type cannot be negotiated (Prism answers 500 then), so such rows are left out.
    const defaultAccept = operation.responses.find((r) => /^2\d\d$/.test(r.status) && r.content.length > 0)?.content[0]?.mediaType;
    for (const request of exampleRequests(document, operation)) {
      for (const response of operation.responses) {
        const status = Number(response.status);
        if (!Number.isInteger(status)) continue; // `default` and `4XX` ranges: Prism cannot be asked for them
        if (status >= 300 && !options.includeErrors) continue;
        const base = `${operation.operationId} [${request.label}] -> ${status}`;
        if (response.content.length === 0) {
          cases.push({ name: base, operation, request, status, mediaType: undefined, example: undefined, prefer: `code=${status}` });
          continue;
        }
        for (const content of response.content) {
          if (status >= 300 && defaultAccept && content.mediaType !== defaultAccept) continue;
          const examples = content.examples.length > 0 ? content.examples.map((e) => e.name) : [undefined];
          for (const example of examples) {
            cases.push({
              name: `${base} ${content.mediaType}${example ? ` (${example})` : ''}`,
              operation,
              request,
              status,
              mediaType: content.mediaType,
              example,
              prefer: example ? `code=${status}, example=${example}` : `code=${status}`,
            });
          }
        }
      }
    }
  }
  return cases;
}

/** The first success case of each operation: what the tolerance suite mutates. */
export function firstSuccessCases(cases: MatrixCase[]): MatrixCase[] {
  const seen = new Set<string>();
  return cases.filter((c) => {
    if (c.status >= 300 || seen.has(c.operation.operationId)) return false;
    seen.add(c.operation.operationId);
    return true;
  });
}
