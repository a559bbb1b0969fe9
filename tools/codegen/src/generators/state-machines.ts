import { readStateMachines, stateMachinesExtension, stateMachineTableDeclarations, type StateMachine, type Transition } from '@paykit/contracts';
import { generatedHeader } from '../header.js';
import type { Generator } from '../generator.js';

/** A transition with its fields in one order, whatever order the spec wrote them in. */
function ordered(t: Transition): Record<string, unknown> {
  const out: Record<string, unknown> = { id: t.id, from: t.from, to: t.to, trigger: t.trigger };
  for (const key of ['condition', 'limit', 'response', 'emits'] as const) if (t[key] !== undefined) out[key] = t[key];
  out.effects = t.effects;
  out.basis = t.basis;
  if (t.note !== undefined) out.note = t.note;
  return out;
}

const table = ({ name: _name, ...machine }: StateMachine) => ({ ...machine, transitions: machine.transitions.map(ordered) });

/**
 * The contract's state tables (`x-paykit-state-machines`, read and checked by @paykit/contracts) as a module of
 * constant data at `path`, so that a mock enforces exactly the transitions the contract lists.
 */
export const stateMachinesGenerator =
  (contract: string, path: string): Generator =>
  ({ document, specPath }) => {
    const machines = Object.fromEntries(Object.entries(readStateMachines(document, contract)).map(([name, machine]) => [name, table(machine)]));
    return [
      {
        path,
        content:
          generatedHeader(specPath) +
          '\n' +
          // The shapes of the tables, so that code can read any machine generically: written once, in @paykit/contracts.
          stateMachineTableDeclarations() +
          `\n/** The reference's state tables, from \`${stateMachinesExtension}\` in ${specPath}. */\n` +
          `export const stateMachines = ${JSON.stringify(machines, null, 2)} as const satisfies Readonly<Record<string, StateMachineTable>>;\n\n` +
          'export type StateMachineName = keyof typeof stateMachines;\n',
      },
    ];
  };
