// The SOAP client as the README shows it: one upload, then the download loop.
import { FileExchangeSoapClient, InvalidRequestError } from '@paykit/file-exchange-soap';

export async function exchange(pfxPath: string, passphrase: string, queueID: string): Promise<number> {
  const client = await FileExchangeSoapClient.create({
    baseUrl: 'https://127.0.0.1:4021/services/messaging',
    tls: { pfx: pfxPath, passphrase },
  });
  try {
    await client.uploadFile({ fileID: 'pay-2026-11-21-001', fileName: 'payments_20261121_001.csv', fileContent: new Uint8Array([1]) });
    let bytes = 0;
    for await (const file of client.downloadAll(queueID)) bytes += file.fileContent.byteLength;
    return bytes;
  } catch (error) {
    if (error instanceof InvalidRequestError) return -1;
    throw error;
  } finally {
    await client.close();
  }
}

// @ts-expect-error fileContent is required.
export const missingContent = (client: FileExchangeSoapClient) => client.uploadFile({ fileName: 'a.csv' });
