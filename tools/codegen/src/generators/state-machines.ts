import { readStateMachines, stateMachinesExtension, type StateMachine, type Transition } from '@paykit/contracts';
import { generatedHeader } from '../header.js';
import type { Generator } from '../generator.js';

/** The shapes of the emitted tables, so that code can read any machine generically. */
const types = `/** Who or what fires a transition: the merchant's request, the service itself, the payer, or the passing of time. */
export type TriggerKind = 'request' | 'service' | 'payer' | 'time';

/** A value of the contract's \`x-paykit-rules\`, named \`<rule>.<field>\`; durations also in milliseconds. */
export interface RuleReference {
  readonly rule: string;
  readonly value: unknown;
  readonly ms?: number;
}

export interface StateMachineTransition {
  readonly id: string;
  /** The states it starts from; \`null\` stands for "does not exist yet" (or "no state yet"). */
  readonly from: readonly (string | null)[];
  /** The state it ends in, or the states it may end in when the outcome is decided elsewhere; null: unchanged. */
  readonly to: readonly string[] | null;
  readonly trigger: {
    readonly kind: TriggerKind;
    readonly description: string;
    readonly operations?: readonly string[];
    readonly after?: RuleReference;
  };
  readonly condition?: string;
  readonly limit?: RuleReference;
  /** The HTTP status the request of a \`request\` trigger gets. */
  readonly response?: number;
  /** The webhook event type the transition posts. */
  readonly emits?: string;
  readonly effects: readonly string[];
  /** \`reference\`: a row of the reference's tables; \`inferred\`: implied by the reference but not stated (see \`note\`). */
  readonly basis: 'reference' | 'inferred';
  readonly note?: string;
}

export interface StateMachineTable {
  readonly title: string;
  readonly description: string;
  readonly subject: string;
  readonly stateField?: string;
  /** The component schema whose \`enum\` the states equal. */
  readonly schema?: string;
  /** State name -> description. */
  readonly states: Readonly<Record<string, string>>;
  readonly transitions: readonly StateMachineTransition[];
}
`;

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
          types +
          `\n/** The reference's state tables, from \`${stateMachinesExtension}\` in ${specPath}. */\n` +
          `export const stateMachines = ${JSON.stringify(machines, null, 2)} as const satisfies Readonly<Record<string, StateMachineTable>>;\n\n` +
          'export type StateMachineName = keyof typeof stateMachines;\n',
      },
    ];
  };
