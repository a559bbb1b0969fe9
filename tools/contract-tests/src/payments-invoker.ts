// The operation tables (generated from the spec) map each operationId to its group and method on our client.
import {
  createPublishableClient,
  createSecretClient,
  isPaymentsError,
  publishableKeyOperations,
  secretKeyOperations,
  type OperationSpec,
  type PaymentsClient,
  type PublishableClient,
} from '@paykit/payments';
import type { ExampleRequest } from './example-request.js';
import { RecordingFetch } from './recording-fetch.js';

/** What a call through our client came to, as plain data that tests can compare. */
export type ClientOutcome =
  | {
      outcome: 'success';
      status: number;
      data: unknown;
      /** For list answers: the items of the page and whether a next page exists, as the client derived them. */
      page?: { items: unknown[]; hasNextPage: boolean };
    }
  | {
      outcome: 'error';
      kind: string;
      status: number | undefined;
      body: unknown;
      customerMessage: string | undefined;
      developerMessage: string | undefined;
      fieldErrors: unknown[];
    };

export const testKeys = { secretKey: 'sk_test_contract_secret', publishableKey: 'pk_test_contract_publishable' } as const;

type Method = (...args: unknown[]) => Promise<unknown>;

export interface PaymentsClients {
  secret: PaymentsClient;
  publishable: PublishableClient;
  recorder: RecordingFetch;
}

/** Both clients on one base address, recording the wire, with retries off so that 429 and 503 come back at once. */
export function createPaymentsClients(baseUrl: string): PaymentsClients {
  const recorder = new RecordingFetch();
  const common = { baseUrl, fetch: recorder.fetch, retry: { maxRetries: 0 }, timeoutMs: 20_000 };
  return {
    secret: createSecretClient({ ...common, apiKey: testKeys.secretKey }),
    publishable: createPublishableClient({ ...common, apiKey: testKeys.publishableKey }),
    recorder,
  };
}

function tableEntry(operationId: string): { spec: OperationSpec; key: 'secret' | 'publishable' } | undefined {
  const secret = (secretKeyOperations as Record<string, OperationSpec>)[operationId];
  if (secret) return { spec: secret, key: 'secret' };
  const publishable = (publishableKeyOperations as Record<string, OperationSpec>)[operationId];
  return publishable ? { spec: publishable, key: 'publishable' } : undefined;
}

/** Which client (key type) an operation is on, or undefined when our client has no method for it. */
export function clientMethodOf(operationId: string): { group: string; name: string; key: 'secret' | 'publishable' } | undefined {
  const entry = tableEntry(operationId);
  return entry && { group: entry.spec.group, name: entry.spec.name, key: entry.key };
}

export interface InvokeOptions {
  headers?: Record<string, string>;
  accept?: string;
  /** Extra query parameters, beyond the operation's (to send parameters the client does not know). */
  extraQuery?: Record<string, string>;
}

/** Calls one operation through our client by its operationId, with the spec's example request. */
export async function invokePaymentsOperation(
  clients: PaymentsClients,
  operationId: string,
  request: ExampleRequest,
  options: InvokeOptions = {},
): Promise<ClientOutcome> {
  const entry = tableEntry(operationId);
  if (!entry) throw new Error(`Our payments client has no method for ${operationId}`);
  const client = (entry.key === 'secret' ? clients.secret : clients.publishable) as unknown as Record<string, Record<string, Method>>;
  const method = client[entry.spec.group]?.[entry.spec.name];
  if (!method) throw new Error(`Our payments client lacks ${entry.spec.group}.${entry.spec.name} (${operationId})`);
  const pathArgs = entry.spec.pathParams.map((name) => request.path[name]);
  const query = { ...request.query, ...options.extraQuery };
  const callOptions = {
    ...(Object.keys(query).length > 0 ? { query } : {}),
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.accept ? { accept: options.accept } : {}),
  };
  const args = entry.spec.body ? [...pathArgs, request.body, callOptions] : [...pathArgs, callOptions];
  try {
    const result = (await method(...args)) as { status: number; data: unknown; items?: unknown[]; hasNextPage?: boolean };
    return {
      outcome: 'success',
      status: result.status,
      data: result.data,
      ...(Array.isArray(result.items) ? { page: { items: result.items, hasNextPage: result.hasNextPage === true } } : {}),
    };
  } catch (error) {
    if (!isPaymentsError(error)) throw error;
    return {
      outcome: 'error',
      kind: error.kind,
      status: error.status,
      body: error.body,
      customerMessage: error.customerMessage,
      developerMessage: error.developerMessage,
      fieldErrors: [...error.fieldErrors],
    };
  }
}
