#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { runProxyCommand, runReplayCommand } from '@paykit/contract-proxy';
import { debitCards, threeDSOutcomeByCard } from '@paykit/payments-sandbox';
import { services, type StartedMock } from './services.js';

const describePorts = (service: (typeof services)[number]) =>
  [`port ${service.defaultPort}`, ...Object.entries(service.extraPorts ?? {}).map(([role, port]) => `${role} ${port}`)].join(', ');

const help = `usage: paykit-mock [service ...] [--host 127.0.0.1] [--port-<service>[-<role>] N] [--dynamic]
                   [--state FILE|postgres://…] [--secret-key KEY ...] [--publishable-key KEY ...] [--control-token TOKEN]
                   [--inbox DIR]

       paykit-mock proxy --upstream URL [...]     (paykit-mock proxy --help)
       paykit-mock replay FILE.har --target URL   (paykit-mock replay --help)

Starts the local mocks (all of them when no service is named) and prints their base addresses.
Services:
${services.map((s) => `  ${s.name.padEnd(24)} ${describePorts(s).padEnd(20)} ${s.description}`).join('\n')}
Options:
  --host H            address to listen on (default 127.0.0.1)
  --port-<service> N  override a service's port (--port-<service>-<role> N for its other ports, e.g. soap)
  --dynamic           generate responses from schemas instead of serving examples (REST mocks)
  --state FILE        keep the payments sandbox's state in FILE across restarts (an SQLite database; every answer
                      waits until its change is on disk)
  --state postgres://USER:PASSWORD@HOST:5432/DB
                      keep it in a PostgreSQL database instead, shared by every sandbox process given the same
                      address (a team's sandbox, parallel CI jobs); the password is never printed
  --secret-key KEY    a secret key the payments sandbox takes (repeatable; one is generated and printed if none)
  --publishable-key KEY  a publishable key the payments sandbox takes (repeatable; likewise)
  --control-token TOKEN  the token the payments sandbox's control interface takes (default: the environment
                      variable PAYKIT_SANDBOX_CONTROL_TOKEN, else one is generated and printed)
  --inbox DIR         file-exchange-stateful: files put into DIR join the download queue under their own name,
                      once they stop changing, and move to DIR/queued/ (names the service refuses: DIR/refused/);
                      names starting with a dot are left alone (write under one, then rename)`;

/** The values of a repeatable string option (parseArgs with `strict: false` may also give `true` for a bare flag). */
function strings(value: unknown): string[] {
  const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
  if (list.some((item) => typeof item !== 'string')) throw new Error('--secret-key and --publishable-key need a value');
  return list as string[];
}

async function main(): Promise<void> {
  // The validating proxy and the replay of its recordings are commands of @paykit/contract-proxy. A replay into a
  // sandbox puts back each masked card as the sandbox test card of the same scheme and last four digits, if any.
  const [command, ...rest] = process.argv.slice(2);
  if (command === 'proxy') return runProxyCommand(rest);
  if (command === 'replay') {
    process.exitCode = await runReplayCommand(rest, { cards: [...debitCards, ...Object.keys(threeDSOutcomeByCard)] });
    return;
  }
  const { values, tokens } = parseArgs({
    options: {
      host: { type: 'string', default: '127.0.0.1' },
      dynamic: { type: 'boolean', default: false },
      help: { type: 'boolean' },
      state: { type: 'string' },
      'secret-key': { type: 'string', multiple: true },
      'publishable-key': { type: 'string', multiple: true },
      'control-token': { type: 'string' },
      inbox: { type: 'string' },
    },
    allowPositionals: true,
    strict: false,
    tokens: true,
  });
  if (values.help) {
    console.log(help);
    return;
  }
  // The port options are not declared (one per service and role), so parseArgs takes `--port-x 4012` as a flag
  // followed by a positional; the positional right after such a flag is its value.
  const ports = new Map<string, number>();
  const portValueIndexes = new Set<number>();
  const allTokens = tokens ?? [];
  allTokens.forEach((token, position) => {
    if (token.kind !== 'option' || !token.name.startsWith('port-')) return;
    const next = allTokens[position + 1];
    const value = token.value ?? (next?.kind === 'positional' ? next.value : undefined);
    if (token.value === undefined && next?.kind === 'positional') portValueIndexes.add(next.index);
    const port = Number(value);
    if (value === undefined || !Number.isInteger(port) || port < 0 || port > 65535) {
      throw new Error(`--${token.name} needs a port number (0 picks a free port)`);
    }
    ports.set(token.name.slice(5), port);
  });
  const named = allTokens.flatMap((token) => (token.kind === 'positional' && !portValueIndexes.has(token.index) ? [token.value] : []));
  const unknown = named.filter((p) => !services.some((s) => s.name === p));
  if (unknown.length > 0) throw new Error(`unknown service ${unknown.join(', ')}\n\n${help}`);
  const chosen = named.length > 0 ? services.filter((s) => named.includes(s.name)) : services;
  if (values.inbox !== undefined) {
    if (typeof values.inbox !== 'string' || values.inbox === '') throw new Error('--inbox needs a folder');
    if (!chosen.some((s) => s.name === 'file-exchange-stateful')) throw new Error('--inbox is an option of file-exchange-stateful, which is not started');
  }

  const given = values['control-token'] ?? process.env.PAYKIT_SANDBOX_CONTROL_TOKEN;
  if (given !== undefined && (typeof given !== 'string' || given === '')) throw new Error('--control-token needs a value');
  const controlToken = given;

  const running: StartedMock[] = [];
  const shutdown = async () => {
    await Promise.allSettled(running.map((m) => m.close()));
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);

  for (const service of chosen) {
    const port = ports.get(service.name) ?? service.defaultPort;
    const extraPorts = Object.fromEntries(
      Object.entries(service.extraPorts ?? {}).map(([role, fixed]) => [role, ports.get(`${service.name}-${role}`) ?? fixed]),
    );
    const mock = await service.start({
      host: String(values.host),
      port,
      extraPorts,
      dynamic: Boolean(values.dynamic),
      ...(typeof values.state === 'string' ? { state: values.state } : {}),
      secretKeys: strings(values['secret-key']),
      publishableKeys: strings(values['publishable-key']),
      ...(controlToken === undefined ? {} : { controlToken }),
      ...(typeof values.inbox === 'string' ? { inbox: values.inbox } : {}),
      log: (line) => console.log(line),
    });
    running.push(mock);
    console.log(`${service.name} mock: ${mock.url}  (${service.description})`);
    for (const note of mock.notes ?? []) console.log(`  ${note}`);
  }
  console.log('mocks ready; Ctrl-C stops them');
}

main().catch((error: unknown) => {
  console.error(`paykit-mock: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
