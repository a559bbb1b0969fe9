import type { IncomingMessage, ServerResponse } from 'node:http';
import { controlOperations, type ControlOperationId } from './generated/control/client.js';
import type { components } from './generated/control/openapi.js';
import type { FileExchangeState, InjectedFailure, MockOperation } from './store.js';

/**
 * The mock's control interface (specs/file-exchange-mock-control), on its REST side under `/__mock`: faults injected
 * into the next requests of its REST and SOAP operations, shaped like the payments sandbox's. It is served only over
 * the mock's client-certificate TLS; on top of that, a request from a web page (any `Origin`) and a body that is not
 * JSON (a form or plain text, which a page may send anywhere) are refused.
 */
export const controlPrefix = '/__mock';

type Schemas = components['schemas'];
type FaultRule = Schemas['FaultRule'];
type Fault = FaultRule['fault'];
type Timing = 'before' | 'after';

class ControlRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The store's name of each operation the contract names (typed by the contract: a new one fails to compile here). */
const operations: Record<FaultRule['operationId'], MockOperation> = {
  uploadFile: 'upload',
  listFilesForDownload: 'list',
  downloadFile: 'download',
  deleteFile: 'delete',
  'soap:uploadFile': 'soap-upload',
  'soap:downloadFiles': 'soap-download',
};
const operationIds = Object.fromEntries(Object.entries(operations).map(([id, operation]) => [operation, id])) as Record<MockOperation, FaultRule['operationId']>;

/** Whether the operation has done its work when this failure strikes: the mock's behaviour, per operation. */
function timingOf(operation: MockOperation, failure: InjectedFailure): Timing {
  if ('status' in failure) return operation === 'soap-upload' || (operation === 'upload' && failure.status === 500) ? 'after' : 'before';
  return operation === 'upload' || operation === 'soap-upload' || failure.afterResponse ? 'after' : 'before';
}

function toFailure(operationId: FaultRule['operationId'], fault: Fault): InjectedFailure {
  const operation = operations[operationId];
  const failure: InjectedFailure =
    'drop' in fault ? { dropConnection: true, ...(fault.drop === 'after' && operation === 'soap-download' ? { afterResponse: true } : {}) } : { status: fault.status };
  const asked = 'drop' in fault ? fault.drop : fault.when;
  const done = timingOf(operation, failure);
  if (asked !== undefined && asked !== done) throw new ControlRefusal(400, `${operationId} fails ${done} its work with this fault, not ${asked}`);
  return failure;
}

function toRule(operation: MockOperation, failure: InjectedFailure): FaultRule {
  const when = timingOf(operation, failure);
  return { fault: 'status' in failure ? { status: failure.status, when } : { drop: when }, count: 1, operationId: operationIds[operation] };
}

const label = ({ fault }: FaultRule) => ('drop' in fault ? `drop ${fault.drop}` : `${fault.status} ${fault.when}`);

/** A fault rule as sent: checked field by field (the contract's schema), so that a mistake says which field. */
function readRule(body: unknown): FaultRule {
  const rule = body as Partial<Record<string, unknown>>;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ControlRefusal(400, 'the body must be a JSON object');
  const extra = Object.keys(rule).filter((name) => !['fault', 'count', 'operationId'].includes(name));
  if (extra.length) throw new ControlRefusal(400, `unknown fields: ${extra.join(', ')}`);
  if (typeof rule.operationId !== 'string' || !(rule.operationId in operations)) {
    throw new ControlRefusal(400, `operationId must be one of ${Object.keys(operations).join(', ')}`);
  }
  if (rule.count !== undefined && !(Number.isInteger(rule.count) && (rule.count as number) >= 1)) throw new ControlRefusal(400, 'count must be a whole number of at least 1');
  const fault = rule.fault as Record<string, unknown> | undefined;
  const timing = (value: unknown) => value === 'before' || value === 'after';
  const valid =
    typeof fault === 'object' && fault !== null &&
    (('drop' in fault && Object.keys(fault).length === 1 && timing(fault.drop)) ||
      (Number.isInteger(fault.status) && (fault.status as number) >= 400 && (fault.status as number) <= 599 &&
        Object.keys(fault).every((k) => k === 'status' || k === 'when') && (fault.when === undefined || timing(fault.when))));
  if (!valid) throw new ControlRefusal(400, 'fault must be { status: 400-599, when?: "before" | "after" } or { drop: "before" | "after" }');
  return rule as FaultRule;
}

function answer(res: ServerResponse, status: number, json?: unknown): void {
  const body = json === undefined ? undefined : Buffer.from(JSON.stringify(json));
  res.writeHead(status, { ...(body ? { 'Content-Type': 'application/json' } : {}), 'Content-Length': String(body?.length ?? 0) }).end(body);
}

async function readText(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

type Handler = (state: FileExchangeState, body: unknown) => { status: number; json?: unknown };

const faultsOf = (state: FileExchangeState) => state.pendingFailures().map(({ operation, failure }) => toRule(operation, failure));

const handlers: Record<ControlOperationId, Handler> = {
  getFaults: (state) => {
    const applied: Record<string, number> = {};
    for (const { operation, failure } of state.appliedFailures) {
      const name = label(toRule(operation, failure));
      applied[name] = (applied[name] ?? 0) + 1;
    }
    return { status: 200, json: { pending: faultsOf(state), applied } };
  },
  injectFault: (state, body) => {
    const rule = readRule(body);
    const failure = toFailure(rule.operationId, rule.fault);
    for (let i = 0; i < (rule.count ?? 1); i++) state.failNext(operations[rule.operationId], { ...failure });
    return { status: 201, json: { pending: faultsOf(state) } };
  },
  clearFaults: (state) => (state.clearFailures(), { status: 204 }),
};

export function createControlHandler(state: FileExchangeState) {
  const routes = new Map(Object.entries(controlOperations).map(([id, { method, path }]) => [`${method} ${path}`, handlers[id as ControlOperationId]]));
  return async function handleControlRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'https://mock').pathname.slice(controlPrefix.length);
    try {
      const text = await readText(req);
      if (req.headers.origin !== undefined) throw new ControlRefusal(403, `requests from a web page (${req.headers.origin}) may not use the control interface`);
      const type = req.headers['content-type']?.split(';')[0]!.trim().toLowerCase();
      if ((type !== undefined || text !== '') && type !== 'application/json') {
        throw new ControlRefusal(415, `the control interface takes application/json bodies only, not ${type ?? 'a body without a type'}`);
      }
      const handler = routes.get(`${req.method} ${path}`);
      if (!handler) {
        const known = [...routes.keys()].some((key) => key.endsWith(` ${path}`));
        throw new ControlRefusal(known ? 405 : 404, known ? `${req.method} is not supported by ${controlPrefix}${path}` : `no control endpoint ${controlPrefix}${path}`);
      }
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        throw new ControlRefusal(400, 'the body must be JSON');
      }
      const { status, json } = handler(state, body);
      answer(res, status, json);
    } catch (error) {
      answer(res, error instanceof ControlRefusal ? error.status : 500, { error: error instanceof Error ? error.message : String(error) });
    }
  };
}
