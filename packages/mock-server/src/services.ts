import { startFileExchangeMock } from './file-exchange/mock.js';
import { startPrismMock, type RunningMock } from './prism.js';

/** A started mock; `notes` are extra lines the CLI prints under its address (other ports, credentials' paths). */
export interface StartedMock extends RunningMock {
  notes?: string[];
}

/** One mock the CLI can start; the ports are fixed so that docs, tests and merchants' configs can rely on them. */
export interface MockService {
  name: string;
  description: string;
  defaultPort: number;
  /** Further ports by role (e.g. `soap`), each overridable with `--port-<service>-<role>`. */
  extraPorts?: Record<string, number>;
  start(options: { host: string; port: number; extraPorts: Record<string, number>; dynamic: boolean }): Promise<StartedMock>;
}

export const services: MockService[] = [
  {
    name: 'payments',
    description: 'payments REST API (Prism, contract examples)',
    defaultPort: 4010,
    start: ({ host, port, dynamic }) => startPrismMock({ contract: 'payments', host, port, dynamic }),
  },
  {
    name: 'file-exchange',
    description: 'file exchange REST API (Prism, contract examples, plain HTTP)',
    defaultPort: 4011,
    start: ({ host, port, dynamic }) => startPrismMock({ contract: 'file-exchange', host, port, dynamic }),
  },
  {
    name: 'file-exchange-stateful',
    description: 'stateful file exchange, REST and SOAP over client-certificate TLS',
    defaultPort: 4020,
    extraPorts: { soap: 4021 },
    start: async ({ host, port, extraPorts }) => {
      const mock = await startFileExchangeMock({ host, restPort: port, soapPort: extraPorts.soap ?? 4021 });
      const certificates = mock.certificates;
      return {
        url: mock.restUrl,
        origin: new URL(mock.restUrl).origin,
        close: () => mock.close(),
        notes: [
          `SOAP: ${mock.soapUrl}/UploadFile and ${mock.soapUrl}/DownloadFiles, queueID ${mock.queueId}`,
          ...(certificates
            ? [
                `CA: ${certificates.caCertPath}`,
                `client certificate: ${certificates.clientPfxPath} (password in ${certificates.clientPfxPath}.password; ` +
                  `PEM: ${certificates.clientCertPath}, ${certificates.clientKeyPath})`,
              ]
            : []),
        ],
      };
    },
  },
];
