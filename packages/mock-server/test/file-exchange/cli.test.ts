import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent } from 'undici';
import { describe, expect, test } from 'vitest';
import { services } from '../../src/index.js';
import { startPaykitMock } from '../support/paykit-mock-process.js';
import { send } from './helpers.js';

const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

describe('paykit-mock with the file exchange mocks', () => {
  test('the fixed ports: Prism on 4011, the stateful mock on 4020 (REST) and 4021 (SOAP)', () => {
    const byName = Object.fromEntries(services.map((service) => [service.name, service]));
    expect(byName.payments?.defaultPort).toBe(4010);
    expect(byName['file-exchange']?.defaultPort).toBe(4011);
    expect(byName['file-exchange-stateful']?.defaultPort).toBe(4020);
    expect(byName['file-exchange-stateful']?.extraPorts).toEqual({ soap: 4021 });
  });

  test('starts the stateful mock, prints where it listens and where the certificates are, never the password', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'paykit-cli-'));
    const { child, output, exited } = await startPaykitMock(
      ['file-exchange-stateful', '--port-file-exchange-stateful', '0', '--port-file-exchange-stateful-soap=0'],
      { cwd },
    );
    try {
      const restUrl = /file-exchange-stateful mock: (https:\/\/127\.0\.0\.1:\d+\/services\/messaging\/rest)/.exec(output)?.[1];
      expect(restUrl).toBeDefined();
      expect(output).toMatch(/SOAP: https:\/\/127\.0\.0\.1:\d+\/services\/messaging\/UploadFile/);
      const certs = join(cwd, '.paykit', 'certs');
      expect(output).toContain(join(certs, 'client.pfx'));
      const password = await readFile(join(certs, 'client.pfx.password'), 'utf8');
      expect(password).toMatch(/^C/);
      expect(output).not.toContain(password);

      const agent = new Agent({
        connect: { ca: await readFile(join(certs, 'ca.pem')), pfx: await readFile(join(certs, 'client.pfx')), passphrase: password },
      });
      try {
        expect((await send(agent, `${restUrl}/filesForDownload/`)).status).toBe(204);
      } finally {
        await agent.close();
      }
    } finally {
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      await rm(cwd, { recursive: true, force: true });
    }
  });

  test('a port option without a number is refused with a clear message', async () => {
    const child = spawn(process.execPath, [cli, 'file-exchange-stateful', '--port-file-exchange-stateful', 'x'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain('--port-file-exchange-stateful needs a port number');
  });
});
