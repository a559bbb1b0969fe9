#!/usr/bin/env node
import { parseArgs } from 'node:util';
import type { RunningMock } from './prism.js';
import { services } from './services.js';

const help = `usage: paykit-mock [service ...] [--host 127.0.0.1] [--port-<service> N] [--dynamic]

Starts the local mocks (all of them when no service is named) and prints their base addresses.
Services:
${services.map((s) => `  ${s.name.padEnd(22)} port ${s.defaultPort}  ${s.description}`).join('\n')}
Options:
  --host H            address to listen on (default 127.0.0.1)
  --port-<service> N  override a service's port
  --dynamic           generate responses from schemas instead of serving examples (REST mocks)`;

async function main(): Promise<void> {
  const { values, positionals, tokens } = parseArgs({
    options: { host: { type: 'string', default: '127.0.0.1' }, dynamic: { type: 'boolean', default: false }, help: { type: 'boolean' } },
    allowPositionals: true,
    strict: false,
    tokens: true,
  });
  if (values.help) {
    console.log(help);
    return;
  }
  const ports = new Map<string, number>();
  for (const token of tokens ?? []) {
    if (token.kind === 'option' && token.name.startsWith('port-')) ports.set(token.name.slice(5), Number(token.value));
  }
  const unknown = positionals.filter((p) => !services.some((s) => s.name === p));
  if (unknown.length > 0) throw new Error(`unknown service ${unknown.join(', ')}\n\n${help}`);
  const chosen = positionals.length > 0 ? services.filter((s) => positionals.includes(s.name)) : services;

  const running: RunningMock[] = [];
  const shutdown = async () => {
    await Promise.allSettled(running.map((m) => m.close()));
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);

  for (const service of chosen) {
    const port = ports.get(service.name) ?? service.defaultPort;
    const mock = await service.start({ host: String(values.host), port, dynamic: Boolean(values.dynamic) });
    running.push(mock);
    console.log(`${service.name} mock: ${mock.url}  (${service.description})`);
  }
  console.log('mocks ready; Ctrl-C stops them');
}

main().catch((error: unknown) => {
  console.error(`paykit-mock: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
