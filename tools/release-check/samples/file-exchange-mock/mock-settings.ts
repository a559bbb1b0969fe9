// The default addresses of the file exchange mocks, without loading the mock itself.
import { mockSettings } from '@paykit/file-exchange-mock/mock-settings';

export const soapUrl = (host: string): string =>
  `https://${host}:${mockSettings['file-exchange-soap'].ports.stateful}${mockSettings['file-exchange-soap'].basePath}`;
export const restPort: number = mockSettings['file-exchange'].ports.stateful;

// @ts-expect-error the SOAP contract has no Prism mock.
export const soapPrismPort: number = mockSettings['file-exchange-soap'].ports.prism;
