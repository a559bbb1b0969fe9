// The stateful file exchange alone, as its README shows it: certificates made at test time, a file queued.
import { generateTestCertificates, startFileExchangeMock, type FileExchangeMock } from '@paykit/file-exchange-mock';

export async function withFileExchange<T>(certDir: string, use: (mock: FileExchangeMock) => Promise<T>): Promise<T> {
  const mock = await startFileExchangeMock({ certificates: await generateTestCertificates(certDir) });
  try {
    mock.store.enqueueDownload({ fileName: 'REPORT_001.csv', content: Buffer.from('a;b\n') });
    return await use(mock);
  } finally {
    await mock.close();
  }
}

// @ts-expect-error a queued file needs its name.
export const missingName = (mock: FileExchangeMock) => mock.store.enqueueDownload({ content: Buffer.from('a;b\n') });
