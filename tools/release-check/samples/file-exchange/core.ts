// The shared core as another client (the SOAP one) uses it: TLS material, the base address, the reference's retries,
// one error hierarchy.
import {
  AbortedError,
  classifyNetworkFailure,
  ClientOptionsError,
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

export async function fetchOnce(pfxPath: string, passphrase: string, signal?: AbortSignal): Promise<string> {
  const baseUrl = parseBaseUrl('https://127.0.0.1:4020/services/messaging/rest', 'https://host/path', (message) => new Error(message));
  const material = await loadTlsMaterial({ pfx: pfxPath, passphrase });
  console.log(Object.keys(material).length);
  const agent = await createTlsAgent({ pfx: pfxPath, passphrase });
  const policy = resolveRetryPolicy({ maxDurationMs: 60_000 });
  const queue = new SerialQueue();
  try {
    return await queue.run(() =>
      withRetries(
        policy,
        { operation: 'listFilesForDownload' },
        async () => {
          const failure: NetworkFailure = classifyNetworkFailure(new Error('probe'));
          return `${baseUrl} ${isRetriedStatus(503)} ${String(fileExchangeRules).length} ${failure.kind}`;
        },
        signal,
      ),
    );
  } catch (error) {
    if (error instanceof TlsConfigurationError || error instanceof ClientOptionsError || error instanceof AbortedError) console.log(error.message);
    throw error;
  } finally {
    await agent.close();
  }
}

// @ts-expect-error an operation the contract does not have.
withRetries(resolveRetryPolicy(undefined), { operation: 'list' }, async () => 1);
