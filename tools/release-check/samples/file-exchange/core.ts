// The shared core as another client (the SOAP one) uses it: TLS material, the base address, the reference's retries.
import {
  classifyNetworkFailure,
  createTlsAgent,
  fileExchangeRules,
  isRetriedStatus,
  loadTlsMaterial,
  parseBaseUrl,
  resolveRetryPolicy,
  SerialQueue,
  TlsConfigurationError,
  withRetries,
  type NetworkFailure,
} from '@paykit/file-exchange/core';

export async function fetchOnce(pfxPath: string, passphrase: string): Promise<string> {
  const baseUrl = parseBaseUrl('https://127.0.0.1:4020/services/messaging/rest', 'https://host/path', (message) => new Error(message));
  const material = await loadTlsMaterial({ pfx: pfxPath, passphrase });
  console.log(Object.keys(material).length);
  const agent = await createTlsAgent({ pfx: pfxPath, passphrase });
  const policy = resolveRetryPolicy<'list', Error>({ maxDurationMs: 60_000 }, (message) => new Error(message));
  const queue = new SerialQueue();
  try {
    return await queue.run(() =>
      withRetries(policy, { operation: 'list' }, async () => `${baseUrl} ${isRetriedStatus(503)} ${String(fileExchangeRules).length}`, {
        isTransient: (error): error is Error => {
          const failure: NetworkFailure = classifyNetworkFailure(error);
          return failure.kind === 'network';
        },
        exhausted: ({ last }) => last,
      }),
    );
  } catch (error) {
    if (error instanceof TlsConfigurationError) console.log(error.message);
    throw error;
  } finally {
    await agent.close();
  }
}

// @ts-expect-error a retry policy needs the error to throw for invalid options.
resolveRetryPolicy({ maxDurationMs: 1 });
