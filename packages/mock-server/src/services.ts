import type { InboxEvent } from '@paykit/file-exchange-mock';
// The light entry point: the CLI prints the default ports without loading the mock (node-soap) it may not start.
import { mockSettings as fileExchangeMocks } from '@paykit/file-exchange-mock/mock-settings';
import { mockSettings as payments } from './generated/payments/mock-settings.js';
import { startPrismMock, type RunningMock } from './prism.js';

/** A started mock; `notes` are extra lines the CLI prints under its address (other ports, credentials' paths). */
export interface StartedMock extends RunningMock {
  notes?: string[];
}

/**
 * One mock the CLI can start; the ports are fixed (by the contract registry, reaching us as generated code) so that
 * docs, tests and merchants' configs can rely on them.
 */
export interface MockService {
  name: string;
  description: string;
  defaultPort: number;
  /** Further ports by role (e.g. `soap`), each overridable with `--port-<service>-<role>`. */
  extraPorts?: Record<string, number>;
  start(options: MockStartOptions): Promise<StartedMock>;
}

export interface MockStartOptions {
  host: string;
  port: number;
  extraPorts: Record<string, number>;
  dynamic: boolean;
  /** A file that keeps the state of a stateful mock across restarts. */
  state?: string;
  /** API keys for the payments sandbox (generated and printed when none is given). */
  secretKeys?: string[];
  publishableKeys?: string[];
  /** The payments sandbox's control token (generated and printed when none is given). */
  controlToken?: string;
  /** A folder whose files join the stateful file exchange's download queue. */
  inbox?: string;
  /** Where a mock reports what happens while it runs (the CLI prints it). */
  log?: (line: string) => void;
}

export const services: MockService[] = [
  {
    name: 'payments',
    description: 'payments REST API (Prism, contract examples)',
    defaultPort: payments.ports.prism,
    start: ({ host, port, dynamic }) => startPrismMock({ contract: 'payments', host, port, dynamic }),
  },
  {
    name: 'file-exchange',
    description: 'file exchange REST API (Prism, contract examples, plain HTTP)',
    defaultPort: fileExchangeMocks['file-exchange'].ports.prism,
    start: ({ host, port, dynamic }) => startPrismMock({ contract: 'file-exchange', host, port, dynamic }),
  },
  {
    name: 'payments-sandbox',
    description: 'stateful payments API sandbox (behaves like the reference; control at /__sandbox)',
    defaultPort: payments.ports.stateful,
    start: async ({ host, port, state, secretKeys, publishableKeys, controlToken, log = console.warn }) => {
      // Loaded on demand, like the file exchange: each service pays only for what it uses at start-up.
      const { startPaymentsSandbox } = await import('@paykit/payments-sandbox');
      const sandbox = await startPaymentsSandbox({
        host,
        port,
        ...(state ? { stateFile: state } : {}),
        keys: { ...(secretKeys?.length ? { secret: secretKeys } : {}), ...(publishableKeys?.length ? { publishable: publishableKeys } : {}) },
        ...(controlToken === undefined ? {} : { controlToken }),
        onWarning: log,
      });
      const shown = (generated: boolean, keys: string[]) => (generated ? keys.join(', ') : `${keys.length} given (not printed)`);
      return {
        url: sandbox.url,
        origin: sandbox.origin,
        close: () => sandbox.close(),
        notes: [
          `secret key: ${shown(sandbox.generatedKeys.secret, sandbox.keys.secret)}`,
          `publishable key: ${shown(sandbox.generatedKeys.publishable, sandbox.keys.publishable)}`,
          `control: ${sandbox.controlUrl}`,
          `control token: ${sandbox.generatedControlToken ? sandbox.controlToken : 'given (not printed)'}`,
          // The token rides in the fragment, which a browser never sends: it reaches no request line or server log.
          sandbox.generatedControlToken
            ? `dashboard: ${sandbox.dashboardUrl}`
            : `dashboard: ${sandbox.controlUrl}/ui/#token=<your control token>`,
          sandbox.stateFile ? `state: ${sandbox.stateFile}` : 'state: in memory (--state FILE keeps it)',
        ],
      };
    },
  },
  {
    name: 'file-exchange-stateful',
    description: 'stateful file exchange, REST and SOAP over client-certificate TLS',
    defaultPort: fileExchangeMocks['file-exchange'].ports.stateful,
    extraPorts: { soap: fileExchangeMocks['file-exchange-soap'].ports.stateful },
    start: async ({ host, port, extraPorts, inbox, log = () => {} }) => {
      const { INBOX_QUEUED, soapPortUrls, startFileExchangeMock } = await import('@paykit/file-exchange-mock');
      const mock = await startFileExchangeMock({
        host,
        restPort: port,
        soapPort: extraPorts.soap ?? fileExchangeMocks['file-exchange-soap'].ports.stateful,
        ...(inbox === undefined ? {} : { inbox: { dir: inbox, onEvent: (event) => log(`file-exchange-stateful inbox: ${describeInboxEvent(event)}`) } }),
      });
      const certificates = mock.certificates;
      return {
        url: mock.restUrl,
        origin: new URL(mock.restUrl).origin,
        close: () => mock.close(),
        notes: [
          `SOAP: ${soapPortUrls(mock.soapUrl).join(' and ')}, queueID ${mock.queueId}`,
          ...(mock.controlUrl ? [`control: ${mock.controlUrl} (with the client certificate)`] : []),
          ...(mock.inbox ? [`inbox: ${mock.inbox.dir} (files put there join the download queue, then move to ${INBOX_QUEUED}/)`] : []),
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

function describeInboxEvent(event: InboxEvent): string {
  switch (event.kind) {
    case 'queued':
      return `queued ${event.fileName} for download`;
    case 'refused':
      return `not queued ${JSON.stringify(event.fileName)}: ${event.reason}; moved to ${event.path}`;
    case 'error':
      return event.message;
  }
}
