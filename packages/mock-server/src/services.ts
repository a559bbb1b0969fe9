import { startPrismMock, type RunningMock } from './prism.js';

/** One mock the CLI can start; `defaultPort` is fixed so that docs, tests and merchants' configs can rely on it. */
export interface MockService {
  name: string;
  description: string;
  defaultPort: number;
  start(options: { host: string; port: number; dynamic: boolean }): Promise<RunningMock>;
}

export const services: MockService[] = [
  {
    name: 'payments',
    description: 'payments REST API (Prism, contract examples)',
    defaultPort: 4010,
    start: ({ host, port, dynamic }) => startPrismMock({ contract: 'payments', host, port, dynamic }),
  },
];
