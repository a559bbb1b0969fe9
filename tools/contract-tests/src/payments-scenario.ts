import { deref, type OpenApiDocument } from '@paykit/contracts';
import { exampleRequests, type ExampleRequest } from './example-request.js';
import { allJsonMutations, type JsonMutationContext } from './json-mutations.js';
import type { ProxiedRequest, ProxiedResponse } from './mutating-proxy.js';
import { listOperations, type OperationInfo } from './openapi-document.js';
import { invokePaymentsOperation, type ClientOutcome, type PaymentsClients } from './payments-invoker.js';

export interface StepOptions {
  /** Which request example of the spec to start from (default: the first). */
  requestExample?: string;
  path?: Record<string, string>;
  query?: Record<string, string>;
  /** Merged over the example body. */
  body?: Record<string, unknown>;
  /** `Prefer` for Prism: a status and an example of the spec. */
  prefer?: string;
}

/**
 * Runs multi-step flows by operationId: each step starts from the spec's example request of the operation and
 * replaces what the flow carries over (ids from earlier answers). Every step goes through our client.
 */
export class PaymentsScenario {
  private readonly operations: Map<string, OperationInfo>;
  readonly steps: string[] = [];

  constructor(
    private readonly document: OpenApiDocument,
    private readonly clients: PaymentsClients,
  ) {
    this.operations = new Map(listOperations(document).map((o) => [o.operationId, o]));
  }

  operation(operationId: string): OperationInfo {
    const operation = this.operations.get(operationId);
    if (!operation) throw new Error(`The spec has no operation ${operationId}`);
    return operation;
  }

  request(operationId: string, options: StepOptions = {}): ExampleRequest {
    const requests = exampleRequests(this.document, this.operation(operationId));
    const base = (options.requestExample ? requests.find((r) => r.label === options.requestExample) : requests[0]) ?? requests[0]!;
    const body = options.body && base.body && typeof base.body === 'object' ? { ...(base.body as object), ...options.body } : (options.body ?? base.body);
    return { ...base, path: { ...base.path, ...options.path }, query: { ...base.query, ...options.query }, body };
  }

  /** One step; resolves with the outcome, success or typed error. */
  async attempt(operationId: string, options: StepOptions = {}): Promise<ClientOutcome> {
    this.steps.push(operationId);
    return invokePaymentsOperation(this.clients, operationId, this.request(operationId, options), options.prefer ? { headers: { Prefer: options.prefer } } : {});
  }

  /** One step that must succeed; resolves with the body. */
  async call<T = Record<string, unknown>>(operationId: string, options: StepOptions = {}): Promise<{ status: number; data: T; items: T[] }> {
    const outcome = await this.attempt(operationId, options);
    if (outcome.outcome !== 'success') throw new Error(`${operationId} failed: ${outcome.kind} ${outcome.status ?? ''} ${JSON.stringify(outcome.body)}`);
    return { status: outcome.status, data: outcome.data as T, items: (outcome.page?.items ?? []) as T[] };
  }

  /** A copy of the first example notification the spec gives for a webhook event type. */
  webhookExample(eventType: string): Record<string, unknown> {
    const webhooks = (this.document as { webhooks?: Record<string, unknown> }).webhooks ?? {};
    const post = deref(this.document, deref(this.document, webhooks[eventType])?.post);
    const body = deref(this.document, post?.requestBody);
    const media = (body?.content as Record<string, { examples?: Record<string, unknown> }> | undefined)?.['application/json'];
    const first = Object.values(media?.examples ?? {})[0];
    if (!first) throw new Error(`The spec has no example notification for ${eventType}`);
    return structuredClone(deref(this.document, first)?.value) as Record<string, unknown>;
  }
}

/** A proxy rewrite built from parts: each sees the request and may change the parsed JSON answer. */
export type JsonRewrite = (body: unknown, request: ProxiedRequest) => unknown;

export function jsonRewrites(...rewrites: JsonRewrite[]): (response: ProxiedResponse, request: ProxiedRequest) => ProxiedResponse {
  return (response, request) => {
    if (!/json/.test(String(response.headers['content-type'] ?? '')) || response.body.length === 0) return response;
    let body = JSON.parse(response.body.toString('utf8')) as unknown;
    for (const rewrite of rewrites) body = rewrite(body, request);
    return { ...response, body: Buffer.from(JSON.stringify(body)) };
  };
}

/** Every tolerated change at once, on every answer of a flow. */
export function allToleratedChanges(context: JsonMutationContext): JsonRewrite {
  return (body) => {
    allJsonMutations.apply(body, context);
    return body;
  };
}
