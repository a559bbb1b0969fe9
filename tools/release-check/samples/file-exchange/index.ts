// The REST file exchange client as the README shows it (paths and passwords come from the merchant's config).
import { FileExchangeClient, FileExchangeError, type ProcessAllReport } from '@paykit/file-exchange';

export async function drain(pfxPath: string, passphrase: string): Promise<ProcessAllReport> {
  const files = await FileExchangeClient.create({
    baseUrl: 'https://127.0.0.1:4020/services/messaging/rest',
    tls: { pfx: pfxPath, passphrase },
  });
  try {
    await files.upload('PAYMENTS_20260121_001.csv', new TextEncoder().encode('a,b\n'), { contentType: 'text/csv' });
    const names: string[] = await files.list();
    console.log(names.length);
    return await files.processAll(async (file) => {
      console.log(file.name);
    });
  } catch (error) {
    if (error instanceof FileExchangeError) console.log(error.operation, error.status);
    throw error;
  } finally {
    await files.close();
  }
}

// @ts-expect-error the base address is required.
FileExchangeClient.create({});
