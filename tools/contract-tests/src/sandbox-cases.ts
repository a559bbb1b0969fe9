import type { OpenApiDocument } from '@paykit/contracts';
import { createPublishableClient, createSecretClient } from '@paykit/payments';
import type { ExampleRequest } from './example-request.js';
import { matrixCases } from './matrix-cases.js';
import { listOperations, type OperationInfo } from './openapi-document.js';
import type { PaymentsClients } from './payments-invoker.js';
import { RecordingFetch } from './recording-fetch.js';
import { SandboxFixtures } from './sandbox-fixtures.js';

/**
 * The matrix against the payments sandbox. Prism answers any declared status when asked with `Prefer`; the sandbox
 * answers what the request deserves. So each row is a situation that makes the sandbox give a status, computed from
 * the spec: the operation's example request on real fixtures (success), an unknown key (401), a key of the wrong type
 * (403), an `Accept` it cannot meet (406), an identifier it does not hold (404), a body the schema refuses (422), and
 * a fault injected before the work for each status every operation declares from 429 up (429, 500, 502, 503, 504).
 */
export type SandboxSituation =
  | { kind: 'success'; mediaType: string | undefined }
  | { kind: 'unknown key' | 'wrong key type' | 'not acceptable' | 'unknown identifier' | 'invalid body' }
  | { kind: 'fault'; status: number };

export interface SandboxCase {
  name: string;
  operation: OperationInfo;
  request: ExampleRequest;
  situation: SandboxSituation;
  /** The status the sandbox must answer; undefined: any success status the operation declares. */
  status: number | undefined;
}

const declares = (operation: OperationInfo, status: number) => operation.responses.some((r) => r.status === String(status));

/** Statuses from 429 up that every operation declares: the faults the sandbox can inject anywhere. */
export function faultStatuses(document: OpenApiDocument): number[] {
  const operations = listOperations(document);
  const first = operations[0]?.responses.map((r) => Number(r.status)).filter((s) => s >= 429) ?? [];
  return first.filter((status) => operations.every((o) => declares(o, status)));
}

export function sandboxCases(document: OpenApiDocument): SandboxCase[] {
  const cases: SandboxCase[] = [];
  const seen = new Set<string>();
  for (const c of matrixCases(document, { includeErrors: false })) {
    const key = `${c.operation.operationId} ${c.request.label} ${c.mediaType}`;
    if (seen.has(key)) continue;
    seen.add(key);
    cases.push({
      name: `${c.operation.operationId} [${c.request.label}] -> success${c.mediaType ? ` ${c.mediaType}` : ''}`,
      operation: c.operation,
      request: c.request,
      situation: { kind: 'success', mediaType: c.mediaType },
      status: undefined,
    });
  }
  const faults = faultStatuses(document);
  for (const operation of listOperations(document)) {
    const request = cases.find((c) => c.operation.operationId === operation.operationId)!.request;
    const jsonBody = operation.requestBody?.content.some((content) => /json/.test(content.mediaType)) ?? false;
    const situations: Array<[SandboxSituation, number, boolean]> = [
      [{ kind: 'unknown key' }, 401, true],
      [{ kind: 'wrong key type' }, 403, operation.security.includes('secretKey')],
      [{ kind: 'not acceptable' }, 406, true],
      [{ kind: 'unknown identifier' }, 404, operation.parameters.some((p) => p.in === 'path' && SandboxFixtures.knows(p.name))],
      [{ kind: 'invalid body' }, 422, jsonBody],
      ...faults.map((status): [SandboxSituation, number, boolean] => [{ kind: 'fault', status }, status, true]),
    ];
    for (const [situation, status, applies] of situations) {
      if (!applies || !declares(operation, status)) continue;
      const label = situation.kind === 'fault' ? `fault ${status}` : situation.kind;
      cases.push({ name: `${operation.operationId} [${label}] -> ${status}`, operation, request, situation, status });
    }
  }
  return cases;
}

/** Clients on the sandbox with other keys or without the request checks, recording the wire like the matrix's own. */
export function sandboxClients(baseUrl: string, keys: { secret: string; publishable: string }, check = true): PaymentsClients {
  const recorder = new RecordingFetch();
  const common = { baseUrl, fetch: recorder.fetch, retry: { maxRetries: 0 }, timeoutMs: 20_000 };
  const secret = createSecretClient({ ...common, apiKey: keys.secret, ...(check ? {} : { check: false as const }) });
  return { secret, publishable: createPublishableClient({ ...common, apiKey: keys.publishable }), recorder };
}
