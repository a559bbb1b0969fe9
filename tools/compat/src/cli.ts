import { relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { contracts, repoRoot } from '@paykit/contracts';
import { check } from './gate.js';
import { formatHistoryTable, referenceHistory } from './history.js';
import { rules } from './rules/index.js';
import { defaultBaseDir, writeSnapshots } from './snapshot.js';

const usage = `usage:
  paykit-compat check    [--root DIR] [--base-dir DIR] [--changeset-dir DIR] [--contract NAME]...
  paykit-compat snapshot [--root DIR] [--base-dir DIR] [--contract NAME]...
  paykit-compat rules
  paykit-compat history
check compares every contract with its released snapshot and fails (exit 1) on a breaking change within the same
major version, or on any change without a pending changeset for the contract's package.
snapshot records the current contracts as released. history replays the reference's change log on the payments
contract and prints the gate's verdict of each entry as a Markdown table (exit 1 if one differs from the reference). Defaults: --root is this repository, --base-dir
tools/compat/released, --changeset-dir <root>/.changeset. Contracts: ${contracts.map((c) => c.name).join(', ')}.`;

const options = {
  root: { type: 'string' },
  'base-dir': { type: 'string' },
  'changeset-dir': { type: 'string' },
  contract: { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h' },
} as const;

type Print = (line: string) => void;

/** Runs the command line; returns the exit code (0 pass, 1 gate failed or could not judge, 2 usage). */
export async function main(args: string[], print: Print = console.log, printError: Print = console.error): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    printError(`${(error as Error).message}\n${usage}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const command = positionals[0];
  if (values.help || positionals.length !== 1 || !['check', 'snapshot', 'rules', 'history'].includes(command ?? '')) {
    printError(usage);
    return values.help ? 0 : 2;
  }
  if (command === 'rules') {
    for (const rule of rules) print(`${rule.verdict.toUpperCase().padEnd(12)} ${rule.name.padEnd(38)} ${rule.meaning}`);
    return 0;
  }
  if (command === 'history') {
    try {
      const steps = await referenceHistory();
      print(formatHistoryTable(steps));
      return steps.every((s) => s.asReference) ? 0 : 1;
    } catch (error) {
      printError(`paykit-compat history: ${(error as Error).message}`);
      return 1;
    }
  }
  const unknown = (values.contract ?? []).filter((name) => !contracts.some((c) => c.name === name));
  if (unknown.length > 0) {
    printError(`unknown contract(s): ${unknown.join(', ')}\n${usage}`);
    return 2;
  }
  const selected = values.contract ? contracts.filter((c) => values.contract!.includes(c.name)) : contracts;
  const root = resolve(values.root ?? repoRoot);
  const baseDir = values['base-dir'] ? resolve(values['base-dir']) : values.root ? resolve(root, 'tools/compat/released') : defaultBaseDir;
  try {
    if (command === 'snapshot') {
      const written = await writeSnapshots({ root, baseDir, contracts: selected });
      for (const path of written) {
        const shown = relative(process.cwd(), path);
        print(`wrote ${shown.startsWith('..') ? path : shown}`);
      }
      return 0;
    }
    const changesetDir = resolve(values['changeset-dir'] ?? resolve(root, '.changeset'));
    const result = await check({ root, baseDir, changesetDir, contracts: selected });
    for (const line of result.lines) print(line);
    return result.ok ? 0 : 1;
  } catch (error) {
    printError(`paykit-compat ${command}: ${(error as Error).message}`);
    return 1;
  }
}
