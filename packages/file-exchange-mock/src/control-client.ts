import createClient from 'openapi-fetch';
import { controlMethods } from './generated/control/client.js';
import type { paths } from './generated/control/openapi.js';
import { controlPrefix } from './control.js';

/**
 * The client of the mock's control interface (`/__mock/...`), generated from its contract
 * (specs/file-exchange-mock-control): one method per operation, named by its operationId.
 */

/** A refusal or failure of the control interface: its status and what it said. */
export class MockControlError extends Error {
  override readonly name = 'MockControlError';

  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface FileExchangeMockControlOptions {
  /**
   * An undici `Dispatcher` (an `Agent` with the mock's client certificate and CA) for Node's fetch: the control
   * interface is served over the mock's client-certificate TLS, like its API.
   */
  dispatcher?: unknown;
  /** A fetch to use instead of the global one (it gets a `Request`). */
  fetch?: (request: Request) => Promise<Response>;
}

export type FileExchangeMockControl = ReturnType<typeof controlMethods>;

async function answer<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok) return data as T;
  const said = (error as { error?: unknown } | undefined)?.error;
  throw new MockControlError(response.status, typeof said === 'string' ? said : `${response.status} ${response.statusText}`.trim());
}

/** A control client for the mock whose REST side is at `restUrl` (its origin is used). */
export function createFileExchangeMockControl(restUrl: string, options: FileExchangeMockControlOptions = {}): FileExchangeMockControl {
  let base: URL;
  try {
    base = new URL(restUrl);
  } catch {
    throw new TypeError(`restUrl must be the mock's REST address, like https://127.0.0.1:4020; got ${JSON.stringify(restUrl)}`);
  }
  const client = createClient<paths>({
    baseUrl: base.origin + controlPrefix,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.dispatcher ? { requestInitExt: { dispatcher: options.dispatcher } } : {}),
  });
  return controlMethods(client, answer);
}
