// Starting the mocks from a merchant's own test set-up instead of the CLI.
import { services, startPrismMock, type RunningMock } from '@paykit/mock-server';

export async function withPaymentsMock<T>(use: (baseUrl: string) => Promise<T>): Promise<T> {
  const mock: RunningMock = await startPrismMock({ contract: 'payments', port: 0 });
  try {
    return await use(mock.url);
  } finally {
    await mock.close();
  }
}

export const serviceNames: string[] = services.map((service) => service.name);

// @ts-expect-error only the contracts the package ships can be mocked.
startPrismMock({ contract: 'no-such-contract' });
