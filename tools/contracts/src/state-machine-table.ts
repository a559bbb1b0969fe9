// The shapes of the reference's state tables, written once. @paykit/contracts types what `readStateMachines` returns
// with them, and codegen copies every declaration below this comment, as it is written here, into the generated
// `state-machines.ts` of the packages that enforce the tables (they cannot import this internal package): change a
// shape here, and `pnpm generate` carries it there.

/** Who or what fires a transition: the merchant's request, the service itself, the payer, or the passing of time. */
export type TriggerKind = 'request' | 'service' | 'payer' | 'time';

/** A value of the contract's `x-paykit-rules`, named `<rule>.<field>`; durations also in milliseconds. */
export interface RuleReference {
  readonly rule: string;
  readonly value: unknown;
  readonly ms?: number;
}

export interface StateMachineTransition {
  readonly id: string;
  /** The states it starts from; `null` stands for "does not exist yet" (or "no state yet"). */
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
  /** The HTTP status the request of a `request` trigger gets. */
  readonly response?: number;
  /** The webhook event type the transition posts. */
  readonly emits?: string;
  readonly effects: readonly string[];
  /** `reference`: a row of the reference's tables; `inferred`: implied by the reference but not stated (see `note`). */
  readonly basis: 'reference' | 'inferred';
  readonly note?: string;
}

export interface StateMachineTable {
  readonly title: string;
  readonly description: string;
  readonly subject: string;
  readonly stateField?: string;
  /** The component schema whose `enum` the states equal. */
  readonly schema?: string;
  /** State name -> description. */
  readonly states: Readonly<Record<string, string>>;
  readonly transitions: readonly StateMachineTransition[];
}
