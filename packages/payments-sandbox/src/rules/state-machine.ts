import { stateMachines, type StateMachineName, type StateMachineTransition } from '../generated/state-machines.js';

/** The sandbox asked for a transition its table does not allow from the current state: a sandbox bug, not a refusal. */
export class TransitionError extends Error {
  override readonly name = 'TransitionError';
}

type Machine<N extends StateMachineName> = (typeof stateMachines)[N];
export type TransitionId<N extends StateMachineName> = Machine<N>['transitions'][number]['id'];
export type StateOf<N extends StateMachineName> = keyof Machine<N>['states'] & string;

export interface Fired {
  transition: StateMachineTransition;
  /** The state after the transition (the current one when the table leaves it unchanged). */
  to: string | null;
}

/**
 * Enforces one of the contract's state tables (`x-paykit-state-machines`, generated into
 * `src/generated/payments/state-machines.ts`): the sandbox names the transition the situation calls for, and the
 * table says whether it may start from the current state, where it leads, what the request gets and which webhook
 * event it posts.
 */
export class StateMachine<N extends StateMachineName> {
  private readonly transitions: ReadonlyMap<string, StateMachineTransition>;

  constructor(readonly name: N) {
    this.transitions = new Map(stateMachines[name].transitions.map((t: StateMachineTransition) => [t.id, t]));
  }

  transition(id: TransitionId<N>): StateMachineTransition {
    const transition = this.transitions.get(id);
    if (!transition) throw new TransitionError(`${this.name} has no transition ${id}`);
    return transition;
  }

  /** Whether the transition may start from `from` (null: the thing does not exist yet). */
  allows(id: TransitionId<N>, from: string | null): boolean {
    return this.transition(id).from.includes(from);
  }

  /**
   * The first of `candidates` the table allows from `from`. `outcome` picks among the states a transition may lead
   * to when the outcome is decided outside the request (an issuer's answer); it must be one of them.
   */
  fire(from: string | null, candidates: readonly TransitionId<N>[], outcome?: string): Fired {
    for (const id of candidates) {
      const transition = this.transition(id);
      if (!transition.from.includes(from)) continue;
      if (transition.to === null) return { transition, to: from };
      const to = outcome ?? (transition.to.length === 1 ? transition.to[0]! : undefined);
      if (to === undefined || !transition.to.includes(to)) {
        throw new TransitionError(`${this.name}.${id} leads to one of ${transition.to.join(', ')}, not ${String(outcome)}`);
      }
      return { transition, to };
    }
    throw new TransitionError(`${this.name}: none of ${candidates.join(', ')} starts from ${String(from)}`);
  }
}

export const aliasStatusMachine = new StateMachine('aliasStatus');
export const singleUseTokenMachine = new StateMachine('singleUseToken');
export const threeDSecureMachine = new StateMachine('threeDSecure');
