// The choices the dashboard's forms offer, read from the generated contracts instead of written again here: a
// transaction's statuses and a delivery's outcomes are enums of the control contract's parameters, the fault timings
// its `FaultTiming` enum, the operations those of the payments contract; the fault statuses are those every operation
// of the payments contract declares from 429 up (the rule the sandbox's fault injector applies; the control contract
// lists them only in words). build.mjs runs this module at build time and gives the page only the values.
import { controlDocument } from '../../src/generated/control/document.js';
import { paymentsOperationTable } from '../../src/generated/operations.js';
import type { Schemas } from './api.js';

interface Parameter {
  name: string;
  schema?: { enum?: unknown[]; items?: { enum?: unknown[] } };
}
type Document = {
  paths: Record<string, Record<string, { parameters?: Parameter[] }>>;
  components: { schemas: Record<string, { enum?: unknown[] }> };
};
const document = controlDocument as unknown as Document;

function parameterEnum(path: string, name: string): string[] {
  const parameter = document.paths[path]?.get?.parameters?.find((p) => p.name === name);
  return (parameter?.schema?.enum ?? parameter?.schema?.items?.enum ?? []) as string[];
}

export const transactionStatuses = parameterEnum('/transactions', 'status');

export const deliveryOutcomes = parameterEnum('/webhook-deliveries', 'outcome') as NonNullable<Schemas['WebhookDelivery']['outcome']>[];

export const faultTimings = (document.components.schemas.FaultTiming?.enum ?? []) as Schemas['FaultTiming'][];

export const operationIds = Object.keys(paymentsOperationTable.operations);

const declared = Object.values(paymentsOperationTable.operations).map((o) => new Set(Object.keys(o.responses).map(Number).filter((s) => s >= 429)));

export const faultStatuses = [...(declared[0] ?? [])].filter((s) => declared.every((set) => set.has(s))).sort((a, b) => a - b);
