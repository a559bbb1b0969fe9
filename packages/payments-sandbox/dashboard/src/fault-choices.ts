// The choices of the fault forms, read from the generated contracts rather than written again here: the timings are
// the control contract's `FaultTiming` enum; the operations are the payments contract's; the statuses are those every
// operation of the payments contract declares from 429 up (the rule the sandbox's fault injector applies).
import { controlDocument } from '../../src/generated/control/document.js';
import { paymentsOperationTable } from '../../src/generated/operations.js';
import type { Schemas } from './api.js';

type FaultTiming = Schemas['FaultTiming'];

const schemas = (controlDocument.components as { schemas: Record<string, { enum?: unknown[] }> }).schemas;

export const faultTimings = (schemas.FaultTiming?.enum ?? []) as FaultTiming[];

export const operationIds = Object.keys(paymentsOperationTable.operations);

const declared = Object.values(paymentsOperationTable.operations).map((o) => new Set(Object.keys(o.responses).map(Number).filter((s) => s >= 429)));

export const faultStatuses = [...(declared[0] ?? [])].filter((s) => declared.every((set) => set.has(s))).sort((a, b) => a - b);
