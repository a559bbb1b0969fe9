// end-to-end: paykit-mock as a process, which makes its RSA certificates as it starts.
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, fetch } from 'undici';
import { describe, expect, test, vi } from 'vitest';
import { services } from '../../src/index.js';
import { startPaykitMock } from '../support/paykit-mock-process.js';

const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

// These tests start paykit-mock as a process, which makes its certificates (RSA keys) first: 16 s when the whole
// repository tested at once with no bound on concurrency (a load average of 45 on 2 cores).
const processTestTimeout = 60_000;
// The others start the CLI only to have it refuse or print its help: a Node process, seconds at most.
vi.setConfig({ testTimeout: 30_000 });

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
      expect(output).toContain(`control: ${new URL(restUrl!).origin}/__mock (with the client certificate)`);
      const certs = join(cwd, '.paykit', 'certs');
      expect(output).toContain(join(certs, 'client.pfx'));
      const password = await readFile(join(certs, 'client.pfx.password'), 'utf8');
      expect(password).toMatch(/^C/);
      expect(output).not.toContain(password);

      const agent = new Agent({
        connect: { ca: await readFile(join(certs, 'ca.pem')), pfx: await readFile(join(certs, 'client.pfx')), passphrase: password },
      });
      try {
        expect((await fetch(`${restUrl}/filesForDownload/`, { dispatcher: agent })).status).toBe(204);
      } finally {
        await agent.close();
      }
    } finally {
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      await rm(cwd, { recursive: true, force: true });
    }
  }, processTestTimeout);

  test('--inbox DIR: a file put there from outside the process is queued, downloadable over REST and SOAP', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'paykit-cli-inbox-'));
    const inbox = join(cwd, 'drop here');
    const { child, output, until, exited } = await startPaykitMock(
      ['file-exchange-stateful', '--port-file-exchange-stateful=0', '--port-file-exchange-stateful-soap=0', '--inbox', inbox],
      { cwd },
    );
    const certs = join(cwd, '.paykit', 'certs');
    const agent = new Agent({
      connect: {
        ca: await readFile(join(certs, 'ca.pem')),
        pfx: await readFile(join(certs, 'client.pfx')),
        passphrase: await readFile(join(certs, 'client.pfx.password'), 'utf8'),
      },
    });
    try {
      expect(output).toContain(`inbox: ${inbox} (files put there join the download queue, then move to queued/)`);
      const restUrl = /file-exchange-stateful mock: (\S+)/.exec(output)![1]!;
      const soapUpload = /SOAP: (\S+)\/UploadFile/.exec(output)![1]!;
      // As a merchant's job would: write under a dot name, then rename into place.
      await writeFile(join(inbox, '.SETTLEMENT_20260115_001.csv'), 'id;amount\n1;10.00\n');
      await rename(join(inbox, '.SETTLEMENT_20260115_001.csv'), join(inbox, 'SETTLEMENT_20260115_001.csv'));

      // The other process scans its inbox on its own clock, and says when it has queued the file.
      await until('file-exchange-stateful inbox: queued SETTLEMENT_20260115_001.csv for download');
      const listed = await fetch(`${restUrl}/filesForDownload/`, { dispatcher: agent });
      expect(await listed.text()).toBe('SETTLEMENT_20260115_001.csv\n');
      const downloaded = await fetch(`${restUrl}/filesForDownload/SETTLEMENT_20260115_001.csv`, { dispatcher: agent });
      expect(await downloaded.text()).toBe('id;amount\n1;10.00\n');
      expect(await readdir(join(inbox, 'queued'))).toEqual(['SETTLEMENT_20260115_001.csv']);

      const soap = await fetch(`${soapUpload}/DownloadFiles`, {
        dispatcher: agent,
        method: 'POST',
        headers: { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: '""' },
        body:
          '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>' +
          '<downloadFiles xmlns="urn:paykit:file-exchange:v1"><queueID>PAYKIT-TEST-QUEUE</queueID></downloadFiles></soap:Body></soap:Envelope>',
      });
      const content = new RegExp(`<(\\w+:)?fileContent>${Buffer.from('id;amount\n1;10.00\n').toString('base64')}</(\\w+:)?fileContent>`);
      expect(await soap.text()).toMatch(content);
    } finally {
      await agent.close();
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      await rm(cwd, { recursive: true, force: true });
    }
  }, processTestTimeout);

  test.each([
    [['payments', '--inbox', 'x'], '--inbox is an option of file-exchange-stateful, which is not started'],
    [['file-exchange-stateful', '--inbox'], '--inbox needs a folder'],
  ])('paykit-mock %j is refused with a clear message', async (args, message) => {
    const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain(message);
  });

  test('--help documents --inbox', async () => {
    const child = spawn(process.execPath, [cli, '--help'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    expect(await new Promise<number | null>((resolve) => child.once('exit', resolve))).toBe(0);
    expect(stdout).toMatch(/--inbox DIR +file-exchange-stateful: files put into DIR join the download queue/);
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
