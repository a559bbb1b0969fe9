import { describe, expect, it } from 'vitest';
import { bundleOpenApi } from '../src/openapi/bundle.js';
import { fileExchangeContract, paymentsContract } from '../src/registry.js';
import { readStateMachines, StateMachineError } from '../src/state-machines.js';

/** A small contract with one enum, one operation, one webhook and one rule of each kind the machines refer to. */
const contract = () => ({
  'x-paykit-rules': { tokens: { description: 'd', lifetime: 'PT10M', quota: 5 } },
  paths: { '/things': { post: { operationId: 'createThing', responses: { '201': {}, '422': {} } } } },
  webhooks: { 'thing.done': {} },
  components: { schemas: { ThingStatus: { type: 'string', enum: ['NEW', 'DONE'] } } },
});

const machine = () => ({
  title: 'Thing status',
  description: 'The life of a thing.',
  subject: 'thing',
  stateField: 'status',
  schema: 'ThingStatus',
  states: { NEW: 'Just made.', DONE: 'Finished.' },
  transitions: [
    {
      id: 'create',
      from: null,
      to: 'NEW',
      trigger: { kind: 'request', description: 'POST', operations: ['createThing'] },
      limit: 'tokens.quota',
      response: 201,
      basis: 'reference',
    },
    { id: 'finish', from: ['NEW'], to: 'DONE', trigger: { kind: 'time', description: 'time passes', after: 'tokens.lifetime' }, emits: 'thing.done', basis: 'reference' },
  ],
});

type Edit = (m: ReturnType<typeof machine>) => void;
const read = (edit: Edit = () => {}) => {
  const m = machine();
  edit(m);
  return readStateMachines({ ...contract(), 'x-paykit-state-machines': { thing: m } }, 'test');
};

describe('readStateMachines', () => {
  it('reads states, transitions and the rules they refer to', () => {
    const { thing } = read();
    expect(thing).toMatchObject({ name: 'thing', schema: 'ThingStatus', states: { NEW: 'Just made.', DONE: 'Finished.' } });
    expect(thing!.transitions[0]).toMatchObject({ from: [null], to: ['NEW'], response: 201, limit: { rule: 'tokens.quota', value: 5 }, effects: [] });
    expect(thing!.transitions[1]).toMatchObject({ trigger: { after: { rule: 'tokens.lifetime', value: 'PT10M', ms: 600_000 } }, emits: 'thing.done' });
  });

  it('gives a contract without the extension no machines', () => {
    expect(readStateMachines(contract(), 'test')).toEqual({});
  });

  it.each<{ problem: string; edit: Edit; message: string }>([
    { problem: 'a state the enum lacks', edit: (m) => Object.assign(m.states, { GONE: 'Removed.' }), message: 'states GONE are not in the enum' },
    { problem: 'an enum value without state', edit: (m) => delete (m.states as Record<string, string>).DONE, message: 'no state for DONE' },
    { problem: 'a schema that is no enum', edit: (m) => (m.schema = 'Missing'), message: 'Missing, which is no enum schema' },
    { problem: 'a state without description', edit: (m) => (m.states.NEW = ' '), message: 'states.NEW needs a description' },
    { problem: 'an unknown state', edit: (m) => (m.transitions[1]!.to = 'FINISHED'), message: '"FINISHED", which is not a state' },
    { problem: 'an unknown operation', edit: (m) => (m.transitions[0]!.trigger.operations = ['makeThing']), message: '"makeThing", which is no operation' },
    { problem: 'an undeclared status', edit: (m) => (m.transitions[0]!.response = 200), message: 'response 200 is not declared for createThing' },
    { problem: 'an unknown webhook', edit: (m) => (m.transitions[1]!.emits = 'thing.gone'), message: 'emits must name a webhook' },
    { problem: 'an unknown rule', edit: (m) => (m.transitions[0]!.limit = 'tokens.max'), message: 'names tokens.max, which x-paykit-rules does not hold' },
    { problem: 'a count used as a duration', edit: (m) => (m.transitions[1]!.trigger.after = 'tokens.quota'), message: 'tokens.quota is not a duration' },
    { problem: 'a repeated id', edit: (m) => (m.transitions[1]!.id = 'create'), message: 'repeated: create' },
    { problem: 'an unknown trigger kind', edit: (m) => (m.transitions[1]!.trigger.kind = 'clock'), message: 'kind must be one of' },
    { problem: 'an inferred transition without note', edit: (m) => (m.transitions[1]!.basis = 'inferred'), message: 'needs a note' },
    { problem: 'an unknown field', edit: (m) => Object.assign(m.transitions[1]!, { guard: 'x' }), message: 'fields no reader knows: guard' },
    { problem: 'a state nothing reaches', edit: (m) => (m.transitions = m.transitions.slice(0, 1)), message: 'no transition leads to or from DONE' },
  ])('refuses $problem', ({ edit, message }) => {
    expect(() => read(edit)).toThrow(StateMachineError);
    expect(() => read(edit)).toThrow(message);
  });
});

describe('the real contracts', async () => {
  const [payments, fileExchange] = await Promise.all([bundleOpenApi(paymentsContract.root), bundleOpenApi(fileExchangeContract.root)]);

  it('payments: the alias, token and 3D Secure tables, each enum-backed machine matching its enum', () => {
    const machines = readStateMachines(payments, 'payments');
    expect(Object.keys(machines)).toEqual(['aliasStatus', 'singleUseToken', 'threeDSecure']);
    expect(machines.aliasStatus!.schema).toBe('AliasStatus');
    expect(machines.threeDSecure!.schema).toBe('TransStatus');
    const expire = machines.singleUseToken!.transitions.find((t) => t.id === 'expire');
    expect(expire?.trigger.after).toMatchObject({ rule: 'singleUseTokens.lifetime', ms: 600_000 });
  });

  it('file-exchange: the download queue and uploaded file tables, with the attempts limit from the rules', () => {
    const machines = readStateMachines(fileExchange, 'file-exchange');
    expect(Object.keys(machines)).toEqual(['downloadQueue', 'uploadedFile']);
    expect(machines.downloadQueue!.transitions.find((t) => t.id === 'download-exhausted')?.limit).toMatchObject({ value: 50 });
  });
});
