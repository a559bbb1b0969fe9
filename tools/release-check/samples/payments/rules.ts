// The reference's rules, for a tool that enforces them beside the client.
import { rules } from '@paykit/payments/rules';

export const rulesTable: typeof rules = rules;
export const ruleNames: string[] = Object.keys(rules);
